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
