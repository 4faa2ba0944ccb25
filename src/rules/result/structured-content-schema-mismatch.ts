import { isObject, type JsonObject } from '../../core/json.js';
import { parsePointer } from '../../core/pointer.js';
import {
  createOutputSchemaCompiler,
  type OutputSchemaCompiler,
  type SchemaError,
  sdkV2Reading,
} from '../../core/schema.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import {
  appendText,
  describesResultWrapper,
  hasTextMirror,
  isTextMirrorOf,
  MIRRORED_WEATHER,
  serialize,
  subjectObject,
  textBlocks,
} from '../support/call-tool-result.js';
import { defineRule, type RepairContext } from '../types.js';

let repairSchemas: OutputSchemaCompiler | undefined;

/**
 * The SDK v2 convention wraps a non-object value as `{ "result": value }` for 2025-era peers. A value
 * wrapped for the wrong era (wrapped, but the 2026-07-28 schema describes the bare value; or bare, but
 * the schema describes the wrapper) is the same data: rewrap it when that makes it match.
 */
function rewrapped(result: JsonObject, ctx: RepairContext): { value: unknown; wrapped: boolean } | undefined {
  const value = result.structuredContent;
  const schema = ctx.tool?.outputSchema;
  const isWrapper = isObject(value) && Object.keys(value).length === 1 && Object.hasOwn(value, 'result');
  // Only the schema's own word counts: a lenient schema may accept both forms of the same data.
  const candidate = describesResultWrapper(schema)
    ? isWrapper
      ? undefined
      : { value: { result: value }, wrapped: true }
    : isWrapper
      ? { value: value.result, wrapped: false }
      : undefined;
  if (!candidate) return undefined;
  if (ctx.features.structuredContent !== 'any' && !isObject(candidate.value)) return undefined;
  repairSchemas ??= createOutputSchemaCompiler();
  const compiled = repairSchemas.compile(schema, ctx.version);
  if (!compiled.ok) return undefined;
  return compiled.validate(candidate.value).length === 0 ? candidate : undefined;
}

const WEATHER_TOOL = {
  name: 'get_weather',
  inputSchema: { type: 'object' },
  outputSchema: {
    type: 'object',
    properties: { temperature: { type: 'number' } },
    required: ['temperature'],
  },
};

/** Enough to fix a schema mismatch; a result with hundreds of errors would otherwise flood the report. */
const MAX_REPORTED_ERRORS = 10;

export default defineRule({
  id: 'structured-content-schema-mismatch',
  subject: 'result',
  severity: 'error',
  title: "structuredContent must validate against the tool's outputSchema",
  rationale: [
    'tools.mdx (2025-06-18 on): "If an output schema is provided: Servers MUST provide structured results',
    'that conform to this schema." The schema is read in its declared `$schema` dialect, else draft-07',
    'before 2025-11-25 and 2020-12 from then on; a `$ref` to another document is never fetched. The',
    'TypeScript SDK v2 client reads a schema without `$schema` as 2020-12 in every version, so before',
    '2025-11-25 such a schema is also read as 2020-12, and what fails only there is reported as such.',
    '',
    'The TypeScript SDK v1 client validates structuredContent with Ajv after `listTools()` and throws',
    '-32602 "Structured content does not match the tool\'s output schema", **even when `isError` is true**',
    '(yamadashy/repomix #833): an error result with a partial structuredContent loses its error message.',
    'The Python SDK and SDK v2 skip validation on error results, but since the most common client rejects',
    'the call, a mismatch on an error result is an error too.',
    '',
    'Before 2025-06-18 the protocol has no outputSchema, but a server that also speaks later versions may',
    'list one anyway, and the SDK clients validate every call of a tool whose listed outputSchema they',
    'cached, whatever version was negotiated (reproduced with the v1 and v2 clients on 2025-03-26): the',
    'rule applies in every version.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'rejects-call',
      detail:
        "McpError -32602 `Structured content does not match the tool's output schema`, also with isError",
      source:
        'modelcontextprotocol/typescript-sdk v1.29.0 src/client/index.ts (callTool validates even on isError); yamadashy/repomix #833',
    },
    {
      client: 'ts-sdk-v2',
      effect: 'rejects-call',
      detail:
        'before 2025-11-25 too, it reads an outputSchema without `$schema` as 2020-12: `prefixItems`, `dependentRequired`, `unevaluatedProperties` and `minContains` are enforced, and a draft-07 tuple (`items: [...]`) fails to compile, so every call of the tool fails',
      source:
        '@modelcontextprotocol/client 2.4.0 validators/dialects.ts (declaredDialect: no `$schema` means 2020-12) and validators/ajv.ts; reproduced with its AjvJsonSchemaValidator',
    },
    {
      client: 'gemini-cli',
      effect: 'rejects-call',
      detail: 'the SDK McpError becomes a tool error',
      source:
        'google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts (McpCallableTool.callTool on SDK 1.23.0); reproduced',
    },
    {
      client: 'python-sdk',
      effect: 'rejects-call',
      detail: '`RuntimeError("Invalid structured content returned by tool …")` (not on isError results)',
      source: 'python-sdk v1.29 src/mcp/client/session.py',
    },
    {
      client: 'claude-code',
      effect: 'rejects-call',
      detail: '`Output validation error: Invalid structured content for tool directory_tree`',
      source: 'modelcontextprotocol/servers PR #3099',
    },
  ],
  messages: {
    default: 'structuredContent{{instancePath}} {{message}} (outputSchema {{schemaPath}})',
    onError:
      'structuredContent{{instancePath}} {{message}} (outputSchema {{schemaPath}}); SDK v1 clients validate it even though isError is true',
    uncompilable:
      "structuredContent was not checked: the tool's outputSchema does not compile ({{message}}), and the TypeScript SDK v1 client rejects a tools list that holds it",
    v2Reading:
      'structuredContent{{instancePath}} {{message}} (outputSchema {{schemaPath}}, read as JSON Schema 2020-12, as the TypeScript SDK v2 client reads a schema without $schema in every version)',
    v2Uncompilable:
      'the TypeScript SDK v2 client fails every call of this tool: it reads an outputSchema without $schema as JSON Schema 2020-12 in every version, and this one does not compile so ({{message}}); declare "$schema": "http://json-schema.org/draft-07/schema#"',
  },
  fix: 'Return data that matches the outputSchema; on errors, leave structuredContent out and explain in text.',
  examples: {
    wrong: {
      value: {
        content: [{ type: 'text', text: '{"temperature":"warm"}' }],
        structuredContent: { temperature: 'warm' },
      },
      protocolVersion: '2025-06-18',
      tool: WEATHER_TOOL,
    },
    right: {
      value: MIRRORED_WEATHER,
      protocolVersion: '2025-06-18',
      tool: WEATHER_TOOL,
    },
  },
  check(result, ctx) {
    const schema = ctx.tool?.outputSchema;
    if (!isObject(result) || schema === undefined || result.structuredContent === undefined) return;
    const compiled = ctx.schemas.compile(schema, ctx.version);
    if (!compiled.ok) {
      // Nothing was checked, which is no pass: the tool definition's own finding
      // (tool-schema-not-compilable, tool-schema-remote-ref) is not in sight where a result is judged alone.
      // Only an error result's data moves to its text (the repair); any other is rebuilt by the fallback.
      ctx.report({
        messageId: 'uncompilable',
        path: ['structuredContent'],
        data: { message: compiled.message },
        manual: result.isError !== true,
      });
      return;
    }
    const messageId = result.isError === true ? 'onError' : 'default';
    const errors = compiled.validate(result.structuredContent).slice(0, MAX_REPORTED_ERRORS);
    const report = (error: SchemaError, id: 'onError' | 'default' | 'v2Reading') =>
      ctx.report({
        messageId: id,
        path: ['structuredContent', ...parsePointer(error.instancePath)],
        data: {
          instancePath: error.instancePath,
          message: error.message,
          schemaPath: error.schemaPath,
          // Only the SDK v2 client reads the schema so: the others accept what it alone refuses.
          ...(id === 'v2Reading' ? { affected: 'ts-sdk-v2' } : {}),
        },
      });
    for (const error of errors) report(error, messageId);
    // The SDK v2 client's own reading, where it differs from the version's (sdkV2Reading).
    const v2Dialect = sdkV2Reading(schema, ctx.version);
    if (v2Dialect === undefined) return;
    const v2 = ctx.schemas.compile(schema, ctx.version, v2Dialect);
    if (!v2.ok) {
      // Its tool definition's fault, which a result judged alone does not see (tool-schema-not-compilable).
      // No repair of a result helps: the client refuses the schema before it reads the result.
      ctx.report({
        messageId: 'v2Uncompilable',
        path: ['structuredContent'],
        data: { message: v2.message, affected: 'ts-sdk-v2' },
        manual: true,
      });
      return;
    }
    const seen = new Set(errors.map((e) => `${e.instancePath}\u0000${e.message}`));
    const more = v2
      .validate(result.structuredContent)
      .filter((e) => !seen.has(`${e.instancePath}\u0000${e.message}`));
    for (const error of more.slice(0, MAX_REPORTED_ERRORS - errors.length)) report(error, 'v2Reading');
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    if (!result || result.structuredContent === undefined) return undefined;
    const rewrap = rewrapped(result, ctx);
    if (rewrap) {
      const old = result.structuredContent;
      for (const { index } of textBlocks(result).filter(({ text }) => isTextMirrorOf(text, old))) {
        const block = (result.content as unknown[])[index];
        if (isObject(block)) block.text = serialize(rewrap.value);
      }
      result.structuredContent = rewrap.value as JsonObject;
      return {
        description: rewrap.wrapped
          ? 'wrapped structuredContent as { "result": value }, which the outputSchema describes'
          : 'unwrapped structuredContent from { "result": value }, as the outputSchema describes the value',
      };
    }
    // Only an error result can drop its structured data: its text then carries the data instead.
    if (result.isError !== true) return undefined;
    const value = result.structuredContent;
    if (!hasTextMirror(result, value) && !appendText(result, serialize(value))) return undefined;
    delete result.structuredContent;
    return {
      description: 'moved the non-conforming structuredContent of the error result into a text block',
    };
  },
});
