import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { buildReport } from '../../src/report/build.js';
import { REPORT_FORMATS, type Report, renderReport, renderReportPieces } from '../../src/report/index.js';
import { jsonPieces } from '../../src/report/json-chunks.js';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';
import { auditReport, checkReport, hostileReport, scanReport } from './fixtures.js';

/** Values JSON.stringify writes in its own way: members it leaves out, toJSON, boxed primitives. */
const oddValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(() => 1),
  fc.constant(Symbol('s')),
  fc.date({ noInvalidDate: true }),
  fc.string().map((s) => new String(s)),
  fc.double().map((n) => new Number(n)),
  fc.boolean().map((b) => new Boolean(b)),
  fc.constant(Number.NaN),
  fc.constant({ toJSON: (key: string) => ({ key }) }),
);

const { value: anyValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 2 }),
    oddValue,
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ unit: 'binary', maxLength: 6 }), tie('value'), { maxKeys: 5 }),
  ),
}));

describe('jsonPieces', () => {
  it('joins to exactly what JSON.stringify(value, null, 2) writes, at any number of split levels', () => {
    fc.assert(
      fc.property(anyValue, fc.integer({ min: 0, max: 5 }), (value, levels) => {
        const expected = JSON.stringify(value, null, 2) ?? 'null';
        expect([...jsonPieces(value, levels)].join('')).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('writes the members of the split levels as pieces of their own', () => {
    const value = { findings: Array.from({ length: 100 }, (_, i) => ({ rule: 'r', n: i })) };
    const pieces = [...jsonPieces(value, 2)];
    // Each finding is written whole, in a piece of its own.
    expect(pieces.filter((p) => p.startsWith('{\n      "rule"'))).toHaveLength(100);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(60);
  });
});

function manyFindings(count: number): Report {
  // Every finding's text has one length, whatever its index: only their number differs.
  const findings: Finding[] = Array.from({ length: count }, (_, index) => ({
    rule: 'block-mime-type-mismatch',
    severity: 'warning',
    message: `mimeType image/x-${String(index % 1000).padStart(3, '0')} contradicts the bytes, which look like image/png \u009b31m`,
    pointer: `/content/${String(index % 1000).padStart(3, '0')}/mimeType`,
    location: { file: 'many.json', protocolVersion: '2025-11-25' },
  }));
  return buildReport('check', findings, 1);
}

describe('renderReportPieces', () => {
  const reports = {
    check: checkReport(),
    audit: auditReport(),
    scan: scanReport(),
    hostile: hostileReport(),
  };

  it.each(Object.entries(reports))('joins to renderReport in every format (%s report)', (_, report) => {
    for (const format of REPORT_FORMATS) {
      const options = { root: '/repo', cwd: '/repo', color: false };
      expect([...renderReportPieces(report, format, options)].join(''), format).toBe(
        renderReport(report, format, options),
      );
    }
  });

  it('writes the JSON, SARIF and JUnit reports a finding at a time, never as one string', () => {
    // A few million findings write more than the longest string V8 holds: no piece grows with them.
    const longest = (count: number, format: 'json' | 'sarif' | 'junit') =>
      Math.max(
        ...[...renderReportPieces(manyFindings(count), format, { root: '/repo' })].map((p) => p.length),
      );
    for (const format of ['json', 'sarif', 'junit'] as const) {
      expect(longest(4000, format), format).toBe(longest(1000, format));
    }
  });
});

describe('check --format json|sarif|junit', () => {
  it(
    'writes the report in pieces that make the same document, to a file and to standard output',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-pieces-'));
      const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010802000000', 'hex');
      const data = Buffer.concat([png, Buffer.alloc(32)]).toString('base64');
      const content = Array.from({ length: 3000 }, (_, i) => ({
        type: 'image',
        data,
        mimeType: `image/x-${i}`,
      }));
      const input = join(dir, 'many.json');
      writeFileSync(input, JSON.stringify({ content }));
      for (const format of ['json', 'sarif', 'junit']) {
        const out = join(dir, `report.${format}`);
        const toStdout = await runCli(['check', input, '--format', format]);
        const toFile = await runCli(['check', input, '--format', format, '--out', out]);
        expect([toStdout.code, toFile.code, toStdout.stderr], format).toEqual([0, 0, '']);
        expect(readFileSync(out, 'utf8'), format).toBe(toStdout.stdout);
        if (format === 'junit') expect(toStdout.stdout.match(/<failure /g)?.length ?? 0).toBeGreaterThan(0);
        else {
          const parsed = JSON.parse(toStdout.stdout);
          const results = format === 'json' ? parsed.findings : parsed.runs[0].results;
          expect(results.length, format).toBeGreaterThanOrEqual(3000);
        }
      }
    },
    CLI_TEST_TIMEOUT,
  );
});
