/**
 * Static scan throughput in source lines per second of CPU time (user + system, so load from other
 * processes on the machine does not count). Files are read before timing.
 * - TS/JS: every .js/.mjs/.cjs/.ts/.mts/.cts file (not .d.ts) under node_modules/@modelcontextprotocol,
 *   scanned as `mcp-shape scan` does (files that mention nothing MCP are skipped before parsing; the
 *   rest are parsed and analysed as one project, imports followed).
 * - Python: every .py fixture under fixtures/scan, replicated under fresh directory names until the
 *   corpus is large enough to time (no Python MCP corpus is installed here).
 * Each is measured for the value analysis of this checkout and for the pattern-matching analysis it
 * replaced (the scanner at LEGACY_REVISION, built from git into .bench/legacy), side by side, with
 * the parse alone as the floor.
 */

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseSync } from 'oxc-parser';
import { type ScanInput, scanSources } from '../../src/scan/index.js';
import { parsePython, pythonParser } from '../../src/scan/python/parser.js';
import { mentionsMcp } from '../../src/scan/source.js';
import type { BenchResult, Measurement, Suite } from '../measure.js';
import { REPO_ROOT } from '../paths.js';

/** The last commit whose scanner matched patterns instead of following values (issue 8). */
const LEGACY_REVISION = 'e58ed8ba45a785e95b147b47211667d3728225ae';

const JS_FILE = /\.(m|c)?(j|t)s$/;
const PYTHON_LINES = 40_000;

interface Corpus {
  readonly inputs: ScanInput[];
  readonly lines: number;
}

function lineCount(source: string): number {
  let n = 1;
  for (let i = source.indexOf('\n'); i !== -1; i = source.indexOf('\n', i + 1)) n++;
  return n;
}

function walk(dir: string, accept: (name: string) => boolean, out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) walk(full, accept, out);
    else if (accept(entry.name)) out.push(full);
  }
  return out;
}

export function jsCorpus(): Corpus {
  const files = walk(
    join(REPO_ROOT, 'node_modules/@modelcontextprotocol'),
    (name) => JS_FILE.test(name) && !/\.d\.(m|c)?ts$/.test(name),
  );
  const inputs = files.map((absolute) => ({
    path: relative(REPO_ROOT, absolute),
    absolute,
    text: readFileSync(absolute, 'utf8'),
  }));
  return { inputs, lines: inputs.reduce((n, i) => n + lineCount(i.text), 0) };
}

/** The Python fixtures, copied under `copyN/` directories until the corpus has PYTHON_LINES lines. */
function pythonCorpus(): Corpus {
  const root = join(REPO_ROOT, 'fixtures/scan');
  const files = walk(root, (name) => name.endsWith('.py')).map((absolute) => ({
    rel: relative(root, absolute),
    text: readFileSync(absolute, 'utf8'),
  }));
  const inputs: ScanInput[] = [];
  let lines = 0;
  for (let copy = 0; lines < PYTHON_LINES && files.length > 0; copy++) {
    for (const f of files) {
      // A virtual absolute path: each copy's relative imports resolve among the in-memory copies.
      const path = `copy${copy}/${f.rel}`;
      inputs.push({ path, absolute: join('/virtual', path), text: f.text });
      lines += lineCount(f.text);
    }
  }
  return { inputs, lines };
}

function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}

/** Median lines per CPU-second over `rounds` passes (after one warm-up pass). */
export async function linesPerCpuSecond(
  lines: number,
  rounds: number,
  pass: () => Promise<unknown> | unknown,
): Promise<number> {
  await pass();
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = cpuSeconds();
    await pass();
    rates.push(lines / Math.max(1e-6, cpuSeconds() - start));
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)] ?? 0;
}

type LegacyScanSource = (file: string, source: string) => Promise<unknown>;

/**
 * The legacy scanner: src/ at LEGACY_REVISION from git, bundled with esbuild (packages stay
 * external, so it runs on the same oxc-parser and tree-sitter). Undefined without git history.
 */
async function legacyScanner(): Promise<{ scanSource: LegacyScanSource } | { missing: string }> {
  const dir = join(REPO_ROOT, '.bench/legacy');
  const bundle = join(dir, 'scan.mjs');
  try {
    if (!existsSync(bundle)) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const archive = execFileSync('git', ['archive', LEGACY_REVISION, 'src', 'package.json'], {
        cwd: REPO_ROOT,
        maxBuffer: 256 * 1024 * 1024,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      execFileSync('tar', ['-x', '-C', dir], { input: archive });
      const esbuild = await import('esbuild');
      await esbuild.build({
        entryPoints: [join(dir, 'src/scan/index.ts')],
        bundle: true,
        platform: 'node',
        format: 'esm',
        outfile: bundle,
        packages: 'external',
        logLevel: 'silent',
        absWorkingDir: REPO_ROOT,
        nodePaths: [join(REPO_ROOT, 'node_modules')],
      });
    }
    return (await import(pathToFileURL(bundle).href)) as { scanSource: LegacyScanSource };
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n', 1)[0] : String(error);
    return {
      missing: `legacy scanner unavailable (${reason}); needs git history with ${LEGACY_REVISION.slice(0, 8)}`,
    };
  }
}

/**
 * The same TS/JS scan on Node 22, which users run (Node 20 is past its end of life) and where oxc hands
 * its AST over by raw transfer (src/scan/js/index.ts), in a child process of that Node
 * (bench/scan-on-node.ts). The binary comes from npm as the test matrix's does.
 */
async function onNode22(): Promise<BenchResult> {
  const title = 'TS/JS scan, value analysis, on Node 22 (raw transfer of the AST)';
  try {
    const { ensureNodeBinary } = await import('../../scripts/node-binaries.js');
    const node = await ensureNodeBinary(22);
    const child = join(REPO_ROOT, '.bench/bench/scan-on-node.js');
    const out = execFileSync(node, [child], { cwd: REPO_ROOT, encoding: 'utf8', maxBuffer: 1 << 20 });
    const { rate, version, transfer } = JSON.parse(out) as {
      rate: number;
      version: string;
      transfer: string;
    };
    return measurement(
      title.replace('Node 22', `Node ${version}`),
      rate,
      `AST transfer: ${transfer}`,
      100_000,
    );
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n', 1)[0] : String(error);
    return measurement(title, 0, `not measured: ${reason}`);
  }
}

function measurement(title: string, value: number, note: string, target?: number): Measurement {
  return {
    kind: 'measurement',
    title,
    value,
    unit: 'lines/s (CPU)',
    ...(target ? { target: { atLeast: target } } : {}),
    note,
  };
}

export const suite: Suite = {
  name: 'scan',
  async run(): Promise<BenchResult[]> {
    const legacy = await legacyScanner();
    const results: BenchResult[] = [];

    const js = jsCorpus();
    const mcpJs = js.inputs.filter((i) => mentionsMcp(i.text));
    const jsNote = `node_modules/@modelcontextprotocol: ${js.inputs.length} files, ${js.lines.toLocaleString('en')} lines; ${mcpJs.length} mention MCP and are parsed`;
    const jsNew = await linesPerCpuSecond(js.lines, 3, () => scanSources(js.inputs, { cwd: REPO_ROOT }));
    results.push(measurement('TS/JS scan, value analysis (this checkout)', jsNew, jsNote, 100_000));
    results.push(await onNode22());
    const jsParse = await linesPerCpuSecond(js.lines, 3, () => {
      for (const i of mcpJs) parseSync(i.path, i.text, { preserveParens: false });
    });
    results.push(
      measurement(
        'TS/JS parse alone (oxc), the same files',
        jsParse,
        'the floor: parsing the files that mention MCP',
      ),
    );

    const py = pythonCorpus();
    const parser = await pythonParser();
    const pyNote = `fixtures/scan/**/*.py replicated: ${py.inputs.length} files, ${py.lines.toLocaleString('en')} lines`;
    const pyNew = await linesPerCpuSecond(py.lines, 3, () => scanSources(py.inputs, { cwd: REPO_ROOT }));
    results.push(measurement('Python scan, value analysis (this checkout)', pyNew, pyNote, 50_000));
    const pyParse = await linesPerCpuSecond(py.lines, 3, () => {
      for (const i of py.inputs) {
        try {
          parsePython(parser, i.text);
        } catch {
          // A fixture with a syntax error still costs its parse.
        }
      }
    });
    results.push(measurement('Python parse alone (tree-sitter wasm + compact tree)', pyParse, 'the floor'));

    if ('missing' in legacy) {
      results.push(measurement('legacy pattern-matching scanner', 0, legacy.missing));
      return results;
    }
    const jsOld = await linesPerCpuSecond(js.lines, 3, async () => {
      for (const i of js.inputs) await legacy.scanSource(i.path, i.text);
    });
    results.push(
      measurement(
        'TS/JS scan, legacy pattern matching',
        jsOld,
        `new ÷ old = ${(jsNew / jsOld).toFixed(2)}× (the cost of the value analysis)`,
      ),
    );
    const pyOld = await linesPerCpuSecond(py.lines, 3, async () => {
      for (const i of py.inputs) await legacy.scanSource(i.path, i.text);
    });
    results.push(
      measurement(
        'Python scan, legacy pattern matching',
        pyOld,
        `new ÷ old = ${(pyNew / pyOld).toFixed(2)}×`,
      ),
    );
    return results;
  },
};
