import type { ClientImpact } from '../../clients/catalog.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType } from '../support/call-tool-result.js';
import { messageKind } from '../support/envelope.js';
import { defineRule } from '../types.js';

/** What a parameter must be, and whether a value is that. */
interface Param {
  readonly name: string;
  readonly required: boolean;
  readonly expected: string;
  accepts(value: unknown): boolean;
}

const isString = (value: unknown) => typeof value === 'string';
const isNumber = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
/** A request id or progress token: a string, or an integer the SDK's `z.number().int()` takes. */
const isIdOrToken = (value: unknown) => typeof value === 'string' || Number.isSafeInteger(value);

const LEVELS = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

const STRING = 'it must be a string';
const NUMBER = 'it must be a number';
const ID = 'it must be a string or an integer';

/**
 * The notifications whose params the official TypeScript SDK parses with a schema of their method, and
 * what each parameter must be there (`@modelcontextprotocol/sdk` 1.32.2 types.js, the same in
 * `@modelcontextprotocol/client` 2.4.0). Progress and cancellation are parsed by every SDK client
 * (Protocol registers their handlers); a log line or a resource update by one that registered a handler.
 */
const PARAMS: Readonly<Record<string, readonly Param[]>> = {
  'notifications/progress': [
    { name: 'progressToken', required: true, expected: ID, accepts: isIdOrToken },
    { name: 'progress', required: true, expected: NUMBER, accepts: isNumber },
    { name: 'total', required: false, expected: NUMBER, accepts: isNumber },
    { name: 'message', required: false, expected: STRING, accepts: isString },
  ],
  'notifications/cancelled': [
    { name: 'requestId', required: false, expected: ID, accepts: isIdOrToken },
    { name: 'reason', required: false, expected: STRING, accepts: isString },
  ],
  'notifications/message': [
    {
      name: 'level',
      required: true,
      expected: `it must be one of ${LEVELS.join(', ')}`,
      accepts: (value) => typeof value === 'string' && LEVELS.includes(value),
    },
    { name: 'logger', required: false, expected: STRING, accepts: isString },
    // Any value, null included; but there must be one (the SDK's `z.unknown()` key is not optional).
    {
      name: 'data',
      required: true,
      expected: 'it may be any JSON value, null included',
      accepts: () => true,
    },
  ],
  'notifications/resources/updated': [{ name: 'uri', required: true, expected: STRING, accepts: isString }],
};

/** "a number that is no integer", "null", "a JSON string"…: what a parameter is instead. */
function actualOf(value: unknown): string {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) return 'a number that is no integer';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return describeType(value);
}

const SOURCE_V1 =
  '@modelcontextprotocol/sdk 1.32.2 dist/esm/shared/protocol.js setNotificationHandler (the handler parses with the method schema of types.js) and _onnotification (a failed parse goes to onerror); reproduced over InMemoryTransport';
const SOURCE_V2 =
  '@modelcontextprotocol/client 2.4.0 setNotificationHandler (the same schemas); reproduced over InMemoryTransport';

const CLIENTS: readonly ClientImpact[] = [
  {
    client: 'ts-sdk-v1',
    effect: 'drops-content',
    detail:
      'the notification fails its schema and goes to `onerror` ("Uncaught error in notification handler"): a progress update never reaches `onprogress` (nor resets a timeout), a cancellation is ignored, a log line (a bad level, or no `data`) or resource update never reaches the handler the app registered',
    source: SOURCE_V1,
  },
  {
    client: 'ts-sdk-v2',
    effect: 'drops-content',
    detail: 'as v1: the notification goes to `onerror` and its handler never sees it',
    source: SOURCE_V2,
  },
];

export default defineRule({
  id: 'notification-params-invalid',
  subject: 'message',
  severity: 'error',
  title: 'Progress, cancellation, log and resource-update notifications need the params their method defines',
  rationale: [
    'Every schema.json defines the params of `notifications/progress` (`progressToken`, a string or an',
    'integer, and a number `progress`; optional number `total` and string `message`),',
    '`notifications/cancelled` (`requestId`, `reason`), `notifications/message` (`level`, one of the eight',
    'logging levels, and `data`; optional string `logger`) and `notifications/resources/updated` (a string',
    '`uri`). The official TypeScript SDK parses a notification with the schema of its method before its',
    'handler runs: every client handles progress and cancellation, and an app that shows log lines or',
    'follows resource updates registers a handler for those. A notification that fails the schema goes',
    "to the client's `onerror` and is lost: a progress bar that never moves (and, with",
    '`resetTimeoutOnProgress`, a call that times out all the same), a cancellation ignored, a log line',
    'never shown.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: CLIENTS,
  messages: {
    default: '{{method}}: "params.{{param}}" is {{actual}}; {{expected}}',
    missing: '{{method}} has no "params.{{param}}"; {{expected}}',
    noParams: '{{method}} has no params; it needs {{params}}',
  },
  fix: 'Send the params the method defines: `{ "progressToken": …, "progress": 50, "total": 100 }` for progress, a level such as `"warning"` for a log line.',
  examples: {
    wrong: {
      value: {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'call-1', progress: '50%' },
      },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'call-1', progress: 50, total: 100 },
      },
      protocolVersion: '2025-06-18',
    },
  },
  check(message, ctx) {
    if (messageKind(message) !== 'notification' || !isObject(message)) return;
    const method = message.method;
    if (typeof method !== 'string' || !Object.hasOwn(PARAMS, method)) return;
    const params = PARAMS[method] as readonly Param[];
    // Params that are there but no object are envelope-request-invalid's.
    if (message.params !== undefined && !isObject(message.params)) return;
    if (message.params === undefined) {
      const required = params.filter((p) => p.required).map((p) => `"${p.name}"`);
      if (required.length > 0)
        ctx.report({ messageId: 'noParams', data: { method, params: required.join(' and ') } });
      return;
    }
    const given: JsonObject = message.params;
    for (const param of params) {
      const value = given[param.name];
      const data = { method, param: param.name, expected: param.expected };
      if (value === undefined) {
        if (param.required) ctx.report({ messageId: 'missing', path: ['params'], data });
      } else if (!param.accepts(value)) {
        ctx.report({ path: ['params', param.name], data: { ...data, actual: actualOf(value) } });
      }
    }
  },
});
