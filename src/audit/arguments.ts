/**
 * Arguments for tools the user gave none for, synthesized from the tool's inputSchema: the schema's
 * own hints first (const, default, examples, enum), then the smallest value its constraints allow.
 * One call per tool by default, with the required parameters only. With `explore`, enum and boolean
 * parameters (the ones whose values most often change the shape of a result) are explored: call i
 * gives each of them its i-th value, up to the per-tool call budget.
 *
 * Calling a tool must not change the world, so whatever the schema suggests, unless the user named
 * the tool with --call:
 * - a boolean named like consent or force (`confirm`, `force`, `yes`, `overwrite`, …) is never `true`;
 * - a boolean named like a dry run (`dry_run`, `preview`, `simulate`, …) is always `true`, sent even
 *   when optional;
 * - an enum or const value that names a mutation (`set`, `delete`, `create`, `apply`, …) is never sent.
 * A required parameter that has no other value makes the tool one the audit does not call.
 * The caller checks every argument object against the schema with Ajv before sending it.
 */

import { isObject, type JsonObject } from '../core/json.js';
import { type PatternVerdict, patternTester } from './pattern-test.js';

/** Words that make a boolean a consent to something irreversible: it is never set to true. */
const CONSENT_WORDS = new Set([
  'confirm',
  'confirmed',
  'confirmation',
  'force',
  'forced',
  'yes',
  'overwrite',
  'delete',
  'purge',
  'approve',
  'approved',
  'accept',
  'accepted',
  'consent',
  'agree',
  'agreed',
  'destructive',
  'dangerous',
  'unsafe',
  'noconfirm',
  'autoapprove',
  'really',
  'sure',
  'commit',
  'apply',
  'execute',
  'wipe',
  'drop',
  'remove',
  'erase',
  'reset',
  'truncate',
  'kill',
  'destroy',
  'cascade',
  'prune',
  'replace',
  'permanent',
  'permanently',
  'irreversible',
  'skip',
  'bypass',
  'ignore',
  'override',
]);

/** Words that make a boolean a dry run: it is always set to true. */
const DRY_RUN_WORDS = new Set([
  'dry',
  'dryrun',
  'preview',
  'simulate',
  'simulation',
  'whatif',
  'noop',
  'validate',
  'plan',
]);

/** Words that make an enum or const value a mutation: it is never sent. */
const MUTATION_WORDS = new Set([
  'set',
  'delete',
  'del',
  'create',
  'update',
  'write',
  'apply',
  'remove',
  'rm',
  'drop',
  'insert',
  'put',
  'post',
  'patch',
  'add',
  'destroy',
  'kill',
  'reset',
  'purge',
  'truncate',
  'overwrite',
  'move',
  'mv',
  'rename',
  'replace',
  'restart',
  'stop',
  'start',
  'deploy',
  'install',
  'uninstall',
  'upgrade',
  'downgrade',
  'execute',
  'exec',
  'run',
  'send',
  'publish',
  'push',
  'commit',
  'merge',
  'approve',
  'reject',
  'cancel',
  'revoke',
  'grant',
  'enable',
  'disable',
  'scale',
  'rollback',
  'restore',
  'clear',
  'wipe',
  'erase',
  'format',
  'shutdown',
  'reboot',
  'terminate',
  'edit',
  'modify',
  'upsert',
  'save',
  'store',
  'import',
  'upload',
  'transfer',
  'pay',
  'buy',
  'sell',
  'submit',
  'lock',
  'unlock',
  'archive',
  'attach',
  'detach',
  'mount',
  'unmount',
  'evict',
  'drain',
  'cordon',
  'uncordon',
  'label',
  'annotate',
  'taint',
  'expose',
  'rollout',
  'sync',
  'prune',
  'revert',
  'resize',
  'assign',
  'unassign',
  'invite',
  'ban',
  'mute',
  'block',
  'unblock',
  'close',
  'reopen',
  'transition',
  'trigger',
  'migrate',
]);

/** `dryRun`, `dry_run`, `skip-confirmation` → their lower-case words. */
export function wordsOf(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * Words that turn a dry-run switch around: `no_dry_run`, `disablePreview`, `without_preview` are true
 * when the tool should act for real.
 */
const NEGATION_WORDS = new Set([
  'no',
  'not',
  'non',
  'dont',
  'never',
  'disable',
  'disabled',
  'without',
  'off',
]);

/** A dry-run switch turned around by a negation (`no_dry_run`): true acts for real. */
function isNegatedDryRunName(words: readonly string[]): boolean {
  return words.some((w) => DRY_RUN_WORDS.has(w)) && words.some((w) => NEGATION_WORDS.has(w));
}

/** A boolean whose `true` lets the tool act (`confirm`, `force`, `no_dry_run`): always sent as false. */
export function isConsentName(name: string): boolean {
  const words = wordsOf(name);
  return words.some((w) => CONSENT_WORDS.has(w)) || isNegatedDryRunName(words);
}

/** A boolean whose `true` keeps the tool from acting (`dryRun`, `preview`): always sent as true. */
export function isDryRunName(name: string): boolean {
  const words = wordsOf(name);
  return (
    words.some((w) => DRY_RUN_WORDS.has(w)) &&
    !words.some((w) => CONSENT_WORDS.has(w)) &&
    !isNegatedDryRunName(words)
  );
}

/** A value that names a mutation: `set`, `delete_all`, `forceDelete`, `POST`. */
export function isMutationValue(value: unknown): boolean {
  return typeof value === 'string' && wordsOf(value).some((w) => MUTATION_WORDS.has(w));
}

export interface SynthesisOptions {
  /** Largest number of calls (with `explore`). */
  readonly budget: number;
  /** Explore enum and boolean parameters beyond the first call. */
  readonly explore?: boolean;
  /** The user named the tool with --call: its consent booleans and mutation values may be sent. */
  readonly named?: boolean;
}

/** The calls to make, or why the tool is not called. */
export type ArgumentPlan = { readonly args: JsonObject[] } | { readonly skip: string };

/** Thrown inside synthesis when a required parameter has no value that is safe to send. */
class NoSafeValue extends Error {
  /** The same fault, for the parameter `name` (the message names the parameter). */
  named(name: string): NoSafeValue {
    return new NoSafeValue(name);
  }
}

/**
 * Thrown inside synthesis when no string the audit builds is shown to match a parameter's `pattern`:
 * none matched, or (`costly`) the pattern could not be tried on them in bounded time.
 */
class NoPatternMatch extends NoSafeValue {
  constructor(
    readonly pattern: string,
    readonly costly: boolean,
    name = '',
  ) {
    super(name);
  }
  override named(name: string): NoPatternMatch {
    return new NoPatternMatch(this.pattern, this.costly, name);
  }
}

/**
 * What one argument object may hold: a server's schema decides how much is built (`minLength: 1e12`,
 * `minItems: 1e8`, ten required properties that each `$ref` the root, nested eight deep), so it is
 * bounded, and a schema that asks for more makes the tool one the audit does not call.
 */
export const SYNTHESIS_LIMITS = { values: 10_000, characters: 1_000_000 } as const;

/** Thrown inside synthesis when the schema asks for more than SYNTHESIS_LIMITS. */
class TooLarge extends Error {}

const FORMAT_VALUES: Readonly<Record<string, string>> = {
  email: 'user@example.com',
  'idn-email': 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  iri: 'https://example.com/',
  'uri-reference': 'https://example.com/',
  'iri-reference': 'https://example.com/',
  'uri-template': 'https://example.com/{id}',
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  duration: 'PT1S',
  uuid: '00000000-0000-4000-8000-000000000000',
  ipv4: '127.0.0.1',
  ipv6: '::1',
  hostname: 'example.com',
  'idn-hostname': 'example.com',
  'json-pointer': '',
  regex: '.*',
  byte: 'AA==',
};

/** Recursion guard for self-referencing schemas. */
const MAX_DEPTH = 8;

class Synthesizer {
  /** Values and string characters built since the last `restart`, held to SYNTHESIS_LIMITS. */
  private values = 0;
  private characters = 0;

  constructor(
    private readonly root: unknown,
    private readonly named: boolean,
  ) {}

  /** A new budget, for the next argument object or parameter. */
  restart(): void {
    this.values = 0;
    this.characters = 0;
  }

  /** Counts `values` more values and `characters` more characters; throws TooLarge past the limits. */
  private spend(values: number, characters = 0): void {
    this.values += values;
    this.characters += characters;
    if (this.values > SYNTHESIS_LIMITS.values || this.characters > SYNTHESIS_LIMITS.characters)
      throw new TooLarge();
  }

  /** Whether a value may be sent for the parameter `name` (undefined: not a named parameter). */
  safe(value: unknown, name: string | undefined): boolean {
    if (this.named) return true;
    if (isMutationValue(value)) return false;
    if (name === undefined || typeof value !== 'boolean') return true;
    if (isConsentName(name)) return value === false;
    if (isDryRunName(name)) return value === true;
    return true;
  }

  /** Follows a local `$ref` (`#/…`); remote references are never fetched. */
  private resolve(schema: JsonObject): JsonObject {
    let current = schema;
    for (let hops = 0; hops < 16 && typeof current.$ref === 'string'; hops++) {
      const ref = current.$ref;
      if (!ref.startsWith('#')) return {};
      let target: unknown = this.root;
      for (const raw of ref.slice(1).split('/').filter(Boolean)) {
        const key = decodedSegment(raw);
        target = isObject(target) && key !== undefined ? target[key] : undefined;
      }
      if (!isObject(target)) return {};
      const { $ref: _ref, ...rest } = current;
      current = { ...target, ...rest };
    }
    return current;
  }

  /**
   * The values worth trying for a parameter, best first; only enum and boolean give more than one.
   * Only safe values; none when the parameter has no safe value.
   */
  choices(schemaIn: unknown, name: string): unknown[] {
    if (!isObject(schemaIn)) return [];
    this.restart();
    const schema = this.resolve(schemaIn);
    let first: unknown;
    try {
      first = this.value(schema, 0, name);
    } catch (error) {
      if (error instanceof NoSafeValue) return [];
      throw error;
    }
    if (Object.hasOwn(schema, 'const')) return [schema.const];
    let values: unknown[] = [first];
    if (Array.isArray(schema.enum) && schema.enum.length > 0) {
      values = [first, ...schema.enum.filter((v) => JSON.stringify(v) !== JSON.stringify(first))];
    } else if (schema.type === 'boolean') values = [first, !first];
    return values.filter((v) => this.safe(v, name) && this.fits(schema, v) === true);
  }

  /**
   * The preferred value for a schema; `name` is the parameter it is for, which decides what is safe.
   * Throws NoSafeValue when every candidate is unsafe.
   */
  value(schemaIn: unknown, depth: number, name?: string): unknown {
    this.spend(1);
    if (!isObject(schemaIn) || depth > MAX_DEPTH) return null;
    const schema = this.resolve(schemaIn);
    if (Object.hasOwn(schema, 'const')) {
      if (!this.safe(schema.const, name)) throw new NoSafeValue();
      this.mustFit(schema, [schema.const]);
      return schema.const;
    }
    const enumValues = Array.isArray(schema.enum) ? schema.enum.filter((v) => this.safe(v, name)) : undefined;
    if (Array.isArray(schema.enum) && schema.enum.length > 0 && enumValues?.length === 0)
      throw new NoSafeValue();
    if (enumValues && enumValues.length > 0) this.mustFit(schema, enumValues);
    const hinted = [
      ...(Object.hasOwn(schema, 'default') ? [schema.default] : []),
      ...(Array.isArray(schema.examples) ? schema.examples.slice(0, 1) : []),
    ].filter(
      (v) =>
        this.safe(v, name) &&
        (enumValues === undefined || enumValues.some((e) => JSON.stringify(e) === JSON.stringify(v))) &&
        this.fits(schema, v) === true,
    );
    if (hinted.length > 0) return hinted[0];
    if (enumValues && enumValues.length > 0) return enumValues.find((v) => this.fits(schema, v) === true);
    if (name !== undefined && !this.named && isDryRunName(name) && acceptsBoolean(schema)) return true;
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (Array.isArray(branches) && branches.length > 0) {
        // Prefer a branch that is not `null`, so optional-by-union parameters still get a real value.
        const branch = branches.find((b) => !(isObject(b) && b.type === 'null')) ?? branches[0];
        return this.value(branch, depth + 1);
      }
    }
    if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
      // One assign per branch: spreading a server's list into a call throws past ~120,000 of them.
      const merged: JsonObject = {};
      for (const branch of schema.allOf) if (isObject(branch)) Object.assign(merged, branch);
      Object.assign(merged, schema);
      delete merged.allOf;
      return this.value(merged, depth + 1);
    }
    const type = Array.isArray(schema.type)
      ? (schema.type.find((t) => t !== 'null') ?? schema.type[0])
      : schema.type;
    switch (type) {
      case 'string':
        return this.string(schema);
      case 'integer':
      case 'number':
        return number(schema, type === 'integer');
      case 'boolean':
        if (!this.safe(false, name)) throw new NoSafeValue();
        return false;
      case 'null':
        return null;
      case 'array':
        return this.array(schema, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        if (isObject(schema.properties)) return this.object(schema, depth);
        if (schema.items !== undefined) return this.array(schema, depth);
        return 'example';
    }
  }

  /**
   * Whether `value` is shown to match the schema's `pattern` (true when it has none or is no string).
   * A server's pattern is never run on the native engine unbounded: see pattern-test.ts.
   */
  private fits(schema: JsonObject, value: unknown): PatternVerdict {
    if (typeof value !== 'string' || typeof schema.pattern !== 'string') return true;
    return this.tester(schema.pattern)?.(value) ?? true;
  }

  /** Throws NoPatternMatch when none of `values` (the only ones allowed) is shown to match. */
  private mustFit(schema: JsonObject, values: readonly unknown[]): void {
    const verdicts = values.map((v) => this.fits(schema, v));
    if (verdicts.includes(true)) return;
    throw new NoPatternMatch(String(schema.pattern), verdicts.includes('costly'));
  }

  /** One tester per pattern, so that a pattern's budget holds over all its tries. */
  private readonly testers = new Map<string, ReturnType<typeof patternTester>>();
  private tester(pattern: string): ReturnType<typeof patternTester> {
    if (!this.testers.has(pattern)) this.testers.set(pattern, patternTester(pattern));
    return this.testers.get(pattern);
  }

  private string(schema: JsonObject): string {
    const format = typeof schema.format === 'string' ? FORMAT_VALUES[schema.format] : undefined;
    let text = format ?? 'example';
    const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
    const max = typeof schema.maxLength === 'number' ? schema.maxLength : Number.POSITIVE_INFINITY;
    if (typeof schema.pattern === 'string' && this.tester(schema.pattern)) {
      return this.patterned(schema, text, min, max);
    }
    if (text.length < min) {
      this.spend(0, min);
      // Pad where the format allows it: before an email's @, after a URL's path; elsewhere at the end.
      const pad = 'x'.repeat(min - text.length);
      text = text.includes('@') ? pad + text : text + pad;
    }
    if (text.length > max) text = text.slice(0, max);
    return text;
  }

  /**
   * A string of `min` to `max` characters shown to match the schema's pattern: a few that often match
   * simple patterns, each padded to `min` by repeating its last character, by repeating it whole, or
   * with x's. Throws NoPatternMatch when none is shown to match.
   */
  private patterned(schema: JsonObject, preferred: string, min: number, max: number): string {
    if (min > max) throw new NoPatternMatch(String(schema.pattern), false);
    if (min > 0) this.spend(0, min);
    let costly = false;
    for (const candidate of [preferred, ...PATTERN_CANDIDATES]) {
      if (candidate.length > max) continue;
      for (const text of padded(candidate, min)) {
        const verdict = this.fits(schema, text);
        if (verdict === true) return text;
        costly ||= verdict === 'costly';
      }
    }
    throw new NoPatternMatch(String(schema.pattern), costly);
  }

  private array(schema: JsonObject, depth: number): unknown[] {
    const min = typeof schema.minItems === 'number' ? schema.minItems : 0;
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : [];
    // Counted before any is built: a million items of nothing would still take a while.
    this.spend(min);
    const out: unknown[] = [];
    for (let i = 0; i < min; i++) {
      out.push(this.value(i < prefix.length ? prefix[i] : (schema.items ?? {}), depth + 1));
    }
    if (schema.uniqueItems === true && out.length > 1 && typeof out[0] !== 'object') {
      return out.map((v, i) => (typeof v === 'number' ? v + i : typeof v === 'string' ? `${v}${i}` : v));
    }
    return out;
  }

  private object(schema: JsonObject, depth: number): JsonObject {
    const out: JsonObject = {};
    const properties = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required)
      ? schema.required.filter((r) => typeof r === 'string')
      : [];
    for (const name of required) {
      try {
        out[name] = this.value(properties[name] ?? {}, depth + 1, name);
      } catch (error) {
        if (error instanceof NoSafeValue) throw error.named(depth === 0 ? name : error.message);
        throw error;
      }
    }
    // Optional values are best left out; a dry-run switch is the exception: it makes the call safer.
    const optional = (name: string) => {
      try {
        out[name] = this.value(properties[name], depth + 1, name);
      } catch (error) {
        if (!(error instanceof NoSafeValue)) throw error;
      }
    };
    if (!this.named) {
      // Dry-run switches are sent even when optional, the negated ones as false, so that the tool's
      // dry run stays on whatever its default is.
      for (const [name, property] of Object.entries(properties))
        if (
          !Object.hasOwn(out, name) &&
          (isDryRunName(name) || isNegatedDryRunName(wordsOf(name))) &&
          isObject(property) &&
          acceptsBoolean(this.resolve(property))
        )
          optional(name);
    }
    const minProperties = typeof schema.minProperties === 'number' ? schema.minProperties : 0;
    // Counted as it goes: counting the keys each time grew with the square of the properties listed.
    let count = Object.keys(out).length;
    for (const name of Object.keys(properties)) {
      if (count >= minProperties) break;
      if (Object.hasOwn(out, name)) continue;
      optional(name);
      if (Object.hasOwn(out, name)) count++;
    }
    return out;
  }
}

/** A JSON Pointer segment of a `$ref` as a key; undefined when its percent-encoding is broken (`%E0%A4`). */
function decodedSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
  } catch {
    return undefined;
  }
}

function acceptsBoolean(schema: JsonObject): boolean {
  return schema.type === 'boolean' || (Array.isArray(schema.type) && schema.type.includes('boolean'));
}

function number(schema: JsonObject, integer: boolean): number {
  const min =
    typeof schema.minimum === 'number'
      ? schema.minimum
      : typeof schema.exclusiveMinimum === 'number'
        ? schema.exclusiveMinimum + (integer ? 1 : 0.5)
        : undefined;
  const max =
    typeof schema.maximum === 'number'
      ? schema.maximum
      : typeof schema.exclusiveMaximum === 'number'
        ? schema.exclusiveMaximum - (integer ? 1 : 0.5)
        : undefined;
  let value = min ?? (max !== undefined && max < 0 ? max : 0);
  if (integer) value = Math.ceil(value);
  const step = typeof schema.multipleOf === 'number' && schema.multipleOf > 0 ? schema.multipleOf : undefined;
  if (step !== undefined) value = Math.ceil(value / step) * step;
  return value;
}

/** A few strings that often satisfy simple patterns, after the format's value; the first that matches wins. */
const PATTERN_CANDIDATES = [
  'example',
  'a',
  'A',
  '0',
  '1',
  'abc',
  'a1',
  'example.com',
  'user@example.com',
  'a-b',
  'a_b',
  '2025-01-01',
  'https://example.com/',
];

/** `text` padded to `min` characters in a few ways (itself alone when long enough). */
function padded(text: string, min: number): string[] {
  if (text.length >= min) return [text];
  if (text.length === 0) return ['x'.repeat(min)];
  const missing = min - text.length;
  const pad = 'x'.repeat(missing);
  return [
    text + text.slice(-1).repeat(missing),
    text.repeat(Math.ceil(min / text.length)).slice(0, min),
    // Where the format allows it: before an email's @, after a URL's path; elsewhere at the end.
    text.includes('@') ? pad + text : text + pad,
  ];
}

/**
 * The argument objects for a tool: one, with each required parameter's preferred safe value; with
 * `explore`, up to `budget`, the later ones rotating the enum and boolean parameters through their
 * other safe values. `skip` when a required parameter has no value that is safe to send.
 */
export function synthesizeArguments(inputSchema: unknown, options: SynthesisOptions): ArgumentPlan {
  try {
    return synthesize(inputSchema, options);
  } catch (error) {
    if (!(error instanceof TooLarge)) throw error;
    const { values, characters } = SYNTHESIS_LIMITS;
    return {
      skip: `its inputSchema asks for larger arguments than the audit builds (over ${values.toLocaleString('en-US')} values or ${characters.toLocaleString('en-US')} characters); give them with --args`,
    };
  }
}

function synthesize(inputSchema: unknown, options: SynthesisOptions): ArgumentPlan {
  const synth = new Synthesizer(inputSchema, options.named ?? false);
  let base: unknown;
  try {
    base = synth.value(isObject(inputSchema) ? inputSchema : { type: 'object' }, 0);
  } catch (error) {
    if (!(error instanceof NoSafeValue)) throw error;
    const parameter = error.message ? `required parameter "${error.message}"` : 'a required parameter';
    if (error instanceof NoPatternMatch) {
      const shown = error.pattern.length > 80 ? `${error.pattern.slice(0, 77)}...` : error.pattern;
      const why = error.costly
        ? 'the pattern backtracks too long to be tried on the strings the audit builds'
        : 'none of the strings the audit builds matches it';
      return {
        skip: `its ${parameter} has a pattern (${JSON.stringify(shown)}) the audit could not synthesize a string for: ${why}; give its arguments with --args`,
      };
    }
    return {
      skip: `its ${parameter} has no value that is safe to send (each names a mutation or a consent); name the tool with --call to call it, or give its arguments with --args`,
    };
  }
  const first: JsonObject = isObject(base) ? base : {};
  if (!options.explore) return { args: [first] };
  const properties = isObject(inputSchema) && isObject(inputSchema.properties) ? inputSchema.properties : {};
  const explored = Object.entries(properties)
    .map(([name, schema]) => [name, synth.choices(schema, name)] as const)
    .filter(([, choices]) => choices.length > 1);
  const calls: JsonObject[] = [first];
  const seen = new Set([JSON.stringify(first)]);
  const rounds = explored.reduce((most, [, c]) => Math.max(most, c.length), 0);
  const budget = Math.max(1, options.budget);
  for (let i = 1; i < rounds && calls.length < budget; i++) {
    const next: JsonObject = { ...first };
    for (const [name, choices] of explored) next[name] = choices[i % choices.length];
    const key = JSON.stringify(next);
    if (!seen.has(key)) {
      seen.add(key);
      calls.push(next);
    }
  }
  return { args: calls.slice(0, budget) };
}
