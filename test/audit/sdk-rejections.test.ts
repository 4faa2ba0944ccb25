/**
 * A server whose own SDK rejects what its handlers return fails every client on every such call: the
 * audit must say so as an error (never exit 0), in one line per defect that names what was wrong,
 * while an SDK's rejection of the audit's own arguments stays information.
 */

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAudit } from '../../src/audit/run.js';
import { sdkRejection } from '../../src/rules/support/sdk-rejection.js';
import { validateMessage } from '../../src/validate/index.js';
import { runCli } from '../support/cli.js';
import { fixture, keys, places } from './support.js';

const RULE = 'result-rejected-by-server';
const tmp = () => mkdtempSync(join(tmpdir(), 'mcp-shape-sdk-rejection-'));

/** What the fixtures' SDK servers answer for each broken handler, as the one-line problem (tools in call order). */
const PROBLEMS = {
  account_summary: 'content.0.type: expected text|image|audio|resource_link|resource',
  chart: 'content.0.mimeType: missing (expected string)',
  forecast: 'structuredContent.celsius: expected number, got string',
  greeting: 'result: expected object, got string',
} as const;

/**
 * What the Python SDK (v1.29.0) sends for the same defects: pydantic's error for the CallToolResult
 * its low-level server builds, jsonschema's for the outputSchema, FastMCP's for its output model.
 * Produced by pydantic 2.13 and jsonschema 4.26 on src/mcp/types.py of python-sdk v1.29.0 (the SDK's
 * server needs more than this machine has, so its messages were produced from its own types).
 */
const PYTHON = {
  objectBlock: [
    '13 validation errors for CallToolResult',
    'content.0.TextContent.type',
    "  Input should be 'text' [type=literal_error, input_value='object', input_type=str]",
    '    For further information visit https://errors.pydantic.dev/2.13/v/literal_error',
    'content.0.TextContent.text',
    "  Field required [type=missing, input_value={'type': 'object', 'object': {'a': 1}}, input_type=dict]",
    '    For further information visit https://errors.pydantic.dev/2.13/v/missing',
    'content.0.ImageContent.type',
    "  Input should be 'image' [type=literal_error, input_value='object', input_type=str]",
    'content.0.ImageContent.data',
    "  Field required [type=missing, input_value={'type': 'object', 'object': {'a': 1}}, input_type=dict]",
    'content.0.AudioContent.type',
    "  Input should be 'audio' [type=literal_error, input_value='object', input_type=str]",
    'content.0.ResourceLink.type',
    "  Input should be 'resource_link' [type=literal_error, input_value='object', input_type=str]",
    'content.0.EmbeddedResource.type',
    "  Input should be 'resource' [type=literal_error, input_value='object', input_type=str]",
    'content.0.EmbeddedResource.resource',
    "  Field required [type=missing, input_value={'type': 'object', 'object': {'a': 1}}, input_type=dict]",
  ].join('\n'),
  imageWithoutMime: [
    '10 validation errors for CallToolResult',
    'content.0.TextContent.type',
    "  Input should be 'text' [type=literal_error, input_value='image', input_type=str]",
    'content.0.TextContent.text',
    "  Field required [type=missing, input_value={'type': 'image', 'data': 'iVBOR'}, input_type=dict]",
    'content.0.ImageContent.mimeType',
    "  Field required [type=missing, input_value={'type': 'image', 'data': 'iVBOR'}, input_type=dict]",
    '    For further information visit https://errors.pydantic.dev/2.13/v/missing',
    'content.0.AudioContent.type',
    "  Input should be 'audio' [type=literal_error, input_value='image', input_type=str]",
    'content.0.AudioContent.mimeType',
    "  Field required [type=missing, input_value={'type': 'image', 'data': 'iVBOR'}, input_type=dict]",
  ].join('\n'),
  bareString: [
    '10 validation errors for CallToolResult',
    'content.0.TextContent',
    "  Input should be a valid dictionary or instance of TextContent [type=model_type, input_value='h', input_type=str]",
    'content.0.ImageContent',
    "  Input should be a valid dictionary or instance of ImageContent [type=model_type, input_value='h', input_type=str]",
    'content.1.TextContent',
    "  Input should be a valid dictionary or instance of TextContent [type=model_type, input_value='i', input_type=str]",
  ].join('\n'),
  fastMcpOutput: [
    'Error executing tool forecast: 1 validation error for forecastOutput',
    'celsius',
    "  Input should be a valid number, unable to parse string as a number [type=float_parsing, input_value='warm', input_type=str]",
    '    For further information visit https://errors.pydantic.dev/2.13/v/float_parsing',
  ].join('\n'),
  fastMcpArguments: [
    'Error executing tool account_summary: 1 validation error for account_summaryArguments',
    'account',
    '  Field required [type=missing, input_value={}, input_type=dict]',
  ].join('\n'),
};

describe('the SDKs’ rejection messages, condensed to one line', () => {
  it('reads the Python SDK’s pydantic, jsonschema and FastMCP messages', () => {
    expect(sdkRejection(PYTHON.objectBlock)).toEqual({
      kind: 'result',
      sdk: 'Python SDK',
      problem: 'content.0.type: expected text|image|audio|resource_link|resource, got "object"',
    });
    expect(sdkRejection(PYTHON.imageWithoutMime)?.problem).toBe('content.0.mimeType: missing');
    expect(sdkRejection(PYTHON.bareString)?.problem).toBe(
      'content.0: expected a content block object, got "h"; content.1: expected a content block object, got "i"',
    );
    expect(sdkRejection("Output validation error: 'warm' is not of type 'number'")).toEqual({
      kind: 'structured',
      sdk: 'Python SDK',
      problem: "structuredContent: 'warm' is not of type 'number'",
    });
    expect(
      sdkRejection('Output validation error: outputSchema defined but no structured output returned')
        ?.problem,
    ).toBe('structuredContent: missing, but the tool declares an outputSchema');
    expect(sdkRejection(PYTHON.fastMcpOutput)).toEqual({
      kind: 'structured',
      sdk: 'Python FastMCP',
      problem:
        'structuredContent.celsius: expected a valid number, unable to parse string as a number, got "warm"',
    });
    expect(sdkRejection(PYTHON.fastMcpArguments)).toMatchObject({ kind: 'arguments', sdk: 'Python FastMCP' });
    expect(sdkRejection("Input validation error: 'account' is a required property")).toMatchObject({
      kind: 'arguments',
      problem: "arguments: 'account' is a required property",
    });
  });

  it('reads zod 3 dumps (older TypeScript SDK v1 releases), with the value that was received', () => {
    const zod3 = JSON.stringify([
      {
        code: 'invalid_union',
        unionErrors: [
          {
            issues: [
              {
                received: 'object',
                code: 'invalid_literal',
                expected: 'text',
                path: ['content', 0, 'type'],
                message: 'Invalid literal value, expected "text"',
              },
            ],
            name: 'ZodError',
          },
          {
            issues: [
              {
                received: 'object',
                code: 'invalid_literal',
                expected: 'image',
                path: ['content', 0, 'type'],
                message: 'Invalid literal value, expected "image"',
              },
            ],
            name: 'ZodError',
          },
        ],
        path: ['content', 0],
        message: 'Invalid input',
      },
    ]);
    expect(sdkRejection(`MCP error -32602: Invalid tools/call result: ${zod3}`)?.problem).toBe(
      'content.0.type: expected text|image, got "object"',
    );
  });

  it('leaves every other error alone: a tool’s own failure is no SDK rejection', () => {
    for (const text of [
      'Tool get_weather not found',
      'city not found',
      'Error executing tool fetch: 1 validation error for ApiResponse\nid\n  Field required [type=missing]',
      'Internal error',
    ])
      expect(sdkRejection(text), text).toBeUndefined();
  });

  it('is reported by the validator in a saved response, as an error for every client', async () => {
    const findings = await validateMessage(
      {
        jsonrpc: '2.0',
        id: 4,
        result: {
          content: [{ type: 'text', text: `MCP error -32602: ${PYTHON.objectBlock}` }],
          isError: true,
        },
      },
      { protocolVersion: '2025-06-18' },
    );
    expect(findings).toContainEqual(
      expect.objectContaining({
        rule: RULE,
        severity: 'error',
        pointer: '/result/content/0/text',
        message:
          'the server\'s Python SDK rejected the tool\'s result before sending it (isError result): content.0.type: expected text|image|audio|resource_link|resource, got "object"',
      }),
    );
  });
});

describe.each([
  ['SDK v1', 'sdk-v1-broken.mjs', ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']],
  ['SDK v2', 'sdk-v2-broken.mjs', ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']],
] as const)(
  'a TypeScript %s McpServer with broken handlers',
  { timeout: 90_000 },
  (_name, file, versions) => {
    it('is one error per broken tool, listing every call, and the arguments it refused are information', async () => {
      const log = join(tmp(), 'calls.jsonl');
      const report = await runAudit({
        target: {
          kind: 'stdio',
          command: process.execPath,
          args: [fixture(file)],
          env: { ...process.env, MCP_SHAPE_FIXTURE_CALL_LOG: log },
        },
      });
      const rejections = report.findings.filter((f) => f.rule === RULE);
      expect(rejections.map((f) => [f.location?.tool, f.severity])).toEqual(
        Object.keys(PROBLEMS).map((tool) => [tool, 'error']),
      );
      for (const finding of rejections) {
        const tool = finding.location?.tool as keyof typeof PROBLEMS;
        expect(finding.message).toMatch(new RegExp(`: ${PROBLEMS[tool].replace(/[|.()]/g, '\\$&')}$`));
        // Every call of the tool failed the same way: one finding, every call listed.
        expect(finding.occurrences?.map((o) => [o.location?.protocolVersion, o.location?.call])).toEqual(
          versions.map((v) => [v, `${tool}#1`]),
        );
      }
      expect(report.summary.errors).toBe(4);
      // The JSON-RPC errors that carried the rejections are no second finding.
      expect(places(report).filter((f) => f.rule === 'audit-call-error')).toEqual([]);
      expect(keys(report.findings.filter((f) => f.rule === 'audit-arguments-rejected'))).toEqual(
        versions.map((v) => `audit-arguments-rejected@${v}/lookup`),
      );
      expect(report.findings.find((f) => f.rule === 'audit-arguments-rejected')?.message).toBe(
        'tools/call lookup: the server rejected the synthesized arguments (arguments.id: must start with acct_); they may be at fault, not the tool: give real ones with --args',
      );
      // The correct tool passes, and every tool got exactly one call per version.
      expect(keys(places(report).filter((f) => f.location?.tool === 'ping_tool'))).toEqual([]);
      const calls = readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).name as string);
      for (const tool of ['account_summary', 'chart', 'greeting', 'forecast', 'ping_tool'])
        expect(calls.filter((c) => c === tool)).toHaveLength(versions.length);
      // The SDK refused lookup's arguments before its handler ran.
      expect(calls).not.toContain('lookup');
    });
  },
);

describe('mcp-shape audit of the SDK v1 server', { timeout: 90_000 }, () => {
  it('exits 1 and says what each broken tool returned, in one line each', async () => {
    const dir = tmp();
    const argsFile = join(dir, 'args.json');
    writeFileSync(argsFile, JSON.stringify({ account_summary: [{ account: 5 }] }));
    const run = await runCli([
      'audit',
      '--protocol',
      '2025-06-18',
      '--args',
      argsFile,
      '--',
      process.execPath,
      fixture('sdk-v1-broken.mjs'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      "error   the server's TypeScript SDK rejected the tool's result before sending it (JSON-RPC error): content.0.mimeType: missing (expected string)  result-rejected-by-server\n",
    );
    expect(run.stdout).toContain(
      'breaks: TypeScript SDK v1 client, TypeScript SDK v2 client, Python SDK client (rejects the call) +11 more',
    );
    // Arguments given with --args that the server refuses are the user's to fix, said as such.
    expect(run.stdout).toMatch(
      /info {4}tools\/call account_summary: the server rejected the arguments from --args \(arguments\.account: expected string, got number\)/,
    );
    expect(run.stdout).toMatch(/✖ 3 errors, 0 warnings, 2 infos in 6 calls across 1 version\n$/);
  });
});
