import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { subjectObject } from '../support/call-tool-result.js';
import { messageKind, SDK_DROPS_ENVELOPE } from '../support/envelope.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'envelope-result-and-error',
  subject: 'message',
  severity: 'error',
  title: 'A response carries exactly one of `result` and `error`',
  rationale: [
    'JSON-RPC 2.0: "Either the result member or error member MUST be included, but both members MUST',
    'NOT be included." MCP\'s `JSONRPCResultResponse` requires `result` and `JSONRPCErrorResponse`',
    'requires `error`. A message with `method` is a request or notification and carries neither. The',
    'official TypeScript SDK matches responses with strict schemas, so a response with both or neither',
    'is dropped and the call hangs until its timeout.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: SDK_DROPS_ENVELOPE,
  messages: {
    default: 'the response has neither "result" nor "error"',
    both: 'the response has both "result" and "error"',
    requestWithResult: 'a message with "method" is a request or notification and must not carry "{{member}}"',
  },
  fix: 'Answer with `result` on success or `error` on failure, never both.',
  examples: {
    wrong: {
      value: { jsonrpc: '2.0', id: 1, result: { content: [] }, error: { code: -32603, message: 'failed' } },
      protocolVersion: '2025-06-18',
    },
    right: { value: { jsonrpc: '2.0', id: 1, result: { content: [] } }, protocolVersion: '2025-06-18' },
  },
  check(message, ctx) {
    if (!isObject(message)) return;
    const hasResult = Object.hasOwn(message, 'result');
    const hasError = Object.hasOwn(message, 'error');
    if (messageKind(message) !== 'response') {
      for (const member of ['result', 'error'] as const) {
        if (Object.hasOwn(message, member)) {
          ctx.report({ messageId: 'requestWithResult', path: [member], data: { member } });
        }
      }
      return;
    }
    // Both, one of them null: the other is the answer, and the repair drops the null. Both with values:
    // which one the server meant is not known, so no repair says.
    if (hasResult && hasError) ctx.report({ messageId: 'both', manual: nullMember(message) === undefined });
    else if (!hasResult && !hasError) ctx.report({ manual: true });
  },
  repair(ctx) {
    const message = subjectObject(ctx);
    if (!message || ctx.messageId !== 'both') return undefined;
    const member = nullMember(message);
    if (member === undefined) return undefined;
    delete message[member];
    return {
      description: `removed "${member}": null beside the "${member === 'error' ? 'result' : 'error'}"`,
    };
  },
});

/** The member of a response with both `result` and `error` that is `null` (a serializer's empty slot). */
function nullMember(message: Record<string, unknown>): 'result' | 'error' | undefined {
  if (message.error === null && message.result !== null) return 'error';
  if (message.result === null && message.error !== null) return 'result';
  return undefined;
}
