/** RFC 6901 JSON Pointers (src/core/pointer.ts): every finding's `pointer`, and repair's edits. */

import { describe, expect, it } from 'vitest';
import {
  deleteIn,
  escapeSegment,
  getIn,
  hasIn,
  parsePointer,
  setIn,
  toPointer,
} from '../../src/core/pointer.js';

describe('JSON Pointer text', () => {
  it('escapes ~ and / in segments, in that order', () => {
    expect(escapeSegment('a/b~c')).toBe('a~1b~0c');
    expect(escapeSegment('~1')).toBe('~01');
    expect(escapeSegment(3)).toBe('3');
    expect(toPointer([])).toBe('');
    expect(toPointer(['content', 0, 'a/b', '~'])).toBe('/content/0/a~1b/~0');
  });

  it('parses what it writes', () => {
    expect(parsePointer('')).toEqual([]);
    expect(parsePointer('/')).toEqual(['']);
    expect(parsePointer('/content/0/a~1b/~0')).toEqual(['content', '0', 'a/b', '~']);
    // "~01" is "~1" escaped, not "/".
    expect(parsePointer('/~01')).toEqual(['~1']);
    expect(() => parsePointer('content')).toThrow(
      new SyntaxError('JSON Pointer must start with "/": content'),
    );
  });
});

describe('documents by path', () => {
  it('reads a value, or undefined past a missing step or a scalar', () => {
    const document = { content: [{ text: 'hi' }], n: 1, z: null };
    expect(getIn(document, [])).toBe(document);
    expect(getIn(document, ['content', 0, 'text'])).toBe('hi');
    expect(getIn(document, ['content', 1, 'text'])).toBeUndefined();
    expect(getIn(document, ['n', 'x'])).toBeUndefined();
    expect(getIn(document, ['z', 'x'])).toBeUndefined();
  });

  it('sets a value where the parent exists', () => {
    const document: Record<string, unknown> = { a: { b: 1 }, s: 'x' };
    expect(setIn(document, ['a', 'b'], 2)).toBe(true);
    expect(setIn(document, ['c'], 3)).toBe(true);
    expect(document).toEqual({ a: { b: 2 }, c: 3, s: 'x' });
    expect(setIn(document, ['missing', 'b'], 1)).toBe(false);
    expect(setIn(document, ['s', 'length'], 1)).toBe(false);
    expect(setIn(document, [], 1)).toBe(false);
    expect(setIn({ a: null }, ['a', 'b'], 1)).toBe(false);
    const deep = { a: { b: { c: 1 } } };
    expect(setIn(deep, ['a', 'b', 'c'], 2)).toBe(true);
    expect(deep).toEqual({ a: { b: { c: 2 } } });
    expect(document).toEqual({ a: { b: 2 }, c: 3, s: 'x' });
  });

  it('deletes a member, or splices an array item out', () => {
    const document = { a: { b: 1, c: 2 }, list: [1, 2, 3], s: 'x' };
    expect(deleteIn(document, ['a', 'b'])).toBe(true);
    expect(deleteIn(document, ['list', 1])).toBe(true);
    expect(document).toEqual({ a: { c: 2 }, list: [1, 3], s: 'x' });
    // A string key on an array deletes that member, leaving the items in place.
    expect(deleteIn(document, ['list', '0'])).toBe(true);
    expect(document.list).toHaveLength(2);
    expect(deleteIn(document, ['missing', 'b'])).toBe(false);
    expect(deleteIn(document, ['s', 'length'])).toBe(false);
    expect(deleteIn(document, [])).toBe(false);
    expect(deleteIn({ a: null }, ['a', 'b'])).toBe(false);
    const deep = { a: { b: { c: 1, d: 2 } }, e: 3 };
    expect(deleteIn(deep, ['a', 'b', 'c'])).toBe(true);
    expect(deleteIn(deep, ['e'])).toBe(true);
    expect(deep).toEqual({ a: { b: { d: 2 } } });
  });

  it('removes nothing, and says so, where there is nothing at the path', () => {
    const document = { list: [1, undefined], o: { a: undefined } as Record<string, unknown> };
    expect(deleteIn(document, ['list', 2])).toBe(false);
    expect(deleteIn(document, ['o', 'b'])).toBe(false);
    expect(document).toEqual({ list: [1, undefined], o: { a: undefined } });
    expect([hasIn(document, ['list', 1]), hasIn(document, ['o', 'a']), hasIn(document, ['list', 2])]).toEqual(
      [true, true, false],
    );
    // A member holding undefined is there, and goes.
    expect(deleteIn(document, ['list', 1])).toBe(true);
    expect(deleteIn(document, ['o', 'a'])).toBe(true);
    expect(document).toEqual({ list: [1], o: {} });
    expect(Object.hasOwn(document.o, 'a')).toBe(false);
    expect([hasIn(document, []), hasIn(null, ['a']), hasIn({ a: 1 }, ['a', 'b'])]).toEqual([
      false,
      false,
      false,
    ]);
    // The empty path names the document, which is no member, even of a document with a member
    // named "undefined" (what a missing last segment would be read as).
    expect(hasIn({ undefined: 1 }, [])).toBe(false);
    expect(deleteIn({ undefined: 1 }, [])).toBe(false);
  });
});
