import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  inlineSafe,
  jsonTerminalSafe,
  longestRun,
  oneLine,
  terminalSafe,
} from '../../src/report/terminal.js';

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
    // Four hex digits always, as JSON and JavaScript write them.
    expect(terminalSafe('\u061c\x01')).toBe('\\u061c\\x01');
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

  it('splits lines at CR, LF and CRLF alike, and counts only lines that say something', () => {
    expect(oneLine('one\rtwo')).toBe('one (1 more line)');
    expect(oneLine('one\r\ntwo\nthree')).toBe('one (2 more lines)');
    expect(oneLine('one\n  \n\t\n')).toBe('one');
    expect(oneLine(' \t \n  first  \n')).toBe('  first');
    expect(oneLine('')).toBe('');
    expect(oneLine(' \n\t\n ')).toBe('');
  });

  it('shows a tab as a space and drops trailing blanks', () => {
    expect(oneLine('a\tb\t \nmore')).toBe('a b (1 more line)');
  });

  it('keeps a line exactly as wide as the width whole', () => {
    expect(oneLine('x'.repeat(20), { width: 20 })).toBe('x'.repeat(20));
    expect(oneLine('x'.repeat(21), { width: 20 })).toBe(`${'x'.repeat(19)}…`);
    // Never narrower than 8 characters.
    expect(oneLine('x'.repeat(12), { width: 2 })).toBe(`${'x'.repeat(7)}…`);
  });

  it('drops only a dangling high surrogate at the cut, of any astral character', () => {
    const cutAt = (char: string) => oneLine(`${'x'.repeat(18)}${char}${'y'.repeat(5)}`, { width: 20 });
    expect(cutAt('\u{10000}')).toBe(`${'x'.repeat(18)}…`);
    expect(cutAt('\u{10ffff}')).toBe(`${'x'.repeat(18)}…`);
    // Characters on either side of the surrogates are whole and stay.
    expect(cutAt('\ud7ff')).toBe(`${'x'.repeat(18)}\ud7ff…`);
    expect(cutAt('\uff21')).toBe(`${'x'.repeat(18)}\uff21…`);
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

describe('jsonTerminalSafe', () => {
  it('writes the characters JSON leaves raw but a terminal obeys as \\u escapes: the same JSON value', () => {
    const value = { name: 'a\u007fb\u009b31mc\u202ed\u2028e', plain: 'ünïcödé 🙂' };
    const json = jsonTerminalSafe(JSON.stringify(value));
    expect(json).toBe('{"name":"a\\u007fb\\u009b31mc\\u202ed\\u2028e","plain":"ünïcödé 🙂"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('inlineSafe', () => {
  it('keeps a name on the line it is quoted in: line breaks and tabs shown, controls escaped', () => {
    expect(inlineSafe('t\nPASS\r\n\tx\u001b[2J')).toBe('t\\nPASS\\x0d\\n\\tx\\x1b[2J');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be left is the point.
        expect(inlineSafe(text)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/);
      }),
    );
  });
});

describe('longestRun', () => {
  it('is the longest run of the character, as a regular expression finds it', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[`a]*$/), (text) => {
        const runs = text.match(/`+/g) ?? [];
        expect(longestRun(text, '`')).toBe(runs.reduce((n, run) => Math.max(n, run.length), 0));
      }),
    );
    expect(longestRun('`x'.repeat(200_000), '`')).toBe(1);
  });
});
