/**
 * `scan`: static analysis of MCP server source. Finds tool handlers in TS/JS and Python, checks what
 * they return with the same rule catalog as `check`, and computes the return-content-types verdict.
 */

import type { Dirent, Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { Finding } from '../core/finding.js';
import { systemErrorWords } from '../core/system-error.js';
import { buildReport } from '../report/build.js';
import type { Report } from '../report/types.js';
import type { ProtocolVersion } from '../spec/versions.js';
import { analyzeExtracted, type Extracted, SCAN_DEFAULT_PROTOCOL, type StaticAnalysis } from './analyze.js';
import { extractJsSource } from './js/index.js';
import type { PathFilter } from './path-filter.js';
import { extractPythonSource } from './python/index.js';
import { LineMap, mentionsMcp, SyntaxErrorInSource } from './source.js';
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
  readonly findings: readonly Finding[];
  readonly handlers: readonly ScannedHandler[];
  readonly error?: Unscanned;
}

/** Scans one file's source. `file` is the label used in locations. */
export async function scanSource(file: string, source: string, options: ScanOptions = {}): Promise<FileScan> {
  const language = languageOf(file) ?? 'js';
  const lineMap = new LineMap(source);
  const base = { file, language, lines: lineMap.lineCount };
  if (!mentionsMcp(source)) return { ...base, parsed: false, findings: [], handlers: [] };
  let extracted: Extracted<number>;
  try {
    extracted = language === 'python' ? await extractPythonSource(source) : extractJsSource(file, source);
  } catch (error) {
    const reason =
      error instanceof SyntaxErrorInSource
        ? { reason: `syntax error: ${error.message}`, ...lineMap.position(error.offset) }
        : // One file the analyzer trips on must not cost the user the rest of the scan.
          { reason: `cannot analyze: ${firstLine(error)}` };
    return { ...base, parsed: false, findings: [], handlers: [], error: { file, ...reason } };
  }
  const version = options.protocolVersion ?? SCAN_DEFAULT_PROTOCOL;
  return {
    ...base,
    parsed: true,
    ...located(analyzeExtracted(extracted, { version }), file, lineMap, version),
  };
}

function located(
  analysis: StaticAnalysis<number>,
  file: string,
  lineMap: LineMap,
  protocolVersion: ProtocolVersion,
): { findings: Finding[]; handlers: ScannedHandler[] } {
  const findings: Finding[] = analysis.findings.map((f) => ({
    rule: f.rule,
    severity: f.severity,
    message: f.message,
    pointer: f.pointer,
    location: { file, ...lineMap.position(f.at), protocolVersion, ...(f.tool ? { tool: f.tool } : {}) },
    ...(f.fix ? { fix: f.fix } : {}),
  }));
  const handlers: ScannedHandler[] = analysis.handlers.map((h) => ({
    tool: h.tool,
    framework: h.framework,
    file,
    line: lineMap.position(h.at).line,
    returns: h.returns.map((r) => ({
      file,
      ...lineMap.position(r.at),
      status: r.status,
      problems: r.problems.map((p) => p.message),
    })),
  }));
  return { findings, handlers };
}

/**
 * Source files under `paths` (files given explicitly are kept whatever their extension says), and
 * the paths that could not be read. Links to files are read like files; links to directories are
 * not walked, since they can loop.
 */
export async function collectFiles(
  paths: readonly string[],
  filter?: PathFilter,
): Promise<{ files: string[]; unreadable: Unscanned[] }> {
  const files: string[] = [];
  const unreadable: Unscanned[] = [];
  const walk = async (dir: string): Promise<void> => {
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
        if (!SKIPPED_DIRECTORIES.has(entry.name) && !filter?.skipDirectory(full)) await walk(full);
      } else if ((entry.isFile() || entry.isSymbolicLink()) && languageOf(full) && !filter?.skipFile(full)) {
        files.push(full);
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
    if (info.isDirectory()) await walk(path);
    else if (info.isFile()) files.push(path);
    else unreadable.push({ file: path, reason: 'not a regular file or directory' });
  }
  return { files, unreadable };
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
        reason: `not scanned: ${megabytes(info.size)} is over the ${megabytes(maxFileSize)} limit (--max-file-size)`,
      };
    }
    const bytes = await readFile(file);
    if (bytes.subarray(0, BINARY_PROBE).includes(0)) return { reason: 'not scanned: binary file' };
    return bytes.toString('utf8');
  } catch (error) {
    return { reason: `cannot read: ${errorCode(error)}` };
  }
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export interface ScanResult {
  readonly report: Report;
  readonly verdict: Verdict;
  readonly files: readonly FileScan[];
  /** Paths not scanned (unreadable, binary, too large, syntax errors); also in `details.unscanned`. */
  readonly unscanned: readonly Unscanned[];
}

function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return (rel.startsWith('..') ? file : rel).split(sep).join('/');
}

export async function scanPaths(paths: readonly string[], options: ScanOptions = {}): Promise<ScanResult> {
  const cwd = options.cwd ?? process.cwd();
  const collected = await collectFiles(paths, options.filter);
  const unscanned = collected.unreadable.map((u) => ({ ...u, file: displayPath(u.file, cwd) }));
  const files: FileScan[] = [];
  for (const path of collected.files) {
    const file = displayPath(path, cwd);
    const source = await readSource(path, options.maxFileSize ?? DEFAULT_MAX_FILE_SIZE);
    if (typeof source !== 'string') {
      unscanned.push({ file, ...source });
      continue;
    }
    const scanned = await scanSource(file, source, options);
    files.push(scanned);
    if (scanned.error) unscanned.push(scanned.error);
  }
  const verdict = computeVerdict(files.flatMap((f) => f.handlers));
  const report = buildReport(
    'scan',
    files.flatMap((f) => f.findings),
    files.length,
    {
      summary: {
        protocolVersion: options.protocolVersion ?? SCAN_DEFAULT_PROTOCOL,
        lines: files.reduce((n, f) => n + f.lines, 0),
        parsedFiles: files.filter((f) => f.parsed).length,
        unscanned: unscanned.length,
        handlers: verdict.handlers,
        returns: verdict.returns,
        verdict: verdict.status,
      },
      details: { verdict, ...(unscanned.length > 0 ? { unscanned } : {}) },
    },
  );
  return { report, verdict, files, unscanned };
}

/** Unscanned reasons are printed one per line; some errors (module resolution) span several. */
function firstLine(error: unknown): string {
  return String(error instanceof Error ? error.message : error).split('\n', 1)[0] ?? '';
}
