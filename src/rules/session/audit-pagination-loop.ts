import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-pagination-loop',
  subject: 'session',
  severity: 'error',
  title: 'tools/list cursors must make progress',
  rationale: [
    'Pagination: a client passes `nextCursor` back as `cursor` until a page comes without one. A server',
    'that hands out a cursor it already gave sends a client that follows every page round in circles',
    'for ever. The audit stops at the repeated cursor.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: { default: 'tools/list returned cursor {{cursor}} a second time; stopped paging' },
  fix: 'Make each `nextCursor` point past the page it ends, and omit it on the last page.',
  examples: {
    wrong: { value: { event: 'pagination-loop', cursor: '"page-2"' } },
    right: { value: { event: 'tools-listed', pages: 3 } },
  },
  check: reportEvent('pagination-loop', ['cursor']),
});
