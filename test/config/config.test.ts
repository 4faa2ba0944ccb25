import { mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, commandConfig, findConfig, loadConfig, validateConfig } from '../../src/config/load.js';
import { CONFIG_SCHEMA_PATH, configSchema, renderConfigSchema } from '../../src/config/schema.js';
import { MAX_INPUT_BYTES } from '../../src/io/read-text.js';
import { RULES } from '../../src/rules/catalog.js';
import { REPO_ROOT } from '../support/cli.js';

const scratch = mkdtempSync(join(tmpdir(), 'mcp-shape-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(scratch, 'repo-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the configuration schema', () => {
  it('is shipped in the package, generated from the catalog (run npm run generate on drift)', () => {
    expect(readFileSync(join(REPO_ROOT, CONFIG_SCHEMA_PATH), 'utf8')).toBe(renderConfigSchema(RULES));
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    expect(pkg.files).toContain(CONFIG_SCHEMA_PATH.split('/')[0]);
    // Resolvable through the package's exports, e.g. by tools that follow `$schema` by package name.
    expect(import.meta.resolve(`mcp-shape/${CONFIG_SCHEMA_PATH}`)).toBe(
      new URL(CONFIG_SCHEMA_PATH, `file://${REPO_ROOT}/`).href,
    );
  });

  it('is a valid draft-07 schema that accepts a full configuration and names every rule', () => {
    const validate = new Ajv().compile(configSchema(RULES));
    const full = {
      $schema: './node_modules/mcp-shape/schemas/mcp-shape.config.schema.json',
      protocol: '2025-06-18',
      rules: { 'block-mime-type-missing': 'warning', 'tool-name-format': 'off' },
      failOn: 'warning',
      minSeverity: 'info',
      baseline: 'mcp-shape.baseline.json',
      root: '.',
      check: { protocol: 'latest', failOn: 'error' },
      scan: {
        include: ['src/**'],
        exclude: ['fixtures/**'],
        gitignore: false,
        baseline: 'scan.baseline.json',
      },
      audit: {
        protocol: ['2025-06-18'],
        call: ['get_weather'],
        callAll: false,
        args: 'args.json',
        explore: true,
        source: 'src',
      },
    };
    expect(validate(full), JSON.stringify(validate.errors)).toBe(true);
    const ruleIds = (configSchema(RULES).properties as { rules: { propertyNames: { enum: string[] } } }).rules
      .propertyNames.enum;
    expect(ruleIds).toEqual(RULES.map((r) => r.id).sort());
  });
});

describe('loading the configuration', () => {
  it('finds mcp-shape.config.json upward and resolves its paths against its directory', () => {
    const root = tree({
      '.git/HEAD': 'ref: refs/heads/main\n',
      'mcp-shape.config.json':
        '{ // comments are fine\n "baseline": "ci/base.json", "audit": { "args": "args.json" }, }',
      'a/b/c/.keep': '',
    });
    const found = findConfig(join(root, 'a/b/c'));
    expect(found?.file).toBe(join(root, 'mcp-shape.config.json'));
    expect(found?.config.baseline).toBe(join(root, 'ci/base.json'));
    expect(found?.config.audit?.args).toBe(join(root, 'args.json'));
  });

  it('uses the "mcp-shape" key of the nearest package.json that has one, and stops at the repository root', () => {
    const root = tree({
      'mcp-shape.config.json': '{ "failOn": "never" }',
      'repo/.git/HEAD': '',
      'repo/package.json': JSON.stringify({ name: 'x', 'mcp-shape': { failOn: 'warning' } }),
      'repo/pkg/package.json': JSON.stringify({ name: 'y' }),
      'other/.git/HEAD': '',
      'other/src/.keep': '',
    });
    expect(findConfig(join(root, 'repo/pkg'))?.config.failOn).toBe('warning');
    expect(findConfig(join(root, 'repo/pkg'))?.label).toBe(`${join(root, 'repo/package.json')} "mcp-shape"`);
    // The file above the repository belongs to something else.
    expect(findConfig(join(root, 'other/src'))).toBeUndefined();
  });

  it('reads a package.json after a byte order mark, and refuses a broken one that names "mcp-shape"', () => {
    // npm reads both; the configuration was silently lost, and failOn: warning with it.
    const bom = tree({ 'package.json': '\uFEFF{ "name": "p", "mcp-shape": { "failOn": "warning" } }' });
    expect(findConfig(bom)?.config.failOn).toBe('warning');
    const broken = tree({ 'package.json': '{ "name": "p",\n  "mcp-shape": { "failOn": "warning" }, }' });
    expect(() => findConfig(broken)).toThrow(
      new ConfigError(
        `${join(broken, 'package.json')}: invalid JSON at line 2, column 41: property name expected; its "mcp-shape" configuration cannot be read`,
      ),
    );
    // A broken package.json without the key is npm's to report: the search goes on upward.
    const other = tree({
      'mcp-shape.config.json': '{ "failOn": "info" }',
      'sub/package.json': '{ "name": }',
    });
    expect(findConfig(join(other, 'sub'))?.config.failOn).toBe('info');
  });

  it('--config FILE must exist; a package.json given there must have the key', () => {
    const root = tree({ 'x.json': '{"failOn":"info"}', 'package.json': '{"name":"p"}' });
    expect(loadConfig({ cwd: root, file: 'x.json' })?.config.failOn).toBe('info');
    expect(() => loadConfig({ cwd: root, file: 'missing.json' })).toThrow(
      `no such file: ${join(root, 'missing.json')}`,
    );
    expect(() => loadConfig({ cwd: root, file: 'package.json' })).toThrow('has no "mcp-shape" key');
    // A file longer than any string is refused before it is read (an endless one, /dev/zero, was read
    // until memory ran out); sparse, it takes no disk.
    const huge = join(root, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, MAX_INPUT_BYTES + 1);
    expect(() => loadConfig({ cwd: root, file: 'huge.json' })).toThrow(
      new ConfigError(
        `larger than ${Math.floor(MAX_INPUT_BYTES / 2 ** 20)} MB, the most mcp-shape reads from one input: ${huge}`,
      ),
    );
  });

  it('rejects unknown keys and bad values with one line naming the key path', () => {
    const cases: [unknown, string][] = [
      [{ protocl: '2025-06-18' }, 'cfg: protocl: unknown key (known: $schema, protocol,'],
      [{ audit: { calls: [] } }, 'cfg: audit.calls: unknown key'],
      [
        { audit: { protocol: ['2025-06-18', '1999-01-01'] } },
        'cfg: audit.protocol[1]: expected one of "2024-11-05"',
      ],
      [{ rules: { nope: 'off' } }, 'cfg: rules.nope: unknown rule id'],
      [
        { rules: { 'tool-name-format': true } },
        'cfg: rules.tool-name-format: expected one of "error", "warning", "info", "off"',
      ],
      [{ scan: { gitignore: 'yes' } }, 'cfg: scan.gitignore: expected a boolean'],
      [{ baseline: '' }, 'cfg: baseline: must not be empty'],
      [[], 'cfg: (top level): expected an object'],
    ];
    for (const [value, message] of cases) {
      let error: unknown;
      try {
        validateConfig(value, 'cfg');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it('reports a JSON syntax error with its position', () => {
    const root = tree({ 'mcp-shape.config.json': '{\n  "failOn": \n}' });
    expect(() => findConfig(root)).toThrow(
      /mcp-shape\.config\.json: invalid JSON at line 3, column 1: value expected/,
    );
  });

  it('rejects a key written twice and __proto__, which the parser would apply unseen by the schema', () => {
    const cases: [string, string][] = [
      // The parser made {check: {failOn: "never"}} the configuration's prototype: check exited 0.
      ['{ "__proto__": { "check": { "failOn": "never" } } }', '__proto__: unknown key'],
      ['{ "check": { "__proto__": 1 } }', 'check.__proto__: unknown key'],
      ['{\n  "failOn": "error",\n  "failOn": "never"\n}', 'failOn: duplicate key (line 3)'],
      [
        '{ "rules": { "tool-name-format": "off" },\n "rules": { "block-text-invalid": "off" } }',
        'rules: duplicate key (line 2)',
      ],
      ['{ "scan": { "exclude": ["a", { "x": 1, "x": 2 }] } }', 'scan.exclude[1].x: duplicate key'],
    ];
    for (const [text, message] of cases) {
      const root = tree({ 'mcp-shape.config.json': text });
      expect(() => findConfig(root)).toThrow(`${join(root, 'mcp-shape.config.json')}: ${message}`);
    }
    const pkg = tree({
      'package.json':
        '{ "name": "p", "mcp-shape": { "failOn": "error", "failOn": "never" }, "x": 1, "x": 2 }',
    });
    expect(() => findConfig(pkg)).toThrow(`${join(pkg, 'package.json')} "mcp-shape": failOn: duplicate key`);
    // Only the key's own object is the configuration's: a duplicate elsewhere in package.json is npm's.
    const other = tree({
      'package.json': '{ "name": "p", "mcp-shape": { "failOn": "never" }, "x": 1, "x": 2 }',
    });
    expect(findConfig(other)?.config.failOn).toBe('never');
  });

  it('gives each command its section over the top level', () => {
    const config = validateConfig(
      { protocol: '2025-06-18', failOn: 'warning', scan: { failOn: 'error', exclude: ['x'] }, audit: {} },
      'cfg',
    );
    expect(commandConfig(config, 'scan')).toEqual({
      protocol: '2025-06-18',
      failOn: 'error',
      exclude: ['x'],
    });
    expect(commandConfig(config, 'audit')).toEqual({ protocol: ['2025-06-18'], failOn: 'warning' });
  });
});
