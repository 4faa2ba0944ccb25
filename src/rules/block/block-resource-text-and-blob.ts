import { base64Problem } from '../../core/base64.js';
import { isObject } from '../../core/json.js';
import { mediaFamily } from '../../core/sniff.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { blockAt } from './support/block.js';

export default defineRule({
  id: 'block-resource-text-and-blob',
  subject: 'block',
  severity: 'warning',
  title: 'Embedded resource contents carry either text or blob, not both',
  rationale: [
    'Resource contents are `TextResourceContents` or `BlobResourceContents`. With both `text` and',
    '`blob` the block matches either, and clients pick differently: the TypeScript SDK keeps `text` and',
    'silently strips `blob`, so which content reaches the model depends on the client. `text` "must only',
    'be set if the item can actually be represented as text".',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'drops-content',
      detail: 'the union matches `TextResourceContents` first and strips `blob`',
      source: 'sdk 1.32.2 dist/esm/types.js (EmbeddedResourceSchema, plain z.object)',
    },
  ],
  messages: {
    default: 'embedded resource contents have both "text" and "blob"; clients keep only one of them',
  },
  fix: 'Keep `text` for textual content and `blob` for binary content, not both.',
  examples: {
    wrong: { value: { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hi', blob: 'aGk=' } } },
    right: { value: { type: 'resource', resource: { uri: 'file:///a.txt', text: 'hi' } } },
  },
  check(block, ctx) {
    if (!isObject(block) || block.type !== 'resource' || !isObject(block.resource)) return;
    const { text, blob } = block.resource;
    if (text !== undefined && blob !== undefined && (typeof text === 'string' || typeof blob === 'string')) {
      ctx.report({ path: ['resource', typeof text === 'string' ? 'blob' : 'text'] });
    }
  },
  repair(ctx) {
    const block = blockAt(ctx);
    const resource = block && isObject(block.resource) ? block.resource : undefined;
    if (!resource || resource.text === undefined || resource.blob === undefined) return undefined;
    if (typeof resource.text !== 'string' || typeof resource.blob !== 'string') {
      const junk = typeof resource.text === 'string' ? 'blob' : 'text';
      delete resource[junk];
      return { description: `removed the non-string resource.${junk}`, lossy: true };
    }
    // Binary media with decodable bytes keeps the blob; everything else keeps the text.
    const mimeType = typeof resource.mimeType === 'string' ? resource.mimeType : '';
    const binary =
      ['image', 'audio', 'video', 'font'].includes(mediaFamily(mimeType) ?? '') ||
      mimeType === 'application/octet-stream';
    const blobUsable =
      base64Problem(resource.blob) === undefined || base64Problem(resource.blob) === 'non-canonical';
    if (binary && blobUsable) {
      delete resource.text;
      return { description: 'removed resource.text and kept the binary blob', lossy: true };
    }
    delete resource.blob;
    return { description: 'removed resource.blob and kept the text', lossy: true };
  },
});
