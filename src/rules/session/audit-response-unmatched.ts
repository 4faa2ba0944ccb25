import { ALL_VERSIONS } from '../../spec/versions.js';
import type { SessionEvent } from '../types.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-response-unmatched',
  subject: 'session',
  severity: 'error',
  messageSeverity: { duplicate: 'warning', stray: 'warning' },
  title: 'Every response answers a request that was sent',
  rationale: [
    'JSON-RPC: a response "MUST" carry "the same value as the id member in the Request Object" it answers.',
    'A client finds the request a response answers by its id alone. A response whose id matches no request',
    'in flight is dropped: the official TypeScript SDK client reports "Received a response for an unknown',
    'message ID" and the Python SDK client "Received response with an unknown request ID". When requests',
    'were waiting for their answers meanwhile, this was most likely one of them, sent with a wrong id, and',
    'that request waits until the client gives up: an error. A second answer to a request already answered,',
    'or a response while no request was waiting, is dropped without harm: a warning.',
    '',
    'Late answers to requests the audit already gave up on are not reported (audit-timeout reports the',
    'wait). A number sent back as a string is audit-response-id-converted.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: {
    default:
      'a response with id {{id}} answers no request the audit sent, while {{waiting}} waited: clients drop it, and the request it was meant for waits until they give up',
    duplicate:
      'a second response with id {{id}}: its request was answered already, and clients drop this one',
    stray: 'a response with id {{id}} answers no request the audit sent',
  },
  fix: 'Copy the request `id` into its response unchanged (same type and value), and answer each request once.',
  examples: {
    wrong: { value: { event: 'response-unmatched', id: '1003', waiting: 'tools/call echo (id 3)' } },
    right: { value: { event: 'answered', method: 'tools/call echo', ms: 12 } },
  },
  check(node, ctx) {
    const observed = node as SessionEvent;
    if (observed.event !== 'response-unmatched') return;
    const id = String(observed.id ?? '');
    if (observed.answered === true) ctx.report({ messageId: 'duplicate', data: { id } });
    else if (typeof observed.waiting === 'string') ctx.report({ data: { id, waiting: observed.waiting } });
    else ctx.report({ messageId: 'stray', data: { id } });
  },
});
