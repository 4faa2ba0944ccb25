import { everyClient } from '../../clients/catalog.js';
import { isObject } from '../../core/json.js';
import { type PathSegment, parsePointer } from '../../core/pointer.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { type Refusal, refusalsOf } from '../support/sdk-server-parse.js';
import { type CheckContext, defineRule } from '../types.js';

const SOURCE =
  '@modelcontextprotocol/sdk 1.32.2 dist/esm/server/index.js (a tools/call result parsed with CallToolResultSchema, dist/esm/types.js, zod v4: `z.string()` refuses a String object, `z.record()` an object that is not plain); reproduced with a real McpServer and Client (test/validate/sdk-sent.test.ts)';

/** Every client: the result never leaves a server built on the TypeScript SDK v1. */
const EVERY_CLIENT = everyClient(
  'never receives the result from a TypeScript SDK v1 server: it gets error -32602 in its place',
  SOURCE,
);

/**
 * Where the tool's outputSchema refuses structuredContent as McpServer reads it, live objects and all
 * (`live`: those JSON writes as a primitive or an array), though it accepts what JSON writes: each such
 * object stands as an object of no members, as a Date does to the schema. Undefined where the schema
 * refuses what JSON writes too (structured-content-schema-mismatch reports it), where it cannot be
 * compiled, or for an error result, which McpServer does not check.
 */
function refusedByOutputSchema(
  result: unknown,
  live: readonly Refusal[],
  ctx: CheckContext,
): { path: readonly PathSegment[]; data: { what: string; message: string } } | undefined {
  const schema = ctx.tool?.outputSchema;
  if (schema === undefined || !isObject(result) || result.isError === true) return undefined;
  const structured = result.structuredContent;
  if (!isObject(structured)) return undefined;
  const compiled = ctx.schemas.compile(schema, ctx.version);
  if (!compiled.ok || compiled.validate(structured).length > 0) return undefined;
  let asRead: unknown = structured;
  for (const { path } of live) asRead = replacedAt(asRead, path.slice(1), {});
  const errors = compiled.validate(asRead);
  const first = errors[0];
  if (first === undefined) return undefined;
  const at = ['structuredContent', ...parsePointer(first.instancePath)];
  const place = live.find(
    ({ path }) => path.length === at.length && path.every((s, i) => String(s) === String(at[i])),
  );
  const chosen = place ?? (live[0] as Refusal);
  return {
    path: chosen.path,
    data: { what: chosen.what, message: `${first.instancePath || '/'} ${first.message}` },
  };
}

/** `value` with `replacement` at `path`, the containers on the way copied. */
function replacedAt(value: unknown, path: readonly PathSegment[], replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  if (typeof value !== 'object' || value === null) return value;
  const [head, ...rest] = path as [PathSegment, ...PathSegment[]];
  const copy = (Array.isArray(value) ? [...value] : { ...value }) as Record<string | number, unknown>;
  copy[head] = replacedAt(copy[head], rest, replacement);
  return copy;
}

export default defineRule({
  id: 'result-value-refused-by-sdk',
  subject: 'result',
  severity: 'error',
  title: "A handler's result must hold strings, numbers and plain objects, not objects JSON writes as them",
  rationale: [
    "The TypeScript SDK v1's server (`McpServer`, `Server`) parses what a tool handler returns with its",
    'CallToolResult schema before sending it, and it parses the live value, not its JSON. Where the schema',
    'asks for a string, a number, a boolean or an array, an object that `JSON.stringify` would write as one',
    'is refused: a `new String("hi")` as `text`, a `Date` as `annotations.lastModified`, a `new',
    'Number(0.5)` as `priority`, a `new Boolean(false)` as `isError`, an object whose `toJSON` answers',
    "the string. Where it asks for a plain object (`structuredContent`, a block's `_meta`), a Map, a Date",
    'or a class instance is refused, and so is a member named by a symbol, which JSON leaves out. The',
    'server then sends a JSON-RPC -32602 error `Invalid tools/call result: …` in place of the result, so',
    'every client gets an error though the JSON of the value is a valid result. The validators judge a',
    "handler's value as sent; this rule is what they find of the live value before it is sent.",
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: EVERY_CLIENT,
  // It judges a handler's live value; scan's partial documents stand for source, not for such a value
  // (and mark themselves with symbol members no server sends), as for result-not-serializable.
  needsCompleteDocument: true,
  messages: {
    default:
      "the TypeScript SDK v1's server refuses {{what}} here, where its CallToolResult schema asks for {{expected}}, and answers error -32602 instead of the result",
    outputSchema:
      "the TypeScript SDK v1's McpServer checks structuredContent against the outputSchema as the live value, where this is {{what}}, an object ({{message}}), and answers an isError result `Output validation error` instead of the result",
  },
  fix: 'Return primitives and plain objects: `String(value)` or `date.toISOString()` for a string, `Number(value)` for a number, `Object.fromEntries(map)` for an object (or shape the value with toolResult()).',
  examples: {
    wrong: {
      value: {
        content: [{ type: 'text', text: 'rows counted', annotations: { lastModified: new Date(0) } }],
      },
      source:
        "{ content: [{ type: 'text', text: 'rows counted', annotations: { lastModified: new Date(0) } }] }",
      protocolVersion: '2025-11-25',
    },
    right: {
      value: {
        content: [
          { type: 'text', text: 'rows counted', annotations: { lastModified: '1970-01-01T00:00:00.000Z' } },
        ],
      },
      protocolVersion: '2025-11-25',
    },
  },
  check(result, ctx) {
    const refusals = refusalsOf(result);
    if (refusals.length === 0) return;
    for (const { path, what, expected } of refusals) {
      if (expected !== undefined) ctx.report({ path, data: { what, expected } });
    }
    const live = refusals.filter((r) => r.expected === undefined);
    const refused = live.length > 0 ? refusedByOutputSchema(result, live, ctx) : undefined;
    if (refused) ctx.report({ messageId: 'outputSchema', path: refused.path, data: refused.data });
  },
});
