import { isObject, jsonTypeOf } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { subjectObject } from '../support/call-tool-result.js';
import { isErrorResponse, messageKind, SDK_DROPS_ENVELOPE } from '../support/envelope.js';
import { defineRule } from '../types.js';

/** The SDK parses ids as zod's `int()`, which takes only safe integers (±2^53−1). */
function isRequestId(value: unknown): boolean {
  return typeof value === 'string' || Number.isSafeInteger(value);
}

function describeId(id: unknown): string {
  if (typeof id !== 'number') return `a JSON ${jsonTypeOf(id)}`;
  if (Number.isInteger(id)) return `the integer ${id}, beyond JavaScript's safe integers (±2^53−1)`;
  return Number.isFinite(id) ? `the fractional number ${id}` : 'a number too large for a double';
}

export default defineRule({
  id: 'envelope-id-invalid',
  subject: 'message',
  severity: 'error',
  title: 'Responses need the request id, a string or an integer',
  rationale: [
    'A JSON-RPC response "MUST include the same ID as the request it corresponds to", and `RequestId` is',
    '`string | integer` in every schema.json; request ids "MUST NOT be `null`". Only error responses may',
    'omit `id`, and only from 2025-11-25 on ("except in error cases where the ID could not be read").',
    'The official TypeScript SDK parses `id` as `string | int`: a response with a missing, `null`,',
    'fractional or unsafe id (an integer beyond ±2^53−1, which a double cannot hold exactly) is dropped by',
    'the transport and the call hangs until its timeout.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: SDK_DROPS_ENVELOPE,
  messages: {
    default: 'the response has no "id"',
    null: '"id" is null; request ids must be a string or an integer',
    type: '"id" is {{actual}}; request ids must be a string or an integer',
    errorBeforeOptional: 'the error response has no "id"; error responses may omit it only from 2025-11-25',
  },
  fix: 'Echo the id of the request this message answers, unchanged.',
  examples: {
    wrong: { value: { jsonrpc: '2.0', result: { content: [] } }, protocolVersion: '2025-06-18' },
    right: {
      value: { jsonrpc: '2.0', id: 'call-1', result: { content: [] } },
      protocolVersion: '2025-06-18',
    },
  },
  // Only the request knows the right id: the repair can only drop an unreadable one where MCP allows
  // that, so every other finding says its fix is not automatic.
  check(message, ctx) {
    if (!isObject(message)) return;
    const kind = messageKind(message);
    if (!Object.hasOwn(message, 'id')) {
      // Without an id a request is a notification, which is fine.
      if (kind !== 'response') return;
      if (!isErrorResponse(message)) ctx.report({ path: ['id'], manual: true });
      else if (!ctx.features.errorIdOptional)
        ctx.report({ messageId: 'errorBeforeOptional', path: ['id'], manual: true });
      return;
    }
    const id = message.id;
    if (id === null) {
      const droppable = isErrorResponse(message) && ctx.features.errorIdOptional;
      ctx.report({ messageId: 'null', path: ['id'], ...(droppable ? {} : { manual: true }) });
    } else if (!isRequestId(id)) {
      ctx.report({
        messageId: 'type',
        path: ['id'],
        data: { actual: describeId(id) },
        manual: true,
      });
    }
  },
  repair(ctx) {
    // JSON-RPC 2.0 answers an unreadable request id with `"id": null`; MCP from 2025-11-25 omits it instead.
    const message = subjectObject(ctx);
    if (ctx.messageId !== 'null' || !message || !isErrorResponse(message) || !ctx.features.errorIdOptional) {
      return undefined;
    }
    delete message.id;
    return { description: 'removed "id": null from the error response (MCP omits an unreadable id)' };
  },
});
