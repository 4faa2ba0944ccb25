/**
 * Tool results as servers really send them, good and broken: the cases of
 * ../shared/reference/client-compat.md §4 and the probe table of §3, plus generators that mix them
 * with arbitrary JSON for the property tests.
 */

import fc from 'fast-check';

export const PNG_1X1 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A 44-byte WAV header plus four samples. */
export function wavBytes(): Uint8Array {
  const bytes = new Uint8Array(48);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(at + i, s.charCodeAt(i));
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 40, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, 8000, true);
  view.setUint32(28, 8000, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  ascii(36, 'data');
  view.setUint32(40, 4, true);
  return bytes;
}

export const WAV = Buffer.from(wavBytes()).toString('base64');
export const JPEG_HEADER = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00,
]).toString('base64');
export const PDF = Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n').toString('base64');

export const GOOD_BLOCKS: readonly unknown[] = [
  { type: 'text', text: 'hello' },
  { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
  { type: 'audio', data: WAV, mimeType: 'audio/wav' },
  { type: 'resource_link', uri: 'https://example.com/a.txt', name: 'a.txt' },
  {
    type: 'resource_link',
    uri: 'ui://widget/app.html',
    name: 'app',
    title: 'App',
    description: 'MCP Apps widget',
    mimeType: 'text/html',
    size: 120,
    annotations: { audience: ['user'], priority: 0.6 },
  },
  { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'notes' } },
  { type: 'resource', resource: { uri: 'file:///report.pdf', mimeType: 'application/pdf', blob: PDF } },
  {
    type: 'text',
    text: 'x',
    annotations: { audience: ['user', 'assistant'], priority: 1, lastModified: '2025-01-12T15:00:58Z' },
  },
];

/** Broken blocks, each named after the §4 case or probe it reproduces. */
export const BROKEN_BLOCKS: Readonly<Record<string, unknown>> = {
  'json type (#13, #15)': { type: 'json', json: { a: 1, b: [true, null] } },
  'object type': { type: 'object', object: { n: 2 } },
  'error type (#14)': { type: 'error', error: 'the disk is full' },
  'mime type as type (#16)': { type: 'application/json', text: '{"a":1}' },
  'blob type (#17)': { type: 'blob', data: PDF, mimeType: 'application/pdf' },
  'file type': { type: 'file', path: '/tmp/x', data: PNG_1X1 },
  'binary type': { type: 'binary', data: PNG_1X1 },
  'html type': { type: 'html', html: '<p onclick="x()">hi</p><script>evil()</script>' },
  'table type': { type: 'table', headers: ['a'], rows: [[1]] },
  'link type': { type: 'link', url: 'https://example.com' },
  'no type': { text: 'untyped' },
  'text is a number': { type: 'text', text: 42 },
  'text uses data (#39)': { type: 'text', data: 'hello' },
  'image without mimeType': { type: 'image', data: PNG_1X1 },
  'image as data URI': { type: 'image', data: `data:image/png;base64,${PNG_1X1}`, mimeType: 'image/png' },
  'image data URI without mimeType': { type: 'image', data: `data:image/png;base64,${PNG_1X1}` },
  'image bad base64': { type: 'image', data: 'not base64 at all!', mimeType: 'image/png' },
  'image mime of wrong family': { type: 'image', data: PNG_1X1, mimeType: 'application/pdf' },
  'image mime contradicted by bytes': { type: 'image', data: JPEG_HEADER, mimeType: 'image/png' },
  'image mime malformed': { type: 'image', data: PNG_1X1, mimeType: 'png' },
  'audio without mimeType': { type: 'audio', data: WAV },
  'resource_link without name (#12)': { type: 'resource_link', uri: 'https://example.com/x' },
  'resource_link bad uri': { type: 'resource_link', uri: 'not a uri', name: 'x' },
  'resource without uri (#34)': { type: 'resource', resource: { text: 'contents' } },
  'resource with text and blob': { type: 'resource', resource: { uri: 'file:///a', text: 'a', blob: PDF } },
  'resource with neither text nor blob': { type: 'resource', resource: { uri: 'file:///a' } },
  'resource blob bad base64': { type: 'resource', resource: { uri: 'file:///a', blob: '***' } },
  'annotations in resource contents': {
    type: 'resource',
    resource: { uri: 'file:///a', text: 'a', annotations: { audience: ['user'] } },
  },
  'priority 2': { type: 'text', text: 'p', annotations: { priority: 2 } },
  'priority -1': { type: 'text', text: 'p', annotations: { priority: -1 } },
  'priority as string': { type: 'text', text: 'p', annotations: { priority: '0.5' } },
  'audience system': { type: 'text', text: 'a', annotations: { audience: ['system'] } },
  'audience not array': { type: 'text', text: 'a', annotations: { audience: 'user' } },
  'lastModified yesterday': { type: 'text', text: 'l', annotations: { lastModified: 'yesterday' } },
  'lastModified date only': { type: 'text', text: 'l', annotations: { lastModified: '2025-01-12' } },
  'annotations not object': { type: 'text', text: 'l', annotations: 'high' },
  '_meta not object': { type: 'text', text: 'm', _meta: 'x' },
  'structuredContent inside a block (#38)': { type: 'text', text: '{}', structuredContent: { a: 1 } },
  'base64 in text (#36)': { type: 'text', text: PNG_1X1 },
  'a string item': 'just a string',
  'a number item': 7,
  'a null item': null,
  'an array item': [{ type: 'text', text: 'nested' }],
};

/** Broken results, each named after the §4 case or probe it reproduces. */
export const BROKEN_RESULTS: Readonly<Record<string, unknown>> = {
  'content is a string (#18)': { content: 'hello' },
  'legacy toolResult envelope (#19)': { toolResult: { answer: 42 } },
  'legacy toolResult string': { toolResult: 'done' },
  'content missing': { structuredContent: { a: 1 } },
  'content is an object': { content: { type: 'text', text: 'x' } },
  'content is null': { content: null },
  'structuredContent array (#20-22)': {
    content: [{ type: 'text', text: '[1,2]' }],
    structuredContent: [1, 2],
  },
  'structuredContent null (#23)': { content: [{ type: 'text', text: 'null' }], structuredContent: null },
  'structuredContent string': { content: [], structuredContent: 'x' },
  'structuredContent without text mirror (#29)': { content: [], structuredContent: { rows: 3 } },
  'text mirror disagrees (#28)': {
    content: [{ type: 'text', text: '{"rows":2}' }],
    structuredContent: { rows: 3 },
  },
  'isError string': { content: [{ type: 'text', text: 'boom' }], isError: 'true' },
  'isError number': { content: [{ type: 'text', text: 'boom' }], isError: 1 },
  'error payload without isError (#14)': { error: { message: 'not found', code: 404 } },
  'error payload next to content': { content: [{ type: 'text', text: 'failed' }], error: 'failed' },
  'image next to structuredContent (#27)': {
    content: [
      { type: 'image', data: PNG_1X1, mimeType: 'image/png' },
      { type: 'text', text: '{"w":1}' },
    ],
    structuredContent: { w: 1 },
  },
  'resultType unknown': { content: [{ type: 'text', text: 'x' }], resultType: 'weird' },
  'resultType not a string': { content: [{ type: 'text', text: 'x' }], resultType: 1 },
  '_meta not object': { content: [{ type: 'text', text: 'x' }], _meta: 'meta' },
  'a bare string': 'just text',
  'a bare array of blocks': [{ type: 'text', text: 'a' }],
  'null result': null,
  'a number': 3,
};

const brokenBlock = fc.constantFrom(...Object.values(BROKEN_BLOCKS));
const goodBlock = fc.constantFrom(...GOOD_BLOCKS);

/** A block: mostly the known shapes, sometimes a random JSON value or a random object with a type. */
export const anyBlock: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: goodBlock },
  { weight: 6, arbitrary: brokenBlock },
  { weight: 1, arbitrary: fc.anything() },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.constantFrom('text', 'image', 'audio', 'resource_link', 'resource', 'x'),
        fc.dictionary(fc.string(), fc.jsonValue()),
      )
      .map(([type, rest]) => ({ ...rest, type })),
  },
);

const optionalMember = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });

/** A result assembled from optional members, each possibly broken. */
export const assembledResult: fc.Arbitrary<unknown> = fc
  .record({
    content: fc.oneof(
      { weight: 8, arbitrary: fc.array(anyBlock, { maxLength: 5 }) },
      { weight: 1, arbitrary: fc.string() },
      { weight: 1, arbitrary: fc.anything() },
    ),
    structuredContent: optionalMember(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.jsonValue())),
    isError: optionalMember(fc.oneof(fc.boolean(), fc.constantFrom('true', 1, null))),
    resultType: optionalMember(fc.constantFrom('complete', 'input_required', 'weird', 3)),
    _meta: optionalMember(fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), fc.string())),
    extra: optionalMember(fc.jsonValue()),
    dropContent: fc.boolean(),
  })
  .map(({ dropContent, extra, ...members }) => {
    const result: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(members)) if (value !== undefined) result[key] = value;
    if (dropContent) delete result.content;
    if (extra !== undefined) result.vendorExtra = extra;
    return result;
  });

/**
 * Tool definitions a result may answer (§4 rows 24-26: structuredContent that breaks the outputSchema,
 * or is missing although one is declared). The array schema is legal only from 2026-07-28; before that
 * no structuredContent can satisfy it, so repair must fall back to an error result.
 */
export const TOOLS: Readonly<Record<string, unknown>> = {
  'object schema': {
    name: 'weather',
    inputSchema: { type: 'object' },
    outputSchema: {
      type: 'object',
      properties: { temperature: { type: 'number' } },
      required: ['temperature'],
    },
  },
  'wrapper schema': {
    name: 'primes',
    inputSchema: { type: 'object' },
    outputSchema: {
      type: 'object',
      properties: { result: { type: 'array', items: { type: 'number' } } },
      required: ['result'],
    },
  },
  'array schema': {
    name: 'list',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'array', items: { type: 'number' } },
  },
  'any object': { name: 'any', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
};

/** Results that answer a tool with an outputSchema: near misses of the schemas above. */
export const SCHEMA_RESULTS: Readonly<Record<string, unknown>> = {
  'matches (#25 right)': {
    content: [{ type: 'text', text: '{"temperature":21}' }],
    structuredContent: { temperature: 21 },
  },
  'wrong type (#25)': {
    content: [{ type: 'text', text: '{"temperature":"warm"}' }],
    structuredContent: { temperature: 'warm' },
  },
  'mismatch on an error result (#24)': {
    content: [{ type: 'text', text: 'failed' }],
    structuredContent: { partial: true },
    isError: true,
  },
  'no structuredContent (#26)': { content: [{ type: 'text', text: 'done' }] },
  'data only in text': { content: [{ type: 'text', text: '{"temperature":3}' }] },
  'bare array': { content: [{ type: 'text', text: '[1,2]' }], structuredContent: [1, 2] },
  'wrapped array': {
    content: [{ type: 'text', text: '{"result":[1,2]}' }],
    structuredContent: { result: [1, 2] },
  },
};

/** Anything a server might send as a result. */
export const anyResult: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: assembledResult },
  { weight: 2, arbitrary: fc.constantFrom(...Object.values(BROKEN_RESULTS)) },
  { weight: 1, arbitrary: fc.anything() },
  { weight: 1, arbitrary: fc.jsonValue() },
);

/** A result and, often, the tool it answers: mixes the schema near misses with everything else. */
export const anyToolCall: fc.Arbitrary<{ result: unknown; tool?: unknown }> = fc.record(
  {
    result: fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom(...Object.values(SCHEMA_RESULTS)) },
      { weight: 3, arbitrary: anyResult },
    ),
    tool: fc.constantFrom(...Object.values(TOOLS)),
  },
  { requiredKeys: ['result'] },
);

/** The fix for a BigInt 1 at `pointer`, which the wire carries as the string "1". */
export function bigintFix(pointer: string) {
  return {
    rule: 'value-not-serializable',
    pointer,
    description: 'sent the BigInt 1 as a string (JSON has no BigInt)',
  };
}

/**
 * A result with a BigInt in its structuredContent and a string for content, and what repair(),
 * repairSync() and toolResult() make of it: the wire's fix first, then the rules' repairs.
 */
export const BIGINT_RESULT = {
  input: () => ({ content: 'x', structuredContent: { n: 1n } }),
  repaired: {
    content: [
      { type: 'text', text: 'x' },
      { type: 'text', text: '{"n":"1"}' },
    ],
    structuredContent: { n: '1' },
  },
  fixes: [
    bigintFix('/structuredContent/n'),
    {
      rule: 'result-content-not-array',
      pointer: '/content',
      description: 'turned the content string into a text block',
    },
    {
      rule: 'structured-content-text-mirror-missing',
      pointer: '/content',
      description: 'added a text block carrying the JSON of structuredContent',
    },
  ],
};
