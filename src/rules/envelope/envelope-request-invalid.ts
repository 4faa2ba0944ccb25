import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { messageKind, SDK_DROPS_ENVELOPE } from '../support/envelope.js';
import { expectedOf, metaKeyDefects } from '../support/meta-keys.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'envelope-request-invalid',
  subject: 'message',
  severity: 'error',
  title: 'A request or notification needs a string `method` and, if any, object `params`',
  rationale: [
    'In every schema.json a JSON-RPC request or notification has a string `method` and optional',
    '`params`, an object whose `_meta`, if any, is an object too (MCP uses no positional parameters).',
    'The TypeScript SDK parses every message it receives that way: a server request or notification',
    'with `"params": "text"` or a numeric `method` is dropped with an error, and what it asked or told the',
    'client (a log line, a progress update, a sampling request) never arrives.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: SDK_DROPS_ENVELOPE,
  messages: {
    default: '"method" is {{actual}}; it must be a string',
    params: '"params" is {{actual}}; it must be an object',
    meta: '"params._meta" is {{actual}}; it must be an object',
    metaKey: '"params._meta.{{key}}" is {{actual}}; {{expected}}',
  },
  fix: 'Name the method with a string, and send parameters as an object: `"params": { "level": "info", "data": "…" }`.',
  examples: {
    wrong: {
      value: { jsonrpc: '2.0', method: 'notifications/message', params: 'disk almost full' },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'warning', data: 'disk almost full' },
      },
      protocolVersion: '2025-06-18',
    },
  },
  // What the sender meant by a method or parameters of the wrong type is not for a repair to guess; only
  // `_meta`, which carries nothing the method needs, is dropped.
  check(message, ctx) {
    const kind = messageKind(message);
    if ((kind !== 'request' && kind !== 'notification') || !isObject(message)) return;
    if (typeof message.method !== 'string')
      ctx.report({ path: ['method'], data: { actual: describeType(message.method) }, manual: true });
    if (!Object.hasOwn(message, 'params') || message.params === undefined) return;
    const params = message.params;
    if (!isObject(params)) {
      ctx.report({
        messageId: 'params',
        path: ['params'],
        data: { actual: describeType(params) },
        manual: true,
      });
    } else if (params._meta !== undefined && !isObject(params._meta)) {
      ctx.report({
        messageId: 'meta',
        path: ['params', '_meta'],
        data: { actual: describeType(params._meta) },
      });
    } else if (isObject(params._meta)) {
      for (const [key, actual] of metaKeyDefects(params._meta)) {
        const data = { key, actual, expected: expectedOf(key) };
        ctx.report({ messageId: 'metaKey', path: ['params', '_meta', key], data });
      }
    }
  },
  repair(ctx) {
    const message = subjectObject(ctx);
    const params = isObject(message?.params) ? message.params : undefined;
    if (!params || !isObject(params) || params._meta === undefined) return undefined;
    if (ctx.messageId === 'meta' && !isObject(params._meta)) {
      const was = params._meta;
      delete params._meta;
      return { description: `removed "params._meta" (${JSON.stringify(was) ?? 'undefined'})`, lossy: true };
    }
    const key = ctx.data.key;
    const meta = params._meta;
    if (ctx.messageId !== 'metaKey' || typeof key !== 'string' || !isObject(meta)) return undefined;
    if (!metaKeyDefects(meta).some(([k]) => k === key)) return undefined;
    const was = meta[key];
    delete meta[key];
    return {
      description: `removed "params._meta.${key}" (${JSON.stringify(was) ?? 'undefined'})`,
      lossy: true,
    };
  },
});
