/**
 * Escaping for the XML and HTML reporters. Finding messages quote server data, so anything may reach
 * here: markup, quotes, control characters, lone surrogates.
 */

/**
 * Characters XML 1.0 does not allow at all, not even as character references (§2.2 Char):
 * C0 controls other than tab, LF and CR, lone surrogates, U+FFFE and U+FFFF.
 */
const INVALID_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Replaces characters XML 1.0 cannot carry with U+FFFD, so a reader still sees that something was
 * there (deleting them silently would make `"a\u0000b"` read as `"ab"`).
 */
export function toXmlChars(text: string): string {
  return text.replace(INVALID_XML_CHAR, '\uFFFD');
}

const TEXT_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Escapes element content. `>` is escaped too, so `]]>` cannot appear. */
export function escapeXmlText(text: string): string {
  return toXmlChars(text).replace(/[&<>]/g, (c) => TEXT_ENTITIES[c] ?? c);
}

const ATTRIBUTE_ENTITIES: Record<string, string> = {
  ...TEXT_ENTITIES,
  '"': '&quot;',
  "'": '&apos;',
  // Parsers normalise literal tabs and newlines in attribute values to spaces; references survive.
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
};

/** Escapes an attribute value, for either quote style. */
export function escapeXmlAttribute(text: string): string {
  return toXmlChars(text).replace(/[&<>"'\t\n\r]/g, (c) => ATTRIBUTE_ENTITIES[c] ?? c);
}

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/**
 * Escapes text for HTML element content and quoted attribute values alike. Control characters are
 * replaced as for XML: HTML treats most of them as parse errors.
 */
export function escapeHtml(text: string): string {
  return toXmlChars(text).replace(/[&<>"']/g, (c) => HTML_ENTITIES[c] ?? c);
}
