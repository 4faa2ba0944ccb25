import { isObject } from '../../core/json.js';
import { INITIALIZE_VERSIONS, initializeVersion } from '../support/session.js';
import { defineRule, type SessionEvent } from '../types.js';

export default defineRule({
  id: 'audit-version-unknown',
  subject: 'session',
  severity: 'error',
  title: 'initialize must answer with a published protocol version',
  rationale: [
    'Lifecycle: the server answers `initialize` with the requested version when it supports it, "otherwise',
    'the server MUST respond with another protocol version it supports". A version that is no published',
    '`initialize` version (a typo, a date of its own, a version without a handshake) is one no client',
    'speaks: the official SDK clients refuse to connect.',
  ].join('\n'),
  versions: INITIALIZE_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'rejects-call',
      detail: '`connect()` throws "Server\'s protocol version is not supported: …"',
      source: '@modelcontextprotocol/sdk 1.32.2 dist/esm/client/index.js',
    },
  ],
  messages: {
    default:
      'asked for {{requested}}, the server answered protocolVersion {{answered}}, which is no published version',
  },
  fix: 'Answer with the requested version when you support it, else with the newest version you support.',
  examples: {
    wrong: {
      value: {
        event: 'initialize-result',
        version: '2025-06-18',
        result: { protocolVersion: '2025-06-01', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      },
    },
    right: {
      value: {
        event: 'initialize-result',
        version: '2025-06-18',
        result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      },
    },
  },
  check(node, ctx) {
    const observed = node as SessionEvent;
    if (observed.event !== 'initialize-result' || !isObject(observed.result)) return;
    const answered = observed.result.protocolVersion;
    if (initializeVersion(answered)) return;
    ctx.report({
      data: { requested: String(observed.version), answered: JSON.stringify(answered) ?? 'nothing' },
    });
  },
});
