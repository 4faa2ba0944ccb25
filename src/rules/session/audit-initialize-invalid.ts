import { isObject } from '../../core/json.js';
import { INITIALIZE_VERSIONS } from '../support/session.js';
import { defineRule, type SessionEvent } from '../types.js';

export default defineRule({
  id: 'audit-initialize-invalid',
  subject: 'session',
  severity: 'error',
  title: 'The initialize result must carry protocolVersion, capabilities and serverInfo',
  rationale: [
    '`InitializeResult` requires `protocolVersion` (a string), `capabilities` (an object) and `serverInfo`',
    '(an `Implementation`, with `name` and `version` strings) in every schema from 2024-11-05 to',
    '2025-11-25. Clients validate the result against that schema: the official SDK clients fail to',
    'connect when a member is missing, so no tool of the server can be used.',
  ].join('\n'),
  versions: INITIALIZE_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'rejects-call',
      detail: '`connect()` fails: the result does not parse as InitializeResultSchema',
      source: '@modelcontextprotocol/sdk 1.32.2 dist/esm/client/index.js',
    },
  ],
  messages: { default: 'the initialize result for {{version}} {{problem}}' },
  fix: 'Return `{"protocolVersion": …, "capabilities": {…}, "serverInfo": {"name": …, "version": …}}`.',
  examples: {
    wrong: {
      value: { event: 'initialize-result', version: '2025-06-18', result: { protocolVersion: '2025-06-18' } },
    },
    right: {
      value: {
        event: 'initialize-result',
        version: '2025-06-18',
        result: {
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'weather', version: '1.0.0' },
        },
      },
    },
  },
  check(node, ctx) {
    const observed = node as SessionEvent;
    if (observed.event !== 'initialize-result' || !isObject(observed.result)) return;
    const { protocolVersion, capabilities, serverInfo } = observed.result;
    const version = String(observed.version);
    const report = (problem: string) => ctx.report({ data: { version, problem } });
    if (typeof protocolVersion !== 'string') report('has no protocolVersion string');
    if (!isObject(capabilities)) report('has no capabilities object');
    if (
      !isObject(serverInfo) ||
      typeof serverInfo.name !== 'string' ||
      typeof serverInfo.version !== 'string'
    )
      report('has no serverInfo with name and version');
  },
});
