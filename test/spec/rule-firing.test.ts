/**
 * The generators reach every rule: documents of every subject, drawn from the mutation families of
 * arbitraries.ts and documents.ts (each with a known weight), go through the engine entry point of
 * their subject, and every rule of the catalog must fire at least once. The counts are printed, so a
 * rule that fires rarely is visible before it stops firing.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FactScope } from '../../src/core/run-memo.js';
import { RULES } from '../../src/rules/catalog.js';
import type { Subject } from '../../src/rules/types.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../../src/spec/versions.js';
import {
  type PayloadSniffer,
  runFrame,
  runMessage,
  runSession,
  runToolResult,
  runToolsList,
} from '../../src/validate/engine.js';
import { fileTypeAnswers, mediaPayloads, sniffWith } from '../../src/validate/index.js';
import { runs } from '../support/runs.js';
import { anyResult, MUTATION_FAMILIES, unwritableResult } from './arbitraries.js';
import {
  anyFrame,
  anyMessage,
  anySessionEvent,
  anyToolsList,
  FRAME_FAMILIES,
  familyFrequencies,
  MESSAGE_FAMILIES,
  SESSION_FAMILIES,
  TOOLS_LIST_FAMILIES,
  unwritableMessage,
  unwritableToolsList,
} from './documents.js';

/**
 * Samples per protocol version. A rule of one family in one version is then expected a dozen times or
 * more, so a run that misses it by chance is rarer than one in 100 000.
 */
const PER_VERSION = {
  results: runs(1000, 0.5),
  /** Results and messages holding what JSON cannot write: one of five kinds, in one of a few places. */
  unwritable: runs(20, 0.5),
  messages: runs(300, 0.5),
  toolsLists: runs(500, 0.5),
  frames: runs(100, 0.5),
  sessions: runs(400, 0.5),
};

/** What the asynchronous validators do: the synchronous sniffer, with file-type where it cannot place. */
async function sniffing(result: unknown): Promise<{ scope: FactScope; sniff: PayloadSniffer }> {
  const scope = new FactScope();
  return { scope, sniff: sniffWith(await fileTypeAnswers(mediaPayloads(result), scope)) };
}

function sample<T>(
  arbitrary: (v: ProtocolVersion) => fc.Arbitrary<T>,
  perVersion: number,
): [ProtocolVersion, T][] {
  return PROTOCOL_VERSIONS.flatMap((v) =>
    fc.sample(arbitrary(v), perVersion).map((x) => [v, x] as [ProtocolVersion, T]),
  );
}

describe('every rule of the catalog fires on generated documents', () => {
  it('counts firings per rule and fails naming any rule that never fired', { timeout: 300_000 }, async () => {
    const fired = new Map<string, number>(RULES.map((rule) => [rule.id, 0]));
    const count = (findings: readonly { rule: string }[]) => {
      for (const rule of new Set(findings.map((f) => f.rule))) fired.set(rule, (fired.get(rule) ?? 0) + 1);
    };

    for (const [version, { result, tool }] of sample(anyResult, PER_VERSION.results)) {
      count(runToolResult(result, { version, tool, ...(await sniffing(result)) }));
    }
    for (const [version, { result, tool }] of sample(unwritableResult, PER_VERSION.unwritable)) {
      count(runToolResult(result, { version, tool, ...(await sniffing(result)) }));
    }
    for (const [version, { document }] of sample(anyMessage, PER_VERSION.messages)) {
      const { message, request, tool } = document;
      const sniff = await sniffing(
        typeof message === 'object' && message !== null && 'result' in message ? message.result : undefined,
      );
      count(runMessage(message, { version, request, tool, ...sniff }));
    }
    // As the validators run them: a value that may not be writable is unbounded (validate/as-sent.ts).
    for (const [version, { message, request, tool }] of sample(unwritableMessage, PER_VERSION.unwritable)) {
      count(runMessage(message, { version, request, tool, unbounded: true }));
    }
    for (const [version, { document }] of sample(anyToolsList, PER_VERSION.toolsLists)) {
      count(runToolsList(document, { version }));
    }
    for (const [version, list] of sample(unwritableToolsList, PER_VERSION.unwritable)) {
      count(runToolsList(list, { version, unbounded: true }));
    }
    for (const [version, { document }] of sample(anyFrame, PER_VERSION.frames))
      count(runFrame(document, { version }));
    for (const [version, { document }] of sample(anySessionEvent, PER_VERSION.sessions)) {
      count(runSession(document, { version }));
    }

    const bySubject = new Map<Subject, string[]>();
    for (const rule of RULES) {
      bySubject.set(rule.subject, [
        ...(bySubject.get(rule.subject) ?? []),
        `${rule.id} ${fired.get(rule.id)}`,
      ]);
    }
    const families = [
      ['result and block', MUTATION_FAMILIES],
      ['tools/list', TOOLS_LIST_FAMILIES],
      ['message', MESSAGE_FAMILIES],
      ['frame', FRAME_FAMILIES],
      ['session', SESSION_FAMILIES],
    ] as const;
    console.log(
      [
        `rule firings (documents in which the rule reported at least once), ${PROTOCOL_VERSIONS.length} versions:`,
        ...[...bySubject].map(([subject, counts]) => `  ${subject}: ${counts.join(', ')}`),
        'mutation families and the probability of drawing each per mutation slot:',
        ...families.map(
          ([name, list]) =>
            `  ${name}: ${familyFrequencies(list)
              .map((f) => `${f.family} ${(100 * f.probability).toFixed(1)}%`)
              .join(', ')}`,
        ),
      ].join('\n'),
    );
    const never = RULES.filter((rule) => fired.get(rule.id) === 0).map((rule) => rule.id);
    expect(never, 'rules the generators never made fire').toEqual([]);
  });
});
