/**
 * The synchronous sniffer (src/core/magic.ts) signature by signature: for bytes built to reach each of
 * its branches, its exact answer (a type, `null` where file-type finds none, `undefined` where only
 * file-type can tell) and file-type's own answer for the same bytes. A type or `null` must be
 * file-type's; an `undefined` is pinned with what file-type says there, which shows why the sniffer
 * leaves it to file-type. test/core/magic.test.ts holds the two together on real and random files.
 */

import { fileTypeFromBuffer } from 'file-type/core';
import { describe, expect, it } from 'vitest';
import { sniffMagicAnswer } from '../../src/core/magic.js';

type Part = string | readonly number[] | Uint8Array;

/** `length` bytes (zeros), with each part (bytes, or Latin-1 text) written at its offset. */
function at(length: number, parts: Readonly<Record<number, Part>>): Uint8Array {
  const out = new Uint8Array(length);
  for (const [offset, part] of Object.entries(parts)) {
    const bytes = typeof part === 'string' ? [...part].map((c) => c.charCodeAt(0)) : part;
    out.set(bytes, Number(offset));
  }
  return out;
}

function concat(...parts: readonly Part[]): Uint8Array {
  return Uint8Array.from(
    parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : [...p])),
  );
}

const utf16le = (text: string) => [...text].flatMap((c) => [c.charCodeAt(0) & 0xff, c.charCodeAt(0) >> 8]);

async function fileType(bytes: Uint8Array): Promise<string | undefined> {
  try {
    return (await fileTypeFromBuffer(bytes.subarray(0, 4100)))?.mime;
  } catch {
    return undefined;
  }
}

const MP3 = [0xff, 0xfb, 0x90, 0x00];
const BOM = [0xef, 0xbb, 0xbf];
const GIF = 'GIF89a\x01\x00\x01\x00';
const id3 = (size: number) =>
  concat('ID3', [4, 0, 0, (size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const chunk = (type: string, length: number, data: number[] = new Array(length).fill(0)) =>
  concat(
    [(length >>> 24) & 0xff, (length >> 16) & 0xff, (length >> 8) & 0xff, length & 0xff],
    type,
    data,
    [0, 0, 0, 0],
  );
const IHDR = chunk('IHDR', 13, [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);
const ftyp = (brand: Part, head: Part = [0, 0, 0, 0x18]) =>
  concat(head, 'ftyp', brand, [0, 0, 0, 0], 'isomiso2', new Array(16).fill(0));
const ogg = (codec: Part, length = 64) => at(length, { 0: 'OggS', 28: codec });
const EBML = [0x1a, 0x45, 0xdf, 0xa3];
/** An EBML header: the root's size (a one-byte field) and its children. */
const ebml = (children: Uint8Array, size: readonly number[] = [0x80 | Math.min(children.length, 0x7f)]) =>
  concat(EBML, size, children);
const docType = (
  text: Part,
  sizeField: number[] = [0x80 | (typeof text === 'string' ? text.length : text.length)],
) => concat([0x42, 0x82], sizeField, text);
const VERSION = [0x42, 0x86, 0x81, 0x01];

/** A tar header after the given first bytes, with its checksum right or off by one. */
function tar(
  first: readonly number[],
  length = 512,
  off = 0,
  parts: Readonly<Record<number, Part>> = {},
): Uint8Array {
  const bytes = at(length, { 0: first, 100: '0000644\0', 200: 'data', ...parts });
  let sum = 8 * 0x20;
  for (let i = 0; i < 512; i++) if (i < 148 || i >= 156) sum += bytes[i] ?? 0;
  bytes.set(
    [...`${(sum + off).toString(8).padStart(6, '0')}\0 `].map((c) => c.charCodeAt(0)),
    148,
  );
  return bytes;
}

type Case = readonly [
  name: string,
  bytes: Uint8Array,
  ours: string | null | undefined,
  fileType: string | undefined,
];

const cases: readonly Case[] = [
  // Too short to detect anything.
  ['empty', new Uint8Array(0), null, undefined],
  ['one byte', concat('B'), null, undefined],
  // Confident signatures by first byte.
  ['BMP', at(32, { 0: 'BM' }), 'image/bmp', 'image/bmp'],
  ['B, not BMP', at(32, { 0: 'BA' }), undefined, undefined],
  ['G, not GIF', concat('GIX89a'), undefined, undefined],
  ['O, not Ogg', at(40, { 0: 'Oggx' }), undefined, undefined],
  ['f, not FLAC', at(42, { 0: 'fLaX' }), undefined, undefined],
  ['%, not PDF', concat('%PDX-1.7'), undefined, undefined],
  ['1A, not EBML', at(32, { 0: [0x1a, 0x45, 0xdf, 0x00] }), undefined, undefined],
  ['89, not PNG', at(32, { 0: [0x89, 0x50, 0x4e, 0x58, 0x0d, 0x0a, 0x1a, 0x0a] }), undefined, undefined],
  ['R, not RIFF', at(32, { 0: 'RIFX', 8: 'WAVE' }), undefined, undefined],
  ['GIF', concat(GIF), 'image/gif', 'image/gif'],
  ['FLAC', at(42, { 0: 'fLaC' }), 'audio/flac', 'audio/flac'],
  ['PDF', concat('%PDF-1.7\n'), 'application/pdf', 'application/pdf'],
  ['XML', concat('<?xml version="1.0"?><a/>'), 'application/xml', 'application/xml'],
  ['markup, not XML', concat('<html></html>'), undefined, undefined],
  ['text', concat('hello, world'), undefined, undefined],
  ['JPEG', at(32, { 0: [0xff, 0xd8, 0xff, 0xe0] }), 'image/jpeg', 'image/jpeg'],
  ['JPEG-LS', at(32, { 0: [0xff, 0xd8, 0xff, 0xf7] }), 'image/jls', 'image/jls'],
  // A byte order mark, skipped; 256 of them at most.
  ['BOM, GIF', concat(BOM, GIF), 'image/gif', 'image/gif'],
  ['BOM, nothing', concat(BOM, [0xff, 0x00], new Array(20).fill(0)), null, undefined],
  ['BOM, text', concat(BOM, 'hello'), undefined, undefined],
  ['256 BOMs, GIF', concat(...new Array(256).fill(BOM), GIF), 'image/gif', 'image/gif'],
  ['257 BOMs, GIF', concat(...new Array(257).fill(BOM), GIF), null, undefined],
  // ID3 tags: skipped, or MP3 when the tag runs past the end.
  ['ID3, short', concat('ID3', [4, 0, 0]), null, undefined],
  ['ID3, nine bytes', concat('ID3', [4, 0, 0, 0, 0, 0]), null, undefined],
  ['ID3 header alone, tag past the end', id3(5), 'audio/mpeg', 'audio/mpeg'],
  ['ID3, then an ID3 header cut short', concat(id3(0), 'ID3', [4, 0, 0, 0, 0]), null, undefined],
  ['ID3, then one byte', concat(id3(0), 'B'), undefined, undefined],
  ['ID3, GIF', concat(id3(0), GIF), 'image/gif', 'image/gif'],
  ['ID3 past the end', concat(id3(100), new Array(50).fill(0)), 'audio/mpeg', 'audio/mpeg'],
  ['ID3 to the end exactly', concat(id3(20), new Array(20).fill(0)), null, undefined],
  ['256 ID3 tags, GIF', concat(...new Array(256).fill(id3(0)), GIF), 'image/gif', 'image/gif'],
  ['257 ID3 tags, GIF', concat(...new Array(257).fill(id3(0)), GIF), null, undefined],
  ['ID3, Ogg page cut short', concat(id3(0), ogg('OpusHead').subarray(0, 35)), null, undefined],
  // Ogg, by the codec of its first page.
  ['Ogg Opus', ogg('OpusHead'), 'audio/ogg; codecs=opus', 'audio/ogg; codecs=opus'],
  ['Ogg Theora', ogg([0x80, ...concat('theora')]), 'video/ogg', 'video/ogg'],
  ['Ogg video', ogg([0x01, ...concat('video'), 0]), 'video/ogg', 'video/ogg'],
  ['Ogg FLAC', ogg([0x7f, ...concat('FLAC')]), 'audio/ogg', 'audio/ogg'],
  ['Ogg Speex', ogg('Speex  '), 'audio/ogg', 'audio/ogg'],
  ['Ogg Vorbis', ogg([0x01, ...concat('vorbis')]), 'audio/ogg', 'audio/ogg'],
  ['Ogg, other', ogg('other'), 'application/ogg', 'application/ogg'],
  ['Ogg, 36 bytes', ogg('', 36), 'application/ogg', 'application/ogg'],
  ['Ogg, 35 bytes', ogg('', 35), null, undefined],
  // RIFF.
  ['WebP', at(32, { 0: 'RIFF', 8: 'WEBP' }), 'image/webp', 'image/webp'],
  ['AVI', at(32, { 0: 'RIFF', 8: 'AVI ' }), 'video/vnd.avi', 'video/vnd.avi'],
  ['WAV', at(32, { 0: 'RIFF', 8: 'WAVE' }), 'audio/wav', 'audio/wav'],
  ['QCELP', at(32, { 0: 'RIFF', 8: 'QLCM' }), 'audio/qcelp', 'audio/qcelp'],
  ['RIFF, other', at(32, { 0: 'RIFF', 8: 'XXXX' }), undefined, undefined],
  ['RIFF with a QuickTime atom', at(32, { 0: 'RIFF', 4: 'moov', 8: 'WAVE' }), undefined, 'video/quicktime'],
  // PNG and APNG, chunk by chunk.
  ['PNG', concat(PNG, IHDR, chunk('IDAT', 2)), 'image/png', 'image/png'],
  ['APNG', concat(PNG, IHDR, chunk('acTL', 8), chunk('IDAT', 2)), 'image/apng', 'image/apng'],
  [
    'PNG, an empty chunk first',
    concat(PNG, IHDR, chunk('tEXt', 0), chunk('acTL', 8)),
    'image/apng',
    'image/apng',
  ],
  [
    'PNG from an iPhone (CgBI first)',
    concat(PNG, chunk('CgBI', 4), IHDR, chunk('acTL', 8)),
    'image/apng',
    'image/apng',
  ],
  ['PNG, another chunk first', concat(PNG, chunk('tEXt', 4), IHDR, chunk('acTL', 8)), null, undefined],
  ['PNG, header too short', concat(PNG, IHDR.subarray(0, 7)), null, undefined],
  ['PNG, IHDR chunk header only', concat(PNG, IHDR.subarray(0, 8)), 'image/png', 'image/png'],
  ['PNG, acTL after IDAT', concat(PNG, IHDR, chunk('IDAT', 2), chunk('acTL', 8)), 'image/png', 'image/png'],
  ['PNG, IHDR of 12 bytes', concat(PNG, chunk('IHDR', 12), chunk('IDAT', 2)), null, undefined],
  ['PNG, chunk header at the very end', concat(PNG, IHDR, [0, 0, 0, 8], 'acTL'), 'image/png', 'image/png'],
  ['PNG, chunk over 2 GB', concat(PNG, [0x80, 0, 0, 0], 'IHDR', new Array(20).fill(0)), null, undefined],
  // ISO base media, by major brand.
  ['AVIF', ftyp('avif'), 'image/avif', 'image/avif'],
  ['AVIF sequence', ftyp('avis'), 'image/avif', 'image/avif'],
  ['HEIF', ftyp('mif1'), 'image/heif', 'image/heif'],
  ['HEIF sequence', ftyp('msf1'), 'image/heif-sequence', 'image/heif-sequence'],
  ['HEIC', ftyp('heic'), 'image/heic', 'image/heic'],
  ['HEIC (heix)', ftyp('heix'), 'image/heic', 'image/heic'],
  ['HEIC sequence', ftyp('hevc'), 'image/heic-sequence', 'image/heic-sequence'],
  ['HEIC sequence (hevx)', ftyp('hevx'), 'image/heic-sequence', 'image/heic-sequence'],
  ['QuickTime', ftyp('qt  '), 'video/quicktime', 'video/quicktime'],
  ['M4V', ftyp('M4V '), 'video/x-m4v', 'video/x-m4v'],
  ['M4VH', ftyp('M4VH'), 'video/x-m4v', 'video/x-m4v'],
  ['M4VP', ftyp('M4VP'), 'video/x-m4v', 'video/x-m4v'],
  ['M4B', ftyp('M4B '), 'audio/mp4', 'audio/mp4'],
  ['F4A', ftyp('F4A '), 'audio/mp4', 'audio/mp4'],
  ['F4B', ftyp('F4B '), 'audio/mp4', 'audio/mp4'],
  ['M4A', ftyp('M4A '), 'audio/x-m4a', 'audio/x-m4a'],
  ['M4A, NUL-padded', ftyp('M4A\0'), 'audio/x-m4a', 'audio/x-m4a'],
  ['brand with a NUL inside', ftyp('M4\0A'), 'video/mp4', 'video/mp4'],
  ['Canon CR3', ftyp('crx '), 'image/x-canon-cr3', 'image/x-canon-cr3'],
  ['3GPP2', ftyp('3g2a'), 'video/3gpp2', 'video/3gpp2'],
  ['3GPP', ftyp('3gp4'), 'video/3gpp', 'video/3gpp'],
  ['MP4', ftyp('isom'), 'video/mp4', 'video/mp4'],
  ['brand starting with a control byte', ftyp('\x01som'), undefined, undefined],
  ['ftyp box of 64 KB', ftyp('isom', [0, 1, 0, 0x18]), undefined, 'video/mp4'],
  ['ftyp box sized like an MPEG stream', ftyp('isom', [0, 0, 1, 0xba]), undefined, 'video/MP2P'],
  ['ftyp box of 256 bytes and more', ftyp('isom', [0, 0, 1, 0x18]), 'video/mp4', 'video/mp4'],
  ['ftyp box of 512 bytes and more', ftyp('isom', [0, 0, 2, 0xba]), 'video/mp4', 'video/mp4'],
  // UTF-16 little-endian byte order mark.
  [
    'UTF-16 XML',
    concat([0xff, 0xfe], utf16le('<?xml version="1.0"?>')),
    'application/xml',
    'application/xml',
  ],
  ['UTF-16 text', concat([0xff, 0xfe], utf16le('hello there')), 'audio/mpeg', 'audio/mpeg'],
  [
    'UTF-16 XML with high bytes set',
    concat(
      [0xff, 0xfe],
      [...'<?xml '].flatMap((c) => [c.charCodeAt(0), 1]),
      utf16le('version'),
    ),
    'audio/mpeg',
    'audio/mpeg',
  ],
  [
    'SketchUp (UTF-16 BOM, FF 0E)',
    concat([0xff, 0xfe, 0xff, 0x0e], utf16le('SketchUp Model')),
    undefined,
    'application/vnd.sketchup.skp',
  ],
  [
    'UTF-16 registry file',
    concat([0xff, 0xfe], utf16le('Windows Registry Editor Version 5.00\r\n')),
    undefined,
    'application/x-ms-regedit',
  ],
  ['UTF-16 BOM with a QuickTime atom', at(32, { 0: [0xff, 0xfe], 4: 'moov' }), undefined, 'video/quicktime'],
  // MPEG frames, and what could make them something else.
  ['MP3 frame', at(32, { 0: MP3 }), 'audio/mpeg', 'audio/mpeg'],
  ['MP3 frame after XML in UTF-8', concat([0xff, 0xfb], utf16le('<?xml ')), 'audio/mpeg', 'audio/mpeg'],
  ['MP3 frame, FF 0E', at(32, { 0: [0xff, 0xfb, 0xff, 0x0e] }), 'audio/mpeg', 'audio/mpeg'],
  ['ADTS (AAC)', at(32, { 0: [0xff, 0xf1, 0x50, 0x80] }), 'audio/aac', 'audio/aac'],
  ['ADTS (AAC, MPEG-2)', at(32, { 0: [0xff, 0xf9, 0x50, 0x80] }), 'audio/aac', 'audio/aac'],
  ['MPEG frame, reserved layer', at(32, { 0: [0xff, 0xe0] }), null, undefined],
  ['FF, no frame', at(32, { 0: [0xff, 0x00] }), null, undefined],
  ['MP3 frame with a QuickTime atom', at(32, { 0: MP3, 4: 'mdat' }), undefined, 'video/quicktime'],
  ['LHA', at(32, { 0: [0xff, 0xfb], 2: '-lh5-' }), undefined, 'application/x-lzh-compressed'],
  ['MP3 frame, dash at 2', at(32, { 0: MP3, 2: '-' }), 'audio/mpeg', 'audio/mpeg'],
  ['MP3 frame, dash at 6', at(32, { 0: MP3, 6: '-' }), 'audio/mpeg', 'audio/mpeg'],
  ['JPEG 2000 codestream', at(32, { 0: [0xff, 0x4f, 0xff, 0x51] }), undefined, 'image/j2c'],
  ['JPEG XL codestream', at(32, { 0: [0xff, 0x0a] }), undefined, 'image/jxl'],
  [
    'JMP (little-endian)',
    at(32, { 0: [0xff, 0xff, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0, 1, 0, 1, 0] }),
    undefined,
    'application/x-jmp-data',
  ],
  ['ICC profile', at(64, { 0: MP3, 36: 'acsp' }), undefined, 'application/vnd.iccprofile'],
  ['ACE', at(64, { 0: MP3, 7: '**ACE**' }), undefined, 'application/x-ace-compressed'],
  ['MP3 frame, **ACE at 7 only', at(64, { 0: MP3, 7: '**ACE', 12: 'xx' }), 'audio/mpeg', 'audio/mpeg'],
  ['MP3 frame, ** at 12 only', at(64, { 0: MP3, 12: '**' }), 'audio/mpeg', 'audio/mpeg'],
  ['Scream Tracker 3', at(64, { 0: MP3, 44: 'SCRM' }), undefined, 'audio/x-s3m'],
  ['MPEG transport stream', at(400, { 0: MP3, 4: [0x47], 196: [0x47] }), undefined, 'video/mp2t'],
  ['MP3 frame, 0x47 at 4 only', at(400, { 0: MP3, 4: [0x47] }), 'audio/mpeg', 'audio/mpeg'],
  ['MP3 frame, 0x47 at 196 only', at(400, { 0: MP3, 196: [0x47] }), 'audio/mpeg', 'audio/mpeg'],
  ['Mobipocket', at(80, { 0: MP3, 60: 'BOOKMOBI' }), undefined, 'application/x-mobipocket-ebook'],
  ['DICOM', at(140, { 0: MP3, 128: 'DICM' }), undefined, 'application/dicom'],
  ['EOT (version 1)', at(64, { 0: MP3, 8: [0, 0, 1], 34: 'LP' }), undefined, 'application/vnd.ms-fontobject'],
  [
    'EOT (version 2.1)',
    at(64, { 0: MP3, 8: [1, 0, 2], 34: 'LP' }),
    undefined,
    'application/vnd.ms-fontobject',
  ],
  [
    'EOT (version 2.2)',
    at(64, { 0: MP3, 8: [2, 0, 2], 34: 'LP' }),
    undefined,
    'application/vnd.ms-fontobject',
  ],
  ['MP3 frame, LP at 34 only', at(64, { 0: MP3, 8: [3, 0, 2], 34: 'LP' }), 'audio/mpeg', 'audio/mpeg'],
  ['tar (ustar, NUL)', at(512, { 0: MP3, 257: 'ustar\0' }), undefined, 'application/x-tar'],
  ['tar (ustar, space)', at(512, { 0: MP3, 257: 'ustar ' }), undefined, 'application/x-tar'],
  ['MP3 frame, ustarx', at(512, { 0: MP3, 257: 'ustarx' }), 'audio/mpeg', 'audio/mpeg'],
  ['tar (old header, checksum)', tar(MP3), undefined, 'application/x-tar'],
  ['tar (old header, 300 bytes)', tar(MP3, 300), undefined, 'application/x-tar'],
  ['MP3 frame, tar checksum off', tar(MP3, 512, 1), 'audio/mpeg', 'audio/mpeg'],
  ['tar, a byte after the header', tar(MP3, 600, 0, { 512: 'x' }), undefined, 'application/x-tar'],
  [
    'MP3 frame, tar checksum right but 257 not zero',
    tar(MP3, 512, 0, { 257: 'xxxxxx' }),
    'audio/mpeg',
    'audio/mpeg',
  ],
  // First byte 00: ISO media, then the imprecise signatures.
  ['WebAssembly', at(32, { 0: [0, 0x61, 0x73, 0x6d] }), undefined, 'application/wasm'],
  ['MPEG program stream', at(32, { 0: [0, 0, 1, 0xba] }), undefined, 'video/mpeg'],
  [
    'JPEG 2000',
    at(32, { 0: [0, 0, 0, 0x0c], 4: 'jP  ', 8: [0x0d, 0x0a, 0x87, 0x0a], 20: 'jp2 ' }),
    undefined,
    'image/jp2',
  ],
  [
    'JMP (big-endian)',
    at(32, { 0: [0, 0, 0xff, 0xff, 0, 0, 0, 7, 0, 0, 0, 4, 0, 1, 0, 1] }),
    undefined,
    'application/x-jmp-data',
  ],
  ['MPEG video', at(32, { 0: [0, 0, 1, 0xb3] }), 'video/mpeg', 'video/mpeg'],
  ['TrueType', at(32, { 0: [0, 1, 0, 0, 0] }), 'font/ttf', 'font/ttf'],
  ['ICO', at(32, { 0: [0, 0, 1, 0, 1, 0] }), 'image/x-icon', 'image/x-icon'],
  ['CUR', at(32, { 0: [0, 0, 2, 0, 1, 0] }), 'image/x-icon', 'image/x-icon'],
  ['00, nothing', at(32, { 0: [0, 0, 3, 0] }), null, undefined],
  // Matroska and WebM: the DocType of the EBML header.
  ['WebM', ebml(concat(VERSION, docType('webm'))), 'video/webm', 'video/webm'],
  ['Matroska', ebml(concat(VERSION, docType('matroska'))), 'video/matroska', 'video/matroska'],
  ['EBML, other DocType', ebml(docType('other')), null, undefined],
  ['WebM, DocType cut at a NUL', ebml(docType('webm\0xy')), 'video/webm', 'video/webm'],
  [
    'WebM, DocType of 64 bytes',
    ebml(docType(concat('webm', new Array(60).fill(0)))),
    'video/webm',
    'video/webm',
  ],
  ['WebM, DocType of 65 bytes', ebml(docType(concat('webm', new Array(61).fill(0)))), null, undefined],
  ['WebM, DocType past the end', ebml(docType('webm', [0x88])), null, undefined],
  [
    'WebM, DocType size in 8 bytes',
    ebml(docType('webm', [0x01, 0x01, 0, 0, 0, 0, 0, 4])),
    'video/webm',
    'video/webm',
  ],
  [
    'EBML, an ID of 9 bytes ending 42 82',
    ebml(concat([0, 0, 0, 0, 0, 0, 0, 0x42, 0x82], [0x84], 'webm')),
    null,
    undefined,
  ],
  ['EBML, a zero byte for an ID', ebml(concat([0, 0, 0, 0]), [0x84]), null, undefined],
  ['EBML, DocType after the root', ebml(concat(VERSION, docType('webm')), [0x81]), null, undefined],
  [
    'WebM, DocType the 256th element',
    ebml(concat(...new Array(255).fill([0xec, 0x80]), docType('webm')), [0x41, 0x2d]),
    'video/webm',
    'video/webm',
  ],
  [
    'WebM, DocType the 257th element',
    ebml(concat(...new Array(256).fill([0xec, 0x80]), docType('webm')), [0x41, 0x2d]),
    null,
    undefined,
  ],
];

describe('the synchronous sniffer, signature by signature', () => {
  it.each(cases)('%s', async (_name, bytes, ours, theirs) => {
    expect(await fileType(bytes)).toBe(theirs);
    expect(sniffMagicAnswer(bytes)).toBe(ours);
    // A binary string (what atob returns) reads the same.
    expect(sniffMagicAnswer(String.fromCharCode(...bytes))).toBe(ours);
  });
});
