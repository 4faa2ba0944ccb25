/**
 * The library claims to run in browsers: no I/O and no Node built-ins anywhere in the import graph of
 * src/index.ts. esbuild bundles that graph for the browser platform (where a `node:` import cannot
 * resolve, so the build itself fails on one), the metafile lists every module it reached, and chromium
 * then runs the bundle, without Node's Buffer, and must produce what Node produces.
 */

import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';
import { launchChromium } from '../support/chromium.js';
import { PNG_1X1 } from './support/shapes.js';

const root = join(import.meta.dirname, '../..');
const GLOBAL_NAME = 'mcpShape';

async function bundle(): Promise<{ code: string; metafile: Metafile }> {
  const output = await build({
    entryPoints: [join(root, 'src/index.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    globalName: GLOBAL_NAME,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const [file] = output.outputFiles;
  if (!file) throw new Error('esbuild wrote no bundle');
  return { code: file.text, metafile: output.metafile };
}

const NODE_BUILTINS = new Set(builtinModules);

function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || NODE_BUILTINS.has(specifier.split('/')[0] ?? '');
}

/** What the page runs, and Node too: the results must agree. Kept a plain function of the library. */
async function scenario(lib: typeof library, pngBase64: string) {
  const png = Uint8Array.from(atob(pngBase64), (c) => c.charCodeAt(0));
  const outputSchema = { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] };
  const mismatch = await lib.toolResult({ n: 'x' }, { protocolVersion: '2025-06-18', outputSchema }).then(
    () => 'accepted',
    (error: Error) => `${error.name} ${(error as { pointer?: string }).pointer}`,
  );
  return {
    bytes: await lib.toolResult(png, { protocolVersion: '2025-06-18' }),
    sniffedImage: await lib.image(png),
    structured: await lib.toolResult([1, 2], { protocolVersion: '2025-11-25' }),
    mismatch,
    repaired: await lib.repair(
      {
        content: [
          { type: 'json', json: { a: 1 } },
          { type: 'image', data: `data:image/png;base64,${pngBase64}` },
        ],
      },
      { protocolVersion: '2025-06-18' },
    ),
    message: await lib.repairMessage(
      { jsonrpc: '2.0', id: 1, requestId: 'x', result: { content: 'hi' } },
      { protocolVersion: '2025-06-18', request: { jsonrpc: '2.0', id: 1, method: 'tools/call' } },
    ),
    findings: (
      await lib.validateToolResult(
        { content: [{ type: 'text', text: 42 }] },
        { protocolVersion: '2025-06-18' },
      )
    ).map((f) => f.rule),
    html: await lib.convertWebMcp(
      [{ type: 'html', html: '<p onclick="x()">hi</p><script>evil()</script>' }],
      { protocolVersion: '2025-06-18' },
    ),
  };
}

describe('the library in a browser: the import graph of src/index.ts', () => {
  let metafile: Metafile;
  let code: string;

  beforeAll(async () => {
    ({ code, metafile } = await bundle());
  }, 120_000);

  it('bundles for the browser platform, reaching the library, the rules and the validator', () => {
    const inputs = Object.keys(metafile.inputs);
    for (const part of ['src/library/', 'src/rules/', 'src/validate/', 'src/core/', 'parse5', 'file-type']) {
      expect(inputs.some((input) => input.includes(part))).toBe(true);
    }
    expect(code.length).toBeGreaterThan(0);
  });

  it('imports no Node built-in anywhere', () => {
    const builtins = Object.entries(metafile.inputs).flatMap(([input, { imports }]) =>
      imports.filter((i) => isNodeBuiltin(i.path) || i.external).map((i) => `${input} → ${i.path}`),
    );
    expect(builtins).toEqual([]);
    expect(Object.keys(metafile.inputs).filter(isNodeBuiltin)).toEqual([]);
  });
});

describe('the library in chromium', () => {
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const { code } = await bundle();
    browser = await launchChromium();
    page = await browser.newPage();
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.addScriptTag({ content: code });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('has no Buffer or process: the portable paths are the ones exercised', async () => {
    expect(await page.evaluate(() => [typeof globalThis.Buffer, typeof globalThis.process])).toEqual([
      'undefined',
      'undefined',
    ]);
    expect(
      await page.evaluate((name) => Object.keys(Reflect.get(globalThis, name)).sort(), GLOBAL_NAME),
    ).toEqual(Object.keys(library).sort());
  });

  it('builds, sniffs, validates, repairs and converts exactly as Node does', async () => {
    const inBrowser = await page.evaluate(
      async ({ source, name, png }) => {
        // The scenario travels as source text: page.evaluate cannot pass functions.
        const run = new Function(`return (${source})`)() as typeof scenario;
        return run(Reflect.get(globalThis, name), png);
      },
      { source: scenario.toString(), name: GLOBAL_NAME, png: PNG_1X1 },
    );
    const inNode = JSON.parse(JSON.stringify(await scenario(library, PNG_1X1)));
    expect(inBrowser).toEqual(inNode);
    // And Node's answers are the documented ones, so agreement is not agreement on nonsense.
    expect(inNode.bytes.content[0]).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(inNode.sniffedImage).toEqual({ type: 'image', data: PNG_1X1, mimeType: 'image/png' });
    expect(inNode.structured.structuredContent).toEqual({ result: [1, 2] });
    expect(inNode.mismatch).toBe('OutputSchemaMismatchError /n');
    expect(inNode.repaired.result.structuredContent).toEqual({ a: 1 });
    expect(inNode.message.message).not.toHaveProperty('requestId');
    expect(inNode.findings).toContain('block-text-invalid');
    expect(JSON.stringify(inNode.html.result)).not.toContain('script');
    expect(pageErrors).toEqual([]);
  });
});
