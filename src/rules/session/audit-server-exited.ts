import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-server-exited',
  subject: 'session',
  severity: 'error',
  title: 'The server must not exit while a request is pending',
  rationale: [
    'A stdio server that exits (or an HTTP stream that ends) while a request is pending takes the',
    'answer with it: the client fails every pending request with "Connection closed", and a stdio',
    'client must start the server again before the next call. A failing tool is no reason to exit:',
    'MCP reports tool failures as a result with `isError: true`, which the model can read and act on.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'rejects-call',
      detail: 'pending requests fail with McpError -32000 "Connection closed"',
      source: '@modelcontextprotocol/sdk 1.32.2 dist/esm/shared/protocol.js',
    },
  ],
  messages: { default: 'the server {{detail}} while {{method}} was pending' },
  fix: 'Catch failures in the handler and return them as a result with `isError: true`.',
  examples: {
    wrong: { value: { event: 'server-exited', method: 'tools/call crash', detail: 'exited with code 1' } },
    right: { value: { event: 'answered', method: 'tools/call crash', ms: 3 } },
  },
  check: reportEvent('server-exited', ['method', 'detail']),
});
