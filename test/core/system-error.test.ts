/** System errors in words, for one-line messages (src/core/system-error.ts). */

import { describe, expect, it } from 'vitest';
import { systemErrorCode, systemErrorWords } from '../../src/core/system-error.js';

const withCode = (code: unknown, cause?: unknown) =>
  Object.assign(new Error('low-level text'), { code, cause });

describe('systemErrorCode', () => {
  it('finds the code, or the code of a cause up to four deep', () => {
    expect(systemErrorCode(withCode('ENOENT'))).toBe('ENOENT');
    const fetchError = new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') });
    expect(systemErrorCode(fetchError)).toBe('ECONNREFUSED');
    const deep = (n: number): unknown =>
      n === 0 ? withCode('EPIPE') : new Error(`level ${n}`, { cause: deep(n - 1) });
    expect(systemErrorCode(deep(3))).toBe('EPIPE');
    expect(systemErrorCode(deep(4))).toBeUndefined();
  });

  it('is undefined without a string code', () => {
    expect(systemErrorCode(withCode(42))).toBeUndefined();
    expect(systemErrorCode('ENOENT')).toBeUndefined();
    expect(systemErrorCode(null)).toBeUndefined();
  });
});

describe('systemErrorWords', () => {
  it('says what a code means, in context first', () => {
    expect(systemErrorWords(withCode('ENOENT'))).toBe('no such file');
    expect(systemErrorWords(withCode('ENOENT'), { ENOENT: 'command not found' })).toBe('command not found');
    expect(systemErrorWords(withCode('ECONNREFUSED'), { ENOENT: 'command not found' })).toBe(
      'connection refused',
    );
    expect(systemErrorWords(withCode('E_SOMETHING_NEW'))).toBe('E_SOMETHING_NEW');
  });

  it('gives the innermost message where there is no code', () => {
    const error = new Error('outer', { cause: new Error('inner', { cause: new Error('') }) });
    expect(systemErrorWords(error)).toBe('inner');
    const deep = new Error('1', {
      cause: new Error('2', { cause: new Error('3', { cause: new Error('4', { cause: new Error('5') }) }) }),
    });
    expect(systemErrorWords(deep)).toBe('4');
  });

  it('explains a port the Fetch standard blocks', () => {
    expect(systemErrorWords(new TypeError('fetch failed', { cause: new Error('bad port') }))).toBe(
      'port blocked by fetch (a "bad port" of the Fetch standard)',
    );
  });

  it('falls back to the value itself', () => {
    expect(systemErrorWords('plain text')).toBe('plain text');
    expect(systemErrorWords({ message: 7 })).toBe('[object Object]');
    expect(systemErrorWords(null)).toBe('null');
    expect(systemErrorWords(undefined)).toBe('undefined');
  });
});
