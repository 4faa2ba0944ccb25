/**
 * action.yml and the CI snippets in the README: parsed with the `yaml` package, held to each other,
 * and the action's shell step run for real (with `npx` standing in for the published package, running
 * this checkout's command line).
 */

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cliBundle, REPO_ROOT } from '../support/cli.js';
import { expectValidSarif, HAS_SARIF_SCHEMA } from '../support/sarif-schema.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}

interface Action {
  inputs: Record<string, { description: string; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as Action;
const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };
const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
const scratch = mkdtempSync(join(tmpdir(), 'mcp-shape-action-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every `inputs.<name>` expression in a step. */
function inputsUsed(step: Step): string[] {
  return [...JSON.stringify(step).matchAll(/\binputs\.([A-Za-z0-9_-]+)/g)].map((m) => m[1] as string);
}

function yamlBlocks(markdown: string): unknown[] {
  return [...markdown.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => parse(m[1] as string));
}

describe('action.yml', () => {
  it('is a composite action whose steps use every input it declares, and only those', () => {
    expect(action.runs.using).toBe('composite');
    const declared = Object.keys(action.inputs).sort();
    expect(declared).toEqual(['args', 'baseline', 'command', 'fail-on', 'protocol', 'sarif', 'summary']);
    const used = new Set(action.runs.steps.flatMap(inputsUsed));
    expect([...used].sort()).toEqual(declared);
    for (const [name, input] of Object.entries(action.inputs)) expect(input.description, name).toBeTruthy();
    // Outputs name steps that exist.
    const ids = new Set(action.runs.steps.map((s) => s.id).filter(Boolean));
    for (const output of Object.values(action.outputs)) {
      expect(ids.has(/steps\.([\w-]+)\./.exec(output.value)?.[1])).toBe(true);
    }
  });

  it('passes inputs to scripts only through the environment, and uploads SARIF with codeql-action', () => {
    for (const step of action.runs.steps) {
      // `${{ … }}` inside `run:` would paste an input into the script: shell injection.
      expect(step.run ?? '', step.name).not.toContain('${{');
    }
    const upload = action.runs.steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'));
    expect(upload?.if).toContain("inputs.sarif == 'true'");
    expect(upload?.with?.sarif_file).toMatch(/^\$\{\{ steps\.run\.outputs\.sarif-file \}\}$/);
  });

  it('runs the package at its own version and writes the reports, the summary and the exit code', () => {
    const run = action.runs.steps.find((s) => s.id === 'run') as Step;
    const dir = mkdtempSync(join(scratch, 'run-'));
    // `npx --yes mcp-shape@<version> …` runs this checkout, after checking it was asked for that version.
    const bin = join(dir, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'npx'),
      `#!/usr/bin/env bash
[ "$1" = "--yes" ] && [ "$2" = "mcp-shape@${pkg.version}" ] || { echo "npx called with: $*" >&2; exit 99; }
shift 2
printf '%s\\n' "$@" > "${dir}/argv"
exec "${process.execPath}" "${cliBundle()}" "$@"
`,
    );
    chmodSync(join(bin, 'npx'), 0o755);
    const script = join(dir, 'step.sh');
    writeFileSync(script, run.run as string);
    const env: Record<string, string> = {
      ...(process.env as Record<string, string>),
      PATH: `${bin}:${process.env.PATH}`,
      NO_COLOR: '1',
      GITHUB_OUTPUT: join(dir, 'output'),
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
      RUNNER_TEMP: dir,
      MCP_SHAPE_ACTION_PATH: REPO_ROOT,
      MCP_SHAPE_COMMAND: 'scan',
      MCP_SHAPE_ARGS: `fixtures/scan/js --exclude 'node modules/**' --include "*.mjs"`,
      MCP_SHAPE_PROTOCOL: '2025-06-18',
      MCP_SHAPE_FAIL_ON: 'error',
      MCP_SHAPE_BASELINE: '',
      MCP_SHAPE_SARIF: 'true',
      MCP_SHAPE_SUMMARY: 'true',
    };
    writeFileSync(env.GITHUB_STEP_SUMMARY as string, '');
    const result = spawnSync('bash', ['-eo', 'pipefail', script], {
      cwd: REPO_ROOT,
      env,
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(result.status, result.stderr).toBe(0);
    // Quoted arguments stay whole, and the options come before them.
    expect(readFileSync(join(dir, 'argv'), 'utf8').trim().split('\n')).toEqual([
      'scan',
      '--fail-on',
      'error',
      '--protocol',
      '2025-06-18',
      '--report',
      `sarif:${dir}/mcp-shape/mcp-shape.sarif`,
      '--report',
      `markdown:${dir}/mcp-shape/mcp-shape.md`,
      'fixtures/scan/js',
      '--exclude',
      'node modules/**',
      '--include',
      '*.mjs',
    ]);
    const outputs = readFileSync(env.GITHUB_OUTPUT as string, 'utf8');
    expect(outputs).toContain('exit-code=1\n');
    expect(outputs).toContain(`sarif-file=${dir}/mcp-shape/mcp-shape.sarif\n`);
    const sarif = JSON.parse(readFileSync(join(dir, 'mcp-shape/mcp-shape.sarif'), 'utf8'));
    expect(sarif.runs[0].results.length).toBeGreaterThan(0);
    if (HAS_SARIF_SCHEMA) expectValidSarif(sarif);
    expect(readFileSync(env.GITHUB_STEP_SUMMARY as string, 'utf8')).toContain('## mcp-shape scan: ❌');

    // Without fail-on, the configuration file's failOn decides: no --fail-on overrides it.
    const project = mkdtempSync(join(scratch, 'project-'));
    writeFileSync(join(project, 'mcp-shape.config.json'), JSON.stringify({ failOn: 'never' }));
    writeFileSync(join(project, 'result.json'), JSON.stringify({ content: [{ type: 'object' }] }));
    writeFileSync(env.GITHUB_OUTPUT as string, '');
    const configured = spawnSync('bash', ['-eo', 'pipefail', script], {
      cwd: project,
      env: {
        ...env,
        MCP_SHAPE_COMMAND: 'check',
        MCP_SHAPE_ARGS: 'result.json',
        MCP_SHAPE_FAIL_ON: '',
        MCP_SHAPE_PROTOCOL: '',
      },
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(configured.status, configured.stderr).toBe(0);
    expect(readFileSync(join(dir, 'argv'), 'utf8')).not.toContain('--fail-on');
    expect(readFileSync(env.GITHUB_OUTPUT as string, 'utf8')).toContain('exit-code=0\n');
    expect(action.inputs['fail-on']?.default).toBe('');

    // An unknown command is refused before anything runs.
    const bad = spawnSync('bash', ['-eo', 'pipefail', script], {
      env: { ...env, MCP_SHAPE_COMMAND: 'rm' },
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stdout).toContain('command must be scan, audit or check');
  });
});

describe('the README CI snippets', () => {
  const blocks = yamlBlocks(readme) as Record<string, unknown>[];

  it('GitHub workflow: scan on push and audit on pull requests, with only inputs the action declares', () => {
    const workflow = blocks.find((b) => b && typeof b === 'object' && 'jobs' in b) as {
      on: Record<string, unknown>;
      permissions: Record<string, string>;
      jobs: Record<string, { if?: string; steps: Step[] }>;
    };
    expect(Object.keys(workflow.on).sort()).toEqual(['pull_request', 'push']);
    expect(workflow.permissions['security-events']).toBe('write');
    const uses = Object.entries(workflow.jobs).flatMap(([job, { if: condition, steps }]) =>
      steps.filter((s) => s.uses?.includes('/mcp-shape@')).map((s) => ({ job, condition, step: s })),
    );
    expect(uses.map((u) => u.step.with?.command)).toEqual(['scan', 'audit']);
    expect(uses[0]?.condition).toContain("'push'");
    expect(uses[1]?.condition).toContain("'pull_request'");
    for (const { step } of uses) {
      expect(step.uses).toMatch(new RegExp(`@v${pkg.version.replace(/\./g, '\\.')}$`));
      for (const key of Object.keys(step.with ?? {})) expect(Object.keys(action.inputs), key).toContain(key);
    }
  });

  it('GitLab CI: the JUnit report as a test report artifact', () => {
    const gitlab = blocks.find((b) => b && typeof b === 'object' && 'mcp-shape' in b) as {
      'mcp-shape': { script: string[]; artifacts: { reports: { junit: string } } };
    };
    const job = gitlab['mcp-shape'];
    const command = job.script.join('\n');
    expect(command).toContain(`mcp-shape@${pkg.version} scan`);
    expect(command).toContain('--format junit --out mcp-shape.xml');
    expect(job.artifacts.reports.junit).toBe('mcp-shape.xml');
  });

  it('the configuration example validates against the shipped schema', async () => {
    const { validateConfig } = await import('../../src/config/load.js');
    const example = /```json\n(\{\n {2}"\$schema": "\.\/node_modules\/mcp-shape[\s\S]*?)```/.exec(
      readme,
    )?.[1];
    expect(example).toBeDefined();
    expect(() => validateConfig(JSON.parse(example as string), 'README')).not.toThrow();
  });
});
