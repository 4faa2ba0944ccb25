import { INITIALIZE_VERSIONS, reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-version-refused',
  subject: 'session',
  severity: 'info',
  title: 'The server refuses a protocol version',
  rationale: [
    'Lifecycle: when the server does not support the version the client asks for, it "MUST respond with',
    'another protocol version it supports" rather than fail. A server that answers `initialize` with an',
    'error instead shuts out every client that offers that version first, even clients that also speak',
    'one the server supports. A server need not support every version, so this is information: it says',
    'which clients cannot connect.',
  ].join('\n'),
  versions: INITIALIZE_VERSIONS,
  clients: [],
  messages: {
    default:
      'initialize with protocol {{version}} was refused: {{detail}}; clients that speak only {{version}} cannot connect',
  },
  fix: 'Answer initialize with the newest version you support instead of an error.',
  examples: {
    wrong: {
      value: {
        event: 'version-refused',
        version: '2024-11-05',
        detail: '-32602 Unsupported protocol version',
      },
    },
    right: { value: { event: 'version-answered', version: '2024-11-05', answered: '2025-03-26' } },
  },
  check: reportEvent('version-refused', ['version', 'detail']),
});
