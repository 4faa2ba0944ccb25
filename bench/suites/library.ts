/**
 * Library speed on the validator's corpora, each against the validation it builds on: repair() of a
 * clean result (validate, then hand back the same object) and of broken ones (target: ≤ 3× the
 * validation of the same input), and toolResult() from a handler's raw value (target: ≤ 2× the
 * validation of its output).
 */

import { repair } from '../../src/library/repair/index.js';
import { toolResult } from '../../src/library/tool-result.js';
import { DEFAULT_PROTOCOL_VERSION } from '../../src/spec/versions.js';
import { validateToolResultSync } from '../../src/validate/index.js';
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

/** What a handler would return before any shaping. */
function rawValue(result: Record<string, unknown>): unknown {
  const [block] = result.content as Record<string, unknown>[];
  if (result.structuredContent !== undefined) return result.structuredContent;
  if (block?.type === 'image') return Buffer.from(String(block.data), 'base64');
  if ((result.content as unknown[]).length > 1) return result.content;
  return String(block?.text ?? '');
}

async function repairComparison(corpus: Corpus, kind: 'clean' | 'broken'): Promise<BenchResult> {
  const next = cycler(corpus.results);
  return compare(
    `${corpus.name}: repair() of ${kind} results vs their validation (${VERSION})`,
    [
      { name: `repair (${kind})`, run: () => repair(next(), OPTIONS) },
      { name: VALIDATE, run: () => validateToolResultSync(next(), OPTIONS) },
    ],
    kind === 'broken' ? { targets: [{ against: VALIDATE, atMost: 3 }] } : {},
  );
}

async function toolResultComparison(corpus: Corpus): Promise<BenchResult> {
  const raw = corpus.results.map(rawValue);
  const outputs = await Promise.all(raw.map((value) => toolResult(value, OPTIONS)));
  const nextRaw = cycler(raw);
  const nextOutput = cycler(outputs);
  return compare(
    `${corpus.name}: toolResult() from the handler's raw value vs validation of its output (${VERSION})`,
    [
      { name: 'toolResult', run: () => toolResult(nextRaw(), OPTIONS) },
      { name: `${VALIDATE} of the output`, run: () => validateToolResultSync(nextOutput(), OPTIONS) },
    ],
    { targets: [{ against: `${VALIDATE} of the output`, atMost: 2 }] },
  );
}

export const suite: Suite = {
  name: 'library',
  async run() {
    const results: BenchResult[] = [];
    const clean = [smallTextCorpus(), mixedCorpus(), structuredCorpus(), imageCorpus()];
    for (const corpus of clean) results.push(await repairComparison(corpus, 'clean'));
    results.push(await repairComparison(brokenCorpus(), 'broken'));
    for (const corpus of clean) results.push(await toolResultComparison(corpus));
    return results;
  },
};
