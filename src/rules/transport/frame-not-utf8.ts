import { ALL_VERSIONS } from '../../spec/versions.js';
import { FRAME_WORDS } from '../support/frame.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'frame-not-utf8',
  subject: 'frame',
  severity: 'error',
  title: 'Every frame a server sends must be valid UTF-8',
  rationale: [
    'From 2025-03-26 the transports say that "JSON-RPC messages MUST be UTF-8 encoded"; for 2024-11-05,',
    'RFC 8259 requires UTF-8 for JSON exchanged between systems. A server that writes Latin-1 text, a',
    'truncated multi-byte character or raw binary into a message breaks that.',
    'Clients disagree about what happens next, which is worse than a uniform failure. The Python SDK',
    'decodes a stdio server\'s output strictly by default (`encoding_error_handler="strict"`): the',
    'decode error ends its reader, and the session with it. The TypeScript SDK decodes each line with',
    '`Buffer#toString("utf8")`, which puts U+FFFD in place of each bad byte: the message arrives with',
    'its text silently changed. The frame is judged on its bytes, so this is reported even where the',
    'text that arrives is valid JSON.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'python-sdk',
      effect: 'rejects-call',
      detail: 'stdio: the strict decode raises UnicodeDecodeError in the stdout reader and the session ends',
      source:
        'python-sdk src/mcp/client/stdio: StdioServerParameters.encoding_error_handler defaults to "strict"',
    },
    {
      client: 'ts-sdk-v1',
      effect: 'misreads',
      detail: 'each invalid byte becomes U+FFFD in the text the client reads',
      source:
        "@modelcontextprotocol/sdk 1.32.2 dist/esm/shared/stdio.js (ReadBuffer: this._buffer.toString('utf8', …))",
    },
  ],
  messages: {
    default: '{{frame}} is not valid UTF-8: byte {{offset}} (0x{{byte}}) begins no valid UTF-8 sequence',
  },
  fix: 'Write every message as UTF-8: encode text explicitly (in Python, sys.stdout.reconfigure(encoding="utf-8") or a UTF-8 writer), and send binary data as base64.',
  examples: {
    wrong: {
      value: null,
      frame: {
        transport: 'stdio',
        text: '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Caf\uFFFD"}]}}',
        invalidUtf8: { offset: 64, byte: 0xe9 },
      },
    },
    right: {
      value: null,
      frame: {
        transport: 'stdio',
        text: '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Café"}]}}',
      },
    },
  },
  check(node, ctx) {
    const frame = node as { transport: string; invalidUtf8?: { offset: number; byte: number } };
    const bad = frame.invalidUtf8;
    if (bad === undefined) return;
    ctx.report({
      data: {
        frame: FRAME_WORDS[frame.transport] ?? 'the frame',
        offset: String(bad.offset),
        byte: bad.byte.toString(16).toUpperCase().padStart(2, '0'),
      },
    });
  },
});
