/** Folding findings: the same defect in many places is one finding that lists every place; nothing is lost. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { foldFindings, placesText, pointerPattern, unfold } from '../../src/report/fold.js';

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

  it('folds sibling items whatever their index width, at the end of the pointer too', () => {
    expect(pointerPattern('/result/content/12/type')).toBe('/result/content/*/type');
    expect(pointerPattern('/result/content/7')).toBe('/result/content/*');
    expect(pointerPattern('/result/x2/3a')).toBe('/result/x2/3a');
    const last = [
      at('2025-06-18', 'get#1', '/result/content/0'),
      at('2025-06-18', 'get#1', '/result/content/11'),
    ];
    expect(foldFindings(last)).toHaveLength(1);
  });

  it('folds findings without a location', () => {
    const bare: Finding = {
      rule: 'result-not-object',
      severity: 'error',
      message: 'not an object',
      pointer: '',
    };
    const [folded, ...rest] = foldFindings([bare, { ...bare }]);
    expect(rest).toEqual([]);
    expect(folded?.occurrences).toEqual([{ pointer: '' }, { pointer: '' }]);
  });

  it('blanks the version in a message to a mark of its own, not to nothing', () => {
    // "… in 2025-06-18" seen in 2025-06-18 is not the same message as "… in " seen in 2024-11-05.
    const named = at('2025-06-18', 'get#1');
    const cut = { ...at('2024-11-05', 'get#1'), message: named.message.replace('2025-06-18', '') };
    expect(foldFindings([named, cut])).toEqual([named, cut]);
  });

  it('keeps apart findings whose pointer and message only run together', () => {
    const a: Finding = { rule: 'r', severity: 'error', pointer: '/x', message: 'yz' };
    const b: Finding = { rule: 'r', severity: 'error', pointer: '/xy', message: 'z' };
    expect(foldFindings([a, b])).toEqual([a, b]);
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

describe('unfold', () => {
  it('returns a finding with an empty occurrences list as it is', () => {
    const finding = { ...at('2025-06-18', 'get#1'), occurrences: [] };
    expect(unfold(finding)).toEqual([finding]);
  });
});

describe('placesText', () => {
  const place = (pointer: string, location?: Finding['location']) => ({
    pointer,
    ...(location ? { location } : {}),
  });

  it('says nothing for a finding seen once', () => {
    expect(placesText(at('2025-06-18', 'get#1'))).toBeUndefined();
    expect(placesText({ ...at('2025-06-18', 'get#1'), occurrences: [place('/a')] })).toBeUndefined();
  });

  it('names a tool only where there is no call, and places without a location by pointer', () => {
    const finding: Finding = {
      ...at('2025-06-18', undefined),
      occurrences: [
        place('/a'),
        place('', { protocolVersion: '2025-06-18', tool: 'get' }),
        place('/b', { tool: 'get', call: 'get#2' }),
      ],
    };
    expect(placesText(finding)).toBe('/a; 2025-06-18 tool get; get#2 /b');
  });

  it('shows at most max places and counts the rest', () => {
    const finding: Finding = {
      ...at('2025-06-18', 'get#1'),
      occurrences: ['/a', '/b', '/c', '/d'].map((p) => place(p)),
    };
    expect(placesText(finding, 2)).toBe('/a; /b; +2 more');
    expect(placesText(finding, 4)).toBe('/a; /b; /c; /d');
  });
});
