import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType } from '../support/call-tool-result.js';
import { isResponse, SDK_DROPS_ENVELOPE } from '../support/envelope.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'envelope-result-not-object',
  subject: 'message',
  severity: 'error',
  title: 'A response `result` must be a JSON object',
  rationale: [
    'Every MCP result is an object (`Result` is `type: "object"` in every schema.json): a bare string,',
    'array or `null` as `result` is not a valid response to any MCP request. The official TypeScript',
    'SDK drops such a response and the call hangs. When the request is known to be `tools/call`, the',
    '`result-not-object` rule reports the same defect on the CallToolResult instead, once.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: SDK_DROPS_ENVELOPE,
  messages: {
    default: '"result" is {{actual}}; MCP results are JSON objects',
  },
  fix: 'Return an object; for tools/call: `{ "content": [{ "type": "text", "text": "…" }] }`.',
  examples: {
    wrong: { value: { jsonrpc: '2.0', id: 1, result: 'done' }, protocolVersion: '2025-06-18' },
    right: {
      value: { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'done' }] } },
      protocolVersion: '2025-06-18',
    },
  },
  check(message, ctx) {
    if (!isResponse(message) || !Object.hasOwn(message, 'result')) return;
    // For a known tools/call the engine checks the result as a CallToolResult: report it there only.
    if (ctx.request?.method === 'tools/call') return;
    const result = message.result;
    if (isObject(result)) return;
    ctx.report({
      path: ['result'],
      data: { actual: describeType(result) },
    });
  },
});
