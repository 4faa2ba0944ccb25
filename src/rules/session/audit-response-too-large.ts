import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-response-too-large',
  subject: 'session',
  severity: 'error',
  title: 'Responses must stay under the size cap',
  rationale: [
    'A client has to hold a whole response in memory before it can parse it, and clients cap it:',
    'Claude Desktop rejects results over 1 MiB, and a result that large would not fit in a model',
    'context anyway. The audit stops reading a response at `--max-response-size` (default 16 MiB) so a',
    'runaway server cannot exhaust its memory; the response is not parsed.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'claude-desktop',
      effect: 'limits',
      detail: '"result exceeds maximum length of 1048576"',
      source: 'PrefectHQ/fastmcp #1036',
    },
  ],
  messages: {
    default: 'a response of more than {{bytes}} bytes exceeds the {{limit}}-byte cap; it was not parsed',
  },
  fix: 'Return large data as a resource_link, paginate it, or summarise it (Claude Desktop rejects results over 1 MiB).',
  examples: {
    wrong: { value: { event: 'response-too-large', bytes: 52428800, limit: 16777216 } },
    right: { value: { event: 'answered', method: 'tools/call export', bytes: 20480 } },
  },
  check: reportEvent('response-too-large', ['bytes', 'limit']),
});
