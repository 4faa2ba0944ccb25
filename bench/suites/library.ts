/**
 * Library throughput on the validator's corpora: repair() on clean results (the common case: validate,
 * then hand back the same object), repair() on broken variants of the same results, and toolResult()
 * on the raw values a handler would return (a string, a plain object, image bytes).
 */

import { repair } from '../../src/library/repair/index.js';
import { toolResult } from '../../src/library/tool-result.js';
import { validateToolResult } from '../../src/validate/index.js';
import { allCorpora, type Corpus, cycler } from '../corpora.js';
import { type BenchResult, compare, type Suite } from '../measure.js';

const VERSION = '2025-06-18';

/** The same data, sent the way broken servers send it (shared/reference/client-compat.md §4). */
function broken(result: Record<string, unknown>): unknown {
  const [block] = result.content as Record<string, unknown>[];
  if (block?.type === 'image') {
    // A data: URI and no mimeType: two repairs, one of them needing the sniffer.
    return { content: [{ type: 'image', data: `data:image/png;base64,${String(block.data)}` }] };
  }
  if (result.structuredContent !== undefined)
    return { content: [], structuredContent: result.structuredContent };
  return { content: String(block?.text ?? '') };
}

/** What a handler would return before any shaping. */
function rawValue(result: Record<string, unknown>): unknown {
  const [block] = result.content as Record<string, unknown>[];
  if (block?.type === 'image') return Buffer.from(String(block.data), 'base64');
  if (result.structuredContent !== undefined) return result.structuredContent;
  return String(block?.text ?? '');
}

async function corpusResults(corpus: Corpus): Promise<BenchResult[]> {
  const next = cycler(corpus.results);
  const nextBroken = cycler(corpus.results.map(broken));
  const nextRaw = cycler(corpus.results.map(rawValue));
  return [
    await compare(`${corpus.name}: repair() of clean results (${VERSION})`, [
      { name: 'mcp-shape repair (clean)', run: () => repair(next(), { protocolVersion: VERSION }) },
      {
        name: 'mcp-shape validateToolResult',
        run: () => validateToolResult(next(), { protocolVersion: VERSION }),
      },
    ]),
    await compare(`${corpus.name}: repair() of broken results (${VERSION})`, [
      { name: 'mcp-shape repair (broken)', run: () => repair(nextBroken(), { protocolVersion: VERSION }) },
    ]),
    await compare(`${corpus.name}: toolResult() from the handler's raw value (${VERSION})`, [
      { name: 'mcp-shape toolResult', run: () => toolResult(nextRaw(), { protocolVersion: VERSION }) },
    ]),
  ];
}

export const suite: Suite = {
  name: 'library',
  async run() {
    const results: BenchResult[] = [];
    for (const corpus of allCorpora()) results.push(...(await corpusResults(corpus)));
    return results;
  },
};
