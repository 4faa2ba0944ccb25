import { isObject, jsonTypeOf } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { isResponse } from '../support/envelope.js';
import { defineRule } from '../types.js';

/** JSON-RPC "Internal error": the honest code when the original one cannot be kept. */
const INTERNAL_ERROR = -32603;

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return `the fractional number ${value}`;
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  return `a JSON ${jsonTypeOf(value)}`;
}

export default defineRule({
  id: 'envelope-error-invalid',
  subject: 'message',
  severity: 'error',
  title: '`error` must be an object with an integer `code` and a string `message`',
  rationale: [
    'JSON-RPC 2.0 and every MCP schema.json define `error` as `{ code: integer, message: string, data? }`,',
    'both required. The official TypeScript SDK parses the error with `code: z.number().int()`: an error',
    'with a string or fractional code (or no message) fails the envelope schema, the transport drops',
    'the message, and instead of the error the caller gets a timeout (-32001) a minute later.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'drops-message',
      detail: 'error with non-integer `code` → message dropped, call times out (McpError -32001)',
      source:
        '@modelcontextprotocol/sdk 1.32.2 dist/esm/types.js (JSON-RPC envelopes are .strict(): the transport drops the message); reproduced, the call times out',
    },
    {
      client: 'ts-sdk-v2',
      effect: 'drops-message',
      detail: 'envelope schemas are `.strict()`; the call times out',
      source:
        '@modelcontextprotocol/client 2.4.0 (envelope schemas are .strict()); reproduced, the call times out',
    },
    {
      client: 'python-sdk',
      effect: 'rejects-call',
      detail: '`ErrorData(code: int, message: str)` ValidationError',
      source: 'python-sdk src/mcp/types.py',
    },
  ],
  messages: {
    default: '"error" is {{actual}}; it must be an object with "code" and "message"',
    codeMissing: '"error" has no "code"',
    code: '"error.code" is {{actual}}; it must be an integer',
    messageMissing: '"error" has no "message"',
    message: '"error.message" is {{actual}}; it must be a string',
  },
  fix: 'Send `{ "code": -32603, "message": "what went wrong" }`; put details in `error.data`.',
  examples: {
    wrong: {
      value: { jsonrpc: '2.0', id: 1, error: { code: 'NOT_FOUND', message: 'no such tool' } },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'no such tool' } },
      protocolVersion: '2025-06-18',
    },
  },
  check(message, ctx) {
    if (!isResponse(message) || !Object.hasOwn(message, 'error')) return;
    const error = message.error;
    // A null error beside a result is an empty slot, which envelope-result-and-error removes.
    if (error === null && Object.hasOwn(message, 'result')) return;
    if (!isObject(error)) {
      ctx.report({
        path: ['error'],
        data: { actual: describeType(error) },
      });
      return;
    }
    if (!Object.hasOwn(error, 'code')) ctx.report({ messageId: 'codeMissing', path: ['error', 'code'] });
    else if (!Number.isInteger(error.code)) {
      ctx.report({ messageId: 'code', path: ['error', 'code'], data: { actual: describe(error.code) } });
    }
    if (!Object.hasOwn(error, 'message'))
      ctx.report({ messageId: 'messageMissing', path: ['error', 'message'] });
    else if (typeof error.message !== 'string') {
      ctx.report({
        messageId: 'message',
        path: ['error', 'message'],
        data: { actual: describe(error.message) },
      });
    }
  },
  repair(ctx) {
    const message = subjectObject(ctx);
    if (!message) return undefined;
    const error = message.error;
    if (!isObject(error)) {
      const text = typeof error === 'string' ? error : (JSON.stringify(error) ?? 'unknown error');
      message.error = { code: INTERNAL_ERROR, message: text };
      return { description: `replaced "error" with { code: ${INTERNAL_ERROR}, message } carrying its text` };
    }
    switch (ctx.messageId) {
      case 'codeMissing':
      case 'code': {
        const original = error.code;
        const parsed =
          typeof original === 'string' && /^-?\d+$/.test(original.trim()) ? Number(original) : NaN;
        if (Number.isSafeInteger(parsed)) {
          error.code = parsed;
          return {
            description: `converted "error.code" ${JSON.stringify(original)} to the integer ${parsed}`,
          };
        }
        error.code = INTERNAL_ERROR;
        const set = `set "error.code" to ${INTERNAL_ERROR} (Internal error)`;
        if (original === undefined) return { description: set };
        if (!Object.hasOwn(error, 'data')) {
          error.data = { code: original };
          return { description: `${set}; the original code is kept in error.data.code` };
        }
        return {
          description: `${set}; the original code ${JSON.stringify(original)} was dropped`,
          lossy: true,
        };
      }
      case 'messageMissing':
      case 'message': {
        const original = error.message;
        error.message =
          original === undefined || original === null
            ? `error ${String(error.code)}`
            : (JSON.stringify(original) ?? '');
        return { description: `set "error.message" to ${JSON.stringify(error.message)}` };
      }
    }
    // Any other message id is "default", reported only for an error that is no object (handled above).
    return undefined;
  },
});
