/**
 * What src/core/sniff.ts tells the block rules about a payload: whether its bytes are text (and their
 * head), which declared media types agree with them, and how media types compare. file-type's answers are
 * those for the first 4100 bytes, as the synchronous sniffer's are.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALIASES,
  agreesWithBytes,
  COMMON_MEDIA_TYPES,
  canonicalMimeType,
  fileTypeMime,
  isWellFormedMimeType,
  lacksSignature,
  looksLikeSvg,
  matchesMimeTypeSyntax,
  mediaFamily,
  type Sniffed,
  sameMediaType,
  sniffBytes,
  sniffedMediaType,
  sniffSync,
  wellFormedFamily,
} from '../../src/core/sniff.js';
import { runs } from '../support/runs.js';

const media = (name: string) =>
  new Uint8Array(readFileSync(join(import.meta.dirname, '../../fixtures/media', name)));
const utf8 = (s: string) => new TextEncoder().encode(s);
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>';

describe('sniffing text', () => {
  it('gives the head of text bytes, as given', () => {
    expect(sniffSync(utf8('hello'))).toMatchObject({ text: true, head: 'hello' });
    // A binary string, as atob returns: "é" is two bytes of UTF-8, and one Latin-1 byte is not UTF-8.
    expect(sniffSync('h\xc3\xa9')).toMatchObject({ text: true, head: 'h\u00e9' });
    expect(sniffSync('h\xe9').text).toBe(false);
    expect(sniffSync(utf8('tab\there,\r\nlines\f'))).toMatchObject({
      text: true,
      head: 'tab\there,\r\nlines\f',
    });
    expect(sniffSync(utf8('caf\u00e9 \u{1F600}')).head).toBe('caf\u00e9 \u{1F600}');
  });

  it('calls bytes with control characters binary', () => {
    for (const control of [0x00, 0x01, 0x08, 0x0e, 0x1b, 0x1f, 0x7f]) {
      const bytes = Uint8Array.from([...utf8('abc'), control, ...utf8('def')]);
      expect(sniffSync(bytes), `0x${control.toString(16)}`).toEqual({
        mimeType: undefined,
        settled: false,
        text: false,
        signature: String.fromCharCode(...bytes),
      });
    }
  });

  it('keeps the first 12 bytes as the signature of unrecognised bytes, given as bytes or as a binary string', () => {
    // A signature is what lacksSignature compares: no more than the longest signature, so a sniffed
    // payload never holds the decoded bytes of a large one.
    const binary = `\x01\x02${'x'.repeat(5000)}`;
    expect(sniffSync(binary).signature).toBe(binary.slice(0, 12));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    expect(sniffSync(bytes).signature).toBe(binary.slice(0, 12));
  });

  it('calls bytes that are not UTF-8 binary, however short', () => {
    expect(sniffSync(Uint8Array.from([0xc3])).text).toBe(false);
    expect(sniffSync(Uint8Array.from([0xff, 0x41, 0x41])).text).toBe(false);
    expect(sniffSync(Uint8Array.from([...utf8('abc'), 0xe2, 0x82])).text).toBe(false);
  });

  it('looks at the first 512 bytes only, forgiving a character cut at the sample end', () => {
    const long = utf8(`${'a'.repeat(512)}\u0001 binary after the sample`);
    expect(sniffSync(long)).toMatchObject({ text: true, head: 'a'.repeat(512) });
    // "€" is three bytes, the first at byte 511: the sample ends inside it.
    const cut = utf8(`${'a'.repeat(511)}\u20ac and more`);
    expect(sniffSync(cut)).toMatchObject({ text: true, head: 'a'.repeat(509) });
    const invalid = Uint8Array.from([0xff, ...utf8('a'.repeat(600))]);
    expect(sniffSync(invalid).text).toBe(false);
  });
});

describe('asynchronous sniffing', () => {
  it('settles with file-type for formats the fast sniffer does not know', async () => {
    const tiff = media('image.tiff');
    expect(sniffSync(tiff).settled).toBe(false);
    expect(await sniffBytes(tiff)).toMatchObject({ mimeType: 'image/tiff', settled: true, text: false });
    expect(await sniffBytes(utf8('plain words'))).toEqual({
      mimeType: undefined,
      settled: true,
      text: true,
      head: 'plain words',
      signature: 'plain words',
    });
  });

  it("gives file-type's answer for the first 4100 bytes, which the fast sniffer sees", async () => {
    // An ID3 tag longer than the header, before a FLAC stream: within 4100 bytes it is only MP3's tag.
    const size = 5000;
    const tag = Uint8Array.from([
      ...utf8('ID3'),
      4,
      0,
      0,
      (size >> 21) & 0x7f,
      (size >> 14) & 0x7f,
      (size >> 7) & 0x7f,
      size & 0x7f,
    ]);
    const bytes = Uint8Array.from([...tag, ...new Uint8Array(size), ...media('audio.flac').subarray(0, 200)]);
    expect(await fileTypeMime(bytes)).toBe('audio/mpeg');
    expect(sniffSync(bytes).mimeType).toBe('audio/mpeg');
  });
});

describe('media types', () => {
  it('compares without case, parameters or surrounding space', () => {
    expect(canonicalMimeType('Image/PNG; charset=binary')).toBe('image/png');
    expect(canonicalMimeType(' image/png ')).toBe('image/png');
    expect(canonicalMimeType('image/png')).toBe('image/png');
    expect(canonicalMimeType(';charset=utf-8')).toBe('');
  });

  it('folds aliases of one format', () => {
    expect(canonicalMimeType('image/jpg')).toBe('image/jpeg');
    expect(sameMediaType('audio/x-wav', 'audio/wav')).toBe(true);
    expect(sameMediaType('image/png', 'image/jpeg')).toBe(false);
  });

  it('takes any Ogg audio codec for the Ogg container', () => {
    expect(sameMediaType('audio/opus', 'audio/ogg; codecs=opus')).toBe(true);
    expect(sameMediaType('audio/vorbis', 'audio/ogg')).toBe(true);
    expect(sameMediaType('audio/ogg; codecs=opus', 'audio/ogg')).toBe(true);
    expect(sameMediaType('video/ogg', 'audio/ogg')).toBe(false);
    expect(sameMediaType('audio/mpeg', 'audio/ogg')).toBe(false);
    expect(sameMediaType('audio/opus', 'audio/mpeg')).toBe(false);
  });

  it('answers every type, the common ones looked up at once, as the definition says', () => {
    // The definition written out: lower case, no parameters or surrounding space, aliases folded.
    const reference = (type: string) => {
      const bare = type.split(';')[0]?.trim().toLowerCase() ?? '';
      return ALIASES[bare] ?? bare;
    };
    const common = [
      'image/png',
      'image/jpeg',
      'image/gif',
      'image/webp',
      'image/svg+xml',
      'audio/wav',
      'audio/mpeg',
    ];
    const spellings = fc.oneof(
      fc.constantFrom(
        ...common,
        ...Object.keys(ALIASES),
        'text/plain',
        'application/json',
        'application/pdf',
      ),
      fc.stringMatching(/^ ?[A-Za-z]{1,6}\/[A-Za-z+.-]{1,8}( ?; ?[a-z]+=[a-z0-9]+)? ?$/),
    );
    fc.assert(
      fc.property(spellings, fc.boolean(), (type, upper) => {
        const spelled = upper ? type.toUpperCase() : type;
        expect(canonicalMimeType(spelled)).toBe(reference(spelled));
        const bare = reference(spelled);
        expect(mediaFamily(spelled)).toBe(
          bare.indexOf('/') > 0 ? bare.slice(0, bare.indexOf('/')) : undefined,
        );
      }),
      { numRuns: runs(500) },
    );
  });

  it('names the family of a well-formed type only', () => {
    expect(mediaFamily('Image/PNG; x=y')).toBe('image');
    expect(mediaFamily('png')).toBeUndefined();
    expect(mediaFamily('/png')).toBeUndefined();
  });
});

describe('SVG', () => {
  const sniffed = (s: string) => sniffSync(utf8(s));

  it('is seen from the markup, after a byte order mark, white space, a prolog, a comment or a doctype', () => {
    for (const text of [
      svg,
      `\uFEFF${svg}`,
      `\n  ${svg}`,
      `<?xml version="1.0"?>\n${svg}`,
      `<!-- drawn by hand -->${svg}`,
      `<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">${svg}`,
    ]) {
      expect(looksLikeSvg(sniffed(text)), text).toBe(true);
      expect(sniffedMediaType(sniffed(text)), text).toBe('image/svg+xml');
    }
    expect(looksLikeSvg(sniffSync(media('image-bom.svg')))).toBe(true);
  });

  it('is not other markup, or text that mentions it', () => {
    for (const text of [
      '<html><body></body></html>',
      '<?xml version="1.0"?><note/>',
      'see <!-- this --> <svg> tag',
      `${svg.slice(0, 3)} unfinished`,
    ]) {
      expect(looksLikeSvg(sniffed(text)), text).toBe(false);
    }
    expect(sniffedMediaType(sniffed('<html></html>'))).toBeUndefined();
  });

  it('needs text with a head', () => {
    expect(looksLikeSvg({ mimeType: undefined, text: true, signature: '' })).toBe(false);
    expect(looksLikeSvg({ mimeType: undefined, text: false, head: svg, signature: '' })).toBe(false);
  });
});

describe('agreesWithBytes', () => {
  const png = sniffSync(media('image.png'));
  const svgBytes = sniffSync(utf8(svg));
  const unknown: Sniffed = sniffSync(Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04]));

  it('agrees where the bytes show the declared type, or nothing and the type has no fixed signature', () => {
    expect(unknown.mimeType).toBeUndefined();
    expect(agreesWithBytes('image/png', png)).toBe(true);
    expect(agreesWithBytes('image/x-png', png)).toBe(true);
    for (const type of ['image/tiff', 'audio/mpeg', 'video/mp4', 'application/pdf', 'image/svg+xml'])
      expect(agreesWithBytes(type, unknown), type).toBe(true);
  });

  it('disagrees where the type has a fixed signature the bytes lack, whatever else they are', () => {
    const text = sniffSync(utf8('hello'));
    for (const type of [
      'image/png',
      'image/jpg',
      'image/gif',
      'image/webp',
      'image/bmp',
      'audio/wav',
      'audio/ogg',
    ]) {
      expect(agreesWithBytes(type, unknown), type).toBe(false);
      expect(agreesWithBytes(type, text), type).toBe(false);
      expect(lacksSignature(type, text), type).toBe(canonicalMimeType(type));
    }
    // Each format's own bytes carry its signature, as file-type reads them.
    for (const [file, type] of [
      ['image.png', 'image/png'],
      ['image.jpg', 'image/jpeg'],
      ['image.gif', 'image/gif'],
      ['image.webp', 'image/webp'],
      ['image.bmp', 'image/bmp'],
      ['audio.wav', 'audio/wav'],
      ['audio-flac.oga', 'audio/ogg'],
    ] as const) {
      const bytes = media(file);
      expect(sniffSync(bytes).mimeType, file).toBe(type);
      const first = String.fromCharCode(...bytes.subarray(0, 12));
      expect(
        lacksSignature(type, { mimeType: undefined, text: false, signature: first }),
        file,
      ).toBeUndefined();
      // Recognised bytes keep no signature: their type decides, never a missing signature.
      expect(lacksSignature('image/gif', sniffSync(bytes)), file).toBeUndefined();
    }
    // RIFF is a container: its form type, at byte 8, says which format it holds. WAVE files past 4 GB
    // are RF64 or BW64.
    const signed = (signature: string): Sniffed => ({ mimeType: undefined, text: false, signature });
    const pad = '\0\0\0\0';
    expect(lacksSignature('image/webp', signed(`RIFF${pad}WEBP`))).toBeUndefined();
    for (const other of [`RIFF${pad}WAVE`, `RIFX${pad}WEBP`, `${pad}${pad}WEBP`])
      expect(lacksSignature('image/webp', signed(other)), other).toBe('image/webp');
    for (const wave of [`RIFF${pad}WAVE`, `RF64${pad}WAVE`, `BW64${pad}WAVE`])
      expect(lacksSignature('audio/wav', signed(wave)), wave).toBeUndefined();
    for (const other of [`RIFF${pad}AVI `, `RIFX${pad}WAVE`, `${pad}${pad}WAVE`, `RF64${pad}WEBP`])
      expect(lacksSignature('audio/x-wav', signed(other)), other).toBe('audio/wav');
    // A signature cut short is none.
    expect(lacksSignature('image/png', sniffSync(media('image.png').subarray(0, 7)))).toBe('image/png');
  });

  it('disagrees where the bytes show another type', () => {
    expect(agreesWithBytes('image/jpeg', png)).toBe(false);
    expect(agreesWithBytes('application/xml', png)).toBe(false);
    expect(agreesWithBytes('image/png', svgBytes)).toBe(false);
  });

  it('takes SVG for generic XML', () => {
    expect(agreesWithBytes('image/svg+xml', svgBytes)).toBe(true);
    expect(agreesWithBytes('application/xml', svgBytes)).toBe(true);
    expect(agreesWithBytes('text/xml; charset=utf-8', svgBytes)).toBe(true);
    expect(agreesWithBytes('text/plain', svgBytes)).toBe(false);
  });
});

describe('isWellFormedMimeType', () => {
  it('answers the common media types without the regex, as the regex would', () => {
    expect(COMMON_MEDIA_TYPES.length).toBeGreaterThan(10);
    for (const type of COMMON_MEDIA_TYPES) expect(matchesMimeTypeSyntax(type), type).toBe(true);
  });

  it('agrees with the media-type syntax on any string', () => {
    const candidates = fc.oneof(
      fc.constantFrom(
        ...COMMON_MEDIA_TYPES,
        'image/PNG',
        'image/png; q=1',
        'image',
        '/png',
        'image/png/x',
        '',
      ),
      fc.string({ maxLength: 30 }),
    );
    fc.assert(
      fc.property(candidates, (value) => {
        expect(isWellFormedMimeType(value)).toBe(matchesMimeTypeSyntax(value));
        // wellFormedFamily answers both questions at once.
        expect(wellFormedFamily(value)).toBe(isWellFormedMimeType(value) ? mediaFamily(value) : undefined);
      }),
      { numRuns: runs(2000) },
    );
  });
});
