import { getIn, setIn } from '../../core/pointer.js';
import { isAbsoluteUri } from '../../core/uri.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { preview, uriFields } from './support/block.js';
import { PYTHON_SDK_REJECTS } from './support/clients.js';

export default defineRule({
  id: 'block-uri-invalid',
  subject: 'block',
  severity: 'error',
  title: 'Resource URIs must be absolute URIs with a scheme',
  rationale: [
    'The official schemas declare `format: "uri"` on `ResourceLink.uri`, on the `uri` of embedded',
    'resource contents and on `Icon.src` (2025-11-25 on): an absolute URI such as `file:///tmp/a.txt`,',
    '`https://…` or `ui://…`. A bare path or file name fails schema validation with formats enabled, the',
    'Python SDK (`AnyUrl`) rejects the result and Zed cannot parse the link. The TypeScript SDK does not',
    'check it.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    { ...PYTHON_SDK_REJECTS, detail: 'pydantic ValidationError: `uri: AnyUrl` (an invalid URI fails)' },
    {
      client: 'zed',
      effect: 'drops-content',
      detail: 'the parser needs `uri: Url` (absolute)',
      source: 'zed crates/context_server/src/types.rs',
    },
  ],
  messages: {
    default: '{{field}} {{value}} is not an absolute URI with a scheme',
  },
  fix: 'Use an absolute URI, e.g. `file:///path/to/file` for a local file.',
  examples: {
    wrong: { value: { type: 'resource', resource: { uri: 'notes/hello.txt', text: 'Hello' } } },
    right: { value: { type: 'resource', resource: { uri: 'file:///notes/hello.txt', text: 'Hello' } } },
  },
  check(block, ctx) {
    for (const { path, value } of uriFields(block, ctx)) {
      if (!isAbsoluteUri(value)) ctx.report({ path, data: { field: path.join('.'), value: preview(value) } });
    }
  },
  repair(ctx) {
    const value = getIn(ctx.root, ctx.findingPath);
    if (typeof value !== 'string') return undefined;
    const fixed = toUri(value);
    if (fixed === undefined || !isAbsoluteUri(fixed)) return undefined;
    setIn(ctx.root, ctx.findingPath, fixed);
    return { description: `rewrote ${preview(value)} as the URI ${preview(fixed, 60)}` };
  },
});

/** Absolute file paths become `file:` URIs; URIs with unescaped characters get them percent-encoded. */
function toUri(value: string): string | undefined {
  if (value.startsWith('/')) return `file://${encodeURI(value)}`;
  const windows = /^([A-Za-z]):[\\/]/.exec(value);
  if (windows) return `file:///${encodeURI(value.replace(/\\/g, '/'))}`;
  if (/^[a-z][a-z0-9+.-]*:/i.test(value)) {
    try {
      return encodeURI(decodeURI(value));
    } catch {
      return undefined;
    }
  }
  return undefined;
}
