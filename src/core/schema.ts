/**
 * outputSchema compilation with Ajv. The dialect comes from `$schema`, else from the protocol version
 * (draft-07 before 2025-11-25, 2020-12 from then on). No loader is configured, so a `$ref` to a network
 * URI is never fetched: it fails to compile and is reported (2026-07-28 forbids automatic dereferencing).
 */

import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ProtocolVersion } from '../spec/versions.js';
import { features } from '../spec/versions.js';
import { PatternNotTried, patternEngine } from './pattern-engine.js';

// ajv-formats ships CJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv | Ajv2019 | Ajv2020) => void;

export type SchemaDialect = 'draft-07' | '2019-09' | '2020-12';

export interface SchemaError {
  /** JSON Pointer into the validated instance. */
  readonly instancePath: string;
  /** JSON Pointer into the schema, e.g. `#/properties/n/type`. */
  readonly schemaPath: string;
  readonly message: string;
}

export type CompiledSchema =
  | { readonly ok: true; readonly dialect: SchemaDialect; validate(value: unknown): readonly SchemaError[] }
  | {
      readonly ok: false;
      readonly dialect: SchemaDialect | undefined;
      readonly reason: 'unsupported-dialect' | 'remote-ref' | 'invalid-schema';
      readonly message: string;
    };

export interface OutputSchemaCompiler {
  /** `dialect`: read the schema in this dialect, whatever it declares (see sdkV2Reading). */
  compile(schema: unknown, version: ProtocolVersion, dialect?: SchemaDialect): CompiledSchema;
  /**
   * Where `schema` breaks the meta-schema of its declared dialect, or of `undeclared` when it declares
   * none; `undefined` when it does not, or when that cannot be told (an unsupported dialect, a schema
   * nested too deeply, no object).
   */
  metaSchemaProblem(
    schema: unknown,
    undeclared: SchemaDialect,
  ): { readonly dialect: SchemaDialect; readonly message: string } | undefined;
}

const DIALECTS: Record<string, SchemaDialect> = {
  'http://json-schema.org/draft-07/schema': 'draft-07',
  'http://json-schema.org/draft-06/schema': 'draft-07',
  'https://json-schema.org/draft/2019-09/schema': '2019-09',
  'https://json-schema.org/draft/2020-12/schema': '2020-12',
};

export function schemaDialect(schema: unknown, version: ProtocolVersion): SchemaDialect | undefined {
  const declared = (schema as { $schema?: unknown } | null | undefined)?.$schema;
  if (declared === undefined) return features(version).defaultSchemaDialect;
  if (typeof declared !== 'string') return undefined;
  return DIALECTS[declared.replace(/#$/, '')];
}

/**
 * The dialect in which the TypeScript SDK v2 client reads a schema where that differs from the dialect
 * the version gives it, else `undefined`. The v2 client reads a schema without `$schema` as 2020-12 in
 * every version (@modelcontextprotocol/client 2.4.0, validators/dialects.ts: "No `$schema` … means
 * 2020-12"), where versions before 2025-11-25 give it draft-07: a draft-07 tuple (`items: [...]`) does not
 * compile there, and 2020-12 keywords (`prefixItems`, `dependentRequired`, `unevaluatedProperties`…) that
 * draft-07 ignores are enforced. A declared `$schema` is read as declared by both.
 */
export function sdkV2Reading(schema: unknown, version: ProtocolVersion): SchemaDialect | undefined {
  if (typeof schema !== 'object' || schema === null || '$schema' in schema) return undefined;
  return features(version).defaultSchemaDialect === '2020-12' ? undefined : '2020-12';
}

/** Ajv sets `errors` whenever a validation fails, and a message on each (messages are on by default). */
const UNIONS = new Set(['anyOf', 'oneOf']);
/** What the options of a failed union asked, named in its error; the rest are counted. */
const MAX_OPTION_WANTS = 3;

/**
 * Ajv's errors as findings. With `allErrors`, a failed anyOf or oneOf comes with every option's own
 * errors before its "must match a schema in anyOf": one defect told five times for a nullable of a
 * nullable. The union's error stands for its options' (those under its schema path), and says what
 * they asked of the value, a path relative to the value where an option looked inside it.
 */
function toErrors(errors: readonly ErrorObject[]): SchemaError[] {
  const unions = errors.filter((e) => UNIONS.has(e.keyword));
  const under = (e: ErrorObject, union: ErrorObject) =>
    e !== union && e.schemaPath.startsWith(`${union.schemaPath}/`);
  const out: SchemaError[] = [];
  for (const e of errors) {
    if (unions.some((union) => under(e, union))) continue;
    let message = e.message as string;
    if (UNIONS.has(e.keyword)) {
      const wants = [
        ...new Set(
          errors
            .filter((option) => under(option, e) && !UNIONS.has(option.keyword))
            .map((option) => {
              const inside = option.instancePath.slice(e.instancePath.length);
              return inside === '' ? (option.message as string) : `${inside} ${option.message as string}`;
            }),
        ),
      ];
      if (wants.length > 0) {
        const more = wants.length > MAX_OPTION_WANTS ? ` (+${wants.length - MAX_OPTION_WANTS} more)` : '';
        message = `${message}: ${wants.slice(0, MAX_OPTION_WANTS).join(', or ')}${more}`;
      }
    }
    out.push({ instancePath: e.instancePath, schemaPath: e.schemaPath, message });
  }
  return out;
}

/**
 * Ajv's MissingRefError names the document it could not load in `missingSchema`: non-empty for a `$ref`
 * into another document (which only a network fetch could supply), empty for a dangling local pointer.
 */
function refersToOtherDocument(error: unknown): boolean {
  const missing = (error as { missingSchema?: unknown }).missingSchema;
  return typeof missing === 'string' && missing !== '';
}

/**
 * Compiles `schema` with its `$id`, which its own `$ref`s may name (`"$ref": "<$id>#/definitions/x"`, as
 * both SDK clients resolve), then lets the instance forget it, so that the shared instance does not
 * refuse the next schema with the same `$id`. A `$id` that is no string is left out: Ajv throws on it.
 */
function compileOnce(ajv: Ajv | Ajv2019 | Ajv2020, schema: Record<string, unknown>): ValidateFunction {
  const { $id: id, ...anonymous } = schema;
  if (typeof id !== 'string') return ajv.compile(anonymous);
  try {
    return ajv.compile(schema);
  } finally {
    ajv.removeSchema(id);
  }
}

/** One compiler per dialect, shared; compiled validators are cached by schema text. */
export function createOutputSchemaCompiler(): OutputSchemaCompiler {
  const instances = new Map<SchemaDialect, Ajv | Ajv2019 | Ajv2020>();
  const cache = new Map<string, CompiledSchema>();

  function instance(dialect: SchemaDialect): Ajv | Ajv2019 | Ajv2020 {
    let ajv = instances.get(dialect);
    if (!ajv) {
      // The options of both SDK clients' AjvJsonSchemaValidator, `validateSchema: false` included: a
      // schema that breaks its meta-schema where Ajv can still compile it (`"title": 5`) is applied by
      // them, so it is applied here; metaSchemaProblem tells the fault apart. `logger: false`: Ajv
      // otherwise prints warnings (unknown formats) to the console, and the core does no I/O.
      const options = {
        strict: false,
        allErrors: true,
        validateFormats: true,
        validateSchema: false,
        logger: false,
        code: { regExp: patternEngine },
      } as const;
      ajv =
        dialect === '2020-12'
          ? new Ajv2020(options)
          : dialect === '2019-09'
            ? new Ajv2019(options)
            : new Ajv(options);
      addFormats(ajv);
      instances.set(dialect, ajv);
    }
    return ajv;
  }

  return {
    compile(schema, version, forced) {
      const dialect = forced ?? schemaDialect(schema, version);
      let text: string | undefined;
      try {
        text = JSON.stringify(schema);
      } catch {
        // Nested deeper than JSON.stringify (and Ajv's compiler) can go, or no JSON at all.
      }
      if (text === undefined) {
        return {
          ok: false,
          dialect,
          reason: 'invalid-schema',
          message: 'the schema is nested too deeply to compile, or is not JSON',
        };
      }
      const key = `${version}\u0000${forced ?? ''}\u0000${text}`;
      const cached = cache.get(key);
      if (cached) return cached;
      let compiled: CompiledSchema;
      if (dialect === undefined) {
        compiled = {
          ok: false,
          dialect,
          reason: 'unsupported-dialect',
          message: `unsupported $schema ${JSON.stringify((schema as { $schema?: unknown }).$schema)}`,
        };
      } else if (typeof schema !== 'object' || schema === null) {
        compiled = { ok: false, dialect, reason: 'invalid-schema', message: 'a schema must be an object' };
      } else {
        try {
          const fn: ValidateFunction = compileOnce(instance(dialect), schema as Record<string, unknown>);
          compiled = {
            ok: true,
            dialect,
            validate(value) {
              try {
                return fn(value) ? [] : toErrors(fn.errors as ErrorObject[]);
              } catch (error) {
                // A schema that recurses ($ref: "#") follows the value down: nested deeper than the call
                // stack, Ajv overflows it, in the SDK clients as here. The value cannot be shown to match.
                if (error instanceof PatternNotTried) {
                  // The SDK clients' backtracking engine would take far longer still on it.
                  return [{ instancePath: '', schemaPath: '#', message: error.message }];
                }
                if (!(error instanceof RangeError)) throw error;
                return [{ instancePath: '', schemaPath: '#', message: 'is nested too deeply to validate' }];
              }
            },
          };
        } catch (error) {
          // The meta-schema's word, with its path into the schema, says more than the compiler's.
          const meta = metaSchemaErrors(instance(dialect), schema);
          const message = meta ?? (error instanceof Error ? error.message : String(error));
          const remote = refersToOtherDocument(error);
          compiled = { ok: false, dialect, reason: remote ? 'remote-ref' : 'invalid-schema', message };
        }
      }
      if (cache.size > 500) cache.clear();
      cache.set(key, compiled);
      return compiled;
    },
    metaSchemaProblem(schema, undeclared) {
      if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return undefined;
      const declared = (schema as { $schema?: unknown }).$schema;
      const dialect = declared === undefined ? undeclared : schemaDialect(schema, '2025-11-25');
      if (dialect === undefined) return undefined;
      const message = metaSchemaErrors(instance(dialect), schema);
      return message === undefined ? undefined : { dialect, message };
    },
  };
}

/**
 * Ajv's account of where `schema` breaks its dialect's meta-schema (`schema is invalid: data/title must
 * be string`), or `undefined` when it does not, or when Ajv cannot tell (nested past the call stack).
 */
function metaSchemaErrors(ajv: Ajv | Ajv2019 | Ajv2020, schema: object): string | undefined {
  try {
    if (ajv.validateSchema(schema) !== false) return undefined;
  } catch {
    return undefined;
  }
  return `schema is invalid: ${ajv.errorsText(ajv.errors)}`;
}
