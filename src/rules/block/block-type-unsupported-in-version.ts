import { isObject } from '../../core/json.js';
import { BLOCK_TYPES, type BlockType, blockTypeSince, versionsFrom } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { blockAt, replaceBlock, syntheticUri } from './support/block.js';
import { carryCommon, linkBlock } from './support/convert.js';

export default defineRule({
  id: 'block-type-unsupported-in-version',
  subject: 'block',
  severity: 'error',
  title: 'Content block types must exist in the negotiated protocol version',
  rationale: [
    '`audio` blocks were added in 2025-03-26 and `resource_link` blocks in 2025-06-18. A peer that',
    'negotiated an older version validates content against the older union, where these types do not',
    'exist: the official schema of that version rejects the result, and clients built for it fail on the',
    'unknown variant. Send a text block naming the link, or the audio as an embedded blob resource.',
  ].join('\n'),
  versions: versionsFrom('2024-11-05', '2025-06-18'),
  clients: [
    {
      client: 'goose',
      effect: 'rejects-call',
      detail:
        'old builds: `Serialization error: unknown variant `resource_link`, expected one of `text`, `image`, `resource``',
      source: 'aaif-goose/goose #3346',
    },
    {
      client: 'cline',
      effect: 'rejects-call',
      detail: 'zod `invalid_union` on a resource_link',
      source: 'cline/cline #5208',
    },
    {
      client: 'zed',
      effect: 'rejects-call',
      detail: 'older types.rs had no resource_link variant: serde `unknown variant`',
      source: 'zed crates/context_server/src/types.rs',
    },
  ],
  messages: {
    default: '"{{type}}" blocks do not exist in protocol version {{version}} (added in {{since}})',
  },
  fix: 'For {{version}}, send a resource link as a text block naming it, and audio as an embedded resource with `blob`.',
  examples: {
    wrong: {
      value: { type: 'resource_link', uri: 'file:///tmp/report.pdf', name: 'report.pdf' },
      protocolVersion: '2025-03-26',
    },
    right: {
      value: { type: 'text', text: 'Link: report.pdf <file:///tmp/report.pdf>' },
      protocolVersion: '2025-03-26',
    },
  },
  check(block, ctx) {
    if (!isObject(block) || typeof block.type !== 'string') return;
    const type = block.type;
    if (
      !(BLOCK_TYPES as readonly string[]).includes(type) ||
      ctx.features.blockTypes.includes(type as BlockType)
    ) {
      return;
    }
    ctx.report({
      path: ['type'],
      data: { type, version: ctx.version, since: blockTypeSince(type as BlockType) },
    });
  },
  repair(ctx) {
    const block = blockAt(ctx);
    if (!block) return undefined;
    if (block.type === 'resource_link' && typeof block.uri === 'string') {
      const name = typeof block.name === 'string' ? block.name : undefined;
      const description = typeof block.description === 'string' ? block.description : undefined;
      replaceBlock(ctx, carryCommon(block, linkBlock(block.uri, name, description, ctx), ctx));
      return {
        description: `replaced the resource_link with a text block naming it (${ctx.version} has no resource_link)`,
      };
    }
    if (block.type === 'audio' && typeof block.data === 'string') {
      const resource: Record<string, unknown> = { uri: syntheticUri('audio', ctx), blob: block.data };
      if (typeof block.mimeType === 'string') resource.mimeType = block.mimeType;
      replaceBlock(ctx, carryCommon(block, { type: 'resource', resource }, ctx));
      return {
        description: `replaced the audio block with an embedded blob resource (${ctx.version} has no audio)`,
      };
    }
    return undefined;
  },
});
