import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { base64Fields, canonicalizeBase64At } from './support/block.js';

export default defineRule({
  id: 'block-base64-non-canonical',
  subject: 'block',
  severity: 'warning',
  title: 'Base64 payloads should be canonical: no whitespace, with padding',
  rationale: [
    '`atob()`, and so the official TypeScript SDK, forgives line breaks, spaces and missing `=` padding,',
    'but strict RFC 4648 decoders do not: Python\'s `base64.b64decode` raises "Incorrect padding", Go\'s',
    "`StdEncoding` and Rust's `base64` STANDARD engine reject both, and Ajv with ajv-formats fails",
    'the schema\'s `format: "byte"`. Clients that decode payloads with them lose the image or file.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: {
    default: '{{field}} is not canonical base64 ({{reason}}); strict decoders reject it',
  },
  fix: 'Emit base64 without line breaks and with `=` padding.',
  examples: {
    wrong: { value: { type: 'image', data: 'iVBORw0K\nGgo', mimeType: 'image/png' } },
    right: { value: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
  },
  check(block, ctx) {
    for (const { path, value, facts } of base64Fields(block)) {
      if (facts.problem !== 'non-canonical') continue;
      const reason = /\s/.test(value) ? 'it contains whitespace' : 'the = padding is missing';
      ctx.report({ path, data: { field: path.join('.'), reason } });
    }
  },
  repair(ctx) {
    return canonicalizeBase64At(ctx, 'normalized to canonical base64:');
  },
});
