import { DISCOVER_VERSIONS, reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-discover-unsupported',
  subject: 'session',
  severity: 'info',
  title: 'The server does not speak protocol 2026-07-28',
  rationale: [
    '2026-07-28 has no `initialize` handshake: a client calls `server/discover` and the server lists the',
    'versions it supports in `supportedVersions`. A server written for 2025-11-25 or earlier answers',
    '"Method not found" (or, over Streamable HTTP, rejects a request outside an initialized session).',
    'That is no defect of an older server, so this is information: clients that speak only 2026-07-28',
    'cannot use it, and clients that speak both fall back to `initialize`.',
  ].join('\n'),
  versions: DISCOVER_VERSIONS,
  clients: [],
  messages: { default: 'server/discover failed ({{detail}}): the server does not speak 2026-07-28' },
  fix: 'Implement server/discover and list 2026-07-28 in supportedVersions to serve 2026-07-28 clients.',
  examples: {
    wrong: { value: { event: 'discover-unsupported', detail: '-32601 Method not found' } },
    right: { value: { event: 'discover-result', supportedVersions: ['2025-11-25', '2026-07-28'] } },
  },
  check: reportEvent('discover-unsupported', ['detail']),
});
