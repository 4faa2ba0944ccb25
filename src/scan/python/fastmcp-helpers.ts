/**
 * The MIME type FastMCP's `Image`, `Audio` and `File` helpers put on the block they become, derived
 * from what the source gives them. Read in python-sdk (src/mcp/server/fastmcp/utilities/types.py, which
 * has Image and Audio) and jlowin/fastmcp (src/fastmcp/utilities/types.py): both take `format` first
 * (`image/{format}`), then the path's suffix, then a default for raw `data`; they differ in the suffixes
 * they know. The standalone package asks Python's `mimetypes` for an image's or a file's suffix, a table
 * this analysis does not carry: there the type is left unknown.
 */

export type Helper = 'Image' | 'Audio' | 'File';

/** What the source says of an argument: given as this text, absent (or None, or empty), or unknown. */
export type Given = { readonly text: string } | 'absent' | 'unknown';

/** The MIME type each FastMCP derives; `undefined` where the source does not tell it. */
export interface HelperMime {
  readonly sdk?: string;
  readonly standalone?: string;
}

/** Image suffixes both FastMCPs map alike (`mimetypes` agrees with the SDK's table on these). */
const IMAGE_SUFFIXES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

const SDK_AUDIO_SUFFIXES: Readonly<Record<string, string>> = {
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.flac': 'audio/flac',
  '.aac': 'audio/aac',
  '.m4a': 'audio/mp4',
};

const STANDALONE_AUDIO_SUFFIXES: Readonly<Record<string, string>> = {
  '.wav': 'audio/wav',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.flac': 'audio/flac',
};

const OCTET_STREAM = 'application/octet-stream';

export function helperMime(helper: Helper, format: Given, path: Given): HelperMime {
  if (format === 'unknown') return {};
  if (format !== 'absent') {
    const lower = format.text.toLowerCase();
    if (helper === 'File') {
      // Only the standalone package has File.
      return { standalone: ['plain', 'txt', 'text'].includes(lower) ? 'text/plain' : `application/${lower}` };
    }
    const type = `${helper === 'Image' ? 'image' : 'audio'}/${lower}`;
    return { sdk: type, standalone: type };
  }
  if (path === 'unknown') return {};
  if (path === 'absent') {
    // Raw `data`: the default of each helper.
    if (helper === 'File') return { standalone: OCTET_STREAM };
    const type = helper === 'Image' ? 'image/png' : 'audio/wav';
    return { sdk: type, standalone: type };
  }
  const suffix = pathSuffix(path.text);
  if (helper === 'Image') {
    const known = IMAGE_SUFFIXES[suffix];
    return known ? { sdk: known, standalone: known } : { sdk: OCTET_STREAM };
  }
  if (helper === 'Audio') {
    return {
      sdk: SDK_AUDIO_SUFFIXES[suffix] ?? OCTET_STREAM,
      standalone: STANDALONE_AUDIO_SUFFIXES[suffix] ?? OCTET_STREAM,
    };
  }
  return {};
}

/**
 * `Path(path).suffix.lower()`: from the last dot of the last component, unless that dot starts the name
 * (`.png`) or ends it (`a.`), then none.
 */
export function pathSuffix(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 && dot < name.length - 1 ? name.slice(dot).toLowerCase() : '';
}
