/**
 * The version matrix: `check` judges its input under every protocol version, says in one line where the
 * verdict changes, and `--protocol all` reports every version. The line and the matrix are data in the
 * report (summary.versionVerdict, details.versionMatrix) and every format renders them.
 */

import { join } from 'node:path';
import fc from 'fast-check';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { checkInput, checkWithMatrix, parseInput } from '../../src/check/index.js';
import { versionList, versionVerdict, versionVerdictLine } from '../../src/check/versions.js';
import { checkReport } from '../../src/cli/commands/check.js';
import type { Finding } from '../../src/core/finding.js';
import { invalidUtf8Lines } from '../../src/io/utf8.js';
import { renderReport } from '../../src/report/index.js';
import { ALL_VERSIONS, type ProtocolVersion } from '../../src/spec/versions.js';
import { anyResult } from '../spec/arbitraries.js';
import { anyMessage, anyToolsList } from '../spec/documents.js';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';
import { expectValidReport } from '../support/report-schema.js';
import { runs } from '../support/runs.js';
import { scratchDir } from '../support/scratch.js';

const TODAY = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'sunny' }] } };
const LINE =
  'valid for 2024-11-05 … 2025-11-25; fails 2026-07-28: the result has no "resultType"; protocol 2026-07-28 requires it';

const error = (message: string): Finding => ({ rule: 'x', severity: 'error', message, pointer: '' });

describe('versionList and versionVerdictLine', () => {
  it('writes runs of three or more versions as a range', () => {
    expect(versionList(['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'])).toBe(
      '2024-11-05 … 2025-11-25',
    );
    expect(versionList(['2025-11-25', '2024-11-05', '2025-03-26'])).toBe(
      '2024-11-05, 2025-03-26, 2025-11-25',
    );
    expect(versionList(['2025-06-18', '2026-07-28', '2025-11-25'])).toBe('2025-06-18 … 2026-07-28');
  });

  it('says nothing when every version agrees', () => {
    const all = (findings: Finding[]) =>
      (['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'] as const).map((v) =>
        versionVerdict(v, findings),
      );
    expect(versionVerdictLine(all([]))).toBeUndefined();
    expect(versionVerdictLine(all([error('broken')]))).toBeUndefined();
  });

  it('names failing versions together when they fail for the same reason, counting the rest', () => {
    const matrix = [
      versionVerdict('2024-11-05', [error('no audio'), error('no links')]),
      versionVerdict('2025-03-26', [error('no links')]),
      versionVerdict('2025-06-18', [{ ...error('advice'), severity: 'info' }]),
      versionVerdict('2025-11-25', []),
      versionVerdict('2026-07-28', [error('no links')]),
    ];
    expect(matrix[2]).toMatchObject({ verdict: 'pass', errors: 0, infos: 1, reasons: [] });
    expect(versionVerdictLine(matrix)).toBe(
      'valid for 2025-06-18, 2025-11-25; fails 2024-11-05: no audio (+1 more); fails 2025-03-26, 2026-07-28: no links',
    );
  });
});

describe('check and the version matrix', { timeout: CLI_TEST_TIMEOUT }, () => {
  it('adds the line to the report of a document whose verdict depends on the version, in every format', async () => {
    const outcome = await checkWithMatrix(parseInput(JSON.stringify(TODAY)), { file: 'today.json' });
    const report = checkReport(outcome);
    expectValidReport(JSON.parse(renderReport(report, 'json')));
    expect(report.summary.versionVerdict).toBe(LINE);
    expect(report.details?.versionMatrix).toEqual({
      all: false,
      versions: [
        ...['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'].map((protocolVersion) => ({
          protocolVersion,
          verdict: 'pass',
          failing: 0,
          errors: 0,
          warnings: 0,
          infos: 0,
          reasons: [],
        })),
        {
          protocolVersion: '2026-07-28',
          verdict: 'fail',
          failing: 1,
          errors: 1,
          warnings: 0,
          infos: 0,
          reasons: ['the result has no "resultType"; protocol 2026-07-28 requires it'],
        },
      ],
    });

    expect(renderReport(report, 'text', { color: false })).toContain(`${LINE}\n✔ 0 errors`);
    const markdown = renderReport(report, 'markdown');
    expect(markdown).toContain('**Protocol versions:** valid for 2024-11-05 … 2025-11-25; fails 2026-07-28');
    expect(markdown).toMatch(/\| 2026-07-28 \| ❌ fail \| 1 \| 0 \| 0 \| the result has no "resultType"/);
    const html = renderReport(report, 'html');
    expect(parse(html).childNodes.some((n) => n.nodeName === 'html')).toBe(true);
    expect(html).toContain('<p class="version-verdict">valid for 2024-11-05 … 2025-11-25; fails 2026-07-28');
    expect(html).toContain('<tr data-version="2026-07-28"><td>2026-07-28</td><td class="fail">fail</td>');
    const junit = renderReport(report, 'junit');
    expect(junit).toContain('<property name="protocol versions" value="valid for 2024-11-05 … 2025-11-25;');
    expect(junit).toContain(
      '<property name="protocol 2026-07-28" value="fail: 1 error, 0 warnings, 0 infos"/>',
    );
    const sarif = JSON.parse(renderReport(report, 'sarif'));
    const invocation = sarif.runs[0].invocations[0];
    expect(invocation.properties.summary.versionVerdict).toBe(LINE);
    expect(invocation.properties.versionMatrix.versions).toHaveLength(5);
  });

  it('says nothing more when every version gives the same verdict', async () => {
    const report = checkReport(
      await checkWithMatrix(parseInput(JSON.stringify({ content: 'not an array' })), { file: 'x.json' }),
    );
    expect(report.summary.versionVerdict).toBeUndefined();
    expect(renderReport(report, 'text', { color: false })).not.toContain('valid for');
    expect(renderReport(report, 'markdown')).not.toContain('Protocol versions');
  });

  it('--protocol all reports the findings of every version and prints the matrix', async () => {
    const path = scratchDir('matrix').file('today.json', TODAY);
    const json = await runCli(['check', path, '--protocol', 'all', '--format', 'json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expectValidReport(report);
    expect(report.findings).toMatchObject([
      { rule: 'result-type-invalid', location: { protocolVersion: '2026-07-28' } },
    ]);
    expect(report.summary).toMatchObject({
      checked: 1,
      protocolVersions: ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'],
      versionVerdict: LINE,
    });
    expect(report.details.versionMatrix.all).toBe(true);

    const text = await runCli(['check', path, '--protocol', 'all']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain(
      [
        'protocol    verdict  errors  warnings  infos',
        '2024-11-05  pass          0         0      0',
        '2025-03-26  pass          0         0      0',
        '2025-06-18  pass          0         0      0',
        '2025-11-25  pass          0         0      0',
        '2026-07-28  fail          1         0      0  the result has no "resultType"; protocol 2026-07-28 requires it',
      ].join('\n'),
    );
    expect(text.stdout).toContain(LINE);
  });

  it('--protocol all on a session that negotiates its version: one verdict, findings not repeated', async () => {
    const session = [
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18' } },
      {
        jsonrpc: '2.0',
        id: 0,
        result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } },
      },
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } },
      { jsonrpc: '2.0', id: 1, requestId: 1, result: { content: [] } },
    ];
    const input = parseInput(session.map((m) => JSON.stringify(m)).join('\n'));
    const outcome = await checkWithMatrix(input, { protocolVersion: 'all' });
    expect(outcome.versionVerdict).toBeUndefined();
    expect(outcome.matrix.versions.every((v) => v.verdict === 'fail')).toBe(true);
    expect(outcome.findings.map((f) => [f.rule, f.location?.line, f.location?.protocolVersion])).toEqual([
      ['envelope-extra-member', 4, '2025-06-18'],
    ]);
  });
});

describe("the version matrix under the run's policy", { timeout: CLI_TEST_TIMEOUT }, () => {
  // An extra envelope member and an image without mimeType fail every version; resultType only 2026-07-28.
  const BROKEN = {
    jsonrpc: '2.0',
    id: 1,
    extra: true,
    result: { content: [{ type: 'image', data: 'aGVsbG8=' }] },
  };
  const rows = (report: { details: { versionMatrix: { versions: { verdict: string }[] } } }) =>
    report.details.versionMatrix.versions.map((v) => v.verdict);

  it('judges each version after the rules the configuration turns off', async () => {
    const scratch = scratchDir('matrix-rules');
    const path = scratch.file('broken.json', BROKEN);
    const config = scratch.file('mcp-shape.config.json', {
      rules: { 'envelope-extra-member': 'off', 'block-mime-type-missing': 'off' },
    });
    const json = await runCli(['check', path, '--config', config, '--format', 'json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    expectValidReport(report);
    // Every version but 2026-07-28 passes once the two rules are off, as the run itself does.
    expect(rows(report)).toEqual(['pass', 'pass', 'pass', 'pass', 'fail']);
    expect(report.summary.versionVerdict).toBe(LINE);
    const junit = await runCli(['check', path, '--config', config, '--format', 'junit']);
    expect(junit.stdout).toContain(
      '<property name="protocol 2025-11-25" value="pass: 0 errors, 0 warnings, 0 infos"/>',
    );
  });

  it('judges each version after the baseline', async () => {
    const scratch = scratchDir('matrix-baseline');
    const path = scratch.file('broken.json', BROKEN);
    const baseline = join(scratch.dir, 'baseline.json');
    expect((await runCli(['check', path, '--write-baseline', baseline])).code).toBe(0);
    const json = await runCli(['check', path, '--baseline', baseline, '--format', 'json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout);
    // The baseline knows the findings of 2025-11-25, which every version shares; not 2026-07-28's.
    expect(rows(report)).toEqual(['pass', 'pass', 'pass', 'pass', 'fail']);
    expect(report.summary.versionVerdict).toBe(LINE);
  });

  it('fails a version on what --fail-on fails, and never says it is valid where the run fails', async () => {
    const path = scratchDir('matrix-fail-on').file('warned.json', {
      content: [],
      structuredContent: { a: 1 },
    });
    const json = await runCli(['check', path, '--fail-on', 'warning', '--format', 'json']);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout);
    expect(report.summary).toMatchObject({ errors: 0, warnings: 1 });
    expect(rows(report)).toEqual(['fail', 'fail', 'fail', 'fail', 'fail']);
    expect(report.details.versionMatrix.versions[4]).toMatchObject({ failing: 2, errors: 1, warnings: 1 });
    expect(report.summary.versionVerdict).toBeUndefined();
    const text = await runCli(['check', path, '--fail-on', 'warning', '--protocol', 'all']);
    expect(text.stdout).toMatch(/^2026-07-28 {2}fail .*requires it \(\+1 more\)$/m);
  });
});

describe('checkWithMatrix shares the facts of one document across its versions', () => {
  it('finds for each version exactly what a check of that version alone finds', async () => {
    // The facts kept from one version's run to the next (JSON texts, sizes, payload facts) are of values
    // alone: were one of the version, a later version would be answered from an earlier one's.
    const documents = fc.oneof(
      anyResult('2025-06-18').map(({ result, tool }) => ({ value: result, tool })),
      anyResult('2026-07-28').map(({ result, tool }) => ({ value: result, tool })),
      anyMessage('2025-11-25').map(({ document }) => ({ value: document.message, tool: document.tool })),
      anyToolsList('2025-03-26').map(({ document }) => ({ value: document, tool: undefined })),
    );
    await fc.assert(
      fc.asyncProperty(documents, async ({ value, tool }) => {
        const input = parseInput(JSON.stringify(value) ?? 'null');
        const options = tool ? { tool: JSON.parse(JSON.stringify(tool)) } : {};
        const matrix = await checkWithMatrix(input, { ...options, protocolVersion: 'all' });
        const alone = await Promise.all(
          ALL_VERSIONS.map((protocolVersion) => checkInput(input, { ...options, protocolVersion })),
        );
        const union = new Map(
          alone
            .flatMap((o) => o.findings)
            .map((f) => [JSON.stringify([f.rule, f.pointer, f.message, f.location]), f] as const),
        );
        expect(matrix.findings).toEqual([...union.values()]);
        expect(matrix.matrix.versions).toEqual(
          ALL_VERSIONS.map((v, i) => versionVerdict(v, (alone[i] as { findings: Finding[] }).findings)),
        );
      }),
      { numRuns: runs(150) },
    );
  });
});

describe('checkWithMatrix on a session counts the versions it does not report without holding them', () => {
  /** A line of a capture: text, bytes that are not UTF-8, a message, or a handshake that settles a version. */
  const anyLine = fc.oneof(
    fc.constantFrom('server starting...', '', '{"cut": ', '{"jsonrpc":"2.0"}', '[1,2]'),
    fc.constantFrom(
      Buffer.from('Caf\xe9', 'latin1'),
      Buffer.from([0xff]),
      Buffer.from('{"a":"\xe9"}', 'latin1'),
    ),
    fc
      .constantFrom(...ALL_VERSIONS)
      .chain((v) => anyMessage(v))
      .map(({ document }) => JSON.stringify(document.message) ?? 'null'),
    fc.constantFrom(...ALL_VERSIONS).map((v) => {
      const request = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: v } };
      const result = { protocolVersion: v, capabilities: {}, serverInfo: { name: 's', version: '1' } };
      return `${JSON.stringify(request)}\n${JSON.stringify({ jsonrpc: '2.0', id: 'init', result })}`;
    }),
  );

  it('gives each version the verdict, and the reported one the findings, that a check of it alone gives', async () => {
    const sessions = fc.tuple(
      fc.array(anyLine, { minLength: 1, maxLength: 8 }),
      fc.constantFrom(undefined, 'all' as const, ...ALL_VERSIONS),
      fc.constantFrom('error', 'warning', 'info' as const),
    );
    await fc.assert(
      fc.asyncProperty(sessions, async ([lines, chosen, failOn]) => {
        const all = ['banner', ...lines];
        const bytes = Buffer.concat(all.map((l) => Buffer.concat([Buffer.from(l), Buffer.from('\n')])));
        const input = parseInput(bytes.toString('utf8'), { session: true });
        const invalidUtf8 = new Map(invalidUtf8Lines(bytes).map(({ line, ...at }) => [line, at]));
        const options = { file: 'capture.jsonl', invalidUtf8 };
        const matrix = await checkWithMatrix(input, {
          ...options,
          protocolVersion: chosen,
          policy: { failOn },
        });
        const alone = (protocolVersion: ProtocolVersion | undefined) =>
          checkInput(input, { ...options, protocolVersion });
        const each: Finding[][] = [];
        for (const v of ALL_VERSIONS) each.push((await alone(v)).findings);
        if (chosen === 'all') {
          // Every version's findings, each said once.
          const union = new Map(
            each.flat().map((f) => [JSON.stringify([f.rule, f.pointer, f.message, f.location]), f] as const),
          );
          expect(matrix.findings).toEqual([...union.values()]);
        } else expect(matrix.findings).toEqual((await alone(chosen)).findings);
        expect(matrix.matrix.versions).toEqual(
          ALL_VERSIONS.map((v, i) => versionVerdict(v, each[i] ?? [], failOn)),
        );
      }),
      { numRuns: runs(150) },
    );
  });

  it('hears a session’s findings one by one when asked, each frame finding marked, and can leave those out', async () => {
    const bytes = Buffer.from(
      'banner\n{"jsonrpc":"2.0","id":1,"result":{"content":"x"}}\nCaf\xe9\n',
      'latin1',
    );
    const input = parseInput(bytes.toString('utf8'), { session: true });
    const invalidUtf8 = new Map(invalidUtf8Lines(bytes).map(({ line, ...at }) => [line, at]));
    const held = await checkInput(input, { invalidUtf8 });
    const heard: [string, boolean][] = [];
    const emitted = await checkInput(input, { invalidUtf8, emit: (f, frame) => heard.push([f.rule, frame]) });
    expect(emitted.findings).toEqual([]);
    expect(heard.map(([rule]) => rule)).toEqual(held.findings.map((f) => f.rule));
    expect(heard).toEqual([
      ['frame-not-json', true],
      ...held.findings.filter((f) => f.location?.line === 2).map((f) => [f.rule, false]),
      ['frame-not-utf8', true],
      ['frame-not-json', true],
    ]);
    const rest: string[] = [];
    await checkInput(input, { invalidUtf8, emit: (f) => rest.push(f.rule), skipFrames: true });
    expect(rest).toEqual(heard.filter(([, frame]) => !frame).map(([rule]) => rule));
  });
});

describe('checkWithMatrix holds what a flood of findings repeats once', () => {
  it('gives findings that say the same the same message, fix and data, not a copy each', async () => {
    const bytes = Buffer.from('\xff\n\xff\n\xff\n', 'latin1');
    const input = parseInput(bytes.toString('utf8'), { session: true });
    const invalidUtf8 = new Map(invalidUtf8Lines(bytes).map(({ line, ...at }) => [line, at]));
    const { findings } = await checkWithMatrix(input, { invalidUtf8 });
    const utf8 = findings.filter((f) => f.rule === 'frame-not-utf8') as (Finding & { data?: unknown })[];
    expect(utf8.map((f) => f.location?.line)).toEqual([1, 2, 3]);
    const [first, ...rest] = utf8 as [Finding & { data?: unknown }, ...(Finding & { data?: unknown })[]];
    for (const f of rest) {
      expect(f.fix).toBe(first.fix);
      expect(f.data).toBe(first.data);
    }
  });
});
