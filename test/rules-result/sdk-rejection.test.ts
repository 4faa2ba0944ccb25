/**
 * The messages the official SDKs send when a server's own SDK refuses what a tool handler returned,
 * read into one line per defect (src/rules/support/sdk-rejection.ts), and the finding a saved
 * response with one gets. The audits of SDK servers that send them are in test/audit/sdk-rejections.test.ts.
 */

import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sdkRejection } from '../../src/rules/support/sdk-rejection.js';
import { validateMessage } from '../../src/validate/index.js';
import { runs } from '../support/runs.js';
import { hits, said } from './helpers.js';

const RULE = 'result-rejected-by-server';

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

describe('the TypeScript SDK’s zod issues, condensed to one line', () => {
  /** What SDK v1 sends for a handler's result: its own CallToolResultSchema's issues as JSON. */
  const v1Rejection = (result: unknown) => {
    const parsed = CallToolResultSchema.safeParse(result);
    if (parsed.success) throw new Error(`the SDK accepts ${JSON.stringify(result)}`);
    return sdkRejection(
      `MCP error -32602: Invalid tools/call result: ${JSON.stringify(parsed.error.issues)}`,
    );
  };

  it('names the place and the defect of each issue the SDK’s own schema finds', () => {
    const cases: [unknown, string][] = [
      [
        { content: [{ type: 'image', data: 'x' }] },
        'content.0.data: Invalid Base64 string; content.0.mimeType: missing (expected string)',
      ],
      [{ content: [{ type: 'object' }] }, 'content.0.type: expected text|image|audio|resource_link|resource'],
      [{ content: 'x' }, 'content: expected array, got string'],
      [
        { content: [{ type: 'text', text: 1 }], isError: 'yes' },
        'content.0.text: expected string, got number; isError: expected boolean, got string',
      ],
      [
        {
          content: [
            { type: 'text', text: 'a' },
            { type: 'resource', resource: { uri: 1, text: 'x' } },
            { type: 'resource_link', uri: 'file:///a' },
            { type: 'audio', data: 'AAAA' },
          ],
        },
        'content.1.resource.uri: expected string, got number; content.2.name: missing (expected string); content.3.mimeType: missing (expected string)',
      ],
      ['done', 'result: expected object, got string'],
      [
        { content: [{ type: 'text', text: 'a', annotations: { priority: 'high' } }], structuredContent: [1] },
        'content.0.annotations.priority: expected number, got string; structuredContent: expected record, got array',
      ],
    ];
    for (const [result, problem] of cases) {
      expect(v1Rejection(result), JSON.stringify(result)).toEqual({
        kind: 'result',
        sdk: 'TypeScript SDK',
        problem,
      });
    }
  });

  it('reads every kind of zod issue, names at most three, and counts the rest', () => {
    const issues = [
      { code: 'unrecognized_keys', keys: ['extra', 'x'], path: [], message: 'Unrecognized keys' },
      { code: 'invalid_value', values: ['a', 'b'], path: ['mode'] },
      { code: 'custom', path: ['data'], message: 'Invalid Base64 string' },
      { code: 'too_big', path: ['x'], message: 'Too big' },
    ];
    expect(sdkRejection(`Invalid tools/call result: ${JSON.stringify(issues)}`)?.problem).toBe(
      'result: unexpected "extra", "x"; mode: expected a|b; data: Invalid Base64 string; +1 more',
    );
    const twice = [issues[2], issues[2]];
    expect(sdkRejection(`Invalid tools/call result: ${JSON.stringify(twice)}`)?.problem).toBe(
      'data: Invalid Base64 string',
    );
    expect(
      sdkRejection(
        'Invalid tools/call result: [{"code":"invalid_type","expected":"string","path":["a"],"message":"odd"}]',
      )?.problem,
    ).toBe('a: expected string');
    expect(sdkRejection('Invalid tools/call result: []')?.problem).toBe('the SDK gave no details');
    expect(sdkRejection('Invalid tools/call result: not json\nsecond line')?.problem).toBe(
      'result: not json',
    );
  });

  it('reads structuredContent and argument issues in v1’s and v2’s wording', () => {
    expect(
      sdkRejection(
        'Output validation error: Invalid structured content for tool weather: Invalid input: expected number, received string at celsius\nRequired at city',
      ),
    ).toEqual({
      kind: 'structured',
      sdk: 'TypeScript SDK',
      problem: 'structuredContent.celsius: expected number, got string; structuredContent.city: missing',
    });
    expect(
      sdkRejection(
        'Output validation error: Invalid structured content for tool weather: celsius: Invalid input: expected number, received string\n\nsomething else',
      )?.problem,
    ).toBe('structuredContent.celsius: expected number, got string; structuredContent: something else');
    expect(
      sdkRejection(
        'Output validation error: Tool weather has an output schema but no structured content was provided',
      ),
    ).toEqual({
      kind: 'structured',
      sdk: 'TypeScript SDK',
      problem: 'structuredContent: missing, but the tool declares an outputSchema',
    });
    expect(
      sdkRejection("Structured content does not match the tool's output schema: data/t must be number\nmore"),
    ).toEqual({
      kind: 'structured',
      sdk: 'TypeScript SDK',
      problem: 'structuredContent: data/t must be number',
    });
    expect(
      sdkRejection('Invalid arguments for tool w: city: Invalid input: expected string, received undefined'),
    ).toEqual({
      kind: 'arguments',
      sdk: 'TypeScript SDK',
      problem: 'arguments.city: missing (expected string)',
    });
    expect(
      sdkRejection(
        'Input validation error: Invalid arguments for tool w: [{"expected":"string","code":"invalid_type","path":["city"],"message":"Invalid input: expected string, received undefined"}]',
      )?.problem,
    ).toBe('arguments.city: missing (expected string)');
  });

  it('reads a pydantic CallToolResult error that names no union member, and ignores models of the tool’s own', () => {
    expect(
      sdkRejection(
        "2 validation errors for CallToolResult\r\nisError\r\n  Input should be a valid boolean [type=bool_parsing, input_value='yes', input_type=str]\r\ncontent\r\n  Field required [type=missing, input_value={}, input_type=dict]",
      ),
    ).toEqual({
      kind: 'result',
      sdk: 'Python SDK',
      problem: 'isError: expected a valid boolean, got "yes"; content: missing',
    });
    expect(
      sdkRejection(
        'Error executing tool f: 1 validation error for OtherModel\nx\n  Field required [type=missing]',
      ),
    ).toBeUndefined();
  });
});

describe('SDK messages as a server may mangle them', () => {
  it('picks, of the union members that take the block type, the one with the fewest errors', () => {
    // pydantic's format, for a block without "type": every member lacks it, so none is ruled out by type.
    const value = "{'data': 'iVBOR', 'mimeType': 'image/png'}";
    const noType = [
      '3 validation errors for CallToolResult',
      'content.0.TextContent.type',
      `  Field required [type=missing, input_value=${value}, input_type=dict]`,
      'content.0.TextContent.text',
      `  Field required [type=missing, input_value=${value}, input_type=dict]`,
      'content.0.ImageContent.type',
      `  Field required [type=missing, input_value=${value}, input_type=dict]`,
    ].join('\n');
    expect(sdkRejection(noType)?.problem).toBe('content.0.type: missing');
  });

  it('reads what it can of broken pydantic text: an error line before any place, an error without its value', () => {
    const text = [
      '2 validation errors for CallToolResult',
      '  Input should be a valid string [type=string_type]',
      'content.0.text',
      '  Input should be a valid string [type=string_type]',
      'isError',
      '  Input should be a valid boolean',
    ].join('\n');
    expect(sdkRejection(text)?.problem).toBe(
      'content.0.text: expected a valid string; isError: expected a valid boolean',
    );
  });

  it('says the SDK gave no details when its zod dump holds no issue it can read', () => {
    for (const dump of ['[1, "x", null]', '{"path": ["content"]}', '[]']) {
      expect(sdkRejection(`Invalid tools/call result: ${dump}`), dump).toEqual({
        kind: 'result',
        sdk: 'TypeScript SDK',
        problem: 'the SDK gave no details',
      });
    }
  });

  it('never throws on the known messages cut, shuffled or mixed with noise, and answers only in its own terms', () => {
    const typescript = [
      'MCP error -32602: Invalid tools/call result: [{"code":"invalid_union","errors":[[{"path":["type"]}]],"path":["content",0]}]',
      'Output validation error: Invalid structured content for tool t: ',
      "Structured content does not match the tool's output schema: data/t must be number",
      'Invalid arguments for tool t: [{"code":"invalid_type","path":["city"],"message":"Required"}]',
      '  ✖ Invalid input: expected number, received string',
      '    → at temperature',
    ];
    const lines = [...Object.values(PYTHON), ...typescript].flatMap((m) => m.split('\n'));
    const mangled = fc
      .array(fc.oneof(fc.constantFrom(...lines), fc.string({ maxLength: 40 }), fc.constant('')), {
        maxLength: 12,
      })
      .map((parts) => parts.join('\n'));
    fc.assert(
      fc.property(mangled, (text) => {
        const answer = sdkRejection(text);
        if (answer === undefined) return;
        expect(['result', 'structured', 'arguments']).toContain(answer.kind);
        expect(['TypeScript SDK', 'Python SDK', 'Python FastMCP']).toContain(answer.sdk);
        expect(typeof answer.problem).toBe('string');
        expect(answer.problem.length).toBeGreaterThan(0);
      }),
      { numRuns: runs(2000) },
    );
  });
});

describe('result-rejected-by-server: where it finds the rejection, and what it says', () => {
  const V1_ERROR =
    'MCP error -32602: Invalid tools/call result: [{"expected":"object","code":"invalid_type","path":[],"message":"Invalid input: expected object, received string"}]';
  const V1_PROBLEM = 'result: expected object, got string';
  const OUTPUT_ERROR =
    'Output validation error: Tool weather has an output schema but no structured content was provided';
  const ARGUMENTS_ERROR =
    'Input validation error: Invalid arguments for tool w: [{"expected":"string","code":"invalid_type","path":["city"],"message":"Invalid input: expected string, received undefined"}]';
  const call = { method: 'tools/call', params: { name: 'weather' } };
  const v25 = { version: '2025-06-18' } as const;
  const errorResponse = (message: unknown) => ({ jsonrpc: '2.0', id: 3, error: { code: -32602, message } });
  const isErrorResponse = (content: unknown[], isError: unknown = true) => ({
    jsonrpc: '2.0',
    id: 3,
    result: { content, isError },
  });

  it('reads the JSON-RPC error an SDK sends in place of the result', () => {
    expect(said(RULE, 'message', errorResponse(V1_ERROR), v25)).toEqual([
      [
        'default',
        '/error/message',
        `the server's TypeScript SDK rejected the tool's result before sending it (JSON-RPC error): ${V1_PROBLEM}`,
      ],
    ]);
  });

  it('reads an isError result at the first text block that holds a rejection, past other blocks', () => {
    const content = [
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      { type: 'text', text: 'the call failed' },
      { type: 'text', text: OUTPUT_ERROR },
      { type: 'text', text: V1_ERROR },
    ];
    expect(said(RULE, 'message', isErrorResponse(content), { ...v25, request: call })).toEqual([
      [
        'structured',
        '/result/content/2/text',
        "the server's TypeScript SDK rejected the tool's structuredContent against its outputSchema (isError result): structuredContent: missing, but the tool declares an outputSchema",
      ],
    ]);
  });

  it('takes an SDK’s words only where the SDK puts them: an isError result or a JSON-RPC error', () => {
    const content = [{ type: 'text', text: V1_ERROR }];
    // A tool that succeeds may quote such a text (a log viewer, a test runner): it is its output.
    expect(hits(RULE, 'message', isErrorResponse(content, false), v25)).toEqual([]);
    expect(hits(RULE, 'message', isErrorResponse(content, 'true'), v25)).toEqual([]);
    expect(
      hits(RULE, 'message', { jsonrpc: '2.0', id: 3, result: { content: V1_ERROR, isError: true } }, v25),
    ).toEqual([]);
    // A JSON-RPC error is read by its own message only, even beside a result that quotes one.
    expect(
      hits(
        RULE,
        'message',
        { ...isErrorResponse(content), error: { code: -32603, message: 'Internal error' } },
        v25,
      ),
    ).toEqual([]);
    expect(hits(RULE, 'message', errorResponse(42), v25)).toEqual([]);
    expect(hits(RULE, 'message', errorResponse('Tool weather not found'), v25)).toEqual([]);
  });

  it('leaves the arguments to the audit: an SDK that rejects them says nothing of the result', () => {
    expect(hits(RULE, 'message', errorResponse(ARGUMENTS_ERROR), v25)).toEqual([]);
    expect(hits(RULE, 'message', isErrorResponse([{ type: 'text', text: ARGUMENTS_ERROR }]), v25)).toEqual(
      [],
    );
  });

  it('reads responses to tools/call, and those whose request is not known', () => {
    const response = errorResponse(V1_ERROR);
    expect(hits(RULE, 'message', response, { ...v25, request: call })).toEqual([
      ['default', '/error/message'],
    ]);
    expect(hits(RULE, 'message', response, v25)).toEqual([['default', '/error/message']]);
    expect(hits(RULE, 'message', response, { ...v25, request: { method: 'resources/read' } })).toEqual([]);
  });
});
