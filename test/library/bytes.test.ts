/**
 * src/library/bytes.ts: what kind of media some bytes are (file-type's signatures plus SVG, which is
 * text with no signature), and base64 decoding at its edges. Encoding and the builders' input forms are
 * tested in test/core/base64.test.ts and test/library/builders.test.ts.
 */

import { describe, expect, it, vi } from 'vitest';
import { decodeBase64, mediaTypeOf, mediaTypeOfBytes, sniffMediaType } from '../../src/library/bytes.js';
import { PNG_1X1 } from './support/shapes.js';

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('mediaTypeOfBytes and sniffMediaType', () => {
  it('name SVG by its root element, with or without an XML declaration, in any case', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>';
    expect(await mediaTypeOfBytes(utf8(svg))).toBe('image/svg+xml');
    expect(await mediaTypeOfBytes(utf8(`<?xml version="1.0"?>${svg}`))).toBe('image/svg+xml');
    expect(await mediaTypeOfBytes(utf8('<SVG\n'))).toBe('image/svg+xml');
    expect(await sniffMediaType(btoa('<svg>'))).toBe('image/svg+xml');
  });

  it('keep other XML as XML, and name nothing for plain text, an element merely starting with svg, or no bytes', async () => {
    expect(await mediaTypeOfBytes(utf8('<?xml version="1.0"?><note/>'))).toBe('application/xml');
    expect(await mediaTypeOfBytes(utf8('<svgx>'))).toBeUndefined();
    expect(await mediaTypeOfBytes(utf8('hello'))).toBeUndefined();
    expect(await mediaTypeOfBytes(new Uint8Array(0))).toBeUndefined();
    expect(await sniffMediaType('')).toBeUndefined();
    expect(await sniffMediaType('!!')).toBeUndefined();
    expect(await sniffMediaType(PNG_1X1)).toBe('image/png');
  });
});

describe('mediaTypeOf', () => {
  it("takes the sniffer's type, except XML whose text starts an SVG", () => {
    expect(mediaTypeOf(undefined)).toBeUndefined();
    expect(mediaTypeOf({ mimeType: 'image/png', text: false, signature: '' })).toBe('image/png');
    expect(mediaTypeOf({ mimeType: 'application/xml', text: false, signature: '' })).toBe('application/xml');
    // Only XML is looked into: another type stays what it is, whatever its text.
    expect(mediaTypeOf({ mimeType: 'text/html', text: true, head: '<svg>', signature: '' })).toBe(
      'text/html',
    );
    expect(mediaTypeOf({ mimeType: 'application/xml', text: true, head: '<svg>', signature: '' })).toBe(
      'image/svg+xml',
    );
    expect(mediaTypeOf({ mimeType: undefined, text: true, head: '<svg width="1">', signature: '' })).toBe(
      'image/svg+xml',
    );
    expect(mediaTypeOf({ mimeType: undefined, text: true, signature: '' })).toBeUndefined();
    expect(mediaTypeOf({ mimeType: undefined, text: false, head: '<svg>', signature: '' })).toBeUndefined();
  });
});

describe('decodeBase64', () => {
  it('decodes every byte, and gives no bytes for the empty string', () => {
    expect(decodeBase64('')).toEqual(new Uint8Array(0));
    expect(decodeBase64('QUJD')).toEqual(utf8('ABC'));
    expect(decodeBase64('QUI=')).toEqual(utf8('AB'));
    expect(decodeBase64(PNG_1X1)).toEqual(Uint8Array.from(Buffer.from(PNG_1X1, 'base64')));
  });
});

describe('encodeBase64', () => {
  it("takes Buffer's native encoder where the host has one, and btoa in a browser, with the same text", async () => {
    // A view into a larger buffer, of a length that is no multiple of 3.
    const backing = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256);
    const view = backing.subarray(3, 69_998);
    const expected = Buffer.from(view).toString('base64');
    const native = await import('../../src/library/bytes.js');
    expect(native.encodeBase64(view)).toBe(expected);
    // The module looks Buffer up once, when it loads: load it afresh in a host without one.
    vi.stubGlobal('Buffer', undefined);
    vi.resetModules();
    try {
      const portable = await import('../../src/library/bytes.js');
      expect(portable).not.toBe(native);
      expect(portable.encodeBase64(view)).toBe(expected);
      expect(portable.encodeBase64(new Uint8Array(0))).toBe('');
    } finally {
      vi.unstubAllGlobals();
      vi.resetModules();
    }
  });
});
