import { isObject, jsonTypeOf } from '../../core/json.js';
import { getIn, setIn } from '../../core/pointer.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, serialize } from '../support/call-tool-result.js';
import { pythonRejectsResult, sdkV1RejectsResult } from '../support/clients.js';
import { defineRule } from '../types.js';

function looksLikeBlock(value: unknown): boolean {
  return isObject(value) && typeof value.type === 'string';
}

export default defineRule({
  id: 'result-not-object',
  subject: 'result',
  severity: 'error',
  title: 'A tools/call result must be a CallToolResult object',
  rationale: [
    '`CallToolResult` is an object with a required `content` array in every protocol version. A tool',
    'handler that returns a bare string, array or `null` as the JSON-RPC `result` produces a response',
    'no client can read: the TypeScript SDK rejects it, and so does every client built on it.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [sdkV1RejectsResult('a ZodError (expected object)'), pythonRejectsResult('expected a dict')],
  messages: {
    default: 'the tools/call result is {{actual}}; it must be an object with a "content" array',
  },
  fix: 'Wrap the value: `{ "content": [{ "type": "text", "text": "…" }] }`.',
  examples: {
    wrong: { value: 'The weather is sunny', protocolVersion: '2025-06-18' },
    right: {
      value: { content: [{ type: 'text', text: 'The weather is sunny' }] },
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (isObject(result)) return;
    // Only a handler's value can be undefined (scan, the library): nothing is sent as the result then.
    const actual = result === undefined ? 'missing (the handler returned undefined)' : describeType(result);
    ctx.report({ data: { actual } });
  },
  repair(ctx) {
    // The whole checked document cannot be replaced in place; only a result inside a message can.
    if (ctx.subjectPath.length === 0) return undefined;
    const value = getIn(ctx.root, ctx.subjectPath);
    let content: unknown[];
    if (typeof value === 'string') content = [{ type: 'text', text: value }];
    else if (Array.isArray(value) && value.every(looksLikeBlock)) content = value;
    else content = [{ type: 'text', text: serialize(value) }];
    const result: Record<string, unknown> = { content };
    if (ctx.features.resultTypeRequired) result.resultType = 'complete';
    setIn(ctx.root, ctx.subjectPath, result);
    return {
      description: `wrapped the ${jsonTypeOf(value)} result as a CallToolResult with a content array`,
    };
  },
});
