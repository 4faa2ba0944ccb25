import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

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
    'which definition each of the two clients checks results against.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: {
    default:
      'tool name {{name}} on tools/list page {{page}} (tool {{index}}) is already listed on page {{firstPage}} (tool {{firstIndex}}); {{uses}}',
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
        uses: 'neither definition has an outputSchema',
      },
    },
    right: { value: { event: 'tools-listed', pages: 3 } },
  },
  check: reportEvent('tool-name-duplicate', ['name', 'page', 'index', 'firstPage', 'firstIndex', 'uses']),
});
