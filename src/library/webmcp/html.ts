/**
 * The safety pass for WebMCP `html` blocks. HTML is parsed with parse5, which follows the WHATWG
 * parsing algorithm (entities decoded in attributes, template contents, scripting-enabled noscript), so
 * what we inspect is what a browser would build; regexes cannot see through parser differentials.
 * Policy (shared/reference/deps.md §g): drop elements that run code or change the document's context,
 * `on*` handlers, `srcdoc`, and URL-bearing attributes whose value (control characters and spaces
 * removed) starts with `javascript:`, `vbscript:` or `data:text/html`. Everything removed is reported.
 * test/library/webmcp-xss.test.ts holds the policy to an XSS corpus, DOMPurify and five renderings in
 * chromium.
 */

import { type DefaultTreeAdapterMap, parse, parseFragment, serialize } from 'parse5';
import { isScriptUrl, normalizedUrl } from '../script-url.js';

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];
type ParentNode = DefaultTreeAdapterMap['parentNode'];

const UNSAFE_ELEMENTS = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'base',
  'meta',
  'link',
  'portal',
  'fencedframe',
  // Its content is text to a parser with scripting enabled (parse5 here, innerHTML in a browser) but
  // markup to one without: DOMParser and <template> build `<noscript><img onerror>` as a live image,
  // which fires once the nodes are adopted into a document. So it goes, content and all.
  'noscript',
]);

/** Attributes a browser resolves as a URL, or (SVG animation) may set one. */
const URL_ATTRIBUTES = new Set([
  'href',
  'xlink:href',
  'src',
  'action',
  'formaction',
  'data',
  'poster',
  'background',
  'cite',
  'codebase',
  'ping',
  'srcset',
  'values',
  'to',
  'from',
  'by',
]);

export interface HtmlRemoval {
  /** What was removed, e.g. `<script>`, `img[onerror]`, `a[href=javascript:…]`. */
  readonly what: string;
  readonly reason: 'unsafe-element' | 'event-handler' | 'srcdoc' | 'script-url' | 'unstable-markup';
}

export interface SanitizedHtml {
  readonly html: string;
  readonly removed: readonly HtmlRemoval[];
}

function isElement(node: Node): node is Element {
  return 'tagName' in node;
}

function attributeName(attr: { name: string; prefix?: string }): string {
  return attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
}

/** `<svg><use href>` may load a whole SVG document; from a `data:` URL that document is the attacker's. */
function unsafeUseReference(element: Element, name: string, value: string): boolean {
  return (
    element.tagName === 'use' &&
    (name === 'href' || name === 'xlink:href') &&
    normalizedUrl(value).startsWith('data:')
  );
}

function unsafeAttribute(element: Element, attr: { name: string; value: string; prefix?: string }) {
  const name = attributeName(attr).toLowerCase();
  if (name.startsWith('on')) return { what: `${element.tagName}[${name}]`, reason: 'event-handler' } as const;
  if (name === 'srcdoc') return { what: `${element.tagName}[srcdoc]`, reason: 'srcdoc' } as const;
  // SVG <set>/<animate attributeName="onclick" to="…">: an event handler set by animation.
  if (name === 'attributename' && attr.value.trim().toLowerCase().startsWith('on')) {
    return { what: `${element.tagName}[attributename=${attr.value}]`, reason: 'event-handler' } as const;
  }
  if (URL_ATTRIBUTES.has(name)) {
    // srcset and SVG `values` hold lists; any item with a script URL condemns the attribute.
    const items =
      name === 'values' ? attr.value.split(';') : name === 'srcset' ? attr.value.split(',') : [attr.value];
    if (items.some(isScriptUrl) || unsafeUseReference(element, name, attr.value)) {
      const shown = attr.value.length > 30 ? `${attr.value.slice(0, 30)}…` : attr.value;
      return { what: `${element.tagName}[${name}=${shown}]`, reason: 'script-url' } as const;
    }
  }
  return undefined;
}

function clean(parent: ParentNode, removed: HtmlRemoval[]): void {
  parent.childNodes = parent.childNodes.filter((node) => {
    if (!isElement(node)) return true;
    if (UNSAFE_ELEMENTS.has(node.tagName)) {
      removed.push({ what: `<${node.tagName}>`, reason: 'unsafe-element' });
      return false;
    }
    node.attrs = node.attrs.filter((attr) => {
      const problem = unsafeAttribute(node, attr);
      if (problem) removed.push(problem);
      return !problem;
    });
    // <template> keeps its children in a separate fragment (its `content`, which only a template has),
    // which a later clone would bring to life.
    if ('content' in node) clean((node as DefaultTreeAdapterMap['template']).content, removed);
    clean(node, removed);
    return true;
  });
}

/**
 * Without one of these tags in the text, a document parse builds `<html>`, `<head>` and `<body>` with no
 * attributes and no `<frameset>`: there is nothing to report, and no need to parse the text twice.
 */
const DOCUMENT_TAG = /<(?:html|head|body|frameset)[\s/>]/i;

/**
 * A fragment parse, like innerHTML, drops `<html>`, `<head>`, `<body>` and `<frameset>` tags with their
 * attributes, so the output never has them; but a client that renders the resource as a document would
 * run `<body onload>` or load a `<frameset>`'s frames. Those are reported as removed, which they are.
 */
function documentLevelRemovals(html: string, removed: HtmlRemoval[]): void {
  if (!DOCUMENT_TAG.test(html)) return;
  // A document parse always builds an <html> element, after any doctype or comment.
  const root = parse(html).childNodes.find(isElement) as Element;
  for (const element of [root, ...root.childNodes]) {
    if (!isElement(element)) continue;
    if (UNSAFE_ELEMENTS.has(element.tagName)) {
      removed.push({ what: `<${element.tagName}>`, reason: 'unsafe-element' });
      continue;
    }
    for (const attr of element.attrs) {
      const problem = unsafeAttribute(element, attr);
      if (problem) removed.push(problem);
    }
  }
}

/** Re-parse rounds before markup that keeps changing under parsing is given up on. */
const MAX_PASSES = 4;

export function sanitizeHtml(html: string): SanitizedHtml {
  const removed: HtmlRemoval[] = [];
  documentLevelRemovals(html, removed);
  let current = html;
  // Serializing a cleaned tree is not the end: foreign content (math, svg) can make the serialized
  // text parse into a different tree ("mutation XSS", e.g. <math><mtext><table><mglyph><style><img
  // onerror>). So the output is parsed again, as a browser will, until a parse finds nothing to remove.
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const fragment = parseFragment(current);
    const before = removed.length;
    clean(fragment, removed);
    if (removed.length === before && pass > 0) return { html: current, removed };
    current = serialize(fragment);
  }
  removed.push({ what: 'all markup', reason: 'unstable-markup' });
  return { html: '', removed };
}
