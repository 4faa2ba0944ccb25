import { isObject } from '../../core/json.js';
import { isWellFormedMimeType, mediaFamily, sniffedMediaType } from '../../core/sniff.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { blockAt, replaceBlock } from './support/block.js';
import { applySniffedType, bytesBlock, carryCommon, describeBlock } from './support/convert.js';

export default defineRule({
  id: 'block-mime-type-wrong-family',
  subject: 'block',
  severity: 'warning',
  title: 'Image blocks carry image/* types and audio blocks audio/*',
  rationale: [
    '`ImageContent` is for images and `AudioContent` for audio; clients hand their bytes to image or',
    'audio pipelines (resizers, vision inputs, players) keyed on the block type. A PDF, a JSON file or',
    '`application/octet-stream` declared on an image block reaches a vision model as a broken image or',
    'is dropped. Other media belong in an embedded resource with `blob` and its real mimeType.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'vscode-copilot',
      effect: 'misreads',
      detail: 'passes image and audio blocks to the model as inline data parts of the declared type',
      source: 'vscode mcpLanguageModelToolContribution.ts (inferred)',
    },
    {
      client: 'gemini-cli',
      effect: 'misreads',
      detail: 'sends the bytes as `inlineData` with the declared mime type',
      source: 'gemini-cli packages/core/src/tools/mcp-tool.ts (inferred)',
    },
  ],
  messages: {
    default: '{{type}} block declares mimeType {{mimeType}}, which is not {{type}}/*',
  },
  fix: 'Declare the {{type}}/* type of the bytes, or send other media as an embedded resource with `blob`.',
  examples: {
    wrong: { value: { type: 'image', data: 'JVBERi0xLjQK', mimeType: 'application/pdf' } },
    right: {
      value: {
        type: 'resource',
        resource: { uri: 'file:///tmp/report.pdf', mimeType: 'application/pdf', blob: 'JVBERi0xLjQK' },
      },
    },
  },
  check(block, ctx) {
    if (!isObject(block) || (block.type !== 'image' && block.type !== 'audio')) return;
    const { mimeType, type } = block;
    if (typeof mimeType !== 'string' || !isWellFormedMimeType(mimeType)) return;
    if (mediaFamily(mimeType) === type) return;
    ctx.report({ path: ['mimeType'], data: { type, mimeType } });
  },
  repair(ctx) {
    const block = blockAt(ctx);
    if (!block || typeof block.data !== 'string' || typeof block.mimeType !== 'string') return undefined;
    const sniffed = ctx.sniffed([...ctx.subjectPath, 'data']);
    const shown = sniffed ? sniffedMediaType(sniffed) : undefined;
    if (shown) {
      const description = applySniffedType(ctx, block, shown);
      return description === undefined ? undefined : { description };
    }
    const converted = carryCommon(block, bytesBlock(block.data, block.mimeType, undefined, ctx), ctx);
    replaceBlock(ctx, converted);
    return {
      description: `replaced the ${String(block.type)} block with ${describeBlock(converted)} for ${block.mimeType}`,
    };
  },
});
