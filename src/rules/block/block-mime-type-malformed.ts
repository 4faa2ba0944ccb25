import { isObject } from '../../core/json.js';
import { deleteIn, setIn } from '../../core/pointer.js';
import { canonicalMimeType, isWellFormedMimeType, type Sniffed, sniffedMediaType } from '../../core/sniff.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { blockAt, mimeTypeFields, preview } from './support/block.js';
import { applySniffedType } from './support/convert.js';

export default defineRule({
  id: 'block-mime-type-malformed',
  subject: 'block',
  severity: 'warning',
  title: 'mimeType must be a media type such as image/png',
  rationale: [
    'The schema types `mimeType` only as a string, but clients use it as a media type: they build',
    '`data:<mimeType>;base64,…` URLs for model APIs, pick a renderer by it, or compare it with the types',
    'they support. A value that is not `type/subtype` (`png`, `image`, `image/ png`) makes those clients',
    'guess, skip the content or send a request the model API refuses.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'codex',
      effect: 'misreads',
      detail: 'sends the image to the model as a `data:<mimeType>;base64` URL built from the declared type',
      source: 'codex-rs/protocol/src/models.rs (inferred)',
    },
    {
      client: 'librechat',
      effect: 'misreads',
      detail: 'builds an `image_url` artifact `data:<mime>;base64,…` from the declared type',
      source: 'LibreChat packages/api/src/mcp/parsers.ts (inferred)',
    },
  ],
  messages: {
    default: 'mimeType {{value}} is not a media type of the form type/subtype',
  },
  fix: 'Declare a full media type, e.g. `image/png` rather than `png`.',
  examples: {
    wrong: { value: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'png' } },
    right: { value: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
  },
  check(block, ctx) {
    for (const field of mimeTypeFields(block)) {
      if (typeof field.value !== 'string' || isWellFormedMimeType(field.value)) continue;
      // The repair goes by the bytes, then by the value itself; a required mimeType it can read from
      // neither ("image" on bytes of no known format) is left as it is, so the fix is not automatic.
      const manual =
        field.required &&
        guess(field.value, isObject(block) ? block.type : undefined) === undefined &&
        !shownType(field.payloadPath && ctx.sniffed(field.payloadPath));
      ctx.report({ path: field.path, data: { value: preview(field.value) }, ...(manual ? { manual } : {}) });
    }
  },
  repair(ctx) {
    const block = blockAt(ctx);
    if (!block) return undefined;
    const relative = ctx.findingPath.slice(ctx.subjectPath.length);
    const field = mimeTypeFields(block).find((f) => f.path.join('/') === relative.join('/'));
    if (!field || typeof field.value !== 'string') return undefined;
    const shown = shownType(field.payloadPath && ctx.sniffed([...ctx.subjectPath, ...field.payloadPath]));
    if (shown) return describe(applySniffedType(ctx, block, shown));
    const guessed = guess(field.value, block.type);
    if (guessed) {
      setIn(block, field.path, guessed);
      return { description: `replaced mimeType ${preview(field.value)} with ${guessed}` };
    }
    if (field.required) return undefined;
    deleteIn(block, field.path);
    return { description: `removed the malformed optional mimeType ${preview(field.value)}`, lossy: true };
  },
});

/** The media type the bytes show, when they were sniffed and show one. */
function shownType(sniffed: Sniffed | undefined): string | undefined {
  return sniffed ? sniffedMediaType(sniffed) : undefined;
}

function describe(description: string | undefined) {
  return description === undefined ? undefined : { description };
}

/** Reads the common malformations: stray spaces and case, or a bare extension on an image/audio block. */
function guess(value: string, blockType: unknown): string | undefined {
  const squeezed = value.replace(/\s+/g, '').toLowerCase();
  if (isWellFormedMimeType(squeezed)) return squeezed;
  const family = blockType === 'image' || blockType === 'audio' ? blockType : undefined;
  const extension = squeezed.replace(/^\./, '');
  if (family && extension !== family && /^[a-z0-9][a-z0-9.+-]*$/.test(extension)) {
    const candidate = canonicalMimeType(`${family}/${EXTENSIONS[extension] ?? extension}`);
    return isWellFormedMimeType(candidate) ? candidate : undefined;
  }
  return undefined;
}

/** Extensions whose media subtype is spelled differently. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  jpg: 'jpeg',
  svg: 'svg+xml',
  mp3: 'mpeg',
  tif: 'tiff',
  ico: 'vnd.microsoft.icon',
  m4a: 'mp4',
};
