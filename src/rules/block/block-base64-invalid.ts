import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { base64Fields, preview } from './support/block.js';
import { SDK_BASED_CLIENTS, tsSdkRejects } from './support/clients.js';

export default defineRule({
  id: 'block-base64-invalid',
  subject: 'block',
  severity: 'error',
  title: 'Base64 payloads must decode',
  rationale: [
    '`data` of image and audio blocks and `blob` of embedded resources are base64 (`format: "byte"` in',
    'the schema). The official TypeScript SDK checks them with `atob()`; a string `atob` rejects (stray',
    'characters, a length that cannot be base64) fails the whole result. Nothing can recover the bytes,',
    'so the repair replaces the block with a text block that says what was dropped.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [tsSdkRejects('ZodError `Invalid Base64 string`'), ...SDK_BASED_CLIENTS],
  messages: {
    default: '{{field}} is not valid base64 ({{preview}})',
  },
  fix: 'Encode the bytes with standard base64 (RFC 4648 §4).',
  examples: {
    wrong: { value: { type: 'image', data: 'not base64!', mimeType: 'image/png' } },
    right: { value: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
  },
  check(block, ctx) {
    for (const { path, value, facts } of base64Fields(block)) {
      if (facts.problem !== 'invalid') continue;
      ctx.report({ path, data: { field: path.join('.'), preview: preview(value, 24) } });
    }
  },
});
