import { ALL_VERSIONS } from '../../spec/versions.js';
import { reportEvent } from '../support/session.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-response-unmatched',
  subject: 'session',
  severity: 'warning',
  title: 'Every response answers a request that was sent',
  rationale: [
    'JSON-RPC: a response "MUST" carry "the same value as the id member in the Request Object" it answers.',
    'A response whose id matches no pending request (a wrong id, a number sent back as a string, an',
    'answer sent twice) is dropped by clients, and the request it was meant for waits until it times out.',
    'Late answers to requests the audit already gave up on are not reported.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: { default: 'a response with id {{id}} matches no pending request' },
  fix: 'Copy the request `id` into its response unchanged (same type and value), once.',
  examples: {
    wrong: { value: { event: 'response-unmatched', id: '"7"' } },
    right: { value: { event: 'answered', id: '7' } },
  },
  check: reportEvent('response-unmatched', ['id']),
});
