import { isObject, type JsonObject, jsonTypeOf } from '../../core/json.js';
import { lastPathSegment } from '../../core/uri.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { iconProblem } from '../support/icons.js';
import { defineRule, type RepairOutcome } from '../types.js';
import { blockAt } from './support/block.js';
import { PYTHON_SDK_REJECTS, RMCP_CLIENTS, tsSdkRejects } from './support/clients.js';

const OPTIONAL_STRINGS = ['title', 'description', 'mimeType'] as const;

export default defineRule({
  id: 'block-resource-link-invalid',
  subject: 'block',
  severity: 'error',
  title: 'resource_link blocks need a string uri and name, and well-typed optional fields',
  rationale: [
    '`ResourceLink` (2025-06-18 on) extends `Resource`: `uri` and `name` are required strings; `title`,',
    '`description` and `mimeType` are strings, `size` an integer, and `icons` (2025-11-25 on) an array of',
    '`Icon` objects with a string `src`. A link without `name` is the most common slip: Claude Code and',
    'the official TypeScript SDK reject the whole result.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'claude-code',
      effect: 'rejects-call',
      detail: '`Invalid input: expected string, received undefined` at `content.N.name`',
      source: 'Kulitorum/Decenza PR #981',
    },
    tsSdkRejects('ZodError `invalid_union` (resource_link without `name`)'),
    { ...PYTHON_SDK_REJECTS, detail: 'pydantic ValidationError: `ResourceLink.name` is required' },
    ...RMCP_CLIENTS,
  ],
  messages: {
    default: 'resource_link has no "name"',
    nameNotString: 'resource_link "name" must be a string, got {{actual}}',
    missingUri: 'resource_link has no "uri"',
    uriNotString: 'resource_link "uri" must be a string, got {{actual}}',
    notString: 'resource_link "{{field}}" must be a string, got {{actual}}',
    size: 'resource_link "size" must be an integer number of bytes, got {{actual}}',
    icons: 'resource_link "icons" must be an array of icons, got {{actual}}',
    icon: 'resource_link icon {{index}} {{problem}}',
  },
  fix: 'Give every resource_link a string `uri` and a string `name` (e.g. the file name).',
  examples: {
    wrong: { value: { type: 'resource_link', uri: 'file:///tmp/report.pdf' } },
    right: { value: { type: 'resource_link', uri: 'file:///tmp/report.pdf', name: 'report.pdf' } },
  },
  check(block, ctx) {
    if (!isObject(block) || block.type !== 'resource_link') return;
    if (block.uri === undefined) ctx.report({ messageId: 'missingUri', path: ['uri'] });
    else if (typeof block.uri !== 'string') {
      ctx.report({ messageId: 'uriNotString', path: ['uri'], data: { actual: jsonTypeOf(block.uri) } });
    }
    if (block.name === undefined) ctx.report({ path: ['name'] });
    else if (typeof block.name !== 'string') {
      ctx.report({ messageId: 'nameNotString', path: ['name'], data: { actual: jsonTypeOf(block.name) } });
    }
    for (const field of OPTIONAL_STRINGS) {
      if (block[field] !== undefined && typeof block[field] !== 'string') {
        ctx.report({
          messageId: 'notString',
          path: [field],
          data: { field, actual: jsonTypeOf(block[field]) },
        });
      }
    }
    if (block.size !== undefined && !Number.isInteger(block.size)) {
      ctx.report({
        messageId: 'size',
        path: ['size'],
        data: { actual: jsonTypeOf(block.size) === 'number' ? String(block.size) : jsonTypeOf(block.size) },
      });
    }
    if (block.icons === undefined) return;
    if (!Array.isArray(block.icons)) {
      ctx.report({ messageId: 'icons', path: ['icons'], data: { actual: jsonTypeOf(block.icons) } });
      return;
    }
    block.icons.forEach((icon, index) => {
      const problem = iconProblem(icon);
      if (problem) ctx.report({ messageId: 'icon', path: ['icons', index], data: { index, problem } });
    });
  },
  repair(ctx) {
    const block = blockAt(ctx);
    if (!block) return undefined;
    const field = String(ctx.findingPath[ctx.subjectPath.length] ?? '');
    switch (ctx.messageId) {
      case 'default':
      case 'nameNotString':
        return repairName(block);
      case 'notString':
      case 'size':
      case 'icons': {
        const before = block[field];
        if (field === 'size' && typeof before === 'number' && Number.isFinite(before) && before >= 0) {
          block.size = Math.round(before);
          return { description: `rounded size ${before} to ${block.size}` };
        }
        delete block[field];
        return { description: `removed the invalid optional "${field}"`, lossy: true };
      }
      case 'icon': {
        if (!Array.isArray(block.icons)) return undefined;
        const kept = block.icons.filter((icon) => iconProblem(icon) === undefined);
        const dropped = block.icons.length - kept.length;
        if (kept.length > 0) block.icons = kept;
        else delete block.icons;
        return { description: `removed ${dropped} invalid icon(s)`, lossy: true };
      }
      default:
        return undefined;
    }
  },
});

function repairName(block: JsonObject): RepairOutcome | undefined {
  if (typeof block.name === 'number' || typeof block.name === 'boolean') {
    block.name = String(block.name);
    return { description: `converted name to the string "${block.name}"` };
  }
  const fromTitle = typeof block.title === 'string' && block.title.length > 0 ? block.title : undefined;
  const fromUri = typeof block.uri === 'string' ? (lastPathSegment(block.uri) ?? block.uri) : undefined;
  const name = fromTitle ?? fromUri;
  if (name === undefined) return undefined;
  const replaced = block.name !== undefined;
  block.name = name;
  return {
    description: `set name to "${name}", taken from the ${fromTitle ? 'title' : 'uri'}`,
    lossy: replaced,
  };
}
