import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { sdkV1RejectsToolsList } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'tools-list-next-cursor-invalid',
  subject: 'tools-list',
  severity: 'error',
  title: "A tools/list result's `nextCursor` must be a string",
  rationale: [
    '`ListToolsResult` is a `PaginatedResult`: its optional `nextCursor` is a `Cursor`, an opaque string,',
    'in every schema.json. The TypeScript SDK parses it as a string, so a number or an object there makes',
    '`listTools()` reject and hides every tool of the server, not only those of later pages.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [sdkV1RejectsToolsList('ZodError at `nextCursor`')],
  messages: {
    default: '"nextCursor" is {{actual}}; it must be a string',
  },
  fix: 'Send the cursor as a string (`"nextCursor": "5"`), or leave it out on the last page.',
  examples: {
    wrong: { value: { tools: [], nextCursor: 5 }, protocolVersion: '2025-06-18' },
    right: { value: { tools: [], nextCursor: '5' }, protocolVersion: '2025-06-18' },
  },
  check(list, ctx) {
    if (!isObject(list) || list.nextCursor === undefined || typeof list.nextCursor === 'string') return;
    ctx.report({ path: ['nextCursor'], data: { actual: describeType(list.nextCursor) } });
  },
  repair(ctx) {
    const list = subjectObject(ctx);
    const cursor = list?.nextCursor;
    if (!list || cursor === undefined || typeof cursor === 'string') return undefined;
    // A number keeps paging as a string (the server reads its own cursor back); anything else cannot.
    if (typeof cursor === 'number' && Number.isFinite(cursor)) {
      list.nextCursor = String(cursor);
      return { description: `converted "nextCursor" ${cursor} to the string "${cursor}"` };
    }
    delete list.nextCursor;
    return {
      description: `removed "nextCursor" (${JSON.stringify(cursor)}): the tools of later pages are not listed`,
      lossy: cursor !== null,
    };
  },
});
