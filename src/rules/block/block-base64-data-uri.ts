import { encodeBase64, parseDataUri } from '../../core/base64.js';
import { getIn, setIn } from '../../core/pointer.js';
import { isWellFormedMimeType } from '../../core/sniff.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { base64Fields, blockAt, mimeHolder } from './support/block.js';
import { SDK_BASED_CLIENTS, tsSdkRejects } from './support/clients.js';

export default defineRule({
  id: 'block-base64-data-uri',
  subject: 'block',
  severity: 'error',
  title: 'Base64 payloads must not carry a data: URI prefix',
  rationale: [
    '`ImageContent.data`, `AudioContent.data` and `BlobResourceContents.blob` hold raw base64; the media',
    'type goes in `mimeType`. A `data:image/png;base64,` prefix is not base64: the official TypeScript SDK',
    'checks payloads with `atob()`, which rejects the `:` and `,`, so the whole result fails. Clients that',
    'build their own data URL from the block produce `data:image/png;base64,data:image/png;base64,…`.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    tsSdkRejects('ZodError `Invalid Base64 string` (a `data:` URI prefix fails `atob`)'),
    ...SDK_BASED_CLIENTS,
  ],
  messages: {
    default: '{{field}} starts with a data: URI prefix ({{prefix}}); it must be raw base64',
  },
  fix: 'Remove the `data:…;base64,` prefix and put the media type in `mimeType`.',
  examples: {
    wrong: { value: { type: 'image', data: 'data:image/png;base64,iVBORw0KGgo=', mimeType: 'image/png' } },
    right: { value: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
  },
  check(block, ctx) {
    for (const { path, value } of base64Fields(block)) {
      const parsed = parseDataUri(value);
      if (!parsed) continue;
      const prefix = value.slice(0, value.length - parsed.payload.length);
      ctx.report({
        path,
        data: { field: path.join('.'), prefix: prefix.length > 40 ? `${prefix.slice(0, 39)}…` : prefix },
      });
    }
  },
  repair(ctx) {
    const block = blockAt(ctx);
    const value = getIn(ctx.root, ctx.findingPath);
    if (!block || typeof value !== 'string') return undefined;
    const parsed = parseDataUri(value);
    if (!parsed) return undefined;
    const relative = ctx.findingPath.slice(ctx.subjectPath.length);
    let payload = parsed.payload;
    if (!parsed.base64) {
      // A percent-encoded data URI (common for SVG): decode it and encode the bytes as base64.
      try {
        payload = encodeBase64(new TextEncoder().encode(decodeURIComponent(payload)));
      } catch {
        return undefined;
      }
    }
    setIn(ctx.root, ctx.findingPath, payload);
    const holder = mimeHolder(block, relative);
    let adopted = '';
    if (holder && typeof holder.mimeType !== 'string' && isWellFormedMimeType(parsed.mimeType)) {
      holder.mimeType = parsed.mimeType;
      adopted = ` and took mimeType ${parsed.mimeType} from it`;
    }
    return { description: `removed the data: URI prefix from ${relative.join('.')}${adopted}` };
  },
});
