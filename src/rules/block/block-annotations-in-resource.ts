import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { blockAt } from './support/block.js';

export default defineRule({
  id: 'block-annotations-in-resource',
  subject: 'block',
  severity: 'warning',
  title: 'Annotations belong on the embedded resource block, not inside its contents',
  rationale: [
    '`annotations` is a member of the `EmbeddedResource` block; resource contents (`TextResourceContents`,',
    '`BlobResourceContents`) have no such field. The tools.mdx example of 2025-06-18 and later puts it',
    'inside `resource`, and servers copied it. The schema tolerates the extra member, but the official',
    'TypeScript SDK strips it, so audience and priority never reach the client.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'drops-content',
      detail: '`resource.annotations` is stripped by the contents schema (plain z.object)',
      source:
        '@modelcontextprotocol/sdk 1.32.2 dist/esm/types.js (resource contents are z.object, unknown keys stripped); reproduced',
    },
  ],
  messages: {
    default: 'annotations inside resource contents are ignored; move them to the resource block',
  },
  fix: 'Move `resource.annotations` up to the block: `{ "type": "resource", "resource": {…}, "annotations": {…} }`.',
  examples: {
    wrong: {
      value: {
        type: 'resource',
        resource: { uri: 'file:///a.txt', text: 'hi', annotations: { audience: ['user'] } },
      },
    },
    right: {
      value: {
        type: 'resource',
        resource: { uri: 'file:///a.txt', text: 'hi' },
        annotations: { audience: ['user'] },
      },
    },
  },
  check(block, ctx) {
    if (!isObject(block) || block.type !== 'resource' || !isObject(block.resource)) return;
    if (Object.hasOwn(block.resource, 'annotations')) ctx.report({ path: ['resource', 'annotations'] });
  },
  repair(ctx) {
    const block = blockAt(ctx);
    const resource = block && isObject(block.resource) ? block.resource : undefined;
    if (!block || !resource || !Object.hasOwn(resource, 'annotations')) return undefined;
    const inner = resource.annotations;
    delete resource.annotations;
    if (!isObject(inner))
      return { description: 'removed resource.annotations, which was not an object', lossy: true };
    if (block.annotations === undefined) {
      block.annotations = inner;
      return { description: 'moved resource.annotations to the block' };
    }
    if (!isObject(block.annotations)) {
      // The block's own are no object (no client can read them): the resource's take their place, rather
      // than both being lost, whichever of the two repairs runs first.
      block.annotations = inner;
      return {
        description:
          'moved resource.annotations to the block, in place of its annotations that were not an object',
        lossy: true,
      };
    }
    // The block's own annotations win where both set a field.
    block.annotations = { ...inner, ...block.annotations };
    return { description: 'merged resource.annotations into the block annotations' };
  },
});
