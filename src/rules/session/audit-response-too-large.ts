import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule, type SessionEvent } from '../types.js';

/** Claude Desktop's cap on a result's length (fastmcp #1036). */
const CLAUDE_DESKTOP_LIMIT = 1_048_576;

/**
 * Bytes past which a response's result is known to be longer than Claude Desktop's cap, whatever its
 * characters: a UTF-8 byte sequence of n bytes is at least n / 3 UTF-16 units, and the envelope around
 * the result is far shorter than 1 KiB.
 */
const PAST_CLAUDE_DESKTOP = 3 * CLAUDE_DESKTOP_LIMIT + 1024;

export default defineRule({
  id: 'audit-response-too-large',
  subject: 'session',
  severity: 'error',
  title: 'Responses must stay under the size cap',
  rationale: [
    'A client has to hold a whole response in memory before it can parse it, and clients cap it:',
    'Claude Desktop rejects results over 1 MiB, and a result that large would not fit in a model',
    'context anyway. The audit stops reading a response at `--max-response-size` (default 16 MiB) so a',
    'runaway server cannot exhaust its memory; the response is not parsed.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'claude-desktop',
      effect: 'limits',
      detail: '"result exceeds maximum length of 1048576"',
      source: 'PrefectHQ/fastmcp #1036',
    },
  ],
  messages: {
    default: 'a response of more than {{bytes}} bytes exceeds the {{limit}}-byte cap; it was not parsed',
  },
  fix: 'Return large data as a resource_link, paginate it, or summarise it (Claude Desktop rejects results over 1 MiB).',
  examples: {
    wrong: { value: { event: 'response-too-large', bytes: 52428800, limit: 16777216 } },
    right: { value: { event: 'answered', method: 'tools/call export', bytes: 20480 } },
  },
  check(node, ctx) {
    const observed = node as SessionEvent;
    if (observed.event !== 'response-too-large') return;
    const bytes = Number(observed.bytes);
    const data = { bytes, limit: Number(observed.limit) };
    // Under a cap set lower (--max-response-size, a proxy's), the response may be within Claude
    // Desktop's: it is named only for a response known to be past its cap.
    ctx.report({ data: bytes > PAST_CLAUDE_DESKTOP ? data : { ...data, affected: '' } });
  },
});
