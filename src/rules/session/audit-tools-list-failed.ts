import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule, type SessionEvent } from '../types.js';

export default defineRule({
  id: 'audit-tools-list-failed',
  subject: 'session',
  severity: 'error',
  title: 'tools/list must succeed when the tools capability is declared',
  rationale: [
    'A server that declares the `tools` capability tells clients to call `tools/list`; answering it with',
    'an error (or with no result) leaves the client with no tools, so the server is useless to the model.',
    '',
    'A listing whose every page hands out a new cursor never ends: the audit stops after 1,000 pages, and',
    "the TypeScript SDK v2 client's `listTools()`, which walks the pages itself, throws after 64.",
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v2',
      effect: 'rejects-call',
      detail:
        'listTools() throws SdkError LIST_PAGINATION_EXCEEDED `tools/list: exceeded listMaxPages (64); server pagination did not terminate` and returns no tools (named only for a listing that did not end)',
      source:
        '@modelcontextprotocol/client 2.4.0 dist/public-CvV4ZHkX.mjs Client._walkPages (DEFAULT_LIST_MAX_PAGES = 64)',
    },
  ],
  messages: { default: 'tools/list failed: {{detail}}' },
  fix: 'Answer tools/list with `{"tools": [...]}`, an empty list if there are none.',
  examples: {
    wrong: { value: { event: 'tools-list-failed', detail: '-32603 Internal error' } },
    right: { value: { event: 'tools-listed', count: 0, capability: true } },
  },
  check(node, ctx) {
    const observed = node as SessionEvent;
    if (observed.event !== 'tools-list-failed') return;
    const detail = String(observed.detail ?? '');
    // An error answer fails every client, but which ones say what, no source here tells.
    ctx.report({ data: observed.endless === true ? { detail } : { detail, affected: '' } });
  },
});
