import { isObject, jsonTypeOf } from '../../core/json.js';
import { deleteIn, getIn, type PathSegment } from '../../core/pointer.js';
import { ALL_VERSIONS, BLOCK_TYPES } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { tsSdkRejects } from './support/clients.js';

export default defineRule({
  id: 'block-meta-not-object',
  subject: 'block',
  severity: 'error',
  title: '`_meta` on blocks and resource contents must be an object',
  rationale: [
    'From 2025-06-18 every content block and resource contents object may carry `_meta`, defined as a',
    'JSON object (`MetaObject` in 2026-07-28). A string, array or `null` there fails the official schema,',
    'and the TypeScript SDK, which parses `_meta` as a record in every version, rejects the whole result.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [tsSdkRejects('ZodError `expected record` at `content[i]._meta`')],
  messages: {
    default: '{{field}} must be an object, got {{actual}}',
  },
  fix: 'Make `_meta` an object of namespaced keys, e.g. `{ "com.example/trace": "abc" }`.',
  examples: {
    wrong: { value: { type: 'text', text: 'Hello', _meta: 'trace-abc' } },
    right: { value: { type: 'text', text: 'Hello', _meta: { 'com.example/trace': 'abc' } } },
  },
  check(block, ctx) {
    if (!isObject(block) || !(BLOCK_TYPES as readonly unknown[]).includes(block.type)) return;
    const places: PathSegment[][] = [['_meta']];
    if (block.type === 'resource' && isObject(block.resource)) places.push(['resource', '_meta']);
    for (const path of places) {
      const value = getIn(block, path);
      if (value === undefined || isObject(value)) continue;
      ctx.report({ path, data: { field: path.join('.'), actual: jsonTypeOf(value) } });
    }
  },
  repair(ctx) {
    const value = getIn(ctx.root, ctx.findingPath);
    if (value === undefined || isObject(value)) return undefined;
    deleteIn(ctx.root, ctx.findingPath);
    return {
      description: `removed ${ctx.findingPath.slice(ctx.subjectPath.length).join('.')} (${jsonTypeOf(value)})`,
      lossy: value !== null,
    };
  },
});
