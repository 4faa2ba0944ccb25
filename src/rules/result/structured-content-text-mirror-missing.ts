import { isObject } from '../../core/json.js';
import { isOpaque } from '../../core/opaque.js';
import { versionsFrom } from '../../spec/versions.js';
import {
  appendText,
  hasTextMirror,
  jsonOfText,
  MIRRORED_WEATHER,
  serialize,
  subjectObject,
  textBlocks,
} from '../support/call-tool-result.js';
import { CONTENT_ONLY_CLIENTS } from '../support/clients.js';
import { defineRule } from '../types.js';

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
    'instead.',
  ].join('\n'),
  versions: versionsFrom('2025-06-18'),
  clients: CONTENT_ONLY_CLIENTS,
  messages: {
    default: 'structuredContent has no text block with its JSON; content-only clients see nothing',
    prose: 'structuredContent has no text block with its JSON; content-only clients see only the prose text',
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
    ctx.report({ messageId: prose ? 'prose' : 'default', path: ['content'] });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    if (!result || result.structuredContent === undefined) return undefined;
    if (!appendText(result, serialize(result.structuredContent))) return undefined;
    return { description: 'added a text block carrying the JSON of structuredContent' };
  },
});
