import { isObject, jsonTypeOf } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { serialize } from '../support/call-tool-result.js';
import { defineRule } from '../types.js';
import { blockAt, syntheticUri } from './support/block.js';
import { PYTHON_SDK_REJECTS, RMCP_CLIENTS, SDK_BASED_CLIENTS, tsSdkRejects } from './support/clients.js';

export default defineRule({
  id: 'block-resource-invalid',
  subject: 'block',
  severity: 'error',
  title: 'Embedded resources need a resource object with a uri and text or blob',
  rationale: [
    '`EmbeddedResource.resource` is required, and is either `TextResourceContents` (`uri` and a string',
    '`text`) or `BlobResourceContents` (`uri` and a base64 string `blob`), in every protocol version;',
    '`mimeType` is an optional string. A resource without `uri`, or with neither `text` nor `blob`, fails',
    'the official schema; Claude Code and the official SDKs reject the whole result.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'claude-code',
      effect: 'rejects-call',
      detail: 'embedded resource without `uri` rejected',
      source: 'anthropics/claude-code #8239',
    },
    tsSdkRejects('ZodError `invalid_union` (embedded resource without `uri`)'),
    { ...PYTHON_SDK_REJECTS, detail: 'pydantic ValidationError: `uri: AnyUrl` is required' },
    ...RMCP_CLIENTS,
    ...SDK_BASED_CLIENTS,
  ],
  messages: {
    default: 'embedded resource has no "resource" object',
    notObject: 'embedded resource "resource" must be an object, got {{actual}}',
    missingUri: 'embedded resource contents have no "uri"',
    uriNotString: 'embedded resource "uri" must be a string, got {{actual}}',
    noContent: 'embedded resource contents have neither "text" nor "blob"',
    notString: 'embedded resource "{{field}}" must be a string, got {{actual}}',
  },
  fix: 'Send `{ "type": "resource", "resource": { "uri": "…", "mimeType": "…", "text": "…" } }` (or `blob` with base64).',
  examples: {
    wrong: { value: { type: 'resource', resource: { mimeType: 'text/plain', text: 'Hello' } } },
    right: {
      value: {
        type: 'resource',
        resource: { uri: 'file:///notes/hello.txt', mimeType: 'text/plain', text: 'Hello' },
      },
    },
  },
  check(block, ctx) {
    if (!isObject(block) || block.type !== 'resource') return;
    const resource = block.resource;
    if (resource === undefined) {
      ctx.report({ path: ['resource'] });
      return;
    }
    if (!isObject(resource)) {
      ctx.report({ messageId: 'notObject', path: ['resource'], data: { actual: jsonTypeOf(resource) } });
      return;
    }
    if (resource.uri === undefined) ctx.report({ messageId: 'missingUri', path: ['resource', 'uri'] });
    else if (typeof resource.uri !== 'string') {
      ctx.report({
        messageId: 'uriNotString',
        path: ['resource', 'uri'],
        data: { actual: jsonTypeOf(resource.uri) },
      });
    }
    if (resource.text === undefined && resource.blob === undefined) {
      ctx.report({ messageId: 'noContent', path: ['resource', 'text'] });
    }
    // One well-formed branch (text or blob) is enough for the schema's anyOf and the SDK's union; a
    // stray other member is block-resource-text-and-blob's warning.
    const oneBranch = typeof resource.text === 'string' || typeof resource.blob === 'string';
    for (const field of oneBranch ? ['mimeType'] : ['text', 'blob', 'mimeType']) {
      if (resource[field] !== undefined && typeof resource[field] !== 'string') {
        ctx.report({
          messageId: 'notString',
          path: ['resource', field],
          data: { field, actual: jsonTypeOf(resource[field]) },
        });
      }
    }
  },
  repair(ctx) {
    const block = blockAt(ctx);
    const resource = block && isObject(block.resource) ? block.resource : undefined;
    if (!resource) return undefined;
    const field = String(ctx.findingPath[ctx.findingPath.length - 1]);
    if (ctx.messageId === 'missingUri' || ctx.messageId === 'uriNotString') {
      const uri = syntheticUri('resource', ctx);
      const replaced = resource.uri !== undefined;
      const description = replaced
        ? `replaced the uri ${JSON.stringify(resource.uri)} with ${uri}`
        : `set the missing uri to ${uri}`;
      resource.uri = uri;
      return { description, lossy: replaced };
    }
    if (ctx.messageId === 'notString' && field === 'mimeType') {
      delete resource.mimeType;
      return { description: 'removed the invalid optional mimeType', lossy: true };
    }
    if (ctx.messageId === 'notString' && field === 'text' && resource.text !== null) {
      resource.text = serialize(resource.text);
      return { description: 'serialized resource.text to a string' };
    }
    return undefined;
  },
});
