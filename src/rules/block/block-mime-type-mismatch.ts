import { agreesWithBytes, isWellFormedMimeType, mediaFamily, sniffedMediaType } from '../../core/sniff.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { blockAt, mimeTypeFields } from './support/block.js';
import { applySniffedType } from './support/convert.js';

export default defineRule({
  id: 'block-mime-type-mismatch',
  subject: 'block',
  severity: 'warning',
  title: 'mimeType must match the bytes',
  rationale: [
    'Clients trust the declared `mimeType`: they label the bytes with it when passing them to a model',
    'API or a renderer. JPEG bytes declared as `image/png` (a common copy-paste slip) are then decoded',
    'with the wrong codec or refused by the model API. The type is sniffed from the bytes with file-type;',
    'SVG, which has no binary signature, is recognised from its markup. Bytes of no known type contradict',
    'a declared PNG, JPEG, GIF, WebP, BMP, WAV or Ogg all the same: every such file begins with a fixed',
    'signature, and bytes without it (text, an error page, a truncated or double-encoded payload, or no',
    'bytes at all) are no such file.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'codex',
      effect: 'misreads',
      detail: 'the model API receives a `data:` URL whose type contradicts its bytes',
      source: 'codex-rs/protocol/src/models.rs (inferred)',
    },
    {
      client: 'vscode-copilot',
      effect: 'misreads',
      detail: 'the image resizer and the model get the declared type, not the real one',
      source: 'vscode mcpLanguageModelToolContribution.ts (inferred)',
    },
  ],
  messages: {
    default: 'mimeType {{declared}} contradicts the bytes, which look like {{sniffed}}',
    noSignature: 'mimeType {{declared}} contradicts the bytes, which do not begin with its signature',
    empty: 'mimeType {{declared}} contradicts the payload, which is empty',
    noSignatureText:
      'mimeType {{declared}} contradicts the bytes, which do not begin with its signature and look like text',
  },
  fix: 'Declare {{sniffed}}, or send the bytes the declared type promises.',
  examples: {
    wrong: {
      value: {
        type: 'image',
        data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        mimeType: 'image/jpeg',
      },
    },
    right: {
      value: {
        type: 'image',
        data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
        mimeType: 'image/png',
      },
    },
  },
  check(block, ctx) {
    for (const field of mimeTypeFields(block)) {
      const declared = field.value;
      if (!field.payloadPath || typeof declared !== 'string' || !isWellFormedMimeType(declared)) continue;
      // A wrong family is block-mime-type-wrong-family's finding; do not report the same slip twice.
      const blockType = (block as { type?: unknown }).type;
      if (field.required && mediaFamily(declared) !== blockType) continue;
      const sniffed = ctx.sniffed(field.payloadPath);
      if (!sniffed || agreesWithBytes(declared, sniffed)) continue;
      const shown = sniffedMediaType(sniffed);
      if (shown !== undefined) {
        ctx.report({ path: field.path, data: { declared, sniffed: shown } });
        continue;
      }
      ctx.report({
        path: field.path,
        messageId: sniffed.signature === '' ? 'empty' : sniffed.text ? 'noSignatureText' : 'noSignature',
        data: { declared, sniffed: "the bytes' own type" },
        // Bytes of no known type give repair no type to declare instead.
        manual: true,
      });
    }
  },
  repair(ctx) {
    const block = blockAt(ctx);
    if (!block) return undefined;
    const relative = ctx.findingPath.slice(ctx.subjectPath.length).join('/');
    const field = mimeTypeFields(block).find((f) => f.path.join('/') === relative);
    if (!field?.payloadPath) return undefined;
    const sniffed = ctx.sniffed([...ctx.subjectPath, ...field.payloadPath]);
    const shown = sniffed ? sniffedMediaType(sniffed) : undefined;
    const description = shown ? applySniffedType(ctx, block, shown) : undefined;
    return description === undefined ? undefined : { description };
  },
});
