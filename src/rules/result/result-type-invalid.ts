import { isObject } from '../../core/json.js';
import { KNOWN_RESULT_TYPES, versionsFrom } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { requestClientCapabilities } from '../support/request-capabilities.js';
import { type CheckContext, defineRule } from '../types.js';

/** The Tasks extension's identifier, which a 2026-07-28 request declares among its client capabilities. */
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Whether the answered request declared the Tasks extension; `undefined` when that cannot be told. */
function declaresTasks(ctx: CheckContext): boolean | undefined {
  const capabilities = requestClientCapabilities(ctx);
  if (capabilities === undefined) return undefined;
  const { extensions } = capabilities;
  return isObject(extensions) && Object.hasOwn(extensions, TASKS_EXTENSION);
}

export default defineRule({
  id: 'result-type-invalid',
  subject: 'result',
  severity: 'error',
  messageSeverity: { taskUnknown: 'warning' },
  title: '2026-07-28 results need a recognized `resultType`',
  rationale: [
    'From 2026-07-28 every result carries `resultType` (SEP-2322): "Servers implementing this protocol',
    'version MUST include this field", and "a `resultType` of any value unrecognized by the client MUST be',
    'considered invalid". A finished tools/call answers `"complete"`; `"input_required"` asks the client',
    'for more input, and extensions add values such as the Tasks extension\'s `"task"`. Clients may treat',
    'a missing value as `"complete"` only for servers of earlier versions.',
    '',
    'A `"task"` is recognized only by a client that declared the `io.modelcontextprotocol/tasks` extension',
    'in the capabilities of that very request (2026-07-28 declares capabilities per request). Answering a',
    'request that did not is an error; where the request is not known, it is a warning, since the',
    'TypeScript SDK v2 client has no Tasks extension and rejects every `"task"`.',
  ].join('\n'),
  versions: versionsFrom('2026-07-28'),
  clients: [
    {
      client: 'ts-sdk-v2',
      effect: 'rejects-call',
      detail:
        "SdkError INVALID_RESULT `missing required resultType` or `non-string resultType`; UNSUPPORTED_RESULT_TYPE `Unsupported result type '…'` for any value but complete and input_required (it has no Tasks extension)",
      source: '@modelcontextprotocol/client 2.4.0 (the 2026-07-28 codec, decodeResult)',
    },
  ],
  messages: {
    default: 'the result has no "resultType"; protocol 2026-07-28 requires it',
    notString: '"resultType" is {{actual}}; it must be a string such as "complete"',
    unknown: '"resultType" {{value}} is not a recognized result type ({{known}})',
    taskNotDeclared:
      '"resultType" is "task", the Tasks extension\'s, but the request did not declare io.modelcontextprotocol/tasks in its client capabilities, so the client must treat the result as invalid',
    taskUnknown:
      '"resultType" is "task", which only a client that declared the io.modelcontextprotocol/tasks extension in the request recognizes; the TypeScript SDK v2 client has no Tasks extension and rejects it',
  },
  fix: 'Add `"resultType": "complete"` to every finished tool result.',
  examples: {
    wrong: { value: { content: [{ type: 'text', text: 'done' }] } },
    right: { value: { resultType: 'complete', content: [{ type: 'text', text: 'done' }] } },
  },
  check(result, ctx) {
    if (!isObject(result)) return;
    if (!Object.hasOwn(result, 'resultType')) {
      ctx.report({ path: ['resultType'] });
      return;
    }
    const value = result.resultType;
    if (typeof value !== 'string') {
      ctx.report({ messageId: 'notString', path: ['resultType'], data: { actual: describeType(value) } });
    } else if (value === 'task') {
      const declared = declaresTasks(ctx);
      if (declared === true) return;
      // No repair: the result a task stands for does not exist yet.
      ctx.report({
        messageId: declared === false ? 'taskNotDeclared' : 'taskUnknown',
        path: ['resultType'],
        manual: true,
      });
    } else if (!KNOWN_RESULT_TYPES.includes(value)) {
      ctx.report({
        messageId: 'unknown',
        path: ['resultType'],
        data: { value: JSON.stringify(value), known: KNOWN_RESULT_TYPES.join(', ') },
      });
    }
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    // Only a CallToolResult (content or structured output) is known to be complete.
    if (!result || !(Array.isArray(result.content) || Object.hasOwn(result, 'structuredContent')))
      return undefined;
    const before = result.resultType;
    // A finding that no longer holds: the result has a recognized type already.
    if (typeof before === 'string' && KNOWN_RESULT_TYPES.includes(before)) return undefined;
    result.resultType = 'complete';
    return {
      description:
        before === undefined
          ? 'added "resultType": "complete"'
          : `replaced "resultType" ${JSON.stringify(before)} with "complete"`,
    };
  },
});
