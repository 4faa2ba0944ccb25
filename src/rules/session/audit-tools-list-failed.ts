import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-tools-list-failed',
  subject: 'session',
  severity: 'error',
  title: 'tools/list must succeed when the tools capability is declared',
  rationale: [
    'A server that declares the `tools` capability tells clients to call `tools/list`; answering it with',
    'an error (or with no result) leaves the client with no tools, so the server is useless to the model.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: { default: 'tools/list failed: {{detail}}' },
  fix: 'Answer tools/list with `{"tools": [...]}`, an empty list if there are none.',
  examples: {
    wrong: { value: { event: 'tools-list-failed', detail: '-32603 Internal error' } },
    right: { value: { event: 'tools-listed', count: 0, capability: true } },
  },
  check: reportEvent('tools-list-failed', ['detail']),
});
