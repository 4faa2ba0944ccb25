import { decodeBase64Prefix, decodedLength } from '../../core/base64.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { payloadFactsAt } from '../../core/payload.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import {
  mebibytes,
  RESPONSE_ENVELOPE_BYTES,
  SDK_STDIO_MAX_BYTES,
  SMALLEST_CLIENT_LIMIT_BYTES,
  serialization,
} from '../support/serialization.js';
import { defineRule } from '../types.js';

/** Claude Desktop: "result exceeds maximum length of 1048576". */
const CLAUDE_DESKTOP_MAX_BYTES = SMALLEST_CLIENT_LIMIT_BYTES;
/** The Anthropic API behind Claude Code: "image exceeds 5 MB maximum". */
const CLAUDE_IMAGE_MAX_BYTES = 5 * 1024 * 1024;
/** Claude Code's MAX_MCP_OUTPUT_TOKENS default. */
const CLAUDE_CODE_MAX_TOKENS = 25_000;
/** The Anthropic API: "image dimensions exceed max allowed size: 8000 pixels". */
const CLAUDE_IMAGE_MAX_PIXELS = 8000;
/** A common rough tokenizer ratio; the message says it is an estimate. */
const CHARS_PER_TOKEN = 4;

/**
 * Width and height of a PNG image. The payload facts have them from the decoded header; a payload atob
 * rejects is still read as far as its first characters decode.
 */
function pngDimensions(block: JsonObject, base64: string): { width: number; height: number } | undefined {
  const facts = payloadFactsAt(block, 'data');
  if (facts && (facts.problem === undefined || facts.problem === 'non-canonical')) return facts.pngSize;
  const bytes = decodeBase64Prefix(base64, 24);
  if (!bytes || bytes.length < 24 || bytes[0] !== 0x89 || bytes[1] !== 0x50 || bytes[2] !== 0x4e)
    return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

export default defineRule({
  id: 'result-over-client-limits',
  subject: 'result',
  severity: 'warning',
  title: 'Results over known client size limits are refused or truncated',
  rationale: [
    'The protocol sets no size limit, but clients do. Claude Desktop refuses results over 1 MiB',
    '("result exceeds maximum length of 1048576", PrefectHQ/fastmcp #1036). Claude Code sends images to',
    'the Anthropic API, which refuses images over 5 MB ("image exceeds 5 MB maximum", anthropics/claude-code',
    '#11181, #2146), and it caps MCP output at 25,000 tokens (MAX_MCP_OUTPUT_TOKENS; base64 images count,',
    '#9152). The same API refuses images over 8000 pixels on a side, which ended Claude Code sessions',
    '(#5147, #20605; measured here for PNG). Tokens are estimated here at 4 characters per token; the real count depends on the model.',
    'Over stdio, the official TypeScript SDK clients (v1 and v2) hold at most 10 MiB of the stream',
    '(their ReadBuffer): a longer message closes the connection, and every call in flight fails with it',
    '(reproduced over a real pipe, through a client built on the SDK). The size is measured as JSON.stringify',
    'would write the result; one it cannot write at all is `result-not-serializable`.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'limits',
      detail: 'over stdio, `ReadBuffer exceeded maximum size of 10485760 bytes`: the transport closes',
      source:
        '@modelcontextprotocol/sdk 1.32.2 dist/esm/shared/stdio.js (STDIO_DEFAULT_MAX_BUFFER_SIZE); reproduced over a real pipe',
    },
    {
      client: 'ts-sdk-v2',
      effect: 'limits',
      detail: 'over stdio, `ReadBuffer exceeded maximum size of 10485760 bytes`: the transport closes',
      source: '@modelcontextprotocol/client 2.4.0 (STDIO_DEFAULT_MAX_BUFFER_SIZE, ReadBuffer)',
    },
    {
      client: 'claude-desktop',
      effect: 'limits',
      detail: '`result exceeds maximum length of 1048576`',
      source: 'PrefectHQ/fastmcp #1036',
    },
    {
      client: 'claude-code',
      effect: 'limits',
      detail:
        '`image exceeds 5 MB maximum`; `image dimensions exceed max allowed size: 8000 pixels`; output over 25,000 tokens is refused (MAX_MCP_OUTPUT_TOKENS)',
      source: 'anthropics/claude-code #11181, #2146, #5147, #20605, #9152',
    },
  ],
  messages: {
    default: 'the result is {{size}} serialized; Claude Desktop refuses results over 1 MiB',
    sdkStdio:
      'the result is {{size}} serialized; over stdio, the official TypeScript SDK clients close the connection on a message over 10 MiB',
    dimensions:
      "image block {{index}} is {{width}}×{{height}} px; Claude Code's API refuses images over 8000 px a side",
    image: 'image block {{index}} is {{size}} decoded; Claude Code refuses images over 5 MB',
    tokens:
      'the result is about {{tokens}} tokens (estimated at 4 characters per token); Claude Code refuses MCP output over 25,000 tokens',
  },
  fix: 'Return less: page the data, downscale or compress images, or return a resource_link to fetch.',
  examples: {
    wrong: {
      value: { content: [{ type: 'text', text: 'x'.repeat(110_000) }] },
      protocolVersion: '2025-06-18',
    },
    right: { value: { content: [{ type: 'text', text: 'x'.repeat(1_000) }] }, protocolVersion: '2025-06-18' },
  },
  needsCompleteDocument: true,
  check(result, ctx) {
    if (!isObject(result)) return;
    const serialized = serialization(result);
    // No size: JSON.stringify throws on it (result-not-serializable).
    if (!('size' in serialized)) return;
    const { units, bytes } = serialized.size;
    if (bytes > CLAUDE_DESKTOP_MAX_BYTES) ctx.report({ data: { size: mebibytes(bytes) } });
    if (bytes + RESPONSE_ENVELOPE_BYTES > SDK_STDIO_MAX_BYTES)
      ctx.report({ messageId: 'sdkStdio', data: { size: mebibytes(bytes) } });
    const tokens = Math.ceil(units / CHARS_PER_TOKEN);
    if (tokens > CLAUDE_CODE_MAX_TOKENS) ctx.report({ messageId: 'tokens', data: { tokens } });
    if (!Array.isArray(result.content)) return;
    result.content.forEach((block, index) => {
      if (!isObject(block) || block.type !== 'image' || typeof block.data !== 'string') return;
      const size = decodedLength(block.data);
      const dimensions = pngDimensions(block, block.data);
      if (dimensions && Math.max(dimensions.width, dimensions.height) > CLAUDE_IMAGE_MAX_PIXELS) {
        ctx.report({
          messageId: 'dimensions',
          path: ['content', index, 'data'],
          data: { index, ...dimensions },
        });
      }
      if (size > CLAUDE_IMAGE_MAX_BYTES) {
        ctx.report({
          messageId: 'image',
          path: ['content', index, 'data'],
          data: { index, size: mebibytes(size) },
        });
      }
    });
  },
});
