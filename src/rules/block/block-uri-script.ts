import { isObject } from '../../core/json.js';
import { getIn, setIn } from '../../core/pointer.js';
import { scriptUrlKind } from '../../library/script-url.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { defineRule } from '../types.js';
import { blockAt, preview, replaceBlock, syntheticUri, uriFields } from './support/block.js';
import { carryCommon, scriptLinkText } from './support/convert.js';

export default defineRule({
  id: 'block-uri-script',
  subject: 'block',
  severity: 'warning',
  title: 'Resource URIs must not be URLs that run script',
  rationale: [
    'A `javascript:` or `vbscript:` URL, or a `data:text/html` document, names no resource: no',
    '`resources/read` serves it, and a client that renders the link (a Markdown link, an `<a href>`, a',
    'frame for the document) runs script the server chose, in its own page, when the user follows it.',
    'Browsers ignore case and the controls and spaces inside a scheme, so `JaVa\\tScript:` is one too.',
    '',
    'The specification\'s security considerations say servers MUST "Sanitize tool outputs" (tools) and',
    'MUST "validate all resource URIs" (resources), but name no unsafe URI, and the official schemas ask',
    'only for `format: "uri"`, which these URLs meet; so this is a warning, not an error. No SDK refuses',
    "them (the TypeScript SDK does not check URIs; pydantic's `AnyUrl`, the Python SDK's type, accepts",
    'them), and no client is known to run one: the warning is about what a client that renders links',
    "as HTML would do. mcp-shape's `resourceLink()` and `embeddedResource()` refuse to build them, and",
    'its HTML sanitizer removes them from `href`s.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: {
    default: '{{field}} {{value}} is a {{kind}} URL, which runs script where a client renders it',
  },
  security: {
    severity: 6.1,
    why: 'A client that renders the link or frames the document runs script the server chose in its own page when the user follows it (cross-site scripting).',
  },
  fix: 'Link to the resource itself (`https://…`, `file:///…` or a custom scheme), or send its content as text.',
  examples: {
    wrong: { value: { type: 'resource_link', uri: 'javascript:alert(document.cookie)', name: 'report' } },
    right: { value: { type: 'resource_link', uri: 'https://example.com/report.pdf', name: 'report' } },
  },
  check(block, ctx) {
    for (const { path, value } of uriFields(block, ctx)) {
      const kind = scriptUrlKind(value);
      if (kind !== undefined) {
        ctx.report({ path, data: { field: path.join('.'), value: preview(value), kind } });
      }
    }
  },
  repair(ctx) {
    const block = blockAt(ctx);
    const value = getIn(ctx.root, ctx.findingPath);
    const kind = typeof value === 'string' ? scriptUrlKind(value) : undefined;
    // The finding may be stale: another repair changed the URL or took the block away.
    if (!block || kind === undefined) return undefined;
    const field = ctx.findingPath.slice(ctx.subjectPath.length);
    if (field[0] === 'icons' && Array.isArray(block.icons)) {
      // An icon that runs script shows nothing: the link stays, without it.
      block.icons.splice(Number(field[1]), 1);
      if (block.icons.length === 0) delete block.icons;
      return { description: `removed icon ${String(field[1])}, whose ${kind} URL runs script`, lossy: true };
    }
    if (field[0] === 'resource' && isObject(block.resource)) {
      // The contents are what the server meant to send; only their name runs script.
      const uri = syntheticUri('resource', ctx);
      setIn(ctx.root, ctx.findingPath, uri);
      return {
        description: `replaced resource.uri, a ${kind} URL that runs script, with ${uri}`,
        lossy: true,
      };
    }
    if (block.type !== 'resource_link') return undefined;
    const name = typeof block.name === 'string' ? block.name : undefined;
    replaceBlock(ctx, carryCommon(block, scriptLinkText(name, kind), ctx));
    return {
      description: `replaced the resource_link, whose ${kind} URL runs script, with a text block naming it`,
      lossy: true,
    };
  },
});
