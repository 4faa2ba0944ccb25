import { isObject } from '../../core/json.js';
import { KNOWN_RESULT_TYPES, versionsFrom } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'result-type-invalid',
  subject: 'result',
  severity: 'error',
  title: '2026-07-28 results need a recognized `resultType`',
  rationale: [
    'From 2026-07-28 every result carries `resultType` (SEP-2322): "Servers implementing this protocol',
    'version MUST include this field", and "a `resultType` of any value unrecognized by the client MUST be',
    'considered invalid". A finished tools/call answers `"complete"`; `"input_required"` asks the client',
    'for more input, and extensions add values such as the Tasks extension\'s `"task"`. Clients may treat',
    'a missing value as `"complete"` only for servers of earlier versions.',
  ].join('\n'),
  versions: versionsFrom('2026-07-28'),
  clients: [],
  messages: {
    default: 'the result has no "resultType"; protocol 2026-07-28 requires it',
    notString: '"resultType" is {{actual}}; it must be a string such as "complete"',
    unknown: '"resultType" {{value}} is not a recognized result type ({{known}})',
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
