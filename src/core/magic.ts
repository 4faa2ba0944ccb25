/**
 * Synchronous magic-number sniffing for the media formats MCP clients handle: PNG (and APNG), JPEG, GIF,
 * WebP, BMP, ICO, AVIF/HEIF (and the other ISO-BMFF brands), WAV, MP3 (MPEG audio), AAC (ADTS), M4A,
 * Ogg/Opus, FLAC, WebM/Matroska, PDF, and XML (so SVG markup is seen as such).
 *
 * Why not file-type, which knows these and hundreds more: it is asynchronous, and this runs on every
 * payload of every message the proxy relays; awaiting it cost more than the whole SDK parse of a
 * result. file-type stays the authority: this module returns a type only where file-type, given the
 * same first 4100 bytes, returns that very type, and `undefined` where it cannot vouch for that (another
 * format's signature might match, or the bytes are no format it knows). The asynchronous validators then
 * ask file-type. test/core/magic.test.ts holds the two together on real encoder output and on random
 * bytes behind every signature.
 *
 * Control flow mirrors file-type 21's detector order for these formats: where file-type checks another
 * format's signature first and that signature could match the same bytes, the rule here refuses to
 * decide. Bytes past the end read as zero, as in file-type's detection buffer.
 */

/** file-type reads at most this many bytes of a buffer for its signatures. */
export const SNIFF_HEADER_BYTES = 4100;

/** Bytes as a binary string (one char code 0–255 per byte, as `atob` returns) or a Uint8Array. */
export type ByteSource = string | Uint8Array;

/** Bytes as a binary string, as file-type's detection buffer holds them: at most 4100, zero past the end. */
class Bytes {
  readonly length: number;
  /** One of the two, as given: converting bytes to a binary string cost more than the sniffing. */
  private readonly binary: string | undefined;
  private readonly array: Uint8Array | undefined;

  constructor(source: ByteSource) {
    if (typeof source === 'string') this.binary = source;
    else this.array = source;
    this.length = Math.min(source.length, SNIFF_HEADER_BYTES);
  }

  at(i: number): number {
    if (i >= this.length) return 0;
    return this.binary !== undefined ? this.binary.charCodeAt(i) : ((this.array as Uint8Array)[i] as number);
  }

  is(offset: number, expected: readonly number[]): boolean {
    for (let i = 0; i < expected.length; i++) if (this.at(offset + i) !== expected[i]) return false;
    return true;
  }

  text(offset: number, expected: string): boolean {
    for (let i = 0; i < expected.length; i++)
      if (this.at(offset + i) !== expected.charCodeAt(i)) return false;
    return true;
  }

  /** Four bytes as one number, for comparing four-character codes without building strings. */
  code(offset: number): number {
    return this.uint32BE(offset);
  }

  latin1(offset: number, length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += String.fromCharCode(this.at(offset + i));
    return out;
  }

  uint32BE(offset: number): number {
    return (
      ((this.at(offset) << 24) |
        (this.at(offset + 1) << 16) |
        (this.at(offset + 2) << 8) |
        this.at(offset + 3)) >>>
      0
    );
  }
}

/** A four-character code as the number `Bytes.code` reads. */
function fourCC(text: string): number {
  return (
    ((text.charCodeAt(0) << 24) |
      (text.charCodeAt(1) << 16) |
      (text.charCodeAt(2) << 8) |
      text.charCodeAt(3)) >>>
    0
  );
}

/** file-type found nothing and will not look further (its reader moved, or the bytes ran out). */
const STOP = Symbol('stop');
/** No confident signature matched, so file-type goes on to its imprecise ones (ICO, MPEG frames). */
const NONE = Symbol('none');
/** Some signature this module does not know might match: only file-type can tell. */
const UNDECIDED = Symbol('undecided');

type Verdict = string | typeof STOP | typeof NONE | typeof UNDECIDED;

const MAX_REENTRIES = 256;

/**
 * The media type file-type would report for these bytes, when it is one of the formats above;
 * `undefined` when the bytes show no such format or only file-type can tell.
 */
export function sniffMagic(source: ByteSource): string | undefined {
  return sniffMagicAnswer(source) ?? undefined;
}

/**
 * file-type's answer for these bytes as far as this module can vouch for it: a media type, `null` where
 * file-type finds no type either (its detection stops without a match), `undefined` where only
 * file-type can tell. Asking file-type about bytes it is known to find nothing in cost the asynchronous
 * paths most of their time on payloads of no known format.
 */
export function sniffMagicAnswer(source: ByteSource): string | null | undefined {
  const verdict = detect(new Bytes(source), 0, 0);
  if (typeof verdict === 'string') return verdict;
  return verdict === STOP ? null : undefined;
}

/** file-type's parseTokenizer: the confident signatures, then the imprecise ones if nothing moved. */
function detect(b: Bytes, start: number, depth: number): Verdict {
  // fileTypeFromBuffer needs two bytes at least.
  if (start === 0 && b.length <= 1) return STOP;
  const confident = detectConfident(b, start, depth);
  if (confident !== NONE) return confident;
  return detectImprecise(b, start);
}

/** Bytes from `start`, zero past the end, as file-type's detection buffer holds them. */
function view(b: Bytes, start: number): Bytes {
  if (start === 0) return b;
  const rest: number[] = [];
  for (let i = start; i < b.length; i++) rest.push(b.at(i));
  return new Bytes(Uint8Array.from(rest));
}

function detectConfident(whole: Bytes, start: number, depth: number): Verdict {
  const b = view(whole, start);
  // By first byte, in file-type's order where two formats share one.
  switch (b.at(0)) {
    case 0x42:
      return b.at(1) === 0x4d ? 'image/bmp' : UNDECIDED;
    case 0xef:
      if (!b.is(0, [0xef, 0xbb, 0xbf])) return UNDECIDED;
      // A UTF-8 byte order mark: file-type skips it and looks again, at the confident signatures only;
      // finding none there ends its detection, as here: the imprecise signatures detect() tries next
      // cannot match bytes that start with a byte order mark.
      if (depth >= MAX_REENTRIES) return STOP;
      return detectConfident(whole, start + 3, depth + 1);
    case 0x47:
      return b.text(0, 'GIF') ? 'image/gif' : UNDECIDED;
    case 0x49:
      return b.text(0, 'ID3') ? id3(whole, start, depth) : UNDECIDED;
    case 0x4f:
      return b.text(0, 'OggS') ? ogg(b) : UNDECIDED;
    case 0x66:
      return b.text(0, 'fLaC') ? 'audio/flac' : UNDECIDED;
    case 0x25:
      return b.text(0, '%PDF') ? 'application/pdf' : UNDECIDED;
    case 0x1a:
      return b.is(0, [0x1a, 0x45, 0xdf, 0xa3]) ? ebml(b) : UNDECIDED;
    case 0x3c:
      return b.text(0, '<?xml ') ? 'application/xml' : UNDECIDED;
    case 0x89:
      return b.is(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ? png(b) : UNDECIDED;
    case 0x52:
      return b.text(0, 'RIFF') ? riff(b) : UNDECIDED;
    case 0xff:
      if (b.is(1, [0xd8, 0xff])) return b.at(3) === 0xf7 ? 'image/jls' : 'image/jpeg';
      if (b.at(1) === 0xfe) return utf16LittleEndian(b);
      return lateConfidentMayMatch(b) ? UNDECIDED : NONE;
    case 0x00:
      // An ISO base media file starts with the size of its `ftyp` box.
      if (b.text(4, 'ftyp')) return isoMedia(b);
      return lateConfidentMayMatch(b) ? UNDECIDED : NONE;
    default:
      return UNDECIDED;
  }
}

/** ID3v2 tag: file-type skips it and detects what follows, or calls it MP3 when the tag runs past the end. */
function id3(whole: Bytes, start: number, depth: number): Verdict {
  if (whole.length - start < 10) return STOP;
  const b = view(whole, start);
  const size = (b.at(9) & 0x7f) | (b.at(8) << 7) | (b.at(7) << 14) | (b.at(6) << 21);
  const next = start + 10 + size;
  if (next > whole.length) return 'audio/mpeg';
  if (depth >= MAX_REENTRIES) return STOP;
  return detect(whole, next, depth + 1);
}

function ogg(b: Bytes): Verdict {
  if (b.length < 36) return STOP;
  if (b.text(28, 'OpusHead')) return 'audio/ogg; codecs=opus';
  if (b.is(28, [0x80, 0x74, 0x68, 0x65, 0x6f, 0x72, 0x61])) return 'video/ogg';
  if (b.is(28, [0x01, 0x76, 0x69, 0x64, 0x65, 0x6f, 0x00])) return 'video/ogg';
  if (b.is(28, [0x7f, 0x46, 0x4c, 0x41, 0x43])) return 'audio/ogg';
  if (b.text(28, 'Speex  ')) return 'audio/ogg';
  if (b.is(28, [0x01, 0x76, 0x6f, 0x72, 0x62, 0x69, 0x73])) return 'audio/ogg';
  return 'application/ogg';
}

const IHDR = fourCC('IHDR');
const IDAT = fourCC('IDAT');
const ACTL = fourCC('acTL');
const CGBI = fourCC('CgBI');

/** APNG is a PNG whose `acTL` chunk comes before the first `IDAT`. */
function png(b: Bytes): Verdict {
  let position = 8;
  let seenHeader = false;
  // Each chunk moves on by 12 bytes at least, so the walk ends within the 4100 bytes. Only the first
  // chunk header may lack bytes (the walk stops below before any other would); read as zeros, its type
  // ends in a zero byte, is no chunk type, and detection stops, as file-type's does.
  for (;;) {
    const length = b.uint32BE(position) | 0;
    const type = b.code(position + 4);
    if (length < 0) return STOP;
    if (type === IHDR) {
      if (length !== 13) return STOP;
      seenHeader = true;
    }
    if (type === IDAT) return 'image/png';
    if (type === ACTL) return 'image/apng';
    if (!seenHeader && type !== CGBI) return STOP;
    // file-type skips the chunk (clamped at the end) and reads the next header while 8 bytes remain.
    position = Math.min(b.length, position + 8 + length + 4);
    if (position + 8 >= b.length) return 'image/png';
  }
}

/** ISO base media (`ftyp` box): AVIF, HEIF/HEIC, M4A and the MP4 family, by major brand. */
function isoMedia(b: Bytes): Verdict {
  // The box size comes first (its first byte is 0 here); signatures file-type checks earlier could
  // match it. Real boxes are small.
  if (b.at(1) !== 0 || (b.at(2) === 0x01 && b.at(3) === 0xba)) return UNDECIDED;
  if ((b.at(8) & 0x60) === 0) return UNDECIDED;
  const brand = b.latin1(8, 4).replace('\0', ' ').trim();
  switch (brand) {
    case 'avif':
    case 'avis':
      return 'image/avif';
    case 'mif1':
      return 'image/heif';
    case 'msf1':
      return 'image/heif-sequence';
    case 'heic':
    case 'heix':
      return 'image/heic';
    case 'hevc':
    case 'hevx':
      return 'image/heic-sequence';
    case 'qt':
      return 'video/quicktime';
    case 'M4V':
    case 'M4VH':
    case 'M4VP':
      return 'video/x-m4v';
    case 'M4B':
    case 'F4A':
    case 'F4B':
      return 'audio/mp4';
    case 'M4A':
      return 'audio/x-m4a';
    case 'crx':
      return 'image/x-canon-cr3';
    default:
      if (brand.startsWith('3g2')) return 'video/3gpp2';
      if (brand.startsWith('3g')) return 'video/3gpp';
      return 'video/mp4';
  }
}

/** QuickTime atoms file-type recognises at offset 4 before it looks at RIFF. */
const ATOMS_AT_4 = ['free', 'mdat', 'moov', 'wide', 'ftyp'];

function riff(b: Bytes): Verdict {
  if (ATOMS_AT_4.some((atom) => b.text(4, atom))) return UNDECIDED;
  if (b.text(8, 'WEBP')) return 'image/webp';
  if (b.is(8, [0x41, 0x56, 0x49])) return 'video/vnd.avi';
  if (b.text(8, 'WAVE')) return 'audio/wav';
  if (b.text(8, 'QLCM')) return 'audio/qcelp';
  return UNDECIDED;
}

/** A UTF-16 little-endian byte order mark: XML, two other text formats, else an MPEG layer I frame. */
function utf16LittleEndian(b: Bytes): Verdict {
  if (lateConfidentMayMatch(b)) return UNDECIDED;
  const utf16 = (offset: number, text: string) => {
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (b.at(offset + 2 * i) !== (code & 0xff) || b.at(offset + 2 * i + 1) !== code >> 8) return false;
    }
    return true;
  };
  if (utf16(2, '<?xml ')) return 'application/xml';
  if (b.is(2, [0xff, 0x0e]) || utf16(2, 'Windows Registry Editor Version 5.00\r\n')) return UNDECIDED;
  return NONE;
}

/**
 * Signatures file-type checks among its confident ones at offsets past the start, or on first bytes
 * 0x00/0xFF. Bytes that start like an ICO or an MPEG frame could still match one of them; then only
 * file-type can tell. Asked only of bytes that start with 0x00 or 0xFF.
 */
function lateConfidentMayMatch(b: Bytes): boolean {
  if (ATOMS_AT_4.some((atom) => b.text(4, atom))) return true;
  if (b.at(2) === 0x2d && b.at(6) === 0x2d) return true; // LHA: "-lh?-"
  if (b.is(0, [0x00, 0x61, 0x73, 0x6d]) || b.is(0, [0x00, 0x00, 0x01, 0xba])) return true;
  if (b.is(0, [0x00, 0x00, 0x00, 0x0c]) || b.is(0, [0xff, 0x4f, 0xff, 0x51]) || b.is(0, [0xff, 0x0a])) {
    return true;
  }
  if (b.is(0, [0xff, 0xff, 0x00, 0x00, 0x07]) || b.is(0, [0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x07])) {
    return true;
  }
  if (b.text(36, 'acsp') || (b.text(7, '**ACE') && b.text(12, '**'))) return true;
  if (b.text(44, 'SCRM') || (b.at(4) === 0x47 && b.at(196) === 0x47) || b.text(60, 'BOOKMOBI')) return true;
  if (b.text(128, 'DICM')) return true;
  if (b.text(34, 'LP') && (b.is(8, [0, 0, 1]) || b.is(8, [1, 0, 2]) || b.is(8, [2, 0, 2]))) return true;
  if (b.text(257, 'ustar') && (b.at(262) === 0 || b.at(262) === 0x20)) return true;
  return b.is(257, [0, 0, 0, 0, 0, 0]) && tarChecksumMatches(b);
}

/** file-type's tar header test: the octal sum at 148 equals the sum of the header's other bytes. */
function tarChecksumMatches(b: Bytes): boolean {
  // file-type reads the field with `.replace(/\0.*$/, '').trim()` first; parseInt skips the same leading
  // white space and stops at the first character that is no octal digit, so it reads the same number.
  // NaN, where there is none, equals no sum.
  const stored = Number.parseInt(b.latin1(148, 6), 8);
  let sum = 8 * 0x20;
  for (let i = 0; i < 148; i++) sum += b.at(i);
  for (let i = 156; i < 512; i++) sum += b.at(i);
  return stored === sum;
}

/** ICO and CUR, then MPEG audio frames (MP3, MP2, MP1) and ADTS (AAC) at the first byte. */
function detectImprecise(whole: Bytes, start: number): Verdict {
  const b = view(whole, start);
  // (MPEG program streams, 00 00 01 BA, are among the late confident signatures: never NONE.)
  if (b.is(0, [0x00, 0x00, 0x01, 0xb3])) return 'video/mpeg';
  if (b.is(0, [0x00, 0x01, 0x00, 0x00, 0x00])) return 'font/ttf';
  if (b.is(0, [0x00, 0x00, 0x01, 0x00]) || b.is(0, [0x00, 0x00, 0x02, 0x00])) return 'image/x-icon';
  const b1 = b.at(1);
  if (b.at(0) !== 0xff || (b1 & 0xe0) !== 0xe0) return STOP;
  if ((b1 & 0x16) === 0x10) return 'audio/aac';
  return (b1 & 0x06) === 0 ? STOP : 'audio/mpeg';
}

/**
 * Matroska and WebM: the DocType element of the EBML header. Fields are read on past the end, as zeros:
 * where file-type's reader runs out of bytes its detection ends, and here a DocType past the end is
 * refused too, so nothing read there can make a type.
 */
function ebml(b: Bytes): Verdict {
  let position = 0;
  const field = (): number[] => {
    const first = b.at(position);
    let mask = 0x80;
    let extra = 0;
    while ((first & mask) === 0 && mask !== 0) {
      extra++;
      mask >>= 1;
    }
    const bytes: number[] = [];
    for (let i = 0; i <= extra; i++) bytes.push(b.at(position + i));
    position += extra + 1;
    return bytes;
  };
  const element = (): { id: number | undefined; length: number } => {
    const id = field();
    const size = field();
    size[0] = (size[0] as number) ^ (0x80 >> (size.length - 1));
    return { id: id.length <= 6 ? bigEndian(id) : undefined, length: bigEndian(size.slice(-6)) };
  };
  let children = element().length;
  for (let count = 1; children > 0; count++) {
    if (count > 256) return STOP;
    const child = element();
    if (child.id === 0x4282) {
      if (child.length > 64 || position + child.length > b.length) return STOP;
      const raw: number[] = [];
      for (let i = 0; i < child.length; i++) raw.push(b.at(position + i));
      // file-type decodes the DocType as UTF-8 and cuts it at a NUL with this very expression.
      const docType = new TextDecoder().decode(Uint8Array.from(raw)).replaceAll(/\0.*$/g, '');
      if (docType === 'webm') return 'video/webm';
      if (docType === 'matroska') return 'video/matroska';
      return STOP;
    }
    position += child.length;
    children--;
  }
  return STOP;
}

function bigEndian(bytes: readonly number[]): number {
  let n = 0;
  for (const byte of bytes) n = n * 256 + byte;
  return n;
}
