import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-response-id-converted',
  subject: 'session',
  severity: 'error',
  title: 'A response carries the id of its request unchanged, number or string',
  rationale: [
    'MCP: responses "MUST include the same ID as the request they correspond to"; JSON-RPC: "the same',
    'value as the id member in the Request Object". The string `"3"` is not the id `3`.',
    '',
    'The official SDK clients convert such an id before they look the request up, so the call still',
    'lands there: the TypeScript SDK matches `Number(response.id)`, the Python SDK converts a string id to',
    'an integer (`_normalize_request_id`), and rmcp, the Rust SDK under Codex and Goose, accepts a',
    'numeric string since 3.0.0-beta.1 (modelcontextprotocol/rust-sdk #1021). A client that compares ids',
    'as JSON-RPC defines them finds no request, and the call waits until it gives up. The audit, and',
    '`check` of a recorded session, pair the response with its request as the TypeScript SDK does, so the',
    'result is judged all the same; the proxy gives the id back as the client sent it.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: {
    default:
      'the response to {{method}} (id {{request}}) carries the id {{id}}: the same value, but a string',
  },
  fix: 'Copy the request `id` into its response unchanged: the same JSON value and type, number or string.',
  examples: {
    wrong: { value: { event: 'response-id-converted', id: '"3"', request: '3', method: 'tools/call echo' } },
    right: { value: { event: 'answered', method: 'tools/call echo', ms: 12 } },
  },
  check: reportEvent('response-id-converted', ['id', 'request', 'method']),
});
