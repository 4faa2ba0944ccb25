import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { pythonRejectsResult, sdkV1RejectsToolsList } from '../support/clients.js';
import { iconProblem } from '../support/icons.js';
import { defineRule } from '../types.js';

/** Optional Tool members and the JSON type each must have. */
const FIELDS: Readonly<Record<string, 'string' | 'object' | 'array'>> = {
  title: 'string',
  description: 'string',
  _meta: 'object',
  icons: 'array',
  execution: 'object',
};

const TASK_SUPPORT = ['required', 'optional', 'forbidden'];

function hasType(value: unknown, type: 'string' | 'object' | 'array'): boolean {
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return isObject(value);
  return typeof value === 'string';
}

export default defineRule({
  id: 'tool-field-invalid',
  subject: 'tool',
  severity: 'error',
  title: 'Tool `title` and `description` must be strings, `_meta` an object, `icons` an array of icons',
  rationale: [
    'The optional members of `Tool` are typed in every schema.json that defines them: `description` and',
    '`title` are strings, `_meta` an object, `icons` an array of `Icon` (each with a string `src`) and',
    '`execution` an object whose `taskSupport` is "required", "optional" or "forbidden". The TypeScript',
    'SDK v1 parses them all, whatever version it negotiated, so a `null` description, a string `icons`',
    'or an icon without `src` makes `listTools()` reject and hides every tool of the server.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [sdkV1RejectsToolsList('ZodError at the field'), pythonRejectsResult('typed `Tool` fields')],
  messages: {
    default: '"{{field}}" is {{actual}}; it must be a JSON {{expected}}',
    icon: 'icon {{index}} {{problem}}',
    taskSupport: '"execution.taskSupport" is {{actual}}; it must be "required", "optional" or "forbidden"',
  },
  fix: 'Send the field with the right type, or leave it out.',
  examples: {
    wrong: { value: { name: 'echo', description: null, inputSchema: { type: 'object' } } },
    right: { value: { name: 'echo', description: 'Echo the input', inputSchema: { type: 'object' } } },
  },
  check(tool, ctx) {
    if (!isObject(tool)) return;
    for (const [field, expected] of Object.entries(FIELDS)) {
      const value = tool[field];
      if (value === undefined || hasType(value, expected)) continue;
      ctx.report({ path: [field], data: { field, expected, actual: describeType(value) } });
    }
    if (Array.isArray(tool.icons)) {
      tool.icons.forEach((icon, index) => {
        const problem = iconProblem(icon);
        if (problem) ctx.report({ messageId: 'icon', path: ['icons', index], data: { index, problem } });
      });
    }
    const support = isObject(tool.execution) ? tool.execution.taskSupport : undefined;
    if (support !== undefined && !TASK_SUPPORT.includes(support as string)) {
      const actual = typeof support === 'string' ? JSON.stringify(support) : describeType(support);
      ctx.report({ messageId: 'taskSupport', path: ['execution', 'taskSupport'], data: { actual } });
    }
  },
  repair(ctx) {
    const tool = subjectObject(ctx);
    if (ctx.messageId === 'icon') return removeIcon(tool, Number(ctx.data.index));
    if (ctx.messageId === 'taskSupport') {
      // Unset, a tool supports no task (the default), which is what a client can rely on.
      const execution = tool?.execution;
      if (!isObject(execution) || execution.taskSupport === undefined) return undefined;
      const was = execution.taskSupport;
      delete execution.taskSupport;
      return { description: `removed "execution.taskSupport" (${JSON.stringify(was)})`, lossy: true };
    }
    const field = String(ctx.data.field);
    if (!tool || !Object.hasOwn(FIELDS, field) || !Object.hasOwn(tool, field)) return undefined;
    const value = tool[field];
    if (FIELDS[field] === 'string' && (typeof value === 'number' || typeof value === 'boolean')) {
      tool[field] = String(value);
      return { description: `converted "${field}" to a string` };
    }
    delete tool[field];
    return { description: `removed "${field}" (${describeType(value)})`, lossy: value !== null };
  },
});

/** Drops the icon at `index` when it is still invalid (an earlier fix may have moved it). */
function removeIcon(tool: Record<string, unknown> | undefined, index: number) {
  const icons = tool?.icons;
  if (!Array.isArray(icons) || !iconProblem(icons[index])) return undefined;
  const [icon] = icons.splice(index, 1);
  return { description: `removed icon ${index} (${JSON.stringify(icon) ?? 'undefined'})`, lossy: true };
}
