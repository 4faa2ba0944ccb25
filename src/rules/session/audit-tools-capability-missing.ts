import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-tools-capability-missing',
  subject: 'session',
  severity: 'error',
  title: 'Servers that offer tools must declare the tools capability',
  rationale: [
    'Tools: "Servers that support tools MUST declare the `tools` capability." Clients decide from the',
    'capabilities whether to ask for tools at all, so a server that lists tools without declaring it may',
    'show none: the TypeScript SDK v1 client with `enforceStrictCapabilities` refuses to send tools/list,',
    "and the v2 client's `listTools()` does not ask at all by default: it answers an empty list.",
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'rejects-call',
      detail: 'with enforceStrictCapabilities: "Server does not support tools (required for tools/list)"',
      source: '@modelcontextprotocol/sdk 1.32.2 dist/esm/client/index.js',
    },
    {
      client: 'ts-sdk-v2',
      effect: 'drops-content',
      detail:
        'listTools() sends no tools/list and answers `{ tools: [] }` ("server does not advertise tools capability - returning empty list"): the server shows no tools',
      source: '@modelcontextprotocol/client 2.4.0 dist/public-CvV4ZHkX.mjs Client.listTools; reproduced',
    },
  ],
  messages: {
    default: 'tools/list answered with {{count}} tools, but the server declared no "tools" capability',
  },
  fix: 'Add `"tools": {}` to the capabilities in the initialize (or server/discover) result.',
  examples: {
    wrong: { value: { event: 'tools-capability-missing', count: 3 } },
    right: { value: { event: 'tools-listed', count: 3, capability: true } },
  },
  check: reportEvent('tools-capability-missing', ['count']),
});
