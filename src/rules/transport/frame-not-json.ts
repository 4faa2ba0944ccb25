import { tryParseJson } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { SDK_DROPS_ENVELOPE } from '../support/envelope.js';
import { FRAME_WORDS } from '../support/frame.js';
import { defineRule } from '../types.js';

/** The first characters of a frame, for the message: enough to recognise a log line or an HTML page. */
function excerpt(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 60 ? `${oneLine.slice(0, 57)}…` : oneLine;
}

function parses(text: string): boolean {
  return tryParseJson(text) !== undefined;
}

export default defineRule({
  id: 'frame-not-json',
  subject: 'frame',
  severity: 'error',
  title: 'Every frame a server sends must be one JSON-RPC message in JSON',
  rationale: [
    'On stdio, "the server MUST NOT write anything to its stdout that is not a valid MCP message";',
    'messages are newline-delimited JSON, so a log line, a banner or a blank line on stdout breaks the',
    'stream. Over Streamable HTTP every `application/json` body and every SSE `data` field carries one',
    'JSON-RPC message. Clients parse each frame with `JSON.parse`: the official TypeScript SDK hands the',
    'error to `transport.onerror` and drops the frame, so a response hidden in it never arrives and the',
    'call hangs until its timeout. Write logs to stderr.',
    '',
    'A byte order mark (U+FEFF) before the JSON counts too: a stdio client decodes each line as UTF-8',
    'and keeps the mark, which `JSON.parse` rejects (a server that writes one before its answer to',
    '`initialize` never completes a handshake). Over HTTP a mark at the start of a body is dropped in',
    'decoding, as `fetch` drops it, and is not reported. The proxy drops a mark before a message and',
    'forwards the message.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: SDK_DROPS_ENVELOPE,
  messages: {
    default: 'stdout line is not JSON: "{{excerpt}}"',
    empty: 'empty line on stdout (a client parses it as a message and fails)',
    http: 'HTTP response body is not JSON: "{{excerpt}}"',
    sse: 'SSE event data is not JSON: "{{excerpt}}"',
    bom: '{{frame}} starts with a byte order mark (U+FEFF) before its JSON, which JSON.parse rejects',
  },
  fix: 'Print only JSON-RPC messages on stdout (one per line, UTF-8 without a byte order mark) and send logs to stderr.',
  examples: {
    wrong: { value: null, frame: { transport: 'stdio', text: 'Server listening on stdio' } },
    right: { value: null, frame: { transport: 'stdio', text: '{"jsonrpc":"2.0","id":1,"result":{}}' } },
  },
  check(node, ctx) {
    const frame = node as { transport: string; text: string };
    // What does not parse is reported below; the message depends on the transport.
    if (parses(frame.text)) return;
    if (frame.transport === 'stdio' && frame.text.trim() === '') {
      ctx.report({ messageId: 'empty' });
      return;
    }
    if (frame.text.startsWith('\uFEFF') && parses(frame.text.slice(1))) {
      ctx.report({ messageId: 'bom', data: { frame: FRAME_WORDS[frame.transport] ?? 'the frame' } });
      return;
    }
    const messageId = frame.transport === 'stdio' ? 'default' : frame.transport;
    ctx.report({ messageId, data: { excerpt: excerpt(frame.text) } });
  },
});
