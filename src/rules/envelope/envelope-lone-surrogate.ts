import { isObject } from '../../core/json.js';
import { getIn } from '../../core/pointer.js';
import { mayBeUnwritable } from '../../core/run-memo.js';
import { unwritable } from '../../core/unwritable.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import {
  LONE_MESSAGES,
  mendAll,
  RMCP_DROPS_LONE_SURROGATE,
  reportLonePlaces,
} from '../support/lone-surrogates.js';
import { defineRule } from '../types.js';

/**
 * Which result a response carries, as the engine tells it (validate/engine.ts, responseKind): a
 * tools/call result's strings are result-lone-surrogate's.
 */
function carriesToolResult(message: Record<string, unknown>, request: unknown): boolean {
  const method = isObject(request) ? request.method : undefined;
  if (method === 'tools/call') return true;
  if (typeof method === 'string') return false;
  const result = message.result;
  if (!isObject(result) || Array.isArray(result.tools)) return false;
  return ['content', 'structuredContent', 'toolResult', 'isError'].some((k) => Object.hasOwn(result, k));
}

export default defineRule({
  id: 'envelope-lone-surrogate',
  subject: 'message',
  severity: 'error',
  title: 'Every string of a message must be well-formed Unicode: no lone surrogates',
  rationale: [
    'A lone surrogate (half of a UTF-16 pair, as `text.slice(0, n)` leaves when it cuts through an',
    'emoji) cannot be written as UTF-8, and `JSON.stringify` writes it as an escape (`"\\ud83d"`) that',
    "strict JSON readers refuse. The official Python SDK client reads every line of a server's output",
    'with pydantic (`JSONRPCMessage.model_validate_json`), which refuses the whole message: a tools/list',
    'whose tool description was cut through an emoji, an error whose message was, a prompt, a',
    'notification, are dropped like a tool result (result-lone-surrogate, which reports the strings of',
    'a tools/call result), and the request that waited for them gets no answer. rmcp (serde_json) refuses',
    'it as well.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'python-sdk',
      effect: 'drops-message',
      detail: '"Failed to parse JSONRPC message from server": the request gets no answer',
      source:
        'python-sdk src/mcp/client/stdio.py `_parse_line` (`types.jsonrpc_message_adapter.validate_json(line)`, every line the server writes): "Invalid JSON: unexpected end of hex escape"; reproduced with mcp 2.3.0 and pydantic 2.13.5 on a tools/list, an error response, a notification and a member name',
    },
    ...RMCP_DROPS_LONE_SURROGATE,
  ],
  messages: LONE_MESSAGES,
  fix: 'Cut text at whole characters (`Array.from(text).slice(0, n).join("")`, or `text.toWellFormed()`), never between the halves of a surrogate pair.',
  examples: {
    wrong: {
      value: {
        jsonrpc: '2.0',
        id: 2,
        result: {
          tools: [
            { name: 'news', description: 'Top story: Launch day \ud83d', inputSchema: { type: 'object' } },
          ],
        },
      },
      source:
        "{ jsonrpc: '2.0', id: 2, result: { tools: [{ name: 'news', description: 'Top story: Launch day \\ud83d', inputSchema: { type: 'object' } }] } }",
      protocolVersion: '2025-11-25',
    },
    right: {
      value: {
        jsonrpc: '2.0',
        id: 2,
        result: {
          tools: [
            {
              name: 'news',
              description: 'Top story: Launch day \ud83d\ude80',
              inputSchema: { type: 'object' },
            },
          ],
        },
      },
      protocolVersion: '2025-11-25',
    },
  },
  check(message, ctx) {
    // What cannot be written is not sent at all (envelope-not-serializable), and may not be walked.
    if (mayBeUnwritable() && unwritable(message) !== undefined) return;
    if (!isObject(message)) {
      if (Array.isArray(message)) reportLonePlaces(message, (r) => ctx.report(r));
      return;
    }
    const skip =
      Object.hasOwn(message, 'result') && carriesToolResult(message, ctx.request) ? 'result' : undefined;
    reportLonePlaces(message, (r) => ctx.report(r), skip);
  },
  repair(ctx) {
    const message = getIn(ctx.root, ctx.subjectPath);
    if (typeof message !== 'object' || message === null) return undefined;
    const mended = mendAll(message);
    if (mended === 0) return undefined;
    return {
      description: `replaced the lone surrogates of ${mended} ${mended === 1 ? 'string' : 'strings'} with U+FFFD, as UTF-8 writes them`,
      lossy: true,
    };
  },
});
