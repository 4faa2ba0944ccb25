/**
 * The audit's terminal report (src/report/audit-text.ts) on audits built by hand, so every line it
 * writes is pinned exactly: the header, the versions line in each form, the tools called and not, each
 * finding with where it was seen and which clients it reaches, the server's stderr when something went
 * wrong, and the closing count. The audits of real and hostile servers (test/audit, terminal-injection)
 * hold the same report to what those servers do.
 */

import { describe, expect, it } from 'vitest';
import type { CallRecord, ToolDetail, VersionDetail } from '../../src/audit/run.js';
import type { Finding } from '../../src/core/finding.js';
import { renderAuditText } from '../../src/report/audit-text.js';
import { buildReport } from '../../src/report/build.js';

const call = (protocolVersion: CallRecord['protocolVersion'], tool: string, n: number): CallRecord => ({
  protocolVersion,
  tool,
  call: `${tool}#${n}`,
  arguments: {},
  argumentsFrom: 'synthesized',
  latencyMs: 5,
  outcome: 'result',
});

const audited = (requested: VersionDetail['requested'], tools = 2, calls = 3): VersionDetail => ({
  requested,
  status: 'audited',
  answered: requested,
  tools,
  calls,
});

/** Tools t0, t1, … that were not called, all for the same reason. */
function notCalled(count: number): ToolDetail[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `t${i}`,
    called: false,
    reason: 'not read-only',
    versions: [],
    calls: 0,
  }));
}

function render(findings: readonly Finding[], details: Record<string, unknown>, versionsAudited = 3): string {
  return renderAuditText(buildReport('audit', findings, 9, { details, summary: { versionsAudited } }), {
    color: false,
  });
}

describe('the audit text report', () => {
  const versions: VersionDetail[] = [
    audited('2024-11-05'),
    audited('2025-03-26'),
    audited('2025-06-18'),
    { requested: '2025-11-25', status: 'same-as', answered: '2025-06-18', sameAs: '2025-06-18' },
    { requested: '2026-07-28', status: 'same-as', answered: '2025-06-18', sameAs: '2025-06-18' },
  ];
  const tools: ToolDetail[] = [
    {
      name: 'get',
      called: true,
      because: 'read-only',
      versions: ['2024-11-05', '2025-03-26', '2025-06-18'],
      calls: 3,
    },
    {
      name: 'list',
      called: true,
      because: 'read-only',
      versions: ['2024-11-05', '2025-03-26', '2025-06-18'],
      calls: 2,
      skipped: [
        '2024-11-05: its arguments fail the inputSchema',
        '2025-03-26: its arguments fail the inputSchema',
      ],
    },
    { name: 'put', called: true, because: '--call', versions: ['2025-06-18'], calls: 1 },
    {
      name: 'drop',
      called: false,
      reason: 'not read-only; audit it with --call drop',
      versions: [],
      calls: 0,
    },
    {
      name: 'wipe',
      called: false,
      reason: 'not read-only; audit it with --call wipe',
      versions: [],
      calls: 0,
    },
    { name: 'quiet', called: false, versions: [], calls: 0 },
  ];
  const details = {
    target: 'node server.mjs',
    transport: 'stdio',
    server: { name: 'demo', version: '1.2.3' },
    startedAt: '2026-01-02T03:04:05.678Z',
    versions,
    tools,
    unknownTools: ['ghost'],
    calls: [
      ...['2024-11-05', '2025-03-26', '2025-06-18'].flatMap((v) => [
        call(v as never, 'get', 1),
        call(v as never, 'list', 1),
      ]),
    ],
    stderrTail: ['not shown: nothing went wrong'],
  };
  const unknownType = (version: string, pointer: string, n = 1): Finding => ({
    rule: 'block-type-unknown',
    severity: 'error',
    message: `unknown content block type "object" in ${version}`,
    pointer,
    location: { protocolVersion: version, tool: 'get', call: `get#${n}` },
    fix: { description: `use a block type of ${version}`, automatic: false },
  });
  const findings: Finding[] = [
    {
      ...unknownType('2024-11-05', '/result/content/0/type'),
      occurrences: [
        { pointer: '/result/content/0/type', location: unknownType('2024-11-05', '').location },
        { pointer: '/result/content/2/type', location: unknownType('2025-03-26', '').location },
        { pointer: '/result/content/0/type', location: unknownType('2025-06-18', '', 2).location },
        { pointer: '/result/content/0/type', location: { protocolVersion: '2025-06-18' } },
      ],
    },
    {
      rule: 'block-mime-type-missing',
      severity: 'warning',
      message: 'image block without mimeType',
      pointer: '/result/content/1',
      location: { protocolVersion: '2024-11-05', tool: 'get', call: 'get#1' },
    },
    {
      rule: 'tool-name-format',
      severity: 'warning',
      message: 'tool name has a space',
      pointer: '/tools/0/name',
      location: { protocolVersion: '2025-06-18', tool: 'put' },
    },
    {
      rule: 'tool-field-invalid',
      severity: 'info',
      message: 'tool without a description',
      pointer: '',
      location: { protocolVersion: '2025-03-26', tool: 'list' },
      occurrences: [
        { pointer: '', location: { protocolVersion: '2025-03-26', tool: 'list' } },
        { pointer: '', location: { protocolVersion: '2025-06-18', tool: 'get' } },
      ],
    },
    {
      rule: 'result-server-info-invalid',
      severity: 'info',
      message: 'serverInfo has no version',
      pointer: '',
      location: { protocolVersion: '2025-03-26' },
    },
  ];

  it('writes every part of a mixed audit', () => {
    expect(render(findings, details).split('\n')).toEqual([
      'mcp-shape audit of node server.mjs (stdio · demo 1.2.3 · 2026-01-02 03:04:05 UTC)',
      'versions    2024-11-05 … 2025-06-18 audited (2 tools, 3 calls each) · 2025-11-25, 2026-07-28 answered as 2025-06-18 (same audit)',
      'called      get, list (read-only; 5 calls)',
      'called      put (--call; 1 call)',
      'not called  drop, wipe: not read-only; audit it with --call NAME',
      'not called  quiet: not called',
      'skipped     list in some versions: its arguments fail the inputSchema',
      'unknown     ghost (named in --call/--args, not listed by the server)',
      '',
      // Folded across three versions: the message and fix name all three; two pointers, three calls
      // (get#1 in two versions, get#2 in one) and one place outside any call.
      'error   unknown content block type "object" in 2024-11-05, 2025-03-26 and 2025-06-18  block-type-unknown',
      '        at /result/content/0/type +1 more · in 2024-11-05 … 2025-06-18, 3 calls (get#1, get#2), 1 other message',
      '        fix: use a block type of 2024-11-05, 2025-03-26 and 2025-06-18',
      '        breaks: TypeScript SDK v1 client, Claude Code, Cline / Roo Code (rejects the call) +7 more',
      'warning image block without mimeType  block-mime-type-missing',
      '        at /result/content/1 · in 2024-11-05 (older clients only), 1 call (get#1)',
      '        breaks: TypeScript SDK v1 client, OpenAI Codex, Goose (rejects the call) +6 more',
      // put is listed in 2025-06-18 only: no other version to compare with.
      'warning tool name has a space  tool-name-format',
      '        at /tools/0/name · in 2025-06-18, tool put',
      // Info: no clients named; with no pointer, call or tool the versions go on the finding's line.
      'info    serverInfo has no version  result-server-info-invalid · in 2025-03-26 (not in 2024-11-05, 2025-06-18)',
      'info    tool without a description  tool-field-invalid',
      '        in 2025-03-26, 2025-06-18 (newer clients only), tools list, get',
      '',
      // Nothing went wrong, so the server's stderr is left out.
      '✖ 1 error, 2 warnings, 2 infos in 6 calls across 3 versions',
      '',
    ]);
  });

  it('names versions answered as others, failed and refused, with counts per version when they differ', () => {
    const odd: VersionDetail[] = [
      audited('2024-11-05', 1, 1),
      { requested: '2025-03-26', status: 'audited', answered: '2025-06-18', tools: 2, calls: 2 },
      { requested: '2025-11-25', status: 'failed', detail: 'the server exited (code 1)\nat start' },
      { requested: '2025-06-18', status: 'failed' },
      { requested: '2026-07-28', status: 'refused' },
    ];
    const exited: Finding = {
      rule: 'audit-server-exited',
      severity: 'error',
      message: 'the server exited',
      pointer: '',
    };
    const text = render(
      [exited],
      {
        target: 'node crash.mjs',
        transport: 'stdio',
        versions: odd,
        tools: [],
        stderrTail: [
          'first\n\u001b[2Jsecond',
          [...Array.from({ length: 9 }, (_, i) => `l${i}`), 'x'.repeat(250)].join('\n'),
        ],
      },
      1,
    );
    expect(text.split('\n')).toEqual([
      'mcp-shape audit of node crash.mjs (stdio)',
      'versions    2024-11-05, 2025-06-18 audited (2024-11-05: 1 tool, 1 call; 2025-06-18: 2 tools, 2 calls; 2025-03-26 answered 2025-06-18) · 2026-07-28 not supported (refused) · 2025-11-25 failed: the server exited (code 1) (1 more line) · 2025-06-18 failed: no answer',
      '',
      'error   the server exited  audit-server-exited',
      '        breaks: TypeScript SDK v1 client (rejects the call)',
      '',
      // The server crashed: the last 8 lines of each stderr block, escaped, each cut at 200 characters.
      'server stderr (last lines)',
      '  | first',
      '  | \\x1b[2Jsecond',
      ...[2, 3, 4, 5, 6, 7, 8].map((i) => `  | l${i}`),
      `  | ${'x'.repeat(200)}`,
      '',
      // No call records: the count is summary.checked.
      '✖ 1 error, 0 warnings, 0 infos in 9 calls across 1 version',
      '',
    ]);
  });

  it('shows stderr after a failed version even without a failure finding, and a clean audit in green', () => {
    const text = render(
      [],
      {
        target: 'http://127.0.0.1:1/mcp',
        transport: 'http',
        versions: [{ requested: '2025-06-18', status: 'failed', detail: 'no answer' }],
        tools: [],
        stderrTail: ['boom'],
      },
      0,
    );
    expect(text.split('\n')).toEqual([
      'mcp-shape audit of http://127.0.0.1:1/mcp (http)',
      'versions    2025-06-18 failed: no answer',
      '',
      'server stderr (last lines)',
      '  | boom',
      '',
      '✔ 0 errors, 0 warnings, 0 infos in 9 calls across 0 versions',
      '',
    ]);
  });

  it('lists at most eight names, and a defect in versions that do not follow each other by name', () => {
    const many = notCalled(10);
    const gap: Finding = {
      rule: 'block-mime-type-missing',
      severity: 'warning',
      message: 'image block without mimeType',
      pointer: '/result/content/1',
      location: { protocolVersion: '2024-11-05', tool: 'get', call: 'get#1' },
      occurrences: [
        {
          pointer: '/result/content/1',
          location: { protocolVersion: '2024-11-05', tool: 'get', call: 'get#1' },
        },
        {
          pointer: '/result/content/1',
          location: { protocolVersion: '2025-06-18', tool: 'get', call: 'get#1' },
        },
        {
          pointer: '/result/content/1',
          location: { protocolVersion: '2025-06-18', tool: 'get', call: 'get#2' },
        },
        {
          pointer: '/result/content/1',
          location: { protocolVersion: '2025-06-18', tool: 'get', call: 'get#3' },
        },
        {
          pointer: '/result/content/1',
          location: { protocolVersion: '2025-06-18', tool: 'get', call: 'get#4' },
        },
      ],
    };
    const text = render([gap], {
      target: 'node server.mjs',
      versions: [audited('2024-11-05'), audited('2025-03-26'), audited('2025-06-18')],
      tools: many,
      unknownTools: Array.from({ length: 9 }, (_, i) => `u${i}`),
    });
    expect(text.split('\n')).toEqual([
      // Nothing said about the transport or the server: no empty parentheses.
      'mcp-shape audit of node server.mjs',
      'versions    2024-11-05 … 2025-06-18 audited (2 tools, 3 calls each)',
      'not called  t0, t1, t2, t3, t4, t5, t6, t7 +2 more: not read-only',
      'unknown     u0, u1, u2, u3, u4, u5, u6, u7 +1 more (named in --call/--args, not listed by the server)',
      '',
      'warning image block without mimeType  block-mime-type-missing',
      '        at /result/content/1 · in 2024-11-05, 2025-06-18 (not in 2025-03-26), 5 calls (get#1, get#2, get#3 +1 more)',
      '        breaks: TypeScript SDK v1 client, OpenAI Codex, Goose (rejects the call) +6 more',
      '',
      '⚠ 0 errors, 1 warning, 0 infos in 9 calls across 3 versions',
      '',
    ]);
  });

  it('colours the verdict line by the worst severity, only when asked', () => {
    const details = { target: 't', versions: [], tools: [] };
    const colored = (findings: Finding[]) =>
      renderAuditText(buildReport('audit', findings, 1, { details }), { color: true });
    const of = (severity: Finding['severity']): Finding => ({
      rule: 'r',
      severity,
      message: 'm',
      pointer: '',
    });
    expect(colored([])).toContain('\u001b[32m✔ 0 errors');
    expect(colored([of('warning')])).toContain('\u001b[33m⚠ 0 errors, 1 warning');
    expect(colored([of('error')])).toContain('\u001b[31m\u001b[1m✖ 1 error');
    expect(colored([of('info')])).toContain('\u001b[34minfo   \u001b[39m m');
    expect(
      renderAuditText(buildReport('audit', [of('error')], 1, { details }), { color: false }),
    ).not.toContain('\u001b[');
  });

  describe('corners', () => {
    const bare = (requested: VersionDetail['requested'], tools = 1, calls = 1): VersionDetail => ({
      requested,
      status: 'audited',
      tools,
      calls,
    });
    const lines = (findings: Finding[], details: Record<string, unknown>) =>
      render(findings, { target: 't', transport: 'stdio', tools: [], ...details }).split('\n');
    const seen = (pointer: string, ...places: [string, string?, string?][]): Finding => {
      const [[version, tool, label]] = places as [[string, string?, string?]];
      const location = (v: string, t?: string, c?: string) => ({
        protocolVersion: v,
        ...(t ? { tool: t } : {}),
        ...(c ? { call: c } : {}),
      });
      return {
        rule: 'block-mime-type-missing',
        severity: 'warning',
        message: `seen in ${version}`,
        pointer,
        location: location(version, tool, label),
        occurrences: places.map(([v, t, c]) => ({ pointer, location: location(v, t, c) })),
      };
    };

    it('sorts versions given in any order: the audited ones, where a defect was seen and where not', () => {
      const versions = ['2025-11-25', '2025-03-26', '2024-11-05', '2025-06-18'].map((v) =>
        audited(v as VersionDetail['requested']),
      );
      const out = lines(
        [seen('/a', ['2025-06-18', undefined, 'get#1'], ['2024-11-05', undefined, 'get#1'])],
        {
          versions,
        },
      );
      expect(out[1]).toBe('versions    2024-11-05 … 2025-11-25 audited (2 tools, 3 calls each)');
      expect(out.slice(3, 5)).toEqual([
        'warning seen in 2024-11-05 and 2025-06-18  block-mime-type-missing',
        '        at /a · in 2024-11-05, 2025-06-18 (not in 2025-03-26, 2025-11-25), 2 calls (get#1)',
      ]);
    });

    it('lists three versions that do not follow each other, or include one not audited', () => {
      const versions = [bare('2024-11-05'), bare('2025-03-26'), bare('2025-06-18'), bare('2025-11-25')];
      const gap = seen('/a', ['2024-11-05'], ['2025-03-26'], ['2025-11-25']);
      expect(lines([gap], { versions })[4]).toBe(
        '        at /a · in 2024-11-05, 2025-03-26, 2025-11-25 (not in 2025-06-18)',
      );
      // A version that was refused is no comparison: no qualifier, and no range across it.
      const refused: VersionDetail = { requested: '2026-07-28', status: 'refused' };
      const beyond = seen('/a', ['2025-06-18'], ['2025-11-25'], ['2026-07-28']);
      expect(lines([beyond], { versions: [...versions, refused] })[4]).toBe(
        '        at /a · in 2025-06-18, 2025-11-25, 2026-07-28',
      );
      // A refused version is not among the audited ones a defect is compared with.
      expect(lines([seen('/a', ['2025-11-25'])], { versions: [...versions, refused] })[4]).toBe(
        '        at /a · in 2025-11-25 (newer clients only)',
      );
    });

    it('compares a tool across the versions that list it, by the version each answered', () => {
      const versions: VersionDetail[] = [
        audited('2024-11-05'),
        { requested: '2025-03-26', status: 'audited', answered: '2025-06-18', tools: 2, calls: 3 },
        audited('2025-11-25'),
      ];
      const tools: ToolDetail[] = [
        { name: 'get', called: true, because: 'read-only', versions: ['2024-11-05', '2025-03-26'], calls: 2 },
      ];
      const out = lines(
        [seen('/a', ['2024-11-05', 'get', 'get#1']), seen('/b', ['2024-11-05', 'ghost', 'ghost#1'])],
        { versions, tools },
      );
      expect(out[1]).toBe(
        'versions    2024-11-05 … 2025-11-25 audited (2 tools, 3 calls each; 2025-03-26 answered 2025-06-18)',
      );
      // get is listed in 2024-11-05 and (answered as) 2025-06-18 only; ghost is not described at all.
      expect(out).toContain('        at /a · in 2024-11-05 (older clients only), 1 call (get#1)');
      expect(out).toContain('        at /b · in 2024-11-05 (older clients only), 1 call (ghost#1)');
    });

    it('reads an audited version without an answered one as the version asked for', () => {
      const out = lines([seen('/a', ['2024-11-05'])], {
        versions: [bare('2024-11-05'), audited('2025-06-18', 1, 1)],
      });
      expect(out[1]).toBe('versions    2024-11-05, 2025-06-18 audited (1 tool, 1 call each)');
      expect(out[4]).toBe('        at /a · in 2024-11-05 (older clients only)');
    });

    it('says where a defect without pointer, call or tool was seen on its own line when it has one of them', () => {
      const versions = [bare('2025-06-18')];
      const pointerOnly = seen('/a', ['2025-06-18']);
      const callOnly = { ...seen('', ['2025-06-18', undefined, 'get#1']), rule: 'result-not-object' };
      const bareFinding = { ...seen('', ['2025-06-18']), rule: 'result-content-missing', occurrences: [] };
      const out = lines([pointerOnly, callOnly, bareFinding], { versions });
      expect(out.slice(3).filter((line) => !line.includes('breaks:'))).toEqual([
        'warning seen in 2025-06-18  block-mime-type-missing',
        '        at /a · in 2025-06-18',
        expect.stringMatching(/^warning seen in 2025-06-18 {2}result-content-missing · in 2025-06-18$/),
        expect.stringMatching(/^warning seen in 2025-06-18 {2}result-not-object$/),
        '        in 2025-06-18, 1 call (get#1)',
        '',
        '⚠ 0 errors, 3 warnings, 0 infos in 9 calls across 3 versions',
        '',
      ]);
    });

    it('counts calls, and messages outside calls, even when some places have no location', () => {
      const finding: Finding = {
        ...seen('/a', ['2025-06-18', 'get', 'get#1']),
        occurrences: [
          { pointer: '/a', location: { protocolVersion: '2025-06-18', tool: 'get', call: 'get#1' } },
          { pointer: '/a' },
        ],
      };
      expect(lines([finding], { versions: [bare('2025-06-18')] })[4]).toBe(
        '        at /a · in 2025-06-18, 1 call (get#1), 1 other message',
      );
    });

    it('cuts long values at their widths, and lists exactly eight names without "+0 more"', () => {
      const long = (n: number, c = 'x') => c.repeat(n);
      const eight = notCalled(8);
      const named: ToolDetail = {
        name: long(70, 'n'),
        called: true,
        because: 'read-only',
        versions: ['2025-06-18'],
        calls: 1,
        skipped: ['2025-06-18: first reason', '2025-06-18: second reason', 'on 2025-06-18: kept whole'],
      };
      const message: Finding = {
        ...seen(`/${long(90, 'p')}`, ['2025-06-18', long(70, 'n'), 'n#1']),
        message: long(200, 'm'),
      };
      const out = render([message], {
        target: long(120, 'T'),
        transport: 'stdio',
        server: { name: long(120, 'S') },
        versions: [
          bare('2025-06-18'),
          { requested: '2025-11-25', status: 'refused', detail: long(90, 'r') },
          { requested: '2026-07-28', status: 'failed', detail: long(110, 'f') },
        ],
        tools: [...eight, named],
      }).split('\n');
      expect(out[0]).toBe(`mcp-shape audit of ${long(99, 'T')}… (stdio · ${long(91, 'S')}…)`);
      expect(out[1]).toBe(
        `versions    2025-06-18 audited (1 tool, 1 call) · 2025-11-25 not supported (${long(79, 'r')}…) · 2026-07-28 failed: ${long(99, 'f')}…`,
      );
      expect(out[2]).toBe(`called      ${long(59, 'n')}… (read-only; 1 call)`);
      expect(out[3]).toBe('not called  t0, t1, t2, t3, t4, t5, t6, t7: not read-only');
      expect(out[4]).toBe(
        `skipped     ${long(59, 'n')}… in some versions: first reason; second reason; on 2025-06-18: kept whole`,
      );
      expect(out[6]).toBe(`warning ${long(200, 'm')}  block-mime-type-missing`);
      expect(out[7]).toBe(`        at /${long(78, 'p')}… · in 2025-06-18, 1 call (n#1)`);
    });

    it('groups versions answered as different others, and names several renamed ones', () => {
      const versions: VersionDetail[] = [
        { requested: '2024-11-05', status: 'audited', answered: '2025-03-26', tools: 1, calls: 1 },
        { requested: '2025-06-18', status: 'audited', answered: '2025-11-25', tools: 1, calls: 1 },
        { requested: '2026-07-28', status: 'same-as', answered: '2025-11-25', sameAs: '2025-06-18' },
        { requested: '2025-03-26', status: 'same-as', answered: '2025-03-26', sameAs: '2024-11-05' },
      ];
      expect(lines([], { versions })[1]).toBe(
        'versions    2025-03-26, 2025-11-25 audited (1 tool, 1 call each; 2024-11-05 answered 2025-03-26, 2025-06-18 answered 2025-11-25) · 2026-07-28 answered as 2025-06-18 (same audit) · 2025-03-26 answered as 2024-11-05 (same audit)',
      );
    });

    it('tells per-version counts apart when only the tools, or only the calls, differ', () => {
      expect(lines([], { versions: [audited('2024-11-05', 1, 3), audited('2025-06-18', 2, 3)] })[1]).toBe(
        'versions    2024-11-05, 2025-06-18 audited (2024-11-05: 1 tool, 3 calls; 2025-06-18: 2 tools, 3 calls)',
      );
      expect(lines([], { versions: [audited('2024-11-05', 2, 1), audited('2025-06-18', 2, 3)] })[1]).toBe(
        'versions    2024-11-05, 2025-06-18 audited (2024-11-05: 2 tools, 1 call; 2025-06-18: 2 tools, 3 calls)',
      );
    });

    it('gives a tool not called its first skip reason, else "not called", and no "skipped" line', () => {
      const tools: ToolDetail[] = [
        { name: 'a', called: false, versions: [], calls: 0, skipped: ['2025-06-18: arguments invalid'] },
        { name: 'b', called: false, versions: [], calls: 0, skipped: [] },
      ];
      expect(lines([], { versions: [], tools })).toEqual([
        'mcp-shape audit of t (stdio)',
        'not called  a: arguments invalid',
        'not called  b: not called',
        '',
        '✔ 0 errors, 0 warnings, 0 infos in 9 calls across 3 versions',
        '',
      ]);
    });

    it('shows stderr after each failure rule alone, and not when only some findings are failures', () => {
      const stderr = { versions: [bare('2025-06-18')], stderrTail: ['oops'] };
      const of = (rule: string): Finding => ({ rule, severity: 'error', message: 'm', pointer: '' });
      for (const rule of ['audit-server-exited', 'audit-timeout', 'audit-response-too-large']) {
        expect(lines([of(rule)], stderr), rule).toContain('server stderr (last lines)');
        expect(lines([of('result-not-object'), of(rule)], stderr), rule).toContain('  | oops');
      }
      expect(lines([of('result-not-object')], stderr)).not.toContain('server stderr (last lines)');
      // One failed version among audited ones is enough; with nothing in stderr there is no heading.
      const mixed = [bare('2025-06-18'), { requested: '2025-11-25', status: 'failed' } as VersionDetail];
      expect(lines([], { ...stderr, versions: mixed })).toContain('  | oops');
      expect(lines([], { versions: mixed, stderrTail: [] })).not.toContain('server stderr (last lines)');
    });

    it('lists versions starting with one not audited, and compares a tool listed in a version not asked', () => {
      const versions = [bare('2025-03-26'), bare('2025-06-18')];
      const older = seen('/a', ['2024-11-05'], ['2025-03-26'], ['2025-06-18']);
      expect(lines([older], { versions })[4]).toBe('        at /a · in 2024-11-05, 2025-03-26, 2025-06-18');
      const tools: ToolDetail[] = [
        { name: 'get', called: true, because: 'read-only', versions: ['2025-03-26', '2024-11-05'], calls: 1 },
      ];
      expect(lines([seen('/a', ['2025-03-26', 'get', 'get#1'])], { versions, tools })[5]).toBe(
        '        at /a · in 2025-03-26, 1 call (get#1)',
      );
    });

    it('strips only a leading date from a skip reason', () => {
      const tools: ToolDetail[] = [
        { name: 'a', called: false, versions: [], calls: 0, skipped: ['arguments from 2025-06-18: kept'] },
      ];
      expect(lines([], { versions: [], tools })[1]).toBe('not called  a: arguments from 2025-06-18: kept');
    });

    it('names a server without a version or a name, and says nothing of versions when there are none', () => {
      expect(
        lines([], { versions: [], server: { name: 'demo' }, startedAt: '2026-01-02T03:04:05.678Z' })[0],
      ).toBe('mcp-shape audit of t (stdio · demo · 2026-01-02 03:04:05 UTC)');
      expect(lines([], { versions: [], server: { name: 'demo' } })[0]).toBe(
        'mcp-shape audit of t (stdio · demo)',
      );
      expect(lines([], { versions: [], server: { version: '1.0' } })[0]).toBe(
        'mcp-shape audit of t (stdio · ? 1.0)',
      );
      expect(render([], { versions: [] }).split('\n')[0]).toBe('mcp-shape audit of ');
      expect(lines([], { versions: [] })[1]).toBe('');
    });
  });
});
