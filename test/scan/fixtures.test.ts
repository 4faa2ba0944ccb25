/**
 * Every fixture under fixtures/scan marks the findings it must produce with `expect: <rule-id> …`
 * comments on the line the finding points at. The scan must report exactly those error and warning
 * findings: a missing one is a missed defect, an extra one a false positive.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';

const root = join(import.meta.dirname, '../..');
const fixtureDir = join(root, 'fixtures/scan');

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? fixtureFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}

function expectations(source: string): string[] {
  const found: string[] = [];
  source.split('\n').forEach((line, i) => {
    const match = line.match(/(?:\/\/|#) expect: ([a-z0-9 -]+)$/);
    for (const rule of match?.[1]?.trim().split(/\s+/) ?? []) found.push(`${rule}@${i + 1}`);
  });
  return found.sort();
}

// Pattern fixtures span files (helpers imported by servers): patterns.test.ts scans each as a project.
const files = fixtureFiles(fixtureDir)
  .map((f) => relative(root, f))
  .filter((f) => !f.startsWith('fixtures/scan/patterns/'));

describe('scan fixtures', () => {
  it('cover TS, JS and Python', () => {
    expect(files.some((f) => f.endsWith('.ts'))).toBe(true);
    expect(files.some((f) => f.endsWith('.mjs'))).toBe(true);
    expect(files.some((f) => f.endsWith('.py'))).toBe(true);
  });

  it.each(files)('%s reports exactly its expect: annotations', async (file) => {
    const source = readFileSync(join(root, file), 'utf8');
    const scanned = await scanSource(file, source);
    expect(scanned.parsed).toBe(true);
    expect(scanned.handlers.length + scanned.findings.length).toBeGreaterThan(0);
    const reported = scanned.findings
      .filter((f) => f.severity !== 'info')
      .map((f) => `${f.rule}@${f.location?.line}`)
      .sort();
    expect(reported).toEqual(expectations(source));
    for (const f of scanned.findings) {
      expect(f.location?.file).toBe(file);
      expect(f.location?.column).toBeGreaterThan(0);
    }
  });
});
