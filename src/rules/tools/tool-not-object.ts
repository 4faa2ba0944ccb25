import { isObject } from '../../core/json.js';
import { deleteIn, getIn } from '../../core/pointer.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType } from '../support/call-tool-result.js';
import { sdkV1RejectsToolsList } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'tool-not-object',
  subject: 'tool',
  severity: 'error',
  title: 'Each item of `tools` must be a tool definition object',
  rationale: [
    '`ListToolsResult.tools` is an array of `Tool` objects in every protocol version. A string or `null`',
    'in the array fails the official schema, and the TypeScript SDK rejects the whole list: one bad item',
    'hides every tool of the server.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [sdkV1RejectsToolsList('ZodError: expected object')],
  messages: {
    default: 'the tool definition is {{actual}}; it must be an object with "name" and "inputSchema"',
  },
  fix: 'List only tool definitions: `{ "name": "…", "inputSchema": { "type": "object" } }`.',
  examples: {
    wrong: { value: 'echo', protocolVersion: '2025-06-18' },
    right: { value: { name: 'echo', inputSchema: { type: 'object' } }, protocolVersion: '2025-06-18' },
  },
  check(tool, ctx) {
    if (isObject(tool)) return;
    ctx.report({ data: { actual: describeType(tool) } });
  },
  repair(ctx) {
    const tool = getIn(ctx.root, ctx.subjectPath);
    if (isObject(tool) || !deleteIn(ctx.root, ctx.subjectPath)) return undefined;
    return { description: `removed ${describeType(tool)} from the tools list`, lossy: true };
  },
});
