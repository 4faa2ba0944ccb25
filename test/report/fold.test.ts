/** Folding findings: the same defect in many places is one finding that lists every place; nothing is lost. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { foldFindings, placesText, unfold } from '../../src/report/fold.js';

const at = (version: string, call: string | undefined, pointer = '/result/content/0/type'): Finding => ({
  rule: 'block-type-unknown',
  severity: 'error',
  message: `unknown content block type "object" in ${version}`,
  pointer,
  location: { protocolVersion: version, tool: 'get', ...(call ? { call } : {}) },
});

describe('foldFindings', () => {
  it('folds one defect across versions, calls and sibling items, listing every place in order', () => {
    const findings = [
      at('2024-11-05', 'get#1'),
      at('2025-06-18', 'get#1'),
      at('2025-06-18', 'get#2', '/result/content/3/type'),
    ];
    const [folded, ...rest] = foldFindings(findings);
    expect(rest).toEqual([]);
    expect(folded).toMatchObject({ ...findings[0], occurrences: expect.any(Array) });
    // Each place keeps its own message where it differs (it names its own version).
    expect(folded?.occurrences).toEqual([
      { pointer: findings[0]?.pointer, location: findings[0]?.location },
      ...findings.slice(1).map((f) => ({ pointer: f.pointer, location: f.location, message: f.message })),
    ]);
    expect(placesText(folded as Finding)).toBe(
      '2024-11-05 get#1 /result/content/0/type; 2025-06-18 get#1 /result/content/0/type; 2025-06-18 get#2 /result/content/3/type',
    );
  });

  it('keeps apart what differs in rule, severity, place or message', () => {
    const base = at('2025-06-18', 'get#1');
    const findings: Finding[] = [
      base,
      { ...base, rule: 'block-type-unsupported-in-version' },
      { ...base, severity: 'warning' },
      { ...base, pointer: '/result/content/0/mimeType' },
      { ...base, message: 'unknown content block type "json" in 2025-06-18' },
    ];
    expect(foldFindings(findings)).toEqual(findings);
  });

  it('leaves a finding seen once as it was, and folding twice changes nothing', () => {
    const once = [at('2025-06-18', 'get#1')];
    expect(foldFindings(once)).toEqual(once);
    const folded = foldFindings([at('2024-11-05', 'get#1'), at('2025-06-18', 'get#1')]);
    expect(foldFindings(folded)).toEqual(folded);
  });

  it('never loses or invents a place (property)', () => {
    const finding = fc.record({
      rule: fc.constantFrom('a-rule', 'b-rule'),
      severity: fc.constantFrom('error' as const, 'warning' as const),
      message: fc.constantFrom('m1', 'm2 in 2025-06-18'),
      pointer: fc.constantFrom('', '/x', '/x/0', '/x/1', '/y/2/z'),
      location: fc.record({
        protocolVersion: fc.constantFrom('2024-11-05', '2025-06-18'),
        call: fc.constantFrom('t#1', 't#2'),
      }),
    });
    fc.assert(
      fc.property(fc.array(finding, { maxLength: 30 }), (findings) => {
        const folded = foldFindings(findings);
        const key = (f: Finding) => JSON.stringify([f.rule, f.severity, f.message, f.pointer, f.location]);
        expect(folded.flatMap(unfold).map(key).sort()).toEqual(findings.map(key).sort());
        expect(folded.length).toBeLessThanOrEqual(findings.length);
      }),
    );
  });
});
