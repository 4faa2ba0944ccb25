/**
 * formatTemplate splits each template once and caches the pieces; this holds it to the plain regex
 * replacement it stands for, on templates with placeholders of every spelling and data with and
 * without the names (values that look like placeholders or `$` patterns included).
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTemplate, MAX_QUOTED } from '../../src/validate/engine.js';
import { runs } from '../support/runs.js';

function byRegex(template: string, data: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(data, name) ? String(data[name]) : whole,
  );
}

const piece = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    '{{a}}',
    '{{ b }}',
    '{{c}}',
    '{{ }}',
    '{{a',
    '}}',
    '{',
    '{{{a}}}',
    '{{__proto__}}',
    '$&',
    '$1',
  ),
);
const template = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
const data = fc.dictionary(
  fc.constantFrom('a', 'b', 'c', 'd', '__proto__'),
  fc.oneof(fc.string({ maxLength: 5 }), fc.integer(), fc.boolean(), fc.constantFrom('{{a}}', '$&')),
);

describe('formatTemplate', () => {
  it('formats as the regex replacement does, first time and cached', () => {
    fc.assert(
      fc.property(template, data, (t, d) => {
        expect(formatTemplate(t, d)).toBe(byRegex(t, d));
        expect(formatTemplate(t, d)).toBe(byRegex(t, d));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('quotes any value as its own start, at most MAX_QUOTED characters of it, and never leaves half a pair', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: MAX_QUOTED + 40 }),
      fc.string({ unit: 'binary', minLength: MAX_QUOTED - 20, maxLength: MAX_QUOTED + 20 }),
    );
    fc.assert(
      fc.property(text, (value) => {
        const out = formatTemplate('{{v}}', { v: value });
        if (value.length <= MAX_QUOTED) {
          expect(out).toBe(value);
          return;
        }
        const kept = out.slice(0, out.lastIndexOf('… ('));
        expect(value.startsWith(kept)).toBe(true);
        expect(kept.length).toBeGreaterThanOrEqual(MAX_QUOTED - 1);
        expect(kept.length).toBeLessThanOrEqual(MAX_QUOTED);
        // Never between the two halves of a pair.
        const last = kept.charCodeAt(kept.length - 1);
        const after = value.charCodeAt(kept.length);
        expect(last >= 0xd800 && last <= 0xdbff && after >= 0xdc00 && after <= 0xdfff).toBe(false);
        expect(out.endsWith(`(${(value.length - kept.length).toLocaleString('en')} more characters)`)).toBe(
          true,
        );
      }),
      { numRuns: runs(500) },
    );
  });

  it('quotes at most MAX_QUOTED characters of a value, says how many more there were, and never half a pair', () => {
    const long = `${'x'.repeat(MAX_QUOTED + 10)}`;
    expect(formatTemplate('id {{id}} here', { id: long })).toBe(
      `id ${'x'.repeat(MAX_QUOTED)}… (10 more characters) here`,
    );
    expect(formatTemplate('{{id}}', { id: 'y'.repeat(MAX_QUOTED) })).toBe('y'.repeat(MAX_QUOTED));
    // A pair straddling the cut is left out whole.
    const straddling = `${'z'.repeat(MAX_QUOTED - 1)}😀${'z'.repeat(5)}`;
    expect(formatTemplate('{{v}}', { v: straddling })).toBe(
      `${'z'.repeat(MAX_QUOTED - 1)}… (7 more characters)`,
    );
    expect(formatTemplate('{{n}}', { n: 1e300 })).toBe('1e+300');
  });
});
