import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-call-error',
  subject: 'session',
  severity: 'info',
  title: 'A tools/call was answered with a JSON-RPC error',
  rationale: [
    'Tools: errors of the tool itself belong in the result, with `isError: true`, so the model sees them',
    'and can correct itself; JSON-RPC errors are for protocol problems (unknown tool, invalid arguments).',
    'The audit sends synthesized arguments, which a tool may rightly reject, so a JSON-RPC error is',
    'information: check that it is not a tool failure the model should have seen.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: { default: 'tools/call {{tool}} answered with JSON-RPC error {{code}}: {{detail}}' },
  fix: 'Return failures of the tool as a result with `isError: true` and a text block saying what went wrong.',
  examples: {
    wrong: { value: { event: 'call-error', tool: 'get_weather', code: -32603, detail: 'city not found' } },
    right: { value: { event: 'answered', method: 'tools/call get_weather', isError: true } },
  },
  check: reportEvent('call-error', ['tool', 'code', 'detail']),
});
