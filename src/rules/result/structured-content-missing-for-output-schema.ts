import { isObject } from '../../core/json.js';
import { createOutputSchemaCompiler, type OutputSchemaCompiler } from '../../core/schema.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { jsonOfText, MIRRORED_WEATHER, subjectObject, textBlocks } from '../support/call-tool-result.js';
import { defineRule } from '../types.js';

let repairSchemas: OutputSchemaCompiler | undefined;

export default defineRule({
  id: 'structured-content-missing-for-output-schema',
  subject: 'result',
  severity: 'error',
  title: 'A tool with an outputSchema must return structuredContent',
  rationale: [
    'tools.mdx (2025-06-18 on): "If an output schema is provided: Servers MUST provide structured results',
    'that conform to this schema." A successful result without `structuredContent` breaks that. The',
    'TypeScript SDK v1 client throws -32600 "Tool X has an output schema but did not return structured',
    'content" (microsoft/wassette #263); the Python SDK raises the same error. Error results',
    '(`isError: true`) are exempt.',
    '',
    'Before 2025-06-18 the protocol has no outputSchema, but a server that also speaks later versions may',
    'list one anyway, and the SDK clients check every call of a tool whose listed outputSchema they cached,',
    'whatever version was negotiated (reproduced with the v1 and v2 clients on 2025-03-26): the rule',
    'applies in every version.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'ts-sdk-v1',
      effect: 'rejects-call',
      detail: 'McpError -32600 `Tool t has an output schema but did not return structured content`',
      source:
        'modelcontextprotocol/typescript-sdk v1.29.0 src/client/index.ts (callTool); microsoft/wassette #263',
    },
    {
      client: 'python-sdk',
      effect: 'rejects-call',
      detail: '`RuntimeError("Tool X has an output schema but did not return structured content")`',
      source: 'python-sdk v1.29 src/mcp/client/session.py',
    },
    {
      client: 'gemini-cli',
      effect: 'rejects-call',
      detail: 'the SDK McpError -32600 becomes a tool error',
      source:
        'google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts (McpCallableTool.callTool on SDK 1.23.0); reproduced',
    },
  ],
  messages: {
    default: 'tool "{{tool}}" declares an outputSchema but the result has no structuredContent',
  },
  fix: 'Return the data as structuredContent (and its JSON in a text block), or drop the outputSchema.',
  examples: {
    wrong: {
      value: { content: [{ type: 'text', text: 'Sunny, 22 °C' }] },
      protocolVersion: '2025-06-18',
      tool: { name: 'get_weather', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
    },
    right: {
      value: MIRRORED_WEATHER,
      protocolVersion: '2025-06-18',
      tool: { name: 'get_weather', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
    },
  },
  check(result, ctx) {
    const tool = ctx.tool;
    if (!isObject(result) || tool?.outputSchema === undefined) return;
    if (result.isError === true || result.structuredContent !== undefined) return;
    // A 2026-07-28 InputRequiredResult is not the tool's output yet.
    if (
      ctx.features.resultTypeRequired &&
      typeof result.resultType === 'string' &&
      result.resultType !== 'complete'
    ) {
      return;
    }
    ctx.report({
      path: ['structuredContent'],
      data: { tool: typeof tool.name === 'string' ? tool.name : '?' },
    });
  },
  repair(ctx) {
    // Recover structured data only from a JSON text block that already satisfies the schema.
    const result = subjectObject(ctx);
    const schema = ctx.tool?.outputSchema;
    if (!result || schema === undefined || result.structuredContent !== undefined) return undefined;
    repairSchemas ??= createOutputSchemaCompiler();
    const compiled = repairSchemas.compile(schema, ctx.version);
    if (!compiled.ok) return undefined;
    for (const { index, text } of textBlocks(result)) {
      const parsed = jsonOfText(text);
      if (!parsed || (ctx.features.structuredContent === 'object' && !isObject(parsed.value))) continue;
      if (compiled.validate(parsed.value).length > 0) continue;
      // A copy: jsonOfText shares its parses with later validations, and the caller owns the repaired result.
      result.structuredContent = structuredClone(parsed.value);
      return {
        description: `set structuredContent from the JSON in text block ${index}, which matches the outputSchema`,
      };
    }
    return undefined;
  },
});
