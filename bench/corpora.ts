/**
 * The three benchmark corpora shared by every suite: small text results, ~75 KB structured results, and
 * ~1 MB images. Built deterministically, so runs compare like with like.
 */

export interface Corpus {
  readonly name: string;
  readonly results: readonly Record<string, unknown>[];
  /** The same results serialized, for JSON.parse baselines. */
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

export function smallTextCorpus(): Corpus {
  const results = Array.from({ length: 64 }, (_, i) => ({
    content: [
      { type: 'text', text: `Weather in city ${i}: ${10 + (i % 20)}°C, ${i % 3 === 0 ? 'sunny' : 'cloudy'}` },
    ],
  }));
  return corpus('small text', results);
}

const RECORD_SCHEMA = {
  type: 'object',
  required: ['items', 'total'],
  properties: {
    total: { type: 'integer' },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'name', 'price', 'tags', 'inStock'],
        properties: {
          id: { type: 'string' },
          name: { type: 'string' },
          price: { type: 'number' },
          tags: { type: 'array', items: { type: 'string' } },
          inStock: { type: 'boolean' },
        },
      },
    },
  },
} as const;

export function structuredCorpus(): Corpus {
  const random = seeded(7);
  const results = Array.from({ length: 8 }, (_, r) => {
    const items = Array.from({ length: 330 }, (_, i) => ({
      id: `sku-${r}-${i}`,
      name: `Product ${i} ${'x'.repeat(Math.floor(random() * 20))}`,
      price: Math.round(random() * 10000) / 100,
      tags: ['a', 'b', 'c'].slice(0, 1 + (i % 3)),
      inStock: random() > 0.5,
    }));
    const structuredContent = { items, total: items.length };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  });
  return corpus('~75 KB structured', results, {
    name: 'search',
    inputSchema: { type: 'object' },
    outputSchema: RECORD_SCHEMA,
  });
}

/** A real PNG signature and IHDR followed by pseudo-random bytes: sniffs as image/png. */
export function imageCorpus(): Corpus {
  const random = seeded(11);
  const header = [
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 4, 0, 0, 0, 4,
    0, 8, 6, 0, 0, 0,
  ];
  // More images than base64Problem remembers, so no run is answered from its cache.
  const results = Array.from({ length: 12 }, () => {
    const bytes = new Uint8Array(1024 * 1024);
    bytes.set(header);
    for (let i = header.length; i < bytes.length; i++) bytes[i] = Math.floor(random() * 256);
    const data = Buffer.from(bytes).toString('base64');
    return { content: [{ type: 'image', data, mimeType: 'image/png' }] };
  });
  return corpus('1 MB images', results);
}

export function allCorpora(): Corpus[] {
  return [smallTextCorpus(), structuredCorpus(), imageCorpus()];
}

/** Cycles through a corpus's items so every candidate sees the same mix. */
export function cycler<T>(items: readonly T[]): () => T {
  let i = 0;
  return () => items[i++ % items.length] as T;
}
