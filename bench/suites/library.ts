/**
 * Library speed on the validator's corpora, each against the validation it builds on: repairSync() and
 * repair() of a clean result (validate, then hand back the same object) and of broken ones (target: ≤ 3×
 * the validation of the same input), and toolResult() from a handler's raw value (target: ≤ 2× the
 * validation of its output).
 */

import { repair, repairSync } from '../../src/library/repair/index.js';
import { toolResult } from '../../src/library/tool-result.js';
import { DEFAULT_PROTOCOL_VERSION } from '../../src/spec/versions.js';
import { validateToolResult, validateToolResultSync } from '../../src/validate/index.js';
import {
  brokenCorpus,
  type Corpus,
  cycler,
  imageCorpus,
  mixedCorpus,
  smallTextCorpus,
  structuredCorpus,
} from '../corpora.js';
import { type BenchResult, compare, type Suite } from '../measure.js';

const VERSION = DEFAULT_PROTOCOL_VERSION;
const OPTIONS = { protocolVersion: VERSION } as const;
const VALIDATE = 'validateToolResultSync';
const VALIDATE_ASYNC = 'validateToolResult (async)';

/** What a handler would return before any shaping. */
function rawValue(result: Record<string, unknown>): unknown {
  const [block] = result.content as Record<string, unknown>[];
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (block?.type === 'image') return Buffer.from(String(block.data), 'base64');
  if ((result.content as unknown[]).length > 1) return result.content;
  return String(block?.text ?? '');
}

/**
 * repair() against validation, each path against its own kind: `repairSync` against the synchronous
 * validator, and the asynchronous `repair` (which may also ask file-type about payloads the synchronous
 * sniffer cannot place) against the asynchronous validator, so the ratio measures repair, not a turn of
 * the microtask queue.
 */
async function repairComparison(corpus: Corpus, kind: 'clean' | 'broken'): Promise<BenchResult[]> {
  const next = cycler(corpus.results);
  const target = (against: string) => (kind === 'broken' ? { targets: [{ against, atMost: 3 }] } : {});
  const title = (path: string) =>
    `${corpus.name}: ${path} of ${kind} results vs their validation (${VERSION})`;
  return [
    await compare(
      title('repairSync()'),
      [
        { name: `repairSync (${kind})`, run: () => repairSync(next(), OPTIONS) },
        { name: VALIDATE, run: () => validateToolResultSync(next(), OPTIONS) },
      ],
      target(VALIDATE),
    ),
    await compare(
      title('repair()'),
      [
        { name: `repair (${kind})`, run: () => repair(next(), OPTIONS) },
        { name: VALIDATE_ASYNC, run: () => validateToolResult(next(), OPTIONS) },
      ],
      target(VALIDATE_ASYNC),
    ),
  ];
}

/**
 * toolResult() (asynchronous: a handler may return a promise, and file-type may be asked about bytes)
 * against both validators of its output: the synchronous one, the stricter yardstick, and the
 * asynchronous one, which pays the same turn of the microtask queue.
 */
async function toolResultComparison(corpus: Corpus): Promise<BenchResult> {
  const raw = corpus.results.map(rawValue);
  const outputs = await Promise.all(raw.map((value) => toolResult(value, OPTIONS)));
  const nextRaw = cycler(raw);
  const nextOutput = cycler(outputs);
  const ofOutput = (name: string) => `${name} of the output`;
  return compare(
    `${corpus.name}: toolResult() from the handler's raw value vs validation of its output (${VERSION})`,
    [
      { name: 'toolResult', run: () => toolResult(nextRaw(), OPTIONS) },
      { name: ofOutput(VALIDATE), run: () => validateToolResultSync(nextOutput(), OPTIONS) },
      { name: ofOutput(VALIDATE_ASYNC), run: () => validateToolResult(nextOutput(), OPTIONS) },
    ],
    {
      targets: [
        { against: ofOutput(VALIDATE), atMost: 2 },
        { against: ofOutput(VALIDATE_ASYNC), atMost: 2 },
      ],
    },
  );
}

export const suite: Suite = {
  name: 'library',
  async run() {
    const results: BenchResult[] = [];
    const clean = [smallTextCorpus(), mixedCorpus(), structuredCorpus(), imageCorpus()];
    for (const corpus of clean) results.push(...(await repairComparison(corpus, 'clean')));
    results.push(...(await repairComparison(brokenCorpus(), 'broken')));
    for (const corpus of clean) results.push(await toolResultComparison(corpus));
    return results;
  },
};
