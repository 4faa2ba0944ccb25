import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { base64Fields, canonicalizeBase64At } from './support/block.js';
import { SDK_BASED_CLIENTS, tsSdkRejects } from './support/clients.js';

export default defineRule({
  id: 'block-base64-url-alphabet',
  subject: 'block',
  severity: 'error',
  title: 'Base64 payloads must use the standard alphabet, not base64url',
  rationale: [
    'MCP payloads are standard base64 (RFC 4648 §4, `+` and `/`). base64url (§5, `-` and `_`, often',
    'unpadded) is what JWT and URL libraries emit; `atob()` rejects it, so the official TypeScript SDK',
    'fails the whole result. The bytes are intact, so the repair only translates the alphabet.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [tsSdkRejects('ZodError `Invalid Base64 string`'), ...SDK_BASED_CLIENTS],
  messages: {
    default: '{{field}} uses the base64url alphabet (- and _); MCP requires standard base64 (+ and /)',
  },
  fix: 'Encode with standard base64, or replace `-` with `+` and `_` with `/` and restore the `=` padding.',
  examples: {
    wrong: { value: { type: 'image', data: '_9j_4AAQSkZJRg', mimeType: 'image/jpeg' } },
    right: { value: { type: 'image', data: '/9j/4AAQSkZJRg==', mimeType: 'image/jpeg' } },
  },
  check(block, ctx) {
    for (const { path, facts } of base64Fields(block)) {
      if (facts.problem === 'base64url') ctx.report({ path, data: { field: path.join('.') } });
    }
  },
  repair(ctx) {
    return canonicalizeBase64At(ctx, 'translated from base64url to standard base64:');
  },
});
