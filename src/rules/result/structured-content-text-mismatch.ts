import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import { hasTextMirror, jsonOfText, MIRRORED_WEATHER, textBlocks } from '../support/call-tool-result.js';
import { CONTENT_ONLY_CLIENTS, STRUCTURED_ONLY_CLIENTS } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'structured-content-text-mismatch',
  subject: 'result',
  severity: 'warning',
  title: 'The JSON text mirror must say the same as structuredContent',
  rationale: [
    'The text block that mirrors `structuredContent` exists so that every client sees the same data',
    '(tools.mdx: "return the serialized JSON in a TextContent block"). Clients split on which one they',
    'read: Codex, Claude Code and VS Code send only `structuredContent` to the model, while Gemini CLI,',
    'Goose, Zed and Continue send only `content`. When a text block holds JSON that differs from',
    '`structuredContent`, the model sees different data depending on the client; a lossy summary in',
    'structuredContent hid a 29 KB body from Claude Code (anthropics/claude-code #55677).',
  ].join('\n'),
  versions: versionsFrom('2025-06-18'),
  clients: [...STRUCTURED_ONLY_CLIENTS, ...CONTENT_ONLY_CLIENTS.filter((c) => c.client !== 'claude-desktop')],
  messages: {
    default: 'text block {{index}} holds JSON that differs from structuredContent',
  },
  fix: 'Serialize structuredContent itself into the text block, or put the full data in both.',
  examples: {
    wrong: {
      value: {
        content: [{ type: 'text', text: '{"temperature":20}' }],
        structuredContent: { temperature: 22 },
      },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: MIRRORED_WEATHER,
      protocolVersion: '2025-06-18',
    },
  },
  needsCompleteDocument: true,
  check(result, ctx) {
    if (!isObject(result) || result.structuredContent === undefined) return;
    if (hasTextMirror(result, result.structuredContent)) return;
    const json = textBlocks(result).find(({ text }) => jsonOfText(text) !== undefined);
    if (json) ctx.report({ path: ['content', json.index, 'text'], data: { index: json.index } });
  },
});
