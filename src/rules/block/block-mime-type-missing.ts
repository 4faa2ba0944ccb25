import { isObject, jsonTypeOf } from '../../core/json.js';
import { sniffedMediaType } from '../../core/sniff.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { blockAt } from './support/block.js';
import { PYTHON_SDK_REJECTS, SDK_BASED_CLIENTS, tsSdkRejects } from './support/clients.js';
import { applySniffedType } from './support/convert.js';

export default defineRule({
  id: 'block-mime-type-missing',
  subject: 'block',
  severity: 'error',
  title: 'Image and audio blocks need a mimeType',
  rationale: [
    '`mimeType` is a required field of `ImageContent` and `AudioContent` in every protocol version.',
    'Clients with strict parsers reject the whole `tools/call` result when it is missing, so the text',
    'blocks next to the image are lost too. Clients that accept it have to guess the format.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    tsSdkRejects(),
    {
      client: 'codex',
      effect: 'rejects-call',
      detail: '`tool call failed … Caused by: Unexpected response type` (rmcp requires `mime_type`)',
      source: 'rmcp crates/rmcp/src/model/content.rs',
    },
    {
      client: 'goose',
      effect: 'rejects-call',
      detail: '`Unexpected response type` (rmcp)',
      source: 'goose crates/goose/src/agents/mcp_client.rs',
    },
    ...SDK_BASED_CLIENTS,
    { ...PYTHON_SDK_REJECTS, detail: 'pydantic `ValidationError`: `mimeType: str` is required' },
    {
      client: 'zed',
      effect: 'rejects-call',
      detail: 'serde `missing field `mimeType`` (`mime_type: String`)',
      source:
        'zed-industries/zed crates/context_server/src/types.rs (`mime_type: String` required; inferred from the parser types)',
    },
    {
      client: 'vscode-copilot',
      effect: 'misreads',
      detail: 'assumes `image/png`',
      source: 'vscode mcpLanguageModelToolContribution.ts',
    },
  ],
  messages: {
    default: '{{type}} block has no mimeType',
    sniffed: '{{type}} block has no mimeType; the bytes look like {{sniffed}}',
    notString: '{{type}} block mimeType must be a string, got {{actual}}',
  },
  fix: 'Declare the media type of the bytes, e.g. `"mimeType": "image/png"`.',
  examples: {
    wrong: { value: { type: 'image', data: 'iVBORw0KGgo=' } },
    right: { value: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
  },
  check(block, ctx) {
    if (!isObject(block) || (block.type !== 'image' && block.type !== 'audio')) return;
    const type = block.type;
    if (Object.hasOwn(block, 'mimeType') && block.mimeType !== undefined) {
      if (typeof block.mimeType !== 'string') {
        ctx.report({
          messageId: 'notString',
          path: ['mimeType'],
          data: { type, actual: jsonTypeOf(block.mimeType) },
        });
      }
      return;
    }
    const sniffed = ctx.sniffed(['data'])?.mimeType;
    ctx.report(
      sniffed
        ? { messageId: 'sniffed', path: ['mimeType'], data: { type, sniffed } }
        : { path: ['mimeType'], data: { type } },
    );
  },
  repair(ctx) {
    const block = blockAt(ctx);
    const sniffed = ctx.sniffed([...ctx.subjectPath, 'data']);
    const shown = sniffed ? sniffedMediaType(sniffed) : undefined;
    if (!block || shown === undefined) return undefined;
    // Bytes of another family (a PDF in an image block) turn the block into the matching kind.
    const description = applySniffedType(ctx, block, shown);
    return description === undefined ? undefined : { description };
  },
});
