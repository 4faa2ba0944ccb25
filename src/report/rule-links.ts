/**
 * Where a rule's documentation lives for someone reading a report: the package's `homepage`, when
 * package.json sets one. A report read in a pull-request comment, a CI artifact or GitHub code
 * scanning has no copy of this package beside it, so without a homepage reporters carry the rule's
 * title, fix and clients inline instead of a relative or `file:` link that would be dead there.
 */

import { readFileSync } from 'node:fs';

export interface PackageInfo {
  readonly version: string;
  readonly homepage?: string;
}

const packageJsonUrl = new URL('../../package.json', import.meta.url);

export function readPackage(): PackageInfo {
  return JSON.parse(readFileSync(packageJsonUrl, 'utf8')) as PackageInfo;
}

/**
 * The URL of the rule docs directory for a homepage: a GitHub repository page links into the
 * repository's `docs/rules/` (at `HEAD`); any other site is taken to serve the package's files.
 * Undefined without a homepage or with one that is not an http(s) URL.
 */
export function rulesDocsBase(homepage: string | undefined): string | undefined {
  if (!homepage) return undefined;
  let url: URL;
  try {
    url = new URL(homepage);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return undefined;
  url.hash = '';
  url.search = '';
  const github =
    url.hostname === 'github.com' ? /^\/([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(url.pathname) : null;
  if (github) return `https://github.com/${github[1]}/${github[2]}/blob/HEAD/docs/rules/`;
  const base = url.href.endsWith('/') ? url.href : `${url.href}/`;
  return `${base}docs/rules/`;
}

let cachedBase: { value: string | undefined } | undefined;

/** The rules docs base of this package (from its package.json), read once. */
export function packageRulesDocsBase(): string | undefined {
  cachedBase ??= { value: rulesDocsBase(readPackage().homepage) };
  return cachedBase.value;
}

/**
 * The absolute URL of a rule's doc under `base` (a rules docs directory URL; default this package's),
 * or undefined when there is no base to link to.
 */
export function ruleDocsUrl(
  ruleId: string,
  base: string | undefined = packageRulesDocsBase(),
): string | undefined {
  if (base === undefined || base === '') return undefined;
  const dir = base.endsWith('/') ? base : `${base}/`;
  return `${dir}${encodeURIComponent(ruleId)}.md`;
}
