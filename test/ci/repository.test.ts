/**
 * mcp-shape in CI, end to end on a real git repository: a server in a subfolder whose name has a
 * space and non-ASCII characters, a vendored file with a syntax error, a gitignored generated file.
 * Every run is the real command line in a child process, from different working directories.
 */

import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as Sarif from 'sarif';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, runCli } from '../support/cli.js';
import { expectValidReport } from '../support/report-schema.js';
import { expectValidSarif, HAS_SARIF_SCHEMA } from '../support/sarif-schema.js';

const CLI_TIMEOUT = 240_000;
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const SERVER_DIR = 'services/my server ü';
const SERVER_URI = 'services/my%20server%20%C3%BC/server.mjs';

const TOOLS = {
  // block-mime-type-missing: error
  screenshot: `server.tool('screenshot', async () => ({ content: [{ type: 'image', data: PNG }] }));`,
  // result-error-without-is-error: warning
  lookup: `server.tool('lookup', async () => ({ content: [{ type: 'text', text: '{"error":"no such name"}' }] }));`,
  fine: `server.tool('fine', async () => ({ content: [{ type: 'text', text: 'ok' }] }));`,
};

function serverSource(tools: readonly string[], preamble = ''): string {
  return `${preamble}import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const PNG = '${PNG}';

const server = new McpServer({ name: 'demo', version: '1.0.0' });

${tools.join('\n\n')}

await server.connect(new StdioServerTransport());
`;
}

let repo: string;
const outside = mkdtempSync(join(tmpdir(), 'mcp-shape-elsewhere-'));

function git(...args: string[]): void {
  execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
}

function writeServer(tools: readonly string[], preamble = ''): void {
  writeFileSync(join(repo, SERVER_DIR, 'server.mjs'), serverSource(tools, preamble));
}

beforeAll(() => {
  repo = mkdtempSync(join(tmpdir(), 'mcp-shape-repo-'));
  git('init', '-q');
  mkdirSync(join(repo, SERVER_DIR), { recursive: true });
  mkdirSync(join(repo, 'vendor'));
  mkdirSync(join(repo, 'generated'));
  writeServer([TOOLS.screenshot, TOOLS.lookup, TOOLS.fine]);
  // A vendored file the scanner cannot parse, and a generated one .gitignore leaves out.
  writeFileSync(join(repo, 'vendor/broken.mjs'), `import '@modelcontextprotocol/sdk';\nconst x = (;\n`);
  writeFileSync(join(repo, 'generated/out.mjs'), serverSource([TOOLS.screenshot]));
  writeFileSync(join(repo, '.gitignore'), 'node_modules\ngenerated/\n');
  // The audited server imports the real SDK.
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(repo, 'node_modules'), 'dir');
});

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

function sarifOf(stdout: string): Sarif.Log {
  return JSON.parse(stdout) as Sarif.Log;
}

function resultsOf(log: Sarif.Log): Sarif.Result[] {
  return log.runs[0]?.results ?? [];
}

function fingerprints(log: Sarif.Log): string[] {
  return resultsOf(log)
    .map((r) => `${r.ruleId} ${r.partialFingerprints?.['mcpShape/v1']}`)
    .sort();
}

describe('a repository with a server in a subfolder', () => {
  it('gives SARIF URIs relative to the repository root from any working directory, with stable fingerprints', {
    timeout: CLI_TIMEOUT,
  }, async () => {
    const runs = [
      { cwd: repo, target: SERVER_DIR },
      { cwd: join(repo, SERVER_DIR), target: '.' },
      { cwd: join(repo, 'services'), target: 'my server ü/server.mjs' },
      { cwd: outside, target: join(repo, SERVER_DIR) },
    ];
    const logs: Sarif.Log[] = [];
    for (const { cwd, target } of runs) {
      const run = await runCli(['scan', target, '--format', 'sarif'], { cwd });
      expect(run.code, run.stderr).toBe(1);
      logs.push(sarifOf(run.stdout));
    }
    for (const log of logs) {
      const uris = resultsOf(log).map((r) => r.locations?.[0]?.physicalLocation?.artifactLocation);
      expect(uris.length).toBe(2);
      for (const uri of uris) expect(uri).toEqual({ uri: SERVER_URI, uriBaseId: '%SRCROOT%' });
      expect(log.runs[0]?.originalUriBaseIds?.['%SRCROOT%']?.uri).toBeUndefined();
      expect(JSON.stringify(log.runs[0]?.results)).not.toContain('file:');
      for (const result of resultsOf(log)) expect(result.partialFingerprints?.['mcpShape/v1']).toBeDefined();
      if (HAS_SARIF_SCHEMA) expectValidSarif(log);
    }
    const [first, ...rest] = logs.map(fingerprints);
    for (const other of rest) expect(other).toEqual(first);
    // --root names the root explicitly: URIs follow it.
    const rooted = await runCli(['scan', SERVER_DIR, '--format', 'sarif', '--root', 'services'], {
      cwd: repo,
    });
    expect(
      resultsOf(sarifOf(rooted.stdout))[0]?.locations?.[0]?.physicalLocation?.artifactLocation?.uri,
    ).toBe('my%20server%20%C3%BC/server.mjs');
  });

  it('respects .gitignore, --exclude and --include, and lists an unparsable file without failing on it', {
    timeout: CLI_TIMEOUT,
  }, async () => {
    const all = await runCli(['scan', '.', '--format', 'json', '--fail-on', 'never'], { cwd: repo });
    const report = JSON.parse(all.stdout);
    const files = new Set(report.findings.map((f: { location: { file: string } }) => f.location.file));
    // generated/ is gitignored; node_modules is never walked; vendor/broken.mjs is listed.
    expect([...files]).toEqual([`${SERVER_DIR}/server.mjs`]);
    expect(all.stderr).toContain('mcp-shape: vendor/broken.mjs:2:');
    expect(report.details.unscanned.map((u: { file: string }) => u.file)).toEqual(['vendor/broken.mjs']);

    const noIgnore = await runCli(
      ['scan', '.', '--format', 'json', '--no-gitignore', '--exclude', 'vendor'],
      {
        cwd: repo,
      },
    );
    const unignored = JSON.parse(noIgnore.stdout);
    expect(unignored.findings.map((f: { location: { file: string } }) => f.location.file)).toContain(
      'generated/out.mjs',
    );
    expect(noIgnore.stderr).toBe('');

    // Nothing left that could be scanned: an input error, not a pass.
    const included = await runCli(['scan', '.', '--include', 'vendor/**'], { cwd: repo });
    expect(included.stderr).toContain('vendor/broken.mjs');
    expect(included.code).toBe(2);

    // The unparsable file counts as a warning: it fails --fail-on warning, not the default.
    const excluded = await runCli(['scan', '.', '--exclude', SERVER_DIR, '--exclude', 'generated'], {
      cwd: repo,
    });
    expect(excluded.code).toBe(2);
    const warnOnly = await runCli(['scan', 'vendor', SERVER_DIR, '--fail-on', 'warning'], { cwd: repo });
    expect(warnOnly.code).toBe(1);
  });

  it('baselines: write, apply (lines inserted above and unrelated edits change nothing), new findings, stale entries', {
    timeout: CLI_TIMEOUT,
  }, async () => {
    const baseline = join(repo, 'mcp-shape.baseline.json');
    const before = await runCli(['scan', SERVER_DIR, '--format', 'sarif'], { cwd: repo });
    const write = await runCli(['scan', SERVER_DIR, '--write-baseline', 'mcp-shape.baseline.json'], {
      cwd: repo,
    });
    expect(write.code).toBe(0);
    expect(write.stderr).toContain('recorded 2 findings in mcp-shape.baseline.json');
    const written = readFileSync(baseline, 'utf8');
    const parsed = JSON.parse(written);
    expect(parsed).toMatchObject({ version: 1, fingerprints: 'mcpShape/v1', command: 'scan' });
    expect(
      parsed.findings.map((e: { rule: string; file: string; tool: string }) => [e.rule, e.file, e.tool]),
    ).toEqual([
      ['result-error-without-is-error', `${SERVER_DIR}/server.mjs`, 'lookup'],
      ['block-mime-type-missing', `${SERVER_DIR}/server.mjs`, 'screenshot'],
    ]);
    // Written again from another directory: byte for byte the same file.
    await runCli(['scan', '.', '--write-baseline', join(repo, 'mcp-shape.baseline.json')], {
      cwd: join(repo, SERVER_DIR),
    });
    expect(readFileSync(baseline, 'utf8')).toBe(written);

    // Lines inserted above every finding, and the harmless tool moved: nothing new.
    writeServer([TOOLS.fine, TOOLS.lookup, TOOLS.screenshot], '// A header comment.\n\n/* Another. */\n\n');
    const moved = await runCli(['scan', SERVER_DIR, '--format', 'sarif'], { cwd: repo });
    expect(fingerprints(sarifOf(moved.stdout))).toEqual(fingerprints(sarifOf(before.stdout)));
    const lines = resultsOf(sarifOf(moved.stdout)).map(
      (r) => r.locations?.[0]?.physicalLocation?.region?.startLine,
    );
    expect(lines).not.toEqual(
      resultsOf(sarifOf(before.stdout)).map((r) => r.locations?.[0]?.physicalLocation?.region?.startLine),
    );
    const applied = await runCli(
      ['scan', SERVER_DIR, '--baseline', 'mcp-shape.baseline.json', '--format', 'json'],
      {
        cwd: repo,
      },
    );
    expect(applied.code).toBe(0);
    const appliedReport = JSON.parse(applied.stdout);
    expectValidReport(appliedReport);
    expect(appliedReport.findings).toEqual([]);
    expect(appliedReport.summary.baseline).toEqual({ hidden: 2, stale: 0 });

    // A new defect is reported and fails the run; the known ones stay hidden.
    writeServer([
      TOOLS.fine,
      TOOLS.lookup,
      TOOLS.screenshot,
      `server.tool('avatar', async () => ({ content: [{ type: 'image', data: PNG }] }));`,
    ]);
    const fresh = await runCli(
      ['scan', SERVER_DIR, '--baseline', 'mcp-shape.baseline.json', '--format', 'json'],
      {
        cwd: repo,
      },
    );
    expect(fresh.code).toBe(1);
    const freshReport = JSON.parse(fresh.stdout);
    expect(freshReport.findings.map((f: { location: { tool: string } }) => f.location.tool)).toEqual([
      'avatar',
    ]);
    expect(freshReport.summary).toMatchObject({ errors: 1, baseline: { hidden: 2, stale: 0 } });

    // A fixed defect leaves a stale entry, which the report lists.
    writeServer([TOOLS.fine, TOOLS.lookup]);
    const fixed = await runCli(['scan', SERVER_DIR, '--baseline', 'mcp-shape.baseline.json'], { cwd: repo });
    expect(fixed.code).toBe(0);
    expect(fixed.stdout).toContain(
      'baseline mcp-shape.baseline.json: 1 known finding hidden; 1 entry no longer occurs',
    );
    expect(fixed.stdout).toMatch(
      /stale: block-mime-type-missing {2}services\/my server ü\/server\.mjs · tool screenshot/,
    );
    const markdown = await runCli(
      ['scan', SERVER_DIR, '--baseline', 'mcp-shape.baseline.json', '--format', 'markdown'],
      { cwd: repo },
    );
    expect(markdown.stdout).toContain('### Baseline and filters');

    const wrongCommand = await runCli(['check', '-', '--baseline', 'mcp-shape.baseline.json'], {
      cwd: repo,
      input: '{"content":[]}',
    });
    expect(wrongCommand.code).toBe(2);
    expect(wrongCommand.stderr).toBe(
      'mcp-shape: baseline mcp-shape.baseline.json records a scan run, not check\n',
    );
    writeServer([TOOLS.screenshot, TOOLS.lookup, TOOLS.fine]);
    rmSync(baseline);
  });

  it('--fail-on decides the exit code per severity, --min-severity what is shown', {
    timeout: CLI_TIMEOUT,
  }, async () => {
    const codes: Record<string, number | null> = {};
    for (const failOn of ['error', 'warning', 'info', 'never']) {
      codes[failOn] = (await runCli(['scan', SERVER_DIR, '--fail-on', failOn], { cwd: repo })).code;
    }
    // One error and one warning.
    expect(codes).toEqual({ error: 1, warning: 1, info: 1, never: 0 });
    // Only the warning (the error's rule is off in a config): fails from warning down.
    const config = join(outside, 'warning-only.json');
    writeFileSync(config, JSON.stringify({ rules: { 'block-mime-type-missing': 'off' } }));
    const warningCodes: Record<string, number | null> = {};
    for (const failOn of ['error', 'warning', 'info']) {
      warningCodes[failOn] = (
        await runCli(['scan', SERVER_DIR, '--config', config, '--fail-on', failOn], { cwd: repo })
      ).code;
    }
    expect(warningCodes).toEqual({ error: 0, warning: 1, info: 1 });
    // Only an info (the warning's rule lowered to info): fails only on info.
    writeFileSync(
      config,
      JSON.stringify({
        rules: { 'block-mime-type-missing': 'off', 'result-error-without-is-error': 'info' },
      }),
    );
    const infoCodes: Record<string, number | null> = {};
    for (const failOn of ['warning', 'info']) {
      infoCodes[failOn] = (
        await runCli(['scan', SERVER_DIR, '--config', config, '--fail-on', failOn], { cwd: repo })
      ).code;
    }
    expect(infoCodes).toEqual({ warning: 0, info: 1 });

    const shown = await runCli(
      ['scan', SERVER_DIR, '--min-severity', 'error', '--fail-on', 'warning', '--format', 'json'],
      {
        cwd: repo,
      },
    );
    expect(shown.code).toBe(1);
    const report = JSON.parse(shown.stdout);
    expectValidReport(report);
    expect(report.findings.map((f: { severity: string }) => f.severity)).toEqual(['error']);
    expect(report.summary).toMatchObject({
      errors: 1,
      warnings: 0,
      belowMinSeverity: 1,
      minSeverity: 'error',
    });
    const text = await runCli(['scan', SERVER_DIR, '--min-severity', 'error'], { cwd: repo });
    expect(text.stdout).toContain(
      '1 finding below --min-severity error not shown (--fail-on error still counts them)',
    );

    const bad = await runCli(['scan', SERVER_DIR, '--fail-on', 'fatal'], { cwd: repo });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('expected one of error, warning, info, never');
  });

  it('finds the configuration upward, lets flags override it, and rejects a bad key in one line', {
    timeout: CLI_TIMEOUT,
  }, async () => {
    const configFile = join(repo, 'mcp-shape.config.json');
    writeFileSync(
      configFile,
      JSON.stringify({
        $schema: './node_modules/mcp-shape/schemas/mcp-shape.config.schema.json',
        failOn: 'never',
        scan: { exclude: ['vendor'], protocol: '2025-06-18' },
      }),
    );
    try {
      // From a subfolder: found upward. failOn never → 0 despite the error; protocol from the file.
      const deep = await runCli(['scan', '.', '--format', 'json'], { cwd: join(repo, SERVER_DIR) });
      expect(deep.code).toBe(0);
      expect(JSON.parse(deep.stdout).summary.protocolVersion).toBe('2025-06-18');
      // Excluding vendor (relative to the file's directory): nothing unscanned.
      const top = await runCli(['scan', '.', '--format', 'json'], { cwd: repo });
      expect(JSON.parse(top.stdout).details.unscanned).toBeUndefined();
      // Flags override the file.
      const flags = await runCli(
        ['scan', '.', '--fail-on', 'error', '--protocol', '2025-11-25', '--format', 'json'],
        {
          cwd: join(repo, SERVER_DIR),
        },
      );
      expect(flags.code).toBe(1);
      expect(JSON.parse(flags.stdout).summary.protocolVersion).toBe('2025-11-25');

      for (const [config, message] of [
        [{ scan: { exclud: ['x'] } }, 'scan.exclud: unknown key'],
        [{ failOn: 'sometimes' }, 'failOn: expected one of "error", "warning", "info", "never"'],
        [{ rules: { 'no-such-rule': 'off' } }, 'rules.no-such-rule: unknown rule id'],
        [{ rules: { 'block-mime-type-missing': 'loud' } }, 'rules.block-mime-type-missing: expected one of'],
        [{ scan: { exclude: 'vendor' } }, 'scan.exclude: expected an array'],
      ] as const) {
        writeFileSync(configFile, JSON.stringify(config));
        const run = await runCli(['scan', '.'], { cwd: join(repo, SERVER_DIR) });
        expect(run.code).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr.split('\n').filter(Boolean)).toHaveLength(1);
        expect(run.stderr).toContain(`mcp-shape: ${configFile}: ${message}`);
      }
    } finally {
      rmSync(configFile, { force: true });
    }
  });

  it('audit --source places live findings at each tool registration line, so audit SARIF can be placed', {
    timeout: CLI_TIMEOUT,
  }, async () => {
    const args = ['audit', '--call-all', '--protocol', '2025-06-18', '--format', 'sarif'];
    const server = ['--', 'node', join(repo, SERVER_DIR, 'server.mjs')];
    const placed = await runCli([...args, '--source', SERVER_DIR, ...server], { cwd: repo });
    // The SDK's McpServer refuses to send screenshot's image without mimeType: every call of it fails
    // for every client (result-rejected-by-server), so the audit fails.
    expect(placed.code, placed.stderr).toBe(1);
    const results = resultsOf(sarifOf(placed.stdout));
    expect(results.filter((r) => r.level === 'error').map((r) => [r.ruleId, r.properties?.tool])).toEqual([
      ['result-rejected-by-server', 'screenshot'],
    ]);
    const byTool = new Map(results.map((r) => [r.properties?.tool, r.locations?.[0]?.physicalLocation]));
    const source = readFileSync(join(repo, SERVER_DIR, 'server.mjs'), 'utf8').split('\n');
    const lineOf = (tool: string) => source.findIndex((l) => l.startsWith(`server.tool('${tool}'`)) + 1;
    expect(byTool.get('lookup')).toEqual({
      artifactLocation: { uri: SERVER_URI, uriBaseId: '%SRCROOT%' },
      region: { startLine: lineOf('lookup') },
    });
    expect(byTool.get('screenshot')?.region?.startLine).toBe(lineOf('screenshot'));
    for (const result of results) expect(result.partialFingerprints?.['mcpShape/v1']).toBeDefined();
    if (HAS_SARIF_SCHEMA) expectValidSarif(sarifOf(placed.stdout));
    // Without --source the same findings have logical locations only, and the same fingerprints.
    const logical = await runCli([...args, ...server], { cwd: repo });
    const unplaced = resultsOf(sarifOf(logical.stdout));
    expect(unplaced.every((r) => r.locations?.[0]?.physicalLocation === undefined)).toBe(true);
    expect(fingerprints(sarifOf(logical.stdout))).toEqual(fingerprints(sarifOf(placed.stdout)));
    // The same audit from the configuration file's audit section (call policy, versions, source).
    const config = join(outside, 'audit.json');
    writeFileSync(
      config,
      JSON.stringify({ audit: { callAll: true, protocol: ['2025-06-18'], source: join(repo, SERVER_DIR) } }),
    );
    const configured = await runCli(['audit', '--config', config, '--format', 'sarif', ...server], {
      cwd: repo,
    });
    expect(configured.code, configured.stderr).toBe(1);
    expect(fingerprints(sarifOf(configured.stdout))).toEqual(fingerprints(sarifOf(placed.stdout)));
    expect(
      resultsOf(sarifOf(configured.stdout)).map((r) => r.locations?.[0]?.physicalLocation?.region?.startLine),
    ).toEqual(results.map((r) => r.locations?.[0]?.physicalLocation?.region?.startLine));
  });
});
