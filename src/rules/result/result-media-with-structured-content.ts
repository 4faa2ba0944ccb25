import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'result-media-with-structured-content',
  subject: 'result',
  severity: 'warning',
  title: 'Images and audio next to structuredContent are lost in some clients',
  rationale: [
    'Some clients give the model only `structuredContent` when a result has it, and drop every content',
    'block, images and audio included. Codex does so, and Claude Code did until 2.1.128: a Go SDK server',
    'whose handler always set structuredContent had its screenshots silently dropped',
    '(anthropics/claude-code #54737). The protocol allows the combination, so this is a warning.',
  ].join('\n'),
  versions: versionsFrom('2025-06-18'),
  clients: [
    {
      client: 'codex',
      effect: 'drops-content',
      detail: 'only structuredContent reaches the model; the image is lost',
      source:
        'openai/codex codex-rs/protocol/src/models.rs (CallToolResult::as_function_call_output_payload)',
    },
    {
      client: 'claude-code',
      effect: 'drops-content',
      detail: 'images silently dropped when structuredContent is present (before 2.1.128)',
      source: 'anthropics/claude-code #54737',
    },
  ],
  messages: {
    default:
      '{{type}} block {{index}} sits next to structuredContent; clients that prefer structuredContent drop it',
  },
  fix: 'Return media without structuredContent (no outputSchema for this tool), or describe it in structuredContent.',
  examples: {
    wrong: {
      value: {
        content: [
          { type: 'text', text: '{"width":1}' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        ],
        structuredContent: { width: 1 },
      },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] },
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || result.structuredContent === undefined || !Array.isArray(result.content)) return;
    result.content.forEach((block, index) => {
      if (isObject(block) && (block.type === 'image' || block.type === 'audio')) {
        ctx.report({ path: ['content', index], data: { type: block.type, index } });
      }
    });
  },
});
