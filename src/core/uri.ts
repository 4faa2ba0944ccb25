/**
 * `format: "uri"` as the official schemas use it (resource_link.uri, resource contents uri, Icon.src):
 * an absolute URI with a scheme. We delegate to ajv-formats' `uri` so that our verdict is the one an
 * Ajv validation of the official schema gives; the module is pure JS and safe in a browser.
 */

import { fullFormats } from 'ajv-formats/dist/formats.js';
import { memoByString } from './run-memo.js';

/** ajv-formats' `uri` is a function (its type admits a RegExp or an object, which `uri` never is). */
const uriFormat = fullFormats.uri as (value: string) => boolean;

/** Memoized per validation: a result's links often share URIs, and the format's regex is long. */
const matchesUriFormat = memoByString((value: string): boolean => uriFormat(value));

/**
 * The commonest absolute URIs, `scheme://host/path` in unreserved characters only: each one matches the
 * format's first alternative (a scheme, `//`, a reg-name host of unreserved characters, no port, then
 * `/`-separated segments of unreserved characters), so it passes without the long regex or the memo's
 * hashing of the string. A sufficient test, not a necessary one: anything else asks the format.
 * Both cases are spelled out rather than asked with the `i` flag, which made each test about a third
 * slower; the two match the same strings (without the `u` flag, `i` folds no character beyond ASCII
 * into an ASCII letter).
 */
const PLAIN_URI = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[A-Za-z0-9._~/-]*$/;

export function isAbsoluteUri(value: string): boolean {
  return PLAIN_URI.test(value) || matchesUriFormat(value);
}

/** The last non-empty path segment of a URI, percent-decoded when possible, e.g. a file name. */
export function lastPathSegment(uri: string): string | undefined {
  // Everything from the first `?` or `#` on is query or fragment, line breaks included.
  const end = uri.search(/[?#]/);
  const path = (end === -1 ? uri : uri.slice(0, end)).replace(/^[a-z][a-z0-9+.-]*:(\/\/[^/]*)?/i, '');
  const segment = path
    .split('/')
    .filter((s) => s.length > 0)
    .pop();
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
