import { DISCOVER_VERSIONS, reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-discover-invalid',
  subject: 'session',
  severity: 'error',
  title: 'The server/discover result must list 2026-07-28 in supportedVersions',
  rationale: [
    'In 2026-07-28 the `server/discover` result (`DiscoverResult`) requires `supportedVersions`, the',
    'versions the server speaks; a client picks one it shares with the server and sends it in `_meta`',
    'on every request. A result without the array leaves the client no version to pick, so it cannot go',
    'on with the server.',
  ].join('\n'),
  versions: DISCOVER_VERSIONS,
  clients: [],
  messages: { default: 'server/discover answered, but {{problem}}' },
  fix: 'Return `{"supportedVersions": ["2026-07-28", …], "capabilities": {…}, "resultType": "complete"}`.',
  examples: {
    wrong: { value: { event: 'discover-invalid', problem: 'the result has no supportedVersions array' } },
    right: { value: { event: 'discover-result', supportedVersions: ['2026-07-28'] } },
  },
  check: reportEvent('discover-invalid', ['problem']),
});
