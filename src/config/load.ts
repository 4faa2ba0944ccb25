/**
 * Finds, reads and validates the configuration: `--config FILE`, else the nearest
 * `mcp-shape.config.json` or package.json with an `"mcp-shape"` key, from the working directory up to
 * the repository root (a configuration above the repository belongs to something else). Every problem
 * is one line naming the file and the key.
 */

import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { findNodeAtLocation, type Node, parseTree } from 'jsonc-parser';
import type { Severity } from '../core/finding.js';
import { isObject } from '../core/json.js';
import { readJsonc } from '../core/json-syntax.js';
import { systemErrorWords } from '../core/system-error.js';
import { readTextFile } from '../io/read-text.js';
import type { FailOn, RuleSetting } from '../policy/severity.js';
import { RULES } from '../rules/catalog.js';
import { CONFIG_FILE_NAME, configSchema, PACKAGE_JSON_KEY } from './schema.js';

/** What every command section (and the top level) may set. */
export interface CommandConfig {
  readonly protocol?: string | readonly string[];
  readonly failOn?: FailOn;
  readonly minSeverity?: Severity;
  readonly baseline?: string;
  readonly include?: readonly string[];
  readonly exclude?: readonly string[];
  readonly gitignore?: boolean;
  readonly includeTests?: boolean;
  readonly call?: readonly string[];
  readonly callAll?: boolean;
  readonly args?: string;
  readonly explore?: boolean;
  readonly source?: string;
}

export interface Config {
  readonly $schema?: string;
  readonly protocol?: string;
  readonly failOn?: FailOn;
  readonly minSeverity?: Severity;
  readonly baseline?: string;
  readonly rules?: Readonly<Record<string, RuleSetting>>;
  readonly root?: string;
  readonly check?: CommandConfig;
  readonly scan?: CommandConfig;
  readonly audit?: CommandConfig;
}

export interface LoadedConfig {
  /** The file it came from (a package.json for the `"mcp-shape"` key). */
  readonly file: string;
  /** How errors name it: the file, or `package.json "mcp-shape"`. */
  readonly label: string;
  readonly config: Config;
}

export class ConfigError extends Error {}

/** Keys whose values are paths, resolved against the directory of the file that holds them. */
const PATH_KEYS = ['baseline', 'args', 'source', 'root'] as const;

let validator: ValidateFunction | undefined;

function validate(value: unknown): { ok: true } | { ok: false; errors: ErrorObject[] } {
  validator ??= new Ajv({ allErrors: false, verbose: true }).compile(configSchema(RULES));
  return validator(value) ? { ok: true } : { ok: false, errors: validator.errors ?? [] };
}

/** `/scan/exclude/0` → `scan.exclude[0]`. */
function keyPath(instancePath: string, extra?: string): string {
  const segments = instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) segments.push(extra);
  let path = '';
  for (const segment of segments) {
    if (/^\d+$/.test(segment)) path += `[${segment}]`;
    else
      path += /^[A-Za-z_$][\w$-]*$/.test(segment)
        ? `${path ? '.' : ''}${segment}`
        : `[${JSON.stringify(segment)}]`;
  }
  return path || '(top level)';
}

function describeError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'additionalProperties') {
    const known = Object.keys((error.parentSchema as { properties?: object })?.properties ?? {});
    return `${keyPath(error.instancePath, String(params.additionalProperty))}: unknown key (known: ${known.join(', ')})`;
  }
  if (typeof params.propertyName === 'string') {
    // propertyNames: the only one in the schema is the rule id list.
    return `${keyPath(error.instancePath, params.propertyName)}: unknown rule id (see docs/rules)`;
  }
  const path = keyPath(error.instancePath);
  switch (error.keyword) {
    case 'enum':
      return `${path}: expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'type':
      return `${path}: expected ${/^[aeiou]/.test(String(params.type)) ? 'an' : 'a'} ${String(params.type)}`;
    case 'minLength':
      return `${path}: must not be empty`;
    case 'minItems':
      return `${path}: must list at least ${String(params.limit)}`;
    default:
      return `${path}: ${error.message ?? 'invalid'}`;
  }
}

/** Checks a configuration object against the shipped schema; `label` names it in the error. */
export function validateConfig(value: unknown, label: string): Config {
  const result = validate(value);
  if (!result.ok) {
    // propertyNames reports its enum failure first, then itself; the named key is in either.
    const error = result.errors.find((e) => 'propertyName' in e.params) ?? result.errors[0];
    throw new ConfigError(`${label}: ${error ? describeError(error) : 'invalid'}`);
  }
  return value as Config;
}

/** Comments and trailing commas are allowed, as in tsconfig.json; the first syntax error is located. */
function parseConfigText(text: string, label: string): unknown {
  const { value, error } = readJsonc(text.replace(/^\uFEFF/, ''), {
    allowComments: true,
    allowTrailingComma: true,
  });
  if (error) {
    throw new ConfigError(
      `${label}: invalid JSON at line ${error.line}, column ${error.column}: ${error.message}`,
    );
  }
  if (text.trim() === '') throw new ConfigError(`${label}: file is empty`);
  checkKeys(text, [], label);
  return value;
}

/**
 * A key written twice (the parser keeps the last, so the first is silently void) or `__proto__` (the
 * parser sets the object's prototype, which the schema does not see and every later read does): one
 * line naming the key, as for any other bad key.
 */
function checkKeys(text: string, at: readonly string[], label: string): void {
  const source = text.replace(/^\uFEFF/, '');
  const line = (offset: number) => source.slice(0, offset).split('\n').length;
  const visit = (node: Node | undefined, path: readonly string[]): void => {
    if (node?.type === 'array') {
      for (const [i, child] of (node.children ?? []).entries()) visit(child, [...path, String(i)]);
    }
    if (node?.type !== 'object') return;
    const seen = new Set<string>();
    for (const [key, value] of (node.children ?? []).map((p) => p.children ?? [])) {
      if (typeof key?.value !== 'string') continue;
      const named = keyPath(['', ...path].join('/'), key.value);
      if (key.value === '__proto__') throw new ConfigError(`${label}: ${named}: unknown key`);
      if (seen.has(key.value)) {
        throw new ConfigError(
          `${label}: ${named}: duplicate key (line ${line(key.offset)}); only one of them would apply`,
        );
      }
      seen.add(key.value);
      visit(value, [...path, key.value.replace(/~/g, '~0').replace(/\//g, '~1')]);
    }
  };
  const tree = parseTree(source, [], { allowTrailingComma: true, disallowComments: false });
  visit(tree && at.length > 0 ? findNodeAtLocation(tree, [...at]) : tree, []);
}

function readText(file: string, label: string): string {
  try {
    return readTextFile(file);
  } catch (error) {
    throw new ConfigError(`${systemErrorWords(error)}: ${label}`);
  }
}

/** Resolves path-valued keys (top level and sections) against `dir`. */
function resolvePaths(config: Config, dir: string): Config {
  const resolveIn = <T extends object>(section: T): T => {
    const out: Record<string, unknown> = { ...(section as Record<string, unknown>) };
    for (const key of PATH_KEYS) {
      const value = out[key];
      if (typeof value === 'string') out[key] = resolve(dir, value);
    }
    return out as T;
  };
  const out: Record<string, unknown> = { ...resolveIn(config) };
  for (const name of ['check', 'scan', 'audit'] as const) {
    const section = config[name];
    if (section) out[name] = resolveIn(section);
  }
  return out as Config;
}

function fromFile(file: string): LoadedConfig {
  const config = validateConfig(parseConfigText(readText(file, file), file), file);
  return { file, label: file, config: resolvePaths(config, dirname(resolve(file))) };
}

function fromPackageJson(file: string): LoadedConfig | undefined {
  let text: string;
  try {
    // npm reads a package.json after a byte order mark, as an editor on Windows may write one.
    text = readTextFile(file).replace(/^\uFEFF/, '');
  } catch {
    // One that cannot be read is npm's problem to report (and may belong to something else).
    return undefined;
  }
  let pkg: unknown;
  try {
    pkg = JSON.parse(text);
  } catch {
    // A broken one is npm's problem too, unless it names a configuration that would be lost unseen.
    if (!text.includes(`"${PACKAGE_JSON_KEY}"`)) return undefined;
    const { error } = readJsonc(text, { allowComments: false, allowTrailingComma: false });
    const at = error ? ` at line ${error.line}, column ${error.column}: ${error.message}` : '';
    throw new ConfigError(
      `${file}: invalid JSON${at}; its "${PACKAGE_JSON_KEY}" configuration cannot be read`,
    );
  }
  if (!isObject(pkg) || !Object.hasOwn(pkg, PACKAGE_JSON_KEY)) return undefined;
  const label = `${file} "${PACKAGE_JSON_KEY}"`;
  // JSON.parse read it, so the only error left is nesting deeper than the key check may walk.
  if (readJsonc(text, { allowComments: false, allowTrailingComma: false }).error === undefined) {
    checkKeys(text, [PACKAGE_JSON_KEY], label);
  }
  const config = validateConfig(pkg[PACKAGE_JSON_KEY], label);
  return { file, label, config: resolvePaths(config, dirname(resolve(file))) };
}

function isRepositoryRoot(dir: string): boolean {
  return existsSync(join(dir, '.git'));
}

/** The nearest configuration from `start` upward, stopping at the repository root. */
export function findConfig(start: string): LoadedConfig | undefined {
  let dir = resolve(start);
  for (;;) {
    const file = join(dir, CONFIG_FILE_NAME);
    if (existsSync(file) && statSync(file).isFile()) return fromFile(file);
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      const found = fromPackageJson(pkg);
      if (found) return found;
    }
    const parent = dirname(dir);
    if (parent === dir || isRepositoryRoot(dir)) return undefined;
    dir = parent;
  }
}

/** `--config FILE` when given (it must exist), else the nearest configuration, else none. */
export function loadConfig(options: { cwd: string; file?: string }): LoadedConfig | undefined {
  if (options.file !== undefined) {
    const file = resolve(options.cwd, options.file);
    return file.endsWith('package.json') ? fromPackageJsonRequired(file) : fromFile(file);
  }
  return findConfig(options.cwd);
}

function fromPackageJsonRequired(file: string): LoadedConfig {
  readText(file, file);
  const found = fromPackageJson(file);
  if (!found) throw new ConfigError(`${file} has no "${PACKAGE_JSON_KEY}" key`);
  return found;
}

/** The settings for one command: its section over the top level. */
export function commandConfig(config: Config, command: 'check' | 'scan' | 'audit'): CommandConfig {
  const { check: _c, scan: _s, audit: _a, rules: _r, root: _root, $schema: _schema, ...top } = config;
  const merged: Record<string, unknown> = { ...top, ...config[command] };
  // The top-level protocol is one version; an audit takes a list.
  if (command === 'audit' && typeof merged.protocol === 'string') merged.protocol = [merged.protocol];
  return merged as CommandConfig;
}
