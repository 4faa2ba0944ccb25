import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-timeout',
  subject: 'session',
  severity: 'error',
  title: 'Every request gets a response before the client gives up',
  rationale: [
    'JSON-RPC: "the receiver MUST reply" to every request, and the MCP lifecycle lets clients "establish',
    'timeouts for all sent requests" and cancel them. A request that is never answered holds the model',
    'until the client gives up (60 s by default in the official TypeScript SDK), and the user sees a',
    'timeout instead of the result or the error that caused it. The audit waits `--timeout` seconds',
    '(default 15), then sends `notifications/cancelled` and restarts the server for the next call.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'rejects-call',
      detail:
        'the request fails with McpError -32001 "Request timed out" after DEFAULT_REQUEST_TIMEOUT_MSEC (60 s)',
      source: '@modelcontextprotocol/sdk 1.32.2 dist/esm/shared/protocol.js',
    },
  ],
  messages: { default: 'no response to {{method}} within {{ms}} ms' },
  fix: 'Answer every request, with an error result (`isError: true`) if the work fails or takes too long.',
  examples: {
    wrong: { value: { event: 'timeout', method: 'tools/call get_weather', ms: 15000 } },
    right: { value: { event: 'answered', method: 'tools/call get_weather', ms: 120 } },
  },
  check: reportEvent('timeout', ['method', 'ms']),
});
