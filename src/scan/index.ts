/**
 * `scan`: static analysis of MCP server source. Finds tool handlers in TS/JS and Python, computes
 * what each return may produce (following branches, assignments, helpers and imports across the
 * project's files), checks it with the same rules as `check`, and computes the return-content-types
 * verdict.
 */

import type { Dirent, Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join, resolve } from 'node:path';
import type { Finding, ReachedReturn, SourceSnippet } from '../core/finding.js';
import { systemErrorWords } from '../core/system-error.js';
import { buildReport } from '../report/build.js';
import type { Report } from '../report/types.js';
import type { ProtocolVersion } from '../spec/versions.js';
import type { Guard, Site, SourceFile } from './abstract/value.js';
import { analyze, type Extracted, SCAN_DEFAULT_PROTOCOL, type StaticFinding } from './analyze.js';
import { JsFrontEnd } from './js/index.js';
import type { JsModule } from './js/interpret.js';
import type { PathFilter } from './path-filter.js';
import { displayPath, Project } from './project.js';
import { PyFrontEnd, type PyModule } from './python/index.js';
import { loadUnicodeNames } from './python/unicode-names.js';
import { decodeSource, mentionsMcp, SyntaxErrorInSource } from './source.js';
import { computeVerdict, type ScannedHandler, type Verdict } from './verdict.js';

export { SCAN_DEFAULT_PROTOCOL };

export const JS_EXTENSIONS = new Set(['.js', '.mjs', '.cjs', '.jsx', '.ts', '.mts', '.cts', '.tsx']);
export const PYTHON_EXTENSIONS = new Set(['.py']);

/** Directories never worth scanning when walking a tree (pass a path inside one to scan it). */
const SKIPPED_DIRECTORIES = new Set([
  'node_modules',
  '.git',
  '.venv',
  'venv',
  '__pycache__',
  '.tox',
  'dist',
  'build',
]);

/** Test code: excluded by default, since what a test posts or asserts is not a server's answer. */
const TEST_DIRECTORIES = new Set(['test', 'tests', '__tests__']);

export function isTestFile(name: string): boolean {
  return (
    /\.(test|spec)\.[^.]+$/.test(name) ||
    /^test_.*\.py$/.test(name) ||
    /_test\.py$/.test(name) ||
    name === 'conftest.py'
  );
}

export type Language = 'js' | 'python';

export function languageOf(file: string): Language | undefined {
  if (file.endsWith('.d.ts') || file.endsWith('.d.mts') || file.endsWith('.d.cts')) return undefined;
  const ext = extname(file);
  if (JS_EXTENSIONS.has(ext)) return 'js';
  if (PYTHON_EXTENSIONS.has(ext)) return 'python';
  return undefined;
}

/**
 * Hand-written server code is kilobytes; files past this are bundles or generated data, which take
 * seconds and gigabytes to analyze and say nothing about the author's handlers.
 */
export const DEFAULT_MAX_FILE_SIZE = 5 * 1024 * 1024;

export interface ScanOptions {
  readonly protocolVersion?: ProtocolVersion;
  /** Paths in findings are relative to this directory (default: the process's). */
  readonly cwd?: string;
  /** Bytes; larger files are reported as not scanned (default `DEFAULT_MAX_FILE_SIZE`). */
  readonly maxFileSize?: number;
  /** Scan test code too (`test/`, `*.test.*`, `test_*.py`, …), which walking a tree skips by default. */
  readonly includeTests?: boolean;
  /** What a directory walk leaves out (`--exclude`, `--include`, `.gitignore`); see path-filter.ts. */
  readonly filter?: PathFilter;
}

/** A file or directory that could not be scanned, and why: reported, never silently left out. */
export interface Unscanned {
  readonly file: string;
  readonly reason: string;
  /** Where the first syntax error is. */
  readonly line?: number;
  readonly column?: number;
}

export interface FileScan {
  readonly file: string;
  readonly language: Language;
  readonly lines: number;
  /** False when the file mentions nothing MCP, or could not be parsed (then `error` says why). */
  readonly parsed: boolean;
  /** Findings whose fix is in this file. */
  readonly findings: readonly Finding[];
  /** Handlers registered in this file. */
  readonly handlers: readonly ScannedHandler[];
  readonly error?: Unscanned;
}

/** A source to scan: its path in reports, its absolute path (for imports; may be virtual) and text. */
export interface ScanInput {
  readonly path: string;
  readonly absolute: string | undefined;
  readonly text: string;
}

/** Scans one file's source on its own (imports are not followed). `file` is the label used in locations. */
export async function scanSource(file: string, source: string, options: ScanOptions = {}): Promise<FileScan> {
  const { files } = await scanSources([{ path: file, absolute: undefined, text: source }], options);
  return files[0] as FileScan;
}

export interface Analysis {
  readonly files: FileScan[];
  readonly findings: Finding[];
  readonly handlers: ScannedHandler[];
  /** Files read only because a scanned file imports them. */
  readonly followed: number;
}

/**
 * Analyses sources as one project: imports between them (and from them to files on disk) are
 * followed. Sources are matched to imports by `absolute`, which may be a virtual path.
 */
export async function scanSources(
  inputs: readonly ScanInput[],
  options: ScanOptions = {},
): Promise<Analysis> {
  const version = options.protocolVersion ?? SCAN_DEFAULT_PROTOCOL;
  const project = new Project({
    cwd: options.cwd ?? process.cwd(),
    maxFileSize: options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE,
  });
  const js = new JsFrontEnd(project);
  const needsPython = inputs.some((i) => languageOf(i.path) === 'python' && mentionsMcp(i.text));
  const py = needsPython ? await PyFrontEnd.create(project) : undefined;
  // Unicode's name table, for `\N{name}` escapes, only when a Python source holds one.
  if (py) await loadUnicodeNames(inputs.filter((i) => languageOf(i.path) === 'python').map((i) => i.text));
  const states: {
    input: ScanInput;
    file: SourceFile;
    language: Language;
    module?: JsModule | PyModule;
    error?: Unscanned;
  }[] = [];
  for (const input of inputs) {
    const file = project.add(input.path, input.absolute, input.text);
    const language = languageOf(input.path) ?? 'js';
    const state: (typeof states)[number] = { input, file, language };
    states.push(state);
    if (!mentionsMcp(input.text)) continue;
    try {
      state.module = language === 'python' ? py?.add(file) : js.add(file);
    } catch (error) {
      state.error = unscannable(file, error);
    }
  }
  const extracted: Extracted[] = [];
  const handlerFile = new Map<object, string>();
  for (const state of states) {
    if (!state.module) continue;
    try {
      const result =
        state.language === 'python'
          ? py?.extract(state.module as PyModule)
          : js.extract(state.module as JsModule);
      if (!result) continue;
      extracted.push(result);
      for (const h of result.handlers) handlerFile.set(h, state.file.path);
    } catch (error) {
      // One file the analyzer trips on must not cost the user the rest of the scan.
      state.error = unscannable(state.file, error);
      state.module = undefined;
    }
  }
  const analysis = analyze(
    {
      handlers: extracted.flatMap((e) => e.handlers),
      documents: extracted.flatMap((e) => e.documents),
    },
    { version },
  );
  const findings = analysis.findings.map((f) => toFinding(f, version));
  const handlers: ScannedHandler[] = analysis.handlers.map((h) => ({
    tool: h.tool,
    framework: h.framework,
    file: h.site.file.path,
    line: h.site.file.lines.position(h.site.start).line,
    returns: h.returns.map((r) => ({
      file: r.site.file.path,
      ...r.site.file.lines.position(r.site.start),
      status: r.status,
      ...(r.reason ? { reason: r.reason } : {}),
      ...(r.byDeclaration ? { byDeclaration: true } : {}),
      problems: [...new Set(r.problems.map(problemLine))],
    })),
  }));
  // Grouped once: filtering every finding for every file was quadratic in a large project.
  const findingsIn = groupBy(findings, (f) => f.location?.file);
  const handlersIn = groupBy(handlers, (h) => h.file);
  const files: FileScan[] = states.map((s) => ({
    file: s.file.path,
    language: s.language,
    lines: s.file.lines.lineCount,
    parsed: s.module !== undefined,
    findings: findingsIn.get(s.file.path) ?? [],
    handlers: handlersIn.get(s.file.path) ?? [],
    ...(s.error ? { error: s.error } : {}),
  }));
  return { files, findings, handlers, followed: project.followed.size };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string | undefined): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    if (k === undefined) continue;
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

function unscannable(file: SourceFile, error: unknown): Unscanned {
  if (error instanceof SyntaxErrorInSource) {
    return {
      file: file.path,
      reason: `syntax error: ${error.message}`,
      ...file.lines.position(error.offset),
    };
  }
  return { file: file.path, reason: `cannot analyze: ${firstLine(error)}` };
}

// ── findings as data ──────────────────────────────────────────────────────────────────────────

/** Lines of context above and below the offending line in a code frame. */
const CONTEXT_LINES = 2;
/** Longer lines (minified code) are shown as a window around the column. */
const MAX_LINE = 200;

function position(site: Site): { line: number; column: number; endLine: number; endColumn: number } {
  const start = site.file.lines.position(site.start);
  const end = site.file.lines.position(Math.max(site.start, site.end));
  return { ...start, endLine: end.line, endColumn: end.column };
}

export function snippetOf(
  file: SourceFile,
  line: number,
  column: number,
  context = CONTEXT_LINES,
): SourceSnippet {
  const startLine = Math.max(1, line - context);
  const endLine = Math.min(file.lines.lineCount, line + context);
  const lines: string[] = [];
  for (let n = startLine; n <= endLine; n++) lines.push(file.lines.lineText(file.text, n));
  if (lines.every((l) => l.length <= MAX_LINE)) return { startLine, lines };
  const firstColumn = Math.max(1, column - Math.floor(MAX_LINE / 3));
  return {
    startLine,
    lines: lines.map((l) => l.slice(firstColumn - 1, firstColumn - 1 + MAX_LINE)),
    firstColumn,
  };
}

/**
 * The conditions, outermost first (guards are collected innermost first), each once. A condition
 * found both true and false was tested on different passes of a loop (`i === 1` false on the
 * first, true on the second): "when it is true and false" says nothing, so it is left out.
 */
function whenText(guards: readonly Guard[]): string[] {
  const outcomes = new Map<string, Set<boolean>>();
  for (const g of guards) outcomes.set(g.text, (outcomes.get(g.text) ?? new Set()).add(g.holds));
  const shown = new Set<string>();
  const out: string[] = [];
  for (const g of [...guards].reverse()) {
    if (shown.has(g.text) || outcomes.get(g.text)?.size !== 1) continue;
    shown.add(g.text);
    out.push(`\`${g.text}\` is ${g.holds ? 'true' : 'false'}`);
  }
  return out;
}

/** `unknown content block type "object" … when \`isinstance(x, str)\` is false (server.py:29)`. */
function problemLine(f: StaticFinding): string {
  const when = whenText(f.guards);
  const at = f.site.file.lines.position(f.site.start);
  return `${f.message}${when.length > 0 ? ` when ${when.join(' and ')}` : ''} (${f.site.file.path}:${at.line})`;
}

function toFinding(f: StaticFinding, protocolVersion: ProtocolVersion): Finding {
  const at = position(f.site);
  const snippet = snippetOf(f.site.file, at.line, at.column);
  const reaches: ReachedReturn[] = f.reaches.map((r) => {
    const where = r.site.file.lines.position(r.site.start);
    const inFrame =
      r.site.file === f.site.file &&
      where.line >= snippet.startLine &&
      where.line < snippet.startLine + snippet.lines.length;
    return {
      tool: r.tool,
      file: r.site.file.path,
      ...where,
      ...(inFrame ? {} : { snippet: snippetOf(r.site.file, where.line, where.column, 0) }),
    };
  });
  const tool = f.reaches[0]?.tool ?? f.owner;
  const when = whenText(f.guards);
  return {
    rule: f.rule,
    severity: f.severity,
    // The returns reached are data (location.reaches), not words in the message: the message stays
    // the same when lines move or the scan runs from another directory (baselines record it).
    message: `${f.message}${f.note ? ` (${f.note})` : ''}`,
    pointer: f.pointer,
    location: {
      file: f.site.file.path,
      ...at,
      protocolVersion,
      ...(tool ? { tool } : {}),
      snippet,
      ...(when.length > 0 ? { when } : {}),
      ...(reaches.length > 0 ? { reaches } : {}),
    },
    ...(f.fix ? { fix: f.fix } : {}),
  };
}

// ── files ─────────────────────────────────────────────────────────────────────────────────────

/**
 * Source files under `paths` (files given explicitly are kept whatever their extension says), the
 * paths that could not be read, and the test files the walk left out. Links to files are read like
 * files; links to directories are not walked, since they can loop.
 */
export async function collectFiles(
  paths: readonly string[],
  filter?: PathFilter,
  options: { includeTests?: boolean } = {},
): Promise<{ files: string[]; unreadable: Unscanned[]; tests: string[] }> {
  const files: string[] = [];
  const unreadable: Unscanned[] = [];
  const tests: string[] = [];
  const walk = async (dir: string, skipTests: boolean): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      unreadable.push({ file: dir, reason: `cannot read directory: ${errorCode(error)}` });
      return;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_DIRECTORIES.has(entry.name) || filter?.skipDirectory(full)) continue;
        if (skipTests && TEST_DIRECTORIES.has(entry.name)) tests.push(full);
        else await walk(full, skipTests);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && languageOf(full) && !filter?.skipFile(full)) {
        if (skipTests && isTestFile(entry.name)) tests.push(full);
        else files.push(full);
      }
    }
  };
  for (const path of paths) {
    let info: Stats;
    try {
      info = await stat(path);
    } catch (error) {
      unreadable.push({ file: path, reason: `cannot read: ${errorCode(error)}` });
      continue;
    }
    // A test directory named on the command line is scanned: the user asked for it. Only what was
    // typed counts (and the directory itself, for `.`): a checkout under ~/tests/ is not test code.
    const namedTests = [...path.split(/[\\/]/), basename(resolve(path))].some((part) =>
      TEST_DIRECTORIES.has(part),
    );
    if (info.isDirectory()) await walk(path, !options.includeTests && !namedTests);
    else if (info.isFile()) files.push(path);
    else unreadable.push({ file: path, reason: 'not a regular file or directory' });
  }
  return { files, unreadable, tests };
}

function errorCode(error: unknown): string {
  return systemErrorWords(error);
}

/** Git's test for binary content: a NUL byte in the first 8000 bytes. */
const BINARY_PROBE = 8000;

/** A file's text, or why it cannot be scanned (unreadable, too large, binary). */
async function readSource(file: string, maxFileSize: number): Promise<string | { reason: string }> {
  try {
    const info = await stat(file);
    if (!info.isFile()) return { reason: 'not a regular file' };
    if (info.size > maxFileSize) {
      return {
        reason: `not scanned: ${mebibytes(info.size)} is over the ${mebibytes(maxFileSize)} limit (--max-file-size)`,
      };
    }
    const bytes = await readFile(file);
    if (bytes.subarray(0, BINARY_PROBE).includes(0)) return { reason: 'not scanned: binary file' };
    return decodeSource(bytes, file);
  } catch (error) {
    return { reason: `cannot read: ${errorCode(error)}` };
  }
}

function mebibytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export interface ScanResult {
  readonly report: Report;
  readonly verdict: Verdict;
  readonly files: readonly FileScan[];
  /** Paths not scanned (unreadable, binary, too large, syntax errors); also in `details.unscanned`. */
  readonly unscanned: readonly Unscanned[];
  /** Test files and directories left out (see `includeTests`). */
  readonly skippedTests: readonly string[];
}

export async function scanPaths(paths: readonly string[], options: ScanOptions = {}): Promise<ScanResult> {
  const cwd = options.cwd ?? process.cwd();
  const collected = await collectFiles(
    paths,
    options.filter,
    options.includeTests ? { includeTests: true } : {},
  );
  const unscanned: Unscanned[] = collected.unreadable.map((u) => ({ ...u, file: displayPath(u.file, cwd) }));
  const inputs: ScanInput[] = [];
  for (const path of collected.files) {
    const file = displayPath(path, cwd);
    const source = await readSource(path, options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE);
    if (typeof source !== 'string') unscanned.push({ file, ...source });
    else inputs.push({ path: file, absolute: resolve(path), text: source });
  }
  const analysis = await scanSources(inputs, { ...options, cwd });
  for (const f of analysis.files) if (f.error) unscanned.push(f.error);
  unscanned.sort((a, b) => a.file.localeCompare(b.file));
  const skippedTests = collected.tests.map((t) => displayPath(t, cwd));
  const verdict = computeVerdict(analysis.handlers, unscanned);
  const report = buildReport('scan', analysis.findings, analysis.files.length, {
    summary: {
      protocolVersion: options.protocolVersion ?? SCAN_DEFAULT_PROTOCOL,
      lines: analysis.files.reduce((n, f) => n + f.lines, 0),
      parsedFiles: analysis.files.filter((f) => f.parsed).length,
      followedFiles: analysis.followed,
      unscanned: unscanned.length,
      skippedTests: skippedTests.length,
      handlers: verdict.handlers,
      returns: verdict.returns,
      verdict: verdict.status,
    },
    details: {
      verdict,
      ...(unscanned.length > 0 ? { unscanned } : {}),
      ...(skippedTests.length > 0 ? { skippedTests } : {}),
    },
  });
  return { report, verdict, files: analysis.files, unscanned, skippedTests };
}

/** Unscanned reasons are printed one per line; some errors (module resolution) span several. */
function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n', 1)[0] ?? '';
}
