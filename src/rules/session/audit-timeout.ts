import {
  CLIENTS,
  type ClientId,
  type ClientImpact,
  OFFICIAL_SDK_CLIENTS,
  requestTimeoutOf,
} from '../../clients/catalog.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import type { SessionEvent } from '../types.js';
import { defineRule } from '../types.js';

/** Clients with a known, finite default request timeout, shortest first. */
const TIMED_CLIENTS = (Object.keys(CLIENTS) as ClientId[])
  .flatMap((id) => {
    const timeout = requestTimeoutOf(id);
    return typeof timeout?.ms === 'number' ? [{ id, ms: timeout.ms, source: timeout.source }] : [];
  })
  .sort((a, b) => a.ms - b.ms);

const seconds = (ms: number) => `${Math.round(ms / 100) / 10}`;

const CLIENT_IMPACTS: readonly ClientImpact[] = TIMED_CLIENTS.map(({ id, ms, source }) => ({
  client: id,
  effect: 'rejects-call',
  detail: `gives up on a request after ${seconds(ms)} s by default`,
  source,
}));

/**
 * The clients that gave up before `ms`: on an answer after `ms`, those whose timeout is shorter; on
 * no answer within `ms`, those whose timeout is not longer (the answer, if any, comes later still).
 */
function clientsGivingUp(ms: number, answered: boolean): typeof TIMED_CLIENTS {
  return TIMED_CLIENTS.filter((c) => (answered ? c.ms < ms : c.ms <= ms));
}

export default defineRule({
  id: 'audit-timeout',
  subject: 'session',
  severity: 'error',
  messageSeverity: { clients: 'warning', unjudged: 'warning' },
  title: 'Every request gets a response before the client gives up',
  rationale: [
    'JSON-RPC: "the receiver MUST reply" to every request, and the MCP lifecycle lets clients "establish',
    'timeouts for all sent requests" and cancel them. Each client gives up after its own default: the',
    'official TypeScript SDKs after 60 s, Zed and Cline after 60 s, Codex and Goose after 300 s, Gemini',
    'CLI after 600 s; the Python SDK waits without limit (sources in the table below). The user of a',
    'client that gave up sees a timeout instead of the result or the error that caused it.',
    '',
    'The audit measures how long each request takes and names exactly the clients whose default the',
    'latency exceeds: an error when that includes the official SDK clients, a warning when only other',
    "clients give up. It waits `--timeout` seconds (default 61, just past the SDKs' 60 s) from the last",
    'byte the server sent, so a stream of progress notifications does not end the wait, up to a hard cap',
    'of four times that; then it sends `notifications/cancelled` and restarts the server for the next call.',
    'With a `--timeout` shorter than every known default, a request left unanswered is reported as',
    'not judged.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: CLIENT_IMPACTS,
  messages: {
    default: '{{method}} {{outcome}} {{seconds}} s, longer than {{clients}} wait by default',
    clients: '{{method}} {{outcome}} {{seconds}} s, longer than {{clients}} wait by default',
    unjudged:
      'no response to {{method}} in the {{seconds}} s the audit waited (--timeout); no client is known to give up that early (the official SDKs wait 60 s): rerun with a longer --timeout to judge',
  },
  fix: 'Answer every request in time: with an error result (`isError: true`) if the work fails or takes too long, or send the work to the background and return at once.',
  examples: {
    wrong: { value: { event: 'timeout', method: 'tools/call get_weather', ms: 61000 } },
    right: { value: { event: 'answered', method: 'tools/call get_weather', ms: 20000 } },
  },
  check(node, ctx) {
    const observed = node as SessionEvent;
    if (observed.event !== 'timeout' && observed.event !== 'answered') return;
    const ms = Number(observed.ms);
    if (!Number.isFinite(ms)) return;
    const answered = observed.event === 'answered';
    const late = clientsGivingUp(ms, answered);
    const method = String(observed.method ?? 'a request');
    if (late.length === 0) {
      // No client is known to have given up: the finding names none (a rule's clients are all named
      // when a finding does not narrow them).
      if (!answered)
        ctx.report({ messageId: 'unjudged', data: { method, seconds: seconds(ms), affected: '' } });
      return;
    }
    const official = late.some((c) => OFFICIAL_SDK_CLIENTS.includes(c.id));
    ctx.report({
      messageId: official ? 'default' : 'clients',
      data: {
        method,
        outcome: answered ? 'answered after' : 'got no answer in',
        seconds: seconds(ms),
        clients: late.map((c) => `${CLIENTS[c.id].name} (${seconds(c.ms)} s)`).join(', '),
        // Which clients exactly, for reporters that list the clients a finding breaks.
        affected: late.map((c) => c.id).join(','),
      },
    });
  },
});
