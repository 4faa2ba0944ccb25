/**
 * Lone surrogates: half of a UTF-16 pair with no other half, as `text.slice()` leaves when it cuts
 * through an emoji. UTF-8 cannot encode one, and strict JSON readers refuse the escape JSON.stringify
 * writes for it (see the rule result-lone-surrogate). One definition for the rule, the size walk, the
 * fast path and the builders.
 */

const nativeIsWellFormed = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;
const nativeToWellFormed = (String.prototype as { toWellFormed?: () => string }).toWellFormed;

/** A lone surrogate: a high one not followed by a low one, or a low one not preceded by a high one. */
export const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/**
 * Whether a string holds no lone surrogate (it can be written as UTF-8). The native test answers a
 * string of one-byte characters at once, which nearly all are; older engines get the regular expression.
 */
export function isWellFormed(value: string): boolean {
  return nativeIsWellFormed ? nativeIsWellFormed.call(value) : !LONE_SURROGATE.test(value);
}

/** The string with each lone surrogate replaced by U+FFFD, as a UTF-8 encoder writes it. */
export function toWellFormed(value: string): string {
  return nativeToWellFormed ? nativeToWellFormed.call(value) : value.replace(LONE_SURROGATES, '\ufffd');
}
