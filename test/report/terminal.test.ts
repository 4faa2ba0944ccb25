import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine, terminalSafe } from '../../src/report/terminal.js';

// Every control character a terminal acts on, and the Unicode format characters that reorder text.
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('terminalSafe', () => {
  it('shows escape sequences as text', () => {
    expect(terminalSafe('\x1b]52;c;ZXZpbA==\x07name')).toBe('\\x1b]52;c;ZXZpbA==\\x07name');
    expect(terminalSafe('\x1b[2J\x1b[H')).toBe('\\x1b[2J\\x1b[H');
    expect(terminalSafe('ok\rFAKE')).toBe('ok\\x0dFAKE');
    expect(terminalSafe('\x9b31m')).toBe('\\x9b31m');
    expect(terminalSafe('abc\u202edef')).toBe('abc\\u202edef');
  });

  it('keeps newlines, tabs and ordinary text', () => {
    expect(terminalSafe('a\tb\nc — ünïcödé 🙂')).toBe('a\tb\nc — ünïcödé 🙂');
  });

  it('leaves no control character but newline and tab in any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = terminalSafe(s).replace(/[\n\t]/g, '');
        expect(CONTROL.test(out)).toBe(false);
      }),
    );
  });
});

describe('oneLine', () => {
  it('keeps the first line and counts the rest', () => {
    expect(oneLine('Error: boom\n    at x\n    at y')).toBe('Error: boom (2 more lines)');
    expect(oneLine('one\n\nmore')).toBe('one (1 more line)');
    expect(oneLine('\n\nfirst')).toBe('first');
  });

  it('cuts long lines at the width', () => {
    const cut = oneLine('x'.repeat(300), { width: 20 });
    expect(cut).toBe(`${'x'.repeat(19)}…`);
  });

  it('never ends a cut inside a surrogate pair', () => {
    const cut = oneLine(`${'x'.repeat(18)}🙂🙂🙂`, { width: 20 });
    expect(cut).toBe(`${'x'.repeat(18)}…`);
  });

  it('is terminal-safe and one line for any input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.integer({ min: 1, max: 200 }), (s, width) => {
        const out = oneLine(s, { width });
        expect(out.includes('\n')).toBe(false);
        expect(CONTROL.test(out.replace(/\t/g, ''))).toBe(false);
      }),
    );
  });
});
