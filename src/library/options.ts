/**
 * The options object of a library entry point, checked: `{}` for `undefined` or `null` (what a
 * JavaScript caller writes for none; `null` read as an object threw V8's "Cannot read properties of
 * null"), the object itself otherwise, its protocolVersion checked (checkProtocolVersionOption's
 * RangeError). Anything else is a mistake in the calling code, a TypeError: a version string where
 * `{ protocolVersion }` belongs was ignored, and the default version judged instead.
 */

import { checkProtocolVersionOption } from '../spec/versions.js';

export function checkedOptions<T extends object>(
  options: T | null | undefined,
  who: string,
  /** shaped()'s protocolVersion may be a function of the call, read then. */
  versionMayBeFunction = false,
): T {
  if (options === undefined || options === null) return {} as T;
  if (typeof options !== 'object') {
    const given = typeof options === 'string' ? JSON.stringify(String(options).slice(0, 40)) : typeof options;
    throw new TypeError(
      `${who}: options must be an object such as { protocolVersion: '2025-11-25' }, got ${given}`,
    );
  }
  if (
    !(
      versionMayBeFunction && typeof (options as { protocolVersion?: unknown }).protocolVersion === 'function'
    )
  )
    checkProtocolVersionOption(options);
  return options;
}
