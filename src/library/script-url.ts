/**
 * URLs that run script where a client renders them as a link or loads them in a frame: `javascript:`,
 * `vbscript:` and `data:text/html`. Shared by the HTML sanitizer, `resourceLink()` and the rule
 * block-uri-script, so the library neither lets one through an `href` nor builds a link to one, and
 * the validator reports one wherever a result carries it.
 */

const SCRIPT_URL = /^(javascript:|vbscript:|data:text\/html)/;

/** The value as a URL scheme check sees it: without C0 controls and spaces, in lower case. */
export function normalizedUrl(value: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return value.replace(/[\u0000-\u0020\u007f]/g, '').toLowerCase();
}

/**
 * What makes the URL run script as a browser reads it (controls and case ignored): `javascript:`,
 * `vbscript:` or `data:text/html`; undefined for any other URL.
 */
export function scriptUrlKind(value: string): string | undefined {
  return SCRIPT_URL.exec(normalizedUrl(value))?.[1];
}

/** Whether a browser would run script for this URL (as a browser reads it: controls and case ignored). */
export function isScriptUrl(value: string): boolean {
  return scriptUrlKind(value) !== undefined;
}
