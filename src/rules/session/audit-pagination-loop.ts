import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule, type SessionEvent } from '../types.js';

/**
 * How the cursor came back: `earlier` names a page before the one just taken (the walk goes round a
 * cycle of pages), `same` is the cursor the page was asked with, `page-repeated` is that cursor with
 * the tools of the page before.
 */
type Loop = 'earlier' | 'same' | 'page-repeated';

export default defineRule({
  id: 'audit-pagination-loop',
  subject: 'session',
  severity: 'error',
  title: 'tools/list cursors must make progress',
  rationale: [
    'Pagination: a client passes `nextCursor` back as `cursor` until a page comes without one. A server',
    'that hands out a cursor it already gave sends a client that follows every page round in circles',
    'for ever. The audit stops at the repeated cursor.',
    '',
    "The TypeScript SDK v2 client's `listTools()` walks the pages itself: it ends its walk at a page that",
    'gives back the cursor it was asked with and the tools of the page before (taking nothing of it), and',
    'otherwise throws after 64 pages (`listMaxPages`), so a cursor that leads back to an earlier page',
    'leaves it with no tools at all. A page that gives back its own cursor with other tools is taken once',
    'and the walk ends at its second fetch. The v1 client follows no cursor (`listTools()` fetches the',
    'page it is asked for; the caller walks them), so what happens there is up to the caller.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v2',
      effect: 'rejects-call',
      detail:
        'listTools() throws SdkError LIST_PAGINATION_EXCEEDED `tools/list: exceeded listMaxPages (64); server pagination did not terminate` and returns no tools (only when the cursor leads back to an earlier page)',
      source:
        '@modelcontextprotocol/client 2.4.0 dist/public-CvV4ZHkX.mjs Client._walkPages (DEFAULT_LIST_MAX_PAGES = 64); v1: @modelcontextprotocol/sdk 1.32.2 dist/esm/client/index.js Client.listTools sends one request',
    },
  ],
  messages: {
    default: 'tools/list returned cursor {{cursor}} a second time; stopped paging',
    same: 'tools/list returned cursor {{cursor}} a second time, for the page it was asked with; stopped paging (the TypeScript SDK v2 client ends its walk there too)',
    pageRepeated:
      'tools/list answered cursor {{cursor}} with that cursor and the tools of the page before; stopped paging and took nothing of it (as the TypeScript SDK v2 client does)',
  },
  fix: 'Make each `nextCursor` point past the page it ends, and omit it on the last page.',
  examples: {
    wrong: { value: { event: 'pagination-loop', cursor: '"page-2"', loop: 'earlier' } },
    right: { value: { event: 'tools-listed', pages: 3 } },
  },
  check(node, ctx) {
    const observed = node as SessionEvent;
    if (observed.event !== 'pagination-loop') return;
    const cursor = String(observed.cursor ?? '');
    const loop = observed.loop as Loop | undefined;
    if (loop === 'same' || loop === 'page-repeated') {
      // The SDK v2 client's walk ends there: it is not the client this breaks.
      ctx.report({
        messageId: loop === 'same' ? 'same' : 'pageRepeated',
        data: { cursor, affected: '' },
      });
      return;
    }
    // Only a cursor known to lead back to an earlier page makes the SDK v2 client go round to its cap.
    ctx.report({ data: loop === 'earlier' ? { cursor } : { cursor, affected: '' } });
  },
});
