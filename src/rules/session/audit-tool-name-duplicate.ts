import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule, type SessionEvent } from '../types.js';

export default defineRule({
  id: 'audit-tool-name-duplicate',
  subject: 'session',
  severity: 'warning',
  title: 'A tool name should be listed on one tools/list page only',
  rationale: [
    'tool-name-duplicate, across the pages of one listing: tool-name-duplicate judges a tools/list',
    'result alone, and a name on page 1 and again on page 3 is in no one result twice. tools.mdx',
    '(2025-11-25 on, SEP-986): tool names "SHOULD be unique within a server".',
    '',
    'Which definition a client then uses depends on how it walks the pages. The TypeScript SDK v2',
    "client's `listTools()` walks them all and keeps both in its list; it checks a result against the",
    'last definition of the name that has an outputSchema (@modelcontextprotocol/client 2.4.0',
    '`ClientResponseCache.outputValidator`). The v1 client fetches one page per `listTools()` call and',
    'keeps the outputSchemas of that page only (`Client.cacheToolMetadata` clears its cache first), so',
    'a caller that walks every page keeps those of the last page only: an outputSchema declared on an',
    'earlier page is checked by the v2 client and not by the v1 client. The message says, for the name,',
    'which definition each of the two clients checks results against. A name on many pages is one',
    'finding, at the first page that repeats it, counting the others.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: {
    default:
      'tool name {{name}} on tools/list page {{page}} (tool {{index}}) is already listed on page {{firstPage}} (tool {{firstIndex}}); {{uses}}',
    more: 'tool name {{name}} on tools/list page {{page}} (tool {{index}}) and {{more}} more pages is already listed on page {{firstPage}} (tool {{firstIndex}}); {{uses}}',
  },
  fix: 'List each tool on one page only; rename one of the tools if they differ.',
  examples: {
    wrong: {
      value: {
        event: 'tool-name-duplicate',
        name: '"search"',
        page: 3,
        index: 0,
        firstPage: 1,
        firstIndex: 0,
        more: 0,
        uses: 'no definition of it has an outputSchema',
      },
    },
    right: { value: { event: 'tools-listed', pages: 3 } },
  },
  check(node, ctx) {
    const observed = node as SessionEvent;
    if (observed.event !== 'tool-name-duplicate') return;
    const data: Record<string, string | number> = {};
    for (const fact of ['name', 'page', 'index', 'firstPage', 'firstIndex', 'uses']) {
      const value = observed[fact];
      data[fact] = typeof value === 'number' ? value : String(value ?? '');
    }
    const more = Number(observed.more ?? 0);
    if (more > 0) ctx.report({ messageId: 'more', data: { ...data, more } });
    else ctx.report({ data });
  },
});
