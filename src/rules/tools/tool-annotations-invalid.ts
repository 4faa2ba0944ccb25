import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { pythonRejectsResult, sdkV1RejectsToolsList } from '../support/clients.js';
import { defineRule } from '../types.js';

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

export default defineRule({
  id: 'tool-annotations-invalid',
  subject: 'tool',
  severity: 'error',
  title: 'Tool annotation hints must be booleans and `title` a string',
  rationale: [
    '`ToolAnnotations` (2025-03-26 on) is an object of optional boolean hints (`readOnlyHint`,',
    '`destructiveHint`, `idempotentHint`, `openWorldHint`) and an optional string `title`. A string such as',
    '`"true"` fails the official schema, and the TypeScript SDK v1 `ToolSchema` (which parses annotations',
    'whatever version it negotiated) rejects the whole tools/list result.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    sdkV1RejectsToolsList('ZodError at `tools.N.annotations`'),
    pythonRejectsResult('`ToolAnnotations` hints are `bool | None`'),
  ],
  messages: {
    default: 'annotations.{{hint}} is {{actual}}; hints must be true or false',
    notObject: '"annotations" is {{actual}}; it must be an object',
    title: 'annotations.title is {{actual}}; it must be a string',
  },
  fix: 'Use JSON booleans: `"annotations": { "readOnlyHint": true }`.',
  examples: {
    wrong: {
      value: { name: 'get_weather', inputSchema: { type: 'object' }, annotations: { readOnlyHint: 'yes' } },
    },
    right: {
      value: { name: 'get_weather', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
    },
  },
  check(tool, ctx) {
    if (!isObject(tool) || tool.annotations === undefined) return;
    const annotations = tool.annotations;
    if (!isObject(annotations)) {
      ctx.report({
        messageId: 'notObject',
        path: ['annotations'],
        data: { actual: describeType(annotations) },
      });
      return;
    }
    for (const hint of HINTS) {
      const value = annotations[hint];
      if (value !== undefined && typeof value !== 'boolean') {
        const actual =
          typeof value === 'string' ? `the string ${JSON.stringify(value)}` : describeType(value);
        ctx.report({ path: ['annotations', hint], data: { hint, actual } });
      }
    }
    if (annotations.title !== undefined && typeof annotations.title !== 'string') {
      ctx.report({
        messageId: 'title',
        path: ['annotations', 'title'],
        data: { actual: describeType(annotations.title) },
      });
    }
  },
  repair(ctx) {
    const tool = subjectObject(ctx);
    if (!tool) return undefined;
    if (ctx.messageId === 'notObject') {
      delete tool.annotations;
      return { description: 'removed the non-object annotations', lossy: true };
    }
    const annotations = tool.annotations;
    const key = ctx.findingPath[ctx.findingPath.length - 1];
    // A finding whose member is gone (another repair took it) leaves nothing to repair.
    if (!isObject(annotations) || typeof key !== 'string' || !Object.hasOwn(annotations, key))
      return undefined;
    const value = annotations[key];
    if (ctx.messageId === 'title') {
      if (typeof value === 'number' || typeof value === 'boolean') {
        annotations.title = String(value);
        return { description: `converted annotations.title ${JSON.stringify(value)} to a string` };
      }
      delete annotations.title;
      return { description: 'removed the non-string annotations.title', lossy: true };
    }
    const spelled = typeof value === 'string' ? value.trim().toLowerCase() : undefined;
    if (spelled === 'true' || spelled === 'false') {
      annotations[key] = spelled === 'true';
      return { description: `converted annotations.${key} ${JSON.stringify(value)} to ${spelled}` };
    }
    // A hint nobody can read is worth less than its documented default.
    delete annotations[key];
    return {
      description: `removed annotations.${key} (${JSON.stringify(value)}); clients use its default`,
      lossy: true,
    };
  },
});
