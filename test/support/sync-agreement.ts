/**
 * The synchronous validators must return exactly the findings of the asynchronous ones, with one
 * documented exception: where the asynchronous validator asked file-type about a payload the
 * synchronous sniffer could not place, the mimeType findings of that block may differ.
 */

import type { Finding } from '../../src/core/finding.js';
import { getIn, type PathSegment, toPointer } from '../../src/core/pointer.js';
import { FactScope } from '../../src/core/run-memo.js';
import { fileTypeAnswers, mediaPayloads } from '../../src/validate/index.js';

/**
 * JSON Pointers of the blocks whose payload only file-type could place, in a result at `base` of
 * `document`. Those blocks are where the two validators may disagree.
 */
export async function fileTypeOnlyBlocks(
  document: unknown,
  base: readonly PathSegment[] = [],
): Promise<string[]> {
  const result = getIn(document, base);
  const answers = await fileTypeAnswers(mediaPayloads(result), new FactScope());
  if (answers.size === 0) return [];
  const content = (result as { content: unknown[] }).content;
  return content.flatMap((block, i) => {
    // Any item may be no block at all (null, a string) beside one file-type placed.
    if (typeof block !== 'object' || block === null) return [];
    const holder = block as { resource?: unknown };
    return answers.has(holder) || (holder.resource !== undefined && answers.has(holder.resource as object))
      ? [toPointer([...base, 'content', i])]
      : [];
  });
}

function mayDiffer(finding: Finding, blocks: readonly string[]): boolean {
  return (
    finding.rule.startsWith('block-mime-type-') &&
    blocks.some((block) => finding.pointer === block || finding.pointer.startsWith(`${block}/`))
  );
}

/** Why the two lists of findings disagree beyond the documented exception; `undefined` when they agree. */
export function disagreement(
  asyncFindings: readonly Finding[],
  syncFindings: readonly Finding[],
  fileTypeBlocks: readonly string[],
): string | undefined {
  const keep = (f: Finding) => !mayDiffer(f, fileTypeBlocks);
  const a = JSON.stringify(asyncFindings.filter(keep));
  const s = JSON.stringify(syncFindings.filter(keep));
  return a === s ? undefined : `async: ${a}\n sync: ${s}`;
}
