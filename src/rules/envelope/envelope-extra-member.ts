import { isObject } from '../../core/json.js';
import { deleteIn, getIn } from '../../core/pointer.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { SDK_DROPS_ENVELOPE } from '../support/envelope.js';
import { defineRule } from '../types.js';

/** JSON-RPC 2.0 members of a request, notification, result response or error response. */
const MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params', 'result', 'error']);

export default defineRule({
  id: 'envelope-extra-member',
  subject: 'message',
  severity: 'error',
  title: 'JSON-RPC messages must not carry extra top-level members',
  rationale: [
    'JSON-RPC 2.0 defines only `jsonrpc`, `id`, `method`, `params`, `result` and `error`. No MCP',
    'schema.json forbids other members, but the official TypeScript SDK (v1 and v2) parses envelopes',
    'with strict schemas: a response with an extra member such as `requestId` fails to parse, the',
    'transport drops it, and the pending call hangs until its timeout (-32001 after 60 s by default).',
    'Put vendor data in `result._meta` instead.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'drops-message',
      detail: '`transport.onerror` gets ZodError "Unrecognized key"; the call times out with McpError -32001',
      source:
        '@modelcontextprotocol/sdk 1.32.2 dist/esm/types.js (JSON-RPC envelopes are .strict(): the transport drops the message); reproduced, the call times out',
    },
    ...SDK_DROPS_ENVELOPE.filter((impact) => impact.client !== 'ts-sdk-v1'),
  ],
  messages: {
    default: 'extra top-level member "{{member}}" in a JSON-RPC message',
  },
  fix: 'Remove "{{member}}" from the envelope; move vendor data into `result._meta`.',
  examples: {
    wrong: {
      value: { jsonrpc: '2.0', id: 1, requestId: 'abc', result: { content: [] } },
      protocolVersion: '2025-06-18',
    },
    right: { value: { jsonrpc: '2.0', id: 1, result: { content: [] } }, protocolVersion: '2025-06-18' },
  },
  check(message, ctx) {
    if (!isObject(message)) return;
    for (const member of Object.keys(message)) {
      if (!MEMBERS.has(member)) ctx.report({ path: [member], data: { member } });
    }
  },
  repair(ctx) {
    const member = String(ctx.data.member);
    const envelope = getIn(ctx.root, ctx.subjectPath);
    if (!isObject(envelope) || !Object.hasOwn(envelope, member)) return undefined;
    deleteIn(ctx.root, ctx.findingPath);
    return { description: `removed top-level member "${member}"` };
  },
});
