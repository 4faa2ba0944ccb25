/**
 * The benchmark corpora shared by every suite, built deterministically so runs compare like with like:
 * the four of issue 11 (a 57-byte text result, 100 mixed blocks, a 78 KB structured result with its text
 * mirror, a 1 MB PNG), results broken the ways real servers break them, and the structured corpus with
 * the tool's outputSchema. Sized corpora (10 KB … 10 MB) measure time per KB.
 */

export interface Corpus {
  readonly name: string;
  readonly results: readonly Record<string, unknown>[];
  /** The same results serialized, for JSON.parse baselines and the proxy's input lines. */
  readonly bytes: readonly string[];
  /** A tool whose outputSchema the results satisfy, when they carry structuredContent. */
  readonly tool?: Record<string, unknown>;
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function corpus(name: string, results: Record<string, unknown>[], tool?: Record<string, unknown>): Corpus {
  return { name, results, bytes: results.map((r) => JSON.stringify(r)), ...(tool ? { tool } : {}) };
}

/** Several distinct results per corpus, so no run is answered from a cache keyed by the last input. */
const VARIANTS = 8;

export function smallTextCorpus(): Corpus {
  const results = Array.from({ length: 64 }, (_, i) => ({
    content: [{ type: 'text', text: `City ${i % 10}: ${10 + (i % 9)} C, ${i % 3 ? 'rain' : 'snow'}` }],
  }));
  return corpus('small text (57 B)', results);
}

/** PNG bytes: a real signature and IHDR, then pseudo-random bytes; file-type sniffs them as image/png. */
export function pngBytes(size: number, random: () => number): Uint8Array {
  const header = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 4, 0, 0, 0, 4,
    0, 8, 6, 0, 0, 0,
  ];
  const bytes = new Uint8Array(Math.max(size, header.length));
  bytes.set(header);
  for (let i = header.length; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
  return bytes;
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64');
}

/**
 * 100 blocks: 20 text, 45 small PNG images, 15 resource links, 5 embedded text resources and 15 embedded
 * blobs (60 base64 payloads in all).
 */
export function mixedCorpus(): Corpus {
  const random = seeded(3);
  const results = Array.from({ length: VARIANTS }, (_, r) => {
    const content: Record<string, unknown>[] = [];
    for (let i = 0; i < 100; i++) {
      const kind = i % 20;
      if (kind < 4)
        content.push({ type: 'text', text: `Row ${r}-${i}: ${'lorem ipsum '.repeat(1 + (i % 5))}` });
      else if (kind < 13) {
        const data = base64(pngBytes(200 + Math.floor(random() * 1800), random));
        content.push({ type: 'image', data, mimeType: 'image/png' });
      } else if (kind < 16) {
        content.push({
          type: 'resource_link',
          uri: `https://example.com/files/${r}/${i}.csv`,
          name: `file-${i}.csv`,
          mimeType: 'text/csv',
        });
      } else if (kind === 16) {
        content.push({
          type: 'resource',
          resource: { uri: `file:///notes/${r}-${i}.md`, mimeType: 'text/markdown', text: `# Note ${i}\n` },
        });
      } else {
        const blob = base64(pngBytes(300 + Math.floor(random() * 700), random));
        content.push({
          type: 'resource',
          resource: { uri: `file:///img/${r}-${i}.png`, mimeType: 'image/png', blob },
        });
      }
    }
    return { content };
  });
  return corpus('100 mixed blocks', results);
}

const ITEM_SCHEMA = {
  type: 'object',
  required: ['id', 'name', 'price', 'inStock'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    price: { type: 'number' },
    inStock: { type: 'boolean' },
  },
} as const;

/** The outputSchema of the structured corpus: any number of named items. */
export const STRUCTURED_TOOL = {
  name: 'search',
  inputSchema: { type: 'object' },
  outputSchema: { type: 'object', additionalProperties: ITEM_SCHEMA },
};

/** The outputSchema of the sized corpora: `{ items: [...], total }`. */
const SIZED_TOOL = {
  name: 'search',
  inputSchema: { type: 'object' },
  outputSchema: {
    type: 'object',
    required: ['items', 'total'],
    properties: { total: { type: 'integer' }, items: { type: 'array', items: ITEM_SCHEMA } },
  },
};

function item(random: () => number, id: string, i: number): Record<string, unknown> {
  return {
    id,
    name: `Item ${i} ${'x'.repeat(Math.floor(random() * 7))}`,
    price: Math.round(random() * 10000) / 100,
    inStock: random() > 0.5,
  };
}

/** structuredContent of about `bytes` bytes of JSON: records of five keys each. */
function records(bytes: number, random: () => number, tag: number): Record<string, unknown> {
  const items: Record<string, unknown>[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const record = item(random, `sku-${tag}-${i}`, i);
    size += JSON.stringify(record).length * 2 + 1; // structuredContent plus its mirror
    items.push(record);
  }
  return { items, total: items.length };
}

function structuredResult(structuredContent: Record<string, unknown>): Record<string, unknown> {
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
}

/** An object of 500 named items with its JSON text mirror: about 78 KB serialized. */
export function structuredCorpus(): Corpus {
  const random = seeded(7);
  const results = Array.from({ length: VARIANTS }, (_, r) => {
    const entries = Array.from({ length: 500 }, (_, i) => [`k${i}`, item(random, `${r}-${i}`, i)]);
    return structuredResult(Object.fromEntries(entries));
  });
  return corpus('structured (500 keys + mirror, 78 KB)', results, STRUCTURED_TOOL);
}

/** A 1 MB PNG per result. More results than any cache of recent payloads would hold. */
export function imageCorpus(): Corpus {
  return sizedImageCorpus(1024 * 1024, '1 MB PNG');
}

export function sizedImageCorpus(bytes: number, name = `image ${kb(bytes)}`): Corpus {
  const random = seeded(11);
  const count = bytes >= 4 * 1024 * 1024 ? 9 : 12;
  const results = Array.from({ length: count }, () => ({
    content: [{ type: 'image', data: base64(pngBytes(bytes, random)), mimeType: 'image/png' }],
  }));
  return corpus(name, results);
}

/** Structured results of about `bytes` bytes serialized (structuredContent and its mirror together). */
export function sizedStructuredCorpus(bytes: number): Corpus {
  const random = seeded(5);
  const count = bytes >= 4 * 1024 * 1024 ? 2 : 6;
  const results = Array.from({ length: count }, (_, r) => structuredResult(records(bytes, random, r)));
  return corpus(`structured ${kb(bytes)}`, results, SIZED_TOOL);
}

function kb(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MB` : `${bytes / 1024} KB`;
}

/**
 * The same kinds of data, sent the way broken servers send them (shared/reference/client-compat.md §4):
 * a bare string as content, a `{"type":"object"}` block, an image without mimeType or with the wrong
 * one, a data: URI, base64url, structuredContent as an array, an error payload without isError.
 */
export function brokenCorpus(): Corpus {
  const random = seeded(13);
  const png = base64(pngBytes(1500, random));
  const jpeg = base64(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0]));
  const results: Record<string, unknown>[] = [
    { content: 'Weather in Berlin: 12 C, rain' },
    { content: [{ type: 'object', value: { temperature: 12 } }] },
    { content: [{ type: 'image', data: png }] },
    { content: [{ type: 'image', data: jpeg, mimeType: 'image/png' }] },
    { content: [{ type: 'image', data: `data:image/png;base64,${png}`, mimeType: 'image/png' }] },
    {
      content: [{ type: 'image', data: png.replace(/\+/g, '-').replace(/\//g, '_'), mimeType: 'image/png' }],
    },
    { content: [{ type: 'text', text: '[1,2,3]' }], structuredContent: [1, 2, 3] },
    { content: [{ type: 'text', text: '{"error":"city not found"}' }], structuredContent: { error: 'nope' } },
  ];
  return corpus('broken (8 kinds)', results);
}

/** Cycles through a corpus's items so every candidate sees the same mix. */
export function cycler<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length] as T;
}
