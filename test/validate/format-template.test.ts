/**
 * formatTemplate splits each template once and caches the pieces; this holds it to the plain regex
 * replacement it stands for, on templates with placeholders of every spelling and data with and
 * without the names (values that look like placeholders or `$` patterns included).
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatTemplate } from '../../src/validate/engine.js';
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
});
