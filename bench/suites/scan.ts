/**
 * Static scan throughput in source lines per second, on one core (everything here is synchronous
 * except tree-sitter's one-time wasm load). Files are read before timing, so disk I/O is excluded.
 * - TS/JS: every .js/.mjs/.cjs/.ts/.mts/.cts file (not .d.ts) under node_modules/@modelcontextprotocol:
 *   once as `mcp-shape scan` runs (files that mention nothing MCP are skipped before parsing), and once
 *   parsing and analyzing every file, which is the cost per MCP-relevant line.
 * - Python: a generated FastMCP/low-level/gateway module (the fixtures' patterns repeated with fresh
 *   names), because no Python MCP corpus is installed here.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyzeExtracted, SCAN_DEFAULT_PROTOCOL } from '../../src/scan/analyze.js';
import { scanSource } from '../../src/scan/index.js';
import { extractJsSource } from '../../src/scan/js/index.js';
import { extractPythonSource } from '../../src/scan/python/index.js';
import { mentionsMcp } from '../../src/scan/source.js';
import type { BenchResult, Suite } from '../measure.js';
import { REPO_ROOT } from '../paths.js';

interface SourceFile {
  readonly file: string;
  readonly source: string;
  readonly lines: number;
}

const JS_FILE = /\.(m|c)?(j|t)s$/;

function jsCorpus(): SourceFile[] {
  const root = join(REPO_ROOT, 'node_modules/@modelcontextprotocol');
  const files: SourceFile[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (JS_FILE.test(entry.name) && !/\.d\.(m|c)?ts$/.test(entry.name)) {
        const source = readFileSync(full, 'utf8');
        files.push({ file: full, source, lines: source.split('\n').length });
      }
    }
  };
  walk(root);
  return files;
}

/** A Python module with `tools` FastMCP tools, a low-level dispatcher and a gateway per 50 tools. */
function pythonCorpus(tools: number): SourceFile {
  const parts = [
    'import json',
    'from mcp.server.fastmcp import FastMCP, Image',
    'from mcp.server.lowlevel import Server',
    'import mcp.types as types',
    'mcp = FastMCP("bench")',
    'server = Server("bench")',
    '',
  ];
  for (let i = 0; i < tools; i++) {
    parts.push(
      '@mcp.tool()',
      `def tool_${i}(path: str, limit: int = 10) -> dict[str, int]:`,
      `    """Tool number ${i}."""`,
      '    if not path:',
      `        return {"error": "path is required for tool ${i}"}`,
      `    data = {"count": limit, "index": ${i}}`,
      '    return data',
      '',
    );
    if (i % 50 === 0) {
      parts.push(
        '@server.call_tool()',
        `async def dispatch_${i}(name: str, arguments: dict):`,
        `    if name == "echo_${i}":`,
        '        return [types.TextContent(type="text", text=arguments["message"])]',
        `    elif name == "image_${i}":`,
        '        return [types.ImageContent(type="image", data=arguments["png"], mimeType="image/png")]',
        '    raise ValueError(name)',
        '',
        `def gateway_${i}(body):`,
        '    payload = {"jsonrpc": "2.0", "id": body["id"], "result": {"content": [{"type": "text", "text": "ok"}]}}',
        '    return payload',
        '',
      );
    }
  }
  const source = parts.join('\n');
  return { file: 'generated.py', source, lines: parts.length };
}

/** Median lines/s over `rounds` passes of `pass` over `lines` lines. */
async function linesPerSecond(
  lines: number,
  rounds: number,
  pass: () => Promise<void> | void,
): Promise<number> {
  await pass(); // warm-up: JIT, and tree-sitter's wasm load
  const rates: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const start = performance.now();
    await pass();
    rates.push((lines / (performance.now() - start)) * 1000);
  }
  rates.sort((a, b) => a - b);
  return rates[Math.floor(rates.length / 2)] ?? 0;
}

export const suite: Suite = {
  name: 'scan',
  async run(): Promise<BenchResult[]> {
    const js = jsCorpus();
    const jsLines = js.reduce((n, f) => n + f.lines, 0);
    const bytes = js.reduce((n, f) => n + f.source.length, 0);
    const asScanned = await linesPerSecond(jsLines, 5, async () => {
      for (const f of js) await scanSource(f.file, f.source);
    });
    const everyFile = await linesPerSecond(jsLines, 3, () => {
      for (const f of js) {
        try {
          analyzeExtracted(extractJsSource(f.file, f.source), { version: SCAN_DEFAULT_PROTOCOL });
        } catch {
          // A file oxc cannot parse counts its lines all the same; none in this corpus today.
        }
      }
    });
    const parsedFiles = js.filter((f) => mentionsMcp(f.source)).length;

    const py = pythonCorpus(2000);
    const pyRate = await linesPerSecond(py.lines, 5, async () => {
      analyzeExtracted(await extractPythonSource(py.source), { version: SCAN_DEFAULT_PROTOCOL });
    });

    const corpus = `${js.length} files, ${jsLines.toLocaleString('en')} lines, ${(bytes / 1e6).toFixed(1)} MB`;
    return [
      {
        kind: 'measurement',
        title: 'TS/JS scan as run (marker prefilter, then parse + analyze)',
        value: asScanned,
        unit: 'lines/s',
        target: { atLeast: 100_000 },
        note: `node_modules/@modelcontextprotocol: ${corpus}; ${parsedFiles} files mention MCP and are parsed`,
      },
      {
        kind: 'measurement',
        title: 'TS/JS parse (oxc) + analyze of every file, no prefilter',
        value: everyFile,
        unit: 'lines/s',
        target: { atLeast: 100_000 },
        note: corpus,
      },
      {
        kind: 'measurement',
        title: 'Python parse (tree-sitter wasm) + analyze',
        value: pyRate,
        unit: 'lines/s',
        note: `generated module: 2000 FastMCP tools, 40 low-level dispatchers and gateways, ${py.lines.toLocaleString('en')} lines`,
      },
    ];
  },
};
