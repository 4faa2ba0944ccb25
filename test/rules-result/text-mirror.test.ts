/**
 * The text-mirror check the structuredContent rules share (src/rules/support/call-tool-result.ts):
 * whether a text block carries a value as JSON. It skips the parse where the text cannot carry the
 * value (an object never in prose, a number never in a text that starts with a letter), which must
 * change no answer: held here to a plain parse of every text.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEqual } from '../../src/core/json.js';
import { isTextMirrorOf } from '../../src/rules/support/call-tool-result.js';
import { validateToolResultSync } from '../../src/validate/index.js';
import { runs } from '../support/runs.js';

/** The check as the spec words it: the text, parsed as JSON, is the value. */
function parsesTo(text: string, value: unknown): boolean {
  try {
    return jsonEqual(JSON.parse(text.trim()), value);
  } catch {
    return false;
  }
}

const padding = fc.constantFrom('', ' ', '\n', '\t', '\u00a0', ' \r\n');
const scalar = fc.oneof(
  fc.string(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(scalar, fc.jsonValue({ maxDepth: 2 }));
/** Texts that are the JSON of some value (in any of its spellings), near it, or prose. */
const text = fc.oneof(
  fc.tuple(padding, value, padding).map(([a, v, b]) => `${a}${JSON.stringify(v)}${b}`),
  fc.tuple(value, fc.integer({ min: 0, max: 2 })).map(([v, indent]) => JSON.stringify(v, null, indent)),
  fc.constantFrom(
    '1e0',
    '1.0',
    '-0',
    '0x1',
    '"a',
    'tru',
    'true ',
    'nulll',
    'NaN',
    '[1,]',
    '{"a":1',
    '"\\u0061"',
  ),
  fc.string(),
);

describe('isTextMirrorOf', () => {
  it('answers as parsing the text and comparing would, for any text and value', () => {
    fc.assert(
      fc.property(text, value, (t, v) => {
        expect(isTextMirrorOf(t, v)).toBe(typeof v === 'string' && t === v ? true : parsesTo(t, v));
      }),
      { numRuns: runs(5000) },
    );
  });

  it('finds the JSON of the value, padded or indented, as a mirror of it', () => {
    const ofValue = value.chain((v) =>
      fc.tuple(
        fc.constant(v),
        fc.oneof(
          fc.tuple(padding, padding).map(([a, b]) => `${a}${JSON.stringify(v)}${b}`),
          fc.integer({ min: 1, max: 2 }).map((indent) => JSON.stringify(v, null, indent)),
        ),
      ),
    );
    fc.assert(
      fc.property(ofValue, ([v, t]) => {
        expect(isTextMirrorOf(t, v)).toBe(true);
      }),
      { numRuns: runs(2000) },
    );
    expect(isTextMirrorOf(' 1e0 ', 1)).toBe(true);
    expect(isTextMirrorOf('"\\u0061"', 'a')).toBe(true);
    expect(isTextMirrorOf('\u00a0null\n', null)).toBe(true);
    expect(isTextMirrorOf('true', false)).toBe(false);
    expect(isTextMirrorOf('t1', 1)).toBe(false);
  });

  it('finds the one mirror among thousands of prose blocks, whatever the kind of value', () => {
    const prose = Array.from({ length: 3_000 }, (_, i) => ({ type: 'text', text: `t${i}` }));
    for (const structured of ['hello', 42, true, null, ['a'], { a: 1 }]) {
      const content = [...prose, { type: 'text', text: ` ${JSON.stringify(structured)} ` }, ...prose];
      const rules = (blocks: unknown[]) =>
        validateToolResultSync(
          { content: blocks, structuredContent: structured },
          { protocolVersion: '2025-06-18' },
        )
          .map((f) => f.rule)
          .filter((rule) => rule.startsWith('structured-content-text'));
      // With the mirror, no text finding; without it, the mirror is missing.
      expect(rules(content)).toEqual([]);
      expect(rules([...prose, ...prose])).toEqual(['structured-content-text-mirror-missing']);
    }
  });
});
