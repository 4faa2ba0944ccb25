import { jsonTypeOf, tryParseJson } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { isJsonRpcShaped, SDK_DROPS_ENVELOPE } from '../support/envelope.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'frame-not-jsonrpc',
  subject: 'frame',
  severity: 'error',
  title: 'A frame that parses as JSON must still be a JSON-RPC message',
  rationale: [
    'A JSON-RPC message is a JSON object (`JSONRPCMessage` in every schema.json); only 2025-03-26 adds',
    'arrays of messages (batches, checked by `envelope-batch`). A bare string, number, `true` or `null`',
    'on stdout or in an HTTP body parses as JSON but is no message at all: strict clients drop it, and a',
    'response the server meant to send is lost. So is an object with none of the JSON-RPC members',
    '(`jsonrpc`, `method`, `id`, `result`, `error`): typically a JSON log line such as',
    '`{"level":30,"msg":"listening"}` written to stdout by a structured logger, or a bare tool result',
    'sent without its response envelope.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: SDK_DROPS_ENVELOPE,
  messages: {
    default: 'frame is JSON but not a JSON-RPC message: a bare {{type}}',
    object:
      'frame is a JSON object but not a JSON-RPC message: it has none of jsonrpc, method, id, result, error (members: {{members}})',
  },
  fix: 'Send only JSON-RPC messages: wrap a value in a response ({"jsonrpc":"2.0","id":…,"result":…}) and write logs to stderr.',
  examples: {
    wrong: { value: null, frame: { transport: 'stdio', text: '"ready"' } },
    right: {
      value: null,
      frame: { transport: 'stdio', text: '{"jsonrpc":"2.0","method":"notifications/initialized"}' },
    },
  },
  check(node, ctx) {
    const frame = node as { text: string };
    const parsed = tryParseJson(frame.text);
    if (!parsed) return; // frame-not-json reports it
    const value = parsed.value;
    if (isJsonRpcShaped(value)) return;
    if (typeof value === 'object' && value !== null) {
      const members = Object.keys(value);
      const shown = members
        .slice(0, 5)
        .map((m) => JSON.stringify(m))
        .join(', ');
      ctx.report({
        messageId: 'object',
        data: { members: members.length > 5 ? `${shown}, …` : shown || 'none' },
      });
      return;
    }
    ctx.report({ data: { type: jsonTypeOf(value) } });
  },
});
