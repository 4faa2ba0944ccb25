/**
 * The TS/JS parser's two ways of getting oxc's AST (src/scan/js/index.ts): raw transfer, where the
 * runtime allows it (Node 22 and later: this file runs in the Node 22/24 matrix), and JSON. Both must
 * give the same ESTree, offsets included, for every fixture, the SDKs' own code and the odd corners of
 * the syntax (non-ASCII text, BigInt and RegExp literals, JSX, a hashbang, a recovered syntax error),
 * except a literal's `raw` text around a lone surrogate.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseSync, rawTransferSupported } from 'oxc-parser';
import { describe, expect, it } from 'vitest';
import { jsParseTransfer, parseJs } from '../../src/scan/js/index.js';

const ROOT = join(import.meta.dirname, '../..');
const SOURCE = /\.(m|c)?(j|t)sx?$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(full);
    return SOURCE.test(e.name) && !/\.d\.(m|c)?ts$/.test(e.name) ? [full] : [];
  });
}

/** The AST as text: BigInt and RegExp values, which JSON cannot hold, written out. */
function asText(program: unknown): string {
  return JSON.stringify(program, (_key, value: unknown) =>
    typeof value === 'bigint' ? `${value}n` : value instanceof RegExp ? `${value}` : value,
  );
}

const CORNERS: [string, string][] = [
  [
    'non-ASCII.ts',
    'const s = "héllo wörld 🚀"; // ünïcode\nexport const t = { type: "text", text: "日本 " + s };\n',
  ],
  [
    'literals.js',
    'const big = 12345678901234567890n; const re = /a(b)+c/giu; const odd = /(?<x>a)\\k<x>/v;\n',
  ],
  ['component.tsx', 'export const C = (p: { n: number }) => <div title="x">{p.n}</div>;\n'],
  ['script.mjs', '#!/usr/bin/env node\nimport x from "./x.js";\nconsole.log(x);\n'],
  ['recovered.ts', 'return { content: [] };\nexport const ok = 1;\n'],
  ['broken.ts', 'function f( { return { content: [ } }\nexport const ok = 1;\n'],
];

describe('parseJs', () => {
  it(`uses raw transfer exactly where oxc supports it (here: ${rawTransferSupported() ? 'raw' : 'json'})`, () => {
    parseJs('a.ts', 'export const a = 1;\n');
    expect(jsParseTransfer).toBe(rawTransferSupported() ? 'raw' : 'json');
    // The matrix runs this file on Node 22 and 24, where raw transfer must be on.
    if (Number(process.versions.node.split('.')[0]) >= 22) expect(jsParseTransfer).toBe('raw');
  });

  const files = [
    ...sourceFiles(join(ROOT, 'fixtures/scan')),
    ...sourceFiles(join(ROOT, 'node_modules/@modelcontextprotocol/sdk/dist/esm/examples')),
    ...sourceFiles(join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist')),
  ];

  it(`gives the AST oxc's JSON transfer gives, on ${files.length} fixtures and SDK files`, () => {
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const source = readFileSync(file, 'utf8');
      const expected = asText(parseSync(file, source, { preserveParens: false }).program);
      expect(asText(parseJs(file, source)), file).toBe(expected);
    }
  });

  it.each(CORNERS)('does what the JSON transfer does for %s', (name, source) => {
    const expected = parseSync(name, source, { preserveParens: false });
    if (expected.program.body.length === 0) {
      // Nothing recovered: the same error, at the same place.
      const fatal = expected.errors.find((e) => e.severity === 'Error');
      expect(() => parseJs(name, source)).toThrow(fatal?.message);
      expect(name).toBe('broken.ts');
      return;
    }
    expect(asText(parseJs(name, source))).toBe(asText(expected.program));
  });

  it('differs from the JSON transfer only in `raw` for lone surrogates, which it keeps as written', () => {
    const source = 'const s = "\ud800 lone"; const t = `\udfff`;\n';
    const withoutRaw = (program: unknown) =>
      JSON.stringify(program, (key, value: unknown) => (key === 'raw' ? undefined : value));
    const program = parseJs('surrogates.ts', source);
    const json = parseSync('surrogates.ts', source, { preserveParens: false }).program;
    expect(withoutRaw(program)).toBe(withoutRaw(json));
    const literal = (
      program.body[0] as { declarations: { init: { raw: string; start: number; end: number } }[] }
    ).declarations[0]?.init;
    const expected = jsParseTransfer === 'raw' ? source.slice(literal?.start, literal?.end) : '"\ufffd lone"';
    expect(literal?.raw).toBe(expected);
  });

  it('keeps UTF-16 offsets past non-ASCII text, as the analysis slices the source with them', () => {
    const source = CORNERS[0]?.[1] as string;
    const program = parseJs('non-ASCII.ts', source);
    const last = program.body[1] as { start: number; end: number };
    expect(source.slice(last.start, last.end)).toBe('export const t = { type: "text", text: "日本 " + s };');
  });
});
