import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAbsoluteUri, lastPathSegment } from '../../src/core/uri.js';
import { runs } from '../support/runs.js';

const uriFormat = fullFormats.uri as (value: string) => boolean;

describe('isAbsoluteUri()', () => {
  it('accepts what format "uri" accepts: a scheme and the rest', () => {
    for (const uri of [
      'file:///a/b.txt',
      'https://example.com/a?b#c',
      'urn:isbn:0451450523',
      'ui://widget/1',
    ]) {
      expect(isAbsoluteUri(uri), uri).toBe(true);
    }
  });

  it('answers exactly as ajv-formats does, on its shortcut for plain URIs and off it', () => {
    const part = fc.constantFrom(
      'a',
      'Z',
      '0',
      '-',
      '.',
      '_',
      '~',
      '/',
      ':',
      '//',
      '+',
      '?',
      '#',
      '%20',
      '%zz',
      '@',
      '[',
      ']',
      ' ',
      'é',
      '\n',
      // Letters whose case folds to an ASCII one (the Kelvin sign, the long s, the dotless i): the
      // shortcut spells out both cases without the `i` flag, and must still refuse them as the format does.
      '\u212a',
      '\u017f',
      '\u0131',
      'A',
    );
    const uri = fc.tuple(
      fc.constantFrom(
        'https://',
        'HTTPS://',
        'file:///',
        'ui://',
        'urn:',
        'a+b.c-d://',
        '1http://',
        'h_t://',
        '\u212aey://',
        '\u017fsh://',
        '',
        '//',
      ),
      fc.array(part, { maxLength: 12 }),
    );
    fc.assert(
      fc.property(uri, ([scheme, rest]) => {
        const value = scheme + rest.join('');
        expect(isAbsoluteUri(value), value).toBe(uriFormat(value));
      }),
      { numRuns: runs(5000) },
    );
  });

  it('rejects relative references, spaces and the empty string', () => {
    for (const uri of ['a/b.txt', '/abs/path', 'http://x.org/a b', '', '//host/path']) {
      expect(isAbsoluteUri(uri), uri).toBe(false);
    }
  });
});

describe('lastPathSegment()', () => {
  it('is the last non-empty path segment, decoded, without query or fragment', () => {
    expect(lastPathSegment('file:///project/src/main.rs')).toBe('main.rs');
    expect(lastPathSegment('https://example.com/docs/My%20File.pdf?x=1#p2')).toBe('My File.pdf');
    expect(lastPathSegment('https://example.com/a/b/')).toBe('b');
  });

  it('drops the whole query and fragment, and a scheme only at the start', () => {
    expect(lastPathSegment('file:///dir/a.txt?x\ny')).toBe('a.txt');
    expect(lastPathSegment('file:///dir/a.txt#x\ny/z')).toBe('a.txt');
    expect(lastPathSegment('notes/a:b')).toBe('a:b');
  });

  it('is undefined when the URI has no path', () => {
    expect(lastPathSegment('https://example.com/')).toBeUndefined();
    expect(lastPathSegment('urn:')).toBeUndefined();
  });

  it('keeps a segment whose percent-encoding does not decode', () => {
    expect(lastPathSegment('https://example.com/bad%E0%A4')).toBe('bad%E0%A4');
  });
});
