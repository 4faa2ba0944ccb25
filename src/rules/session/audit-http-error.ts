import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-http-error',
  subject: 'session',
  severity: 'error',
  title: 'HTTP requests must succeed',
  rationale: [
    'Over Streamable HTTP every JSON-RPC request is a POST whose response carries the answer; over the',
    '2024-11-05 HTTP+SSE transport the POST must be accepted for the answer to arrive on the stream. A',
    'failing status (or a connection that breaks) means the client gets no JSON-RPC answer at all, only',
    'a transport error. Report failures inside JSON-RPC instead: an error response, or a tool result',
    'with `isError: true`.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: { default: 'HTTP {{status}} for {{method}}{{body}}' },
  fix: 'Answer with HTTP 200 and a JSON-RPC response (an error response if the request failed).',
  examples: {
    wrong: { value: { event: 'http-error', method: 'tools/list', status: 502, body: ': Bad Gateway' } },
    right: { value: { event: 'answered', method: 'tools/list', status: 200 } },
  },
  check: reportEvent('http-error', ['method', 'status', 'body']),
});
