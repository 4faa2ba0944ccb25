/**
 * `scan`: static analysis of MCP server source. Finds tool handlers in TS/JS and Python, checks what
 * they return with the same rule catalog as `check`, and computes the return-content-types verdict.
 */

import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import type { Finding } from '../core/finding.js';
import { buildReport } from '../report/build.js';
import type { Report } from '../report/types.js';
import type { ProtocolVersion } from '../spec/versions.js';
import { analyzeExtracted, type Extracted, SCAN_DEFAULT_PROTOCOL, type StaticAnalysis } from './analyze.js';
import { extractJsSource } from './js/index.js';
import { extractPythonSource } from './python/index.js';
import { LineMap, mentionsMcp } from './source.js';
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

export interface ScanOptions {
  readonly protocolVersion?: ProtocolVersion;
  /** Paths in findings are relative to this directory (default: the process's). */
  readonly cwd?: string;
}

export interface FileScan {
  readonly file: string;
  readonly language: Language;
  readonly lines: number;
  /** False when the file mentions nothing MCP and was not parsed. */
  readonly parsed: boolean;
  readonly findings: readonly Finding[];
  readonly handlers: readonly ScannedHandler[];
  readonly error?: string;
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
    return { ...base, parsed: false, findings: [], handlers: [], error: (error as Error).message };
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

/** Source files under `paths` (files given explicitly are kept whatever their extension says). */
export async function collectFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) await walk(full);
      } else if (entry.isFile() && languageOf(full)) files.push(full);
    }
  };
  for (const path of paths) {
    const info = await stat(path);
    if (info.isDirectory()) await walk(path);
    else files.push(path);
  }
  return files;
}

export interface ScanResult {
  readonly report: Report;
  readonly verdict: Verdict;
  readonly files: readonly FileScan[];
}

function displayPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return (rel.startsWith('..') ? file : rel).split(sep).join('/');
}

export async function scanPaths(paths: readonly string[], options: ScanOptions = {}): Promise<ScanResult> {
  const cwd = options.cwd ?? process.cwd();
  const files: FileScan[] = [];
  for (const file of await collectFiles(paths)) {
    files.push(await scanSource(displayPath(file, cwd), await readFile(file, 'utf8'), options));
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
        handlers: verdict.handlers,
        returns: verdict.returns,
        verdict: verdict.status,
      },
      details: {
        verdict,
        ...(files.some((f) => f.error)
          ? { unparsed: files.filter((f) => f.error).map((f) => ({ file: f.file, error: f.error })) }
          : {}),
      },
    },
  );
  return { report, verdict, files };
}
