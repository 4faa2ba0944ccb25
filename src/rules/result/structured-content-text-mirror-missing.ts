import { isObject, type JsonObject } from '../../core/json.js';
import { jsonOfJsonTextBytes, jsonTextBytes } from '../../core/json-size.js';
import { isOpaque } from '../../core/opaque.js';
import { versionsFrom } from '../../spec/versions.js';
import {
  appendText,
  compactJson,
  hasTextMirror,
  jsonOfText,
  MIRRORED_WEATHER,
  serialize,
  subjectObject,
  textBlocks,
} from '../support/call-tool-result.js';
import { CONTENT_ONLY_CLIENTS } from '../support/clients.js';
import {
  mebibytes,
  RESPONSE_ENVELOPE_BYTES,
  SDK_STDIO_MAX_BYTES,
  SMALLEST_CLIENT_LIMIT_BYTES,
  serialization,
} from '../support/serialization.js';
import { defineRule } from '../types.js';

/**
 * The bytes of the result as a response with a mirror of its structuredContent added, when they pass
 * SDK_STDIO_MAX_BYTES; else `undefined`. A result under SMALLEST_CLIENT_LIMIT_BYTES (whose `bytes` are
 * its UTF-16 units, at most 3 MiB of UTF-8) cannot get there: a mirror at most doubles its JSON.
 */
function bytesWithMirror(result: JsonObject): number | undefined {
  const serialized = serialization(result);
  if (!('size' in serialized) || serialized.size.bytes <= SMALLEST_CLIENT_LIMIT_BYTES) return undefined;
  const json = compactJson(result.structuredContent);
  if (json === undefined) return undefined;
  // `,{"type":"text","text":…}` around the mirror's JSON string.
  const block = jsonOfJsonTextBytes(json, jsonTextBytes(json)) + 26;
  const total = serialized.size.bytes + block + RESPONSE_ENVELOPE_BYTES;
  return total > SDK_STDIO_MAX_BYTES ? total : undefined;
}

export default defineRule({
  id: 'structured-content-text-mirror-missing',
  subject: 'result',
  severity: 'warning',
  title: 'structuredContent should be mirrored as JSON in a text block',
  rationale: [
    'tools.mdx (2025-06-18 on): "For backwards compatibility, a tool that returns structured content',
    'SHOULD also return the serialized JSON in a TextContent block." (SEP-2106 even says MUST for',
    'non-object values.) Many clients never read `structuredContent`: Claude Desktop shows nothing for a',
    'result with empty content, and Gemini CLI, Goose, Zed and Continue pass only `content` to the model.',
    'When a text block already holds JSON that differs, `structured-content-text-mismatch` reports it',
    'instead. A mirror makes the result about as long again: where that would take it past the 10 MiB',
    'the official TypeScript SDK clients read from stdio (see `result-over-client-limits`), which closes',
    'the connection, the mirror is not added, and the finding says why.',
  ].join('\n'),
  versions: versionsFrom('2025-06-18'),
  clients: CONTENT_ONLY_CLIENTS,
  messages: {
    default: 'structuredContent has no text block with its JSON; content-only clients see nothing',
    prose: 'structuredContent has no text block with its JSON; content-only clients see only the prose text',
    tooLarge:
      'structuredContent has no text block with its JSON, and one would make the result {{size}}, past the 10 MiB the official TypeScript SDK clients read from stdio',
  },
  fix: 'Add `{ "type": "text", "text": JSON.stringify(structuredContent) }` to content.',
  examples: {
    wrong: { value: { content: [], structuredContent: { temperature: 22 } }, protocolVersion: '2025-06-18' },
    right: {
      value: MIRRORED_WEATHER,
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || result.structuredContent === undefined) return;
    if (!Array.isArray(result.content) || hasTextMirror(result, result.structuredContent)) return;
    const texts = textBlocks(result);
    // JSON text that differs is a disagreement, not a missing mirror.
    if (texts.some(({ text }) => jsonOfText(text) !== undefined)) return;
    // A text block whose text the source does not fix (scan: `text: content`) still shows the
    // client something: not the JSON of structuredContent, or the mirror check above knew it.
    const prose =
      texts.length > 0 ||
      result.content.some((block) => isObject(block) && block.type === 'text' && isOpaque(block.text));
    const withMirror = bytesWithMirror(result);
    if (withMirror !== undefined) {
      // Added, the mirror would lose the connection: reported, and not repaired.
      ctx.report({
        messageId: 'tooLarge',
        path: ['content'],
        data: { size: mebibytes(withMirror) },
        manual: true,
      });
      return;
    }
    ctx.report({ messageId: prose ? 'prose' : 'default', path: ['content'] });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    if (!result || result.structuredContent === undefined) return undefined;
    if (bytesWithMirror(result) !== undefined) return undefined;
    if (!appendText(result, serialize(result.structuredContent))) return undefined;
    return { description: 'added a text block carrying the JSON of structuredContent' };
  },
});
