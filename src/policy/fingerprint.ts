/**
 * Fingerprints: a finding's identity across runs, for baselines and SARIF `partialFingerprints`.
 *
 * A fingerprint must survive what does not change the defect: lines inserted above it, edits
 * elsewhere in the file, the directory the command runs from, the protocol version a live server was
 * audited at. So it is built from what names the defect, never from line numbers or messages:
 * - source findings (scan): rule, repository-relative file, the enclosing tool (or, for a helper in
 *   another file or shared by several tools, the enclosing function), the JSON Pointer into the
 *   evaluated value, and the finding's source line with whitespace normalized;
 * - document findings (check, audit): rule, tool, the pointer, and for check the repository-relative
 *   file (an audit's file, from `--source`, is where the tool is registered: it may come and go).
 *
 * Findings with the same identity (the same snippet twice in one handler, one defect seen at every
 * protocol version) are numbered in the order of their locations: `…:1`, `…:2`. Pure: the caller
 * supplies file contents, so this runs without I/O and can be tested property by property.
 */

import { createHash } from 'node:crypto';
import type { Finding, Location } from '../core/finding.js';
import { foldFindings, unfold } from '../report/fold.js';

/** The version of the fingerprint recipe; a new recipe gets a new key so old baselines go stale loudly. */
export const FINGERPRINT_KEY = 'mcpShape/v1';

/** `source`: scan findings; `document`: check (a file's document); `live`: audit (a server's answers). */
export type FingerprintKind = 'source' | 'document' | 'live';

export interface FingerprintContext {
  readonly kind: FingerprintKind;
  /** A finding's file as a repository-relative path with `/` separators (or as given, outside it). */
  repoPath(file: string): string;
  /** The lines of a source file, for snippets and enclosing functions; undefined when unreadable. */
  sourceLines?(file: string): readonly string[] | undefined;
}

/** Collapses runs of whitespace and trims, so reindenting or reformatting spaces keeps the identity. */
export function normalizeSnippet(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}

const FUNCTION_PATTERNS: readonly RegExp[] = [
  // Python: def name( / async def name(
  /^\s*(?:async\s+)?def\s+([A-Za-z_]\w*)\s*\(/,
  // JS/TS: function name( / async function* name(
  /\bfunction\s*\*?\s*([A-Za-z_$][\w$]*)\s*[<(]/,
  // JS/TS: const name = (…) => / const name = async function
  /\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*(?::[^=]+)?=\s*(?:async\s+)?(?:function\b|\(|[A-Za-z_$][\w$]*\s*=>)/,
  // JS/TS class or object methods: name(…) { / async name(…) {
  /^\s*(?:(?:public|private|protected|static|async|override)\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]+)?\{\s*$/,
];

const NOT_FUNCTIONS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'function']);

function indentation(line: string): number {
  return /^\s*/.exec(line)?.[0].length ?? 0;
}

/**
 * The name of the function a 1-based line sits in, by indentation: the nearest line above that is
 * indented less and declares a function. A heuristic, but a stable one: it reads only the lines from
 * the function's head to the finding, which moving the function or editing others does not change.
 */
export function enclosingFunction(lines: readonly string[], line: number): string | undefined {
  const at = lines[line - 1];
  if (at === undefined) return undefined;
  let limit = indentation(at);
  for (let i = line - 2; i >= 0 && limit > 0; i--) {
    const text = lines[i] ?? '';
    if (text.trim() === '') continue;
    const indent = indentation(text);
    if (indent >= limit) continue;
    limit = indent;
    for (const pattern of FUNCTION_PATTERNS) {
      const name = pattern.exec(text)?.[1];
      if (name && !NOT_FUNCTIONS.has(name)) return name;
    }
  }
  return undefined;
}

/** The parts of a finding that make up its identity, before hashing (exported for tests and docs). */
export function identityOf(finding: Finding, context: FingerprintContext): readonly string[] {
  const where: Location = finding.location ?? {};
  const file = where.file ? context.repoPath(where.file) : '';
  if (context.kind !== 'source') {
    return [
      context.kind,
      finding.rule,
      where.tool ?? '',
      context.kind === 'document' ? file : '',
      finding.pointer,
    ];
  }
  const lines = where.file && where.line ? context.sourceLines?.(where.file) : undefined;
  const line = where.line ? (lines?.[where.line - 1] ?? snippetLine(where, where.line)) : undefined;
  const snippet = line !== undefined ? normalizeSnippet(line) : '';
  const scope =
    where.tool && ownedByTool(where)
      ? `tool:${where.tool}`
      : lines && where.line
        ? `function:${enclosingFunction(lines, where.line) ?? ''}`
        : '';
  return ['source', finding.rule, file, scope, finding.pointer, snippet];
}

/**
 * Whether a scan finding belongs to its tool: it reaches no other tool's return and sits in the
 * tool's file. A defect in a helper (another file, or shared by several tools) belongs to the helper
 * function, where the fix goes: which tool happens to be listed first must not change its identity.
 */
function ownedByTool(where: Location): boolean {
  const reaches = where.reaches ?? [];
  return reaches.every((r) => r.tool === where.tool && r.file === where.file);
}

/** The finding's line from the snippet the scan kept, when the file cannot be read any more. */
function snippetLine(where: Location, line: number): string | undefined {
  const snippet = where.snippet;
  if (!snippet || snippet.firstColumn) return undefined;
  return snippet.lines[line - snippet.startLine];
}

/** The hash of an identity's parts, written as JSON: ["a","bc"] and ["ab","c"] hash differently. */
function hashJson(json: string): string {
  return createHash('sha256').update(json).digest('hex').slice(0, 32);
}

/** Orders findings that share an identity: by file position, then version and call (audits). */
function occurrenceOrder(a: Finding, b: Finding): number {
  const x = a.location ?? {};
  const y = b.location ?? {};
  return (
    (x.line ?? 0) - (y.line ?? 0) ||
    (x.column ?? 0) - (y.column ?? 0) ||
    (x.protocolVersion ?? '').localeCompare(y.protocolVersion ?? '') ||
    (x.call ?? '').localeCompare(y.call ?? '', 'en', { numeric: true })
  );
}

/**
 * Every finding's units, each with its fingerprint (`<hash>:<occurrence>`), in the order given. A unit
 * is the places of one finding that share an identity: a finding seen once, or folded over versions
 * and calls only, is one unit, itself; an audit's finding folded over tools or sibling blocks (the
 * fold key has neither the tool nor the indexes) has one unit per tool and pointer, each a finding of
 * its own places, so that a baseline matches each of them apart. Units sharing an identity are numbered
 * in the order of their first places; a finding's first unit carries the fingerprint the finding had
 * before units were counted, so baselines written then still match.
 */
export function fingerprintUnits(findings: readonly Finding[], context: FingerprintContext): Finding[][] {
  // A flood of findings shares few identities (300,000 bad lines of one file, two): each hashed once.
  const hashes = new Map<string, string>();
  const hashOf = (parts: readonly string[]) => {
    const key = JSON.stringify(parts);
    let h = hashes.get(key);
    if (h === undefined) {
      h = hashJson(key);
      hashes.set(key, h);
    }
    return h;
  };
  const units = findings.map((finding) => {
    const byHash = new Map<string, Finding[]>();
    for (const place of unfold(finding)) {
      const h = hashOf(identityOf(place, context));
      const group = byHash.get(h);
      if (group) group.push(place);
      else byHash.set(h, [place]);
    }
    return [...byHash].map(([h, places]) => ({ hash: h, places }));
  });
  const byHash = new Map<string, { finding: number; unit: number; first: Finding }[]>();
  units.forEach((list, finding) => {
    list.forEach((u, unit) => {
      const entry = { finding, unit, first: u.places[0] as Finding };
      const group = byHash.get(u.hash);
      if (group) group.push(entry);
      else byHash.set(u.hash, [entry]);
    });
  });
  const fingerprints = units.map((list) => list.map(() => ''));
  for (const [h, entries] of byHash) {
    entries.sort((x, y) => occurrenceOrder(x.first, y.first) || x.finding - y.finding || x.unit - y.unit);
    entries.forEach((entry, n) => {
      (fingerprints[entry.finding] as string[])[entry.unit] = `${h}:${n + 1}`;
    });
  }
  return units.map((list, i) => {
    const finding = findings[i] as Finding;
    if (list.length === 1) return [{ ...finding, fingerprint: fingerprints[i]?.[0] as string }];
    return list.map((u, unit) => ({
      ...(foldFindings(u.places)[0] as Finding),
      fingerprint: fingerprints[i]?.[unit] as string,
    }));
  });
}

/** Every finding with its fingerprint, its first unit's (see fingerprintUnits), in the order given. */
export function fingerprintFindings(findings: readonly Finding[], context: FingerprintContext): Finding[] {
  return fingerprintUnits(findings, context).map((units, i) => ({
    ...(findings[i] as Finding),
    fingerprint: units[0]?.fingerprint as string,
  }));
}
