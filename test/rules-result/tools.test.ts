import { AjvJsonSchemaValidator as V2Validator } from '@modelcontextprotocol/client/validators/ajv';
import { ListToolsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator as V1Validator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import { repairMessageSync } from '../../src/library/repair/index.js';
import { affectedClients } from '../../src/report/clients.js';
import { hits, type RunOptions, repairOnce, run } from './helpers.js';

/** A tools/list result repaired as the result of a response to tools/list, as `repair` does. */
function repairAll(list: unknown, options: RunOptions): unknown {
  const message = { jsonrpc: '2.0', id: 1, result: list };
  const run = repairMessageSync(message, {
    protocolVersion: options.version,
    request: { method: 'tools/list' },
  });
  return (run.message as { result: unknown }).result;
}

const v25 = { version: '2025-06-18' } as const;
const v26 = { version: '2026-07-28' } as const;
const list26 = (tools: unknown[]) => ({ resultType: 'complete', ttlMs: 0, cacheScope: 'public', tools });
const tool = (extra: Record<string, unknown> = {}) => ({
  name: 't',
  inputSchema: { type: 'object' },
  ...extra,
});

describe('tools-list-not-array', () => {
  const rule = 'tools-list-not-array';
  it('reports a non-object list, a missing and a non-array tools', () => {
    expect(hits(rule, 'tools-list', [], v25)).toEqual([['notObject', '']]);
    expect(hits(rule, 'tools-list', {}, v25)).toEqual([['default', '/tools']]);
    expect(hits(rule, 'tools-list', { tools: 'x' }, v25)).toEqual([['notArray', '/tools']]);
  });

  it('repairs missing tools and a single tool object', () => {
    expect(repairOnce(rule, 'tools-list', {}, v25).doc).toEqual({ tools: [] });
    expect(repairOnce(rule, 'tools-list', { tools: tool() }, v25).doc).toEqual({ tools: [tool()] });
    expect(repairOnce(rule, 'tools-list', { tools: 'x' }, v25).outcome).toBeUndefined();
  });

  it('says its fix is automatic exactly where the repair makes one', () => {
    const automatic = (list: unknown) =>
      run('tools-list', list, v25)
        .filter((f) => f.rule === rule)
        .map((f) => f.fix?.automatic);
    expect(automatic({})).toEqual([true]);
    expect(automatic({ tools: null })).toEqual([true]);
    expect(automatic({ tools: tool() })).toEqual([true]);
    for (const list of [[], 'x', { tools: 'x' }, { tools: {} }, { tools: { a: tool() } }]) {
      expect(automatic(list), JSON.stringify(list)).toEqual([false]);
    }
  });
});

describe('tools-list-cacheable-result', () => {
  const rule = 'tools-list-cacheable-result';
  it('requires resultType, ttlMs and cacheScope in 2026-07-28', () => {
    expect(hits(rule, 'tools-list', { tools: [] }, v26)).toEqual([
      ['default', '/resultType'],
      ['default', '/ttlMs'],
      ['default', '/cacheScope'],
    ]);
    expect(hits(rule, 'tools-list', { tools: [] }, v25)).toEqual([]);
  });

  it('checks their values', () => {
    const bad = { tools: [], resultType: 'done', ttlMs: -1, cacheScope: 'shared' };
    expect(hits(rule, 'tools-list', bad, v26)).toEqual([
      ['ttlMs', '/ttlMs'],
      ['cacheScope', '/cacheScope'],
      ['resultType', '/resultType'],
    ]);
    expect(hits(rule, 'tools-list', { ...list26([]), ttlMs: 1.5 }, v26)).toEqual([['ttlMs', '/ttlMs']]);
  });

  it('repairs with the conservative values', () => {
    let doc: unknown = { tools: [] };
    for (let i = 0; i < 3; i++) doc = repairOnce(rule, 'tools-list', doc, v26).doc;
    expect(doc).toEqual({ tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'private' });
  });
});

describe('tool-name rules', () => {
  it('tool-name-duplicate points at the later duplicates', () => {
    const list = { tools: [tool({ name: 'a' }), tool({ name: 'b' }), tool({ name: 'a' })] };
    expect(hits('tool-name-duplicate', 'tools-list', list, v25)).toEqual([['default', '/tools/2/name']]);
  });

  it('tool-name-missing reports missing and non-string names', () => {
    expect(
      hits('tool-name-missing', 'tools-list', { tools: [{ inputSchema: { type: 'object' } }] }, v25),
    ).toEqual([['default', '/tools/0/name']]);
    expect(hits('tool-name-missing', 'tools-list', { tools: [tool({ name: 7 })] }, v25)).toEqual([
      ['notString', '/tools/0/name'],
    ]);
  });

  it('tool-name-format applies the SEP-986 SHOULDs from 2025-11-25', () => {
    const rule = 'tool-name-format';
    const v = { version: '2025-11-25' } as const;
    expect(hits(rule, 'tools-list', { tools: [tool({ name: 'a b,c' })] }, v)).toEqual([
      ['default', '/tools/0/name'],
    ]);
    expect(hits(rule, 'tools-list', { tools: [tool({ name: '' })] }, v)).toEqual([
      ['empty', '/tools/0/name'],
    ]);
    expect(hits(rule, 'tools-list', { tools: [tool({ name: 'x'.repeat(129) })] }, v)).toEqual([
      ['tooLong', '/tools/0/name'],
    ]);
    expect(hits(rule, 'tools-list', { tools: [tool({ name: 'ns.get-item_2' })] }, v)).toEqual([]);
    expect(hits(rule, 'tools-list', { tools: [tool({ name: 'a b' })] }, v25)).toEqual([]);
  });

  it('tool-not-object removes the item, lossily', () => {
    const r = repairOnce('tool-not-object', 'tools-list', { tools: ['x', tool()] }, v25);
    expect(r.doc).toEqual({ tools: [tool()] });
    expect(r.outcome?.lossy).toBe(true);
  });
});

describe('tool-input-schema-invalid', () => {
  const rule = 'tool-input-schema-invalid';
  const at = (inputSchema: unknown) => ({ tools: [{ name: 't', inputSchema }] });
  it('reports each root problem', () => {
    expect(hits(rule, 'tools-list', { tools: [{ name: 't' }] }, v25)).toEqual([
      ['default', '/tools/0/inputSchema'],
    ]);
    expect(hits(rule, 'tools-list', at(null), v25)).toEqual([['notObject', '/tools/0/inputSchema']]);
    expect(hits(rule, 'tools-list', at({ properties: {} }), v25)).toEqual([
      ['typeMissing', '/tools/0/inputSchema/type'],
    ]);
    expect(hits(rule, 'tools-list', at({ type: 'array' }), v25)).toEqual([
      ['type', '/tools/0/inputSchema/type'],
    ]);
    expect(hits(rule, 'tools-list', at({ type: 'object', properties: [] }), v25)).toEqual([
      ['properties', '/tools/0/inputSchema/properties'],
    ]);
    expect(hits(rule, 'tools-list', at({ type: 'object', properties: { a: true } }), v25)).toEqual([
      ['property', '/tools/0/inputSchema/properties/a'],
    ]);
    expect(hits(rule, 'tools-list', at({ type: 'object', required: 'a' }), v25)).toEqual([
      ['required', '/tools/0/inputSchema/required'],
    ]);
  });

  it('says its fix is automatic only for a missing schema or root type, which the repair adds', () => {
    const automatic = (list: unknown) =>
      run('tools-list', list, v25)
        .filter((f) => f.rule === rule)
        .map((f) => [f.messageId, f.fix?.automatic]);
    expect(automatic({ tools: [{ name: 't' }] })).toEqual([['default', true]]);
    expect(automatic(at({ properties: {} }))).toEqual([['typeMissing', true]]);
    expect(automatic(at('object'))).toEqual([['notObject', false]]);
    expect(automatic(at({ type: 'array' }))).toEqual([['type', false]]);
    expect(automatic(at({ type: 'object', required: 'a' }))).toEqual([['required', false]]);
  });

  it('accepts boolean subschemas in 2026-07-28', () => {
    expect(
      hits(
        rule,
        'tools-list',
        list26([{ name: 't', inputSchema: { type: 'object', properties: { a: true } } }]),
        v26,
      ),
    ).toEqual([]);
  });

  it('repairs a missing schema and a missing root type', () => {
    expect(repairOnce(rule, 'tools-list', { tools: [{ name: 't' }] }, v25).doc).toEqual({ tools: [tool()] });
    expect(repairOnce(rule, 'tools-list', at({ properties: { a: { type: 'string' } } }), v25).doc).toEqual(
      at({ type: 'object', properties: { a: { type: 'string' } } }),
    );
    expect(repairOnce(rule, 'tools-list', at({ type: 'array' }), v25).outcome).toBeUndefined();
  });
});

describe('outputSchema root rules', () => {
  const rule = 'tool-output-schema-not-object';
  const at = (outputSchema: unknown) => ({ tools: [tool({ outputSchema })] });
  it('is an error before 2026-07-28 and a warning in it', () => {
    expect(hits(rule, 'tools-list', at({ type: 'array' }), v25)).toEqual([
      ['type', '/tools/0/outputSchema/type'],
    ]);
    expect(hits(rule, 'tools-list', at('x'), v25)).toEqual([['default', '/tools/0/outputSchema']]);
    expect(hits(rule, 'tools-list', list26([tool({ outputSchema: { type: 'array' } })]), v26)).toEqual([]);
    expect(
      hits(
        'tool-output-schema-not-object-old-clients',
        'tools-list',
        list26([tool({ outputSchema: { type: 'array' } })]),
        v26,
      ),
    ).toEqual([['default', '/tools/0/outputSchema/type']]);
  });

  it('tool-output-schema-not-object-old-clients names the type the schema has, or says it has none', () => {
    const said = (outputSchema: unknown) =>
      run('tools-list', list26([tool({ outputSchema })]), v26)
        .filter((f) => f.rule === 'tool-output-schema-not-object-old-clients')
        .map((f) => f.message);
    expect(said({ type: 'array' })).toEqual([expect.stringContaining('"array"')]);
    expect(said({ type: ['string', 'null'] })).toEqual([expect.stringContaining('["string","null"]')]);
    expect(said({ items: {} })).toEqual([expect.stringContaining('(none)')]);
    expect(said({ type: 'object' })).toEqual([]);
  });

  it('wraps a non-object schema, keeping $defs at the root', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'array',
      items: { $ref: '#/$defs/u' },
      $defs: { u: { type: 'string' } },
    };
    const r = repairOnce(rule, 'tools-list', at(schema), { version: '2025-11-25' });
    expect(r.doc).toEqual(
      at({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        properties: { result: { type: 'array', items: { $ref: '#/$defs/u' } } },
        required: ['result'],
        $defs: { u: { type: 'string' } },
      }),
    );
    expect(r.after).toEqual([]);
    expect(repairOnce(rule, 'tools-list', at({ properties: { a: {} } }), v25).doc).toEqual(
      at({ type: 'object', properties: { a: {} } }),
    );
    expect(repairOnce(rule, 'tools-list', at(true), v25).outcome?.lossy).toBe(true);
  });

  it('wraps a draft-07 schema keeping $id and definitions at the root, where its $ref resolves', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: 'https://example.com/out.json',
      type: 'array',
      items: { $ref: '#/definitions/u' },
      definitions: { u: { type: 'string' } },
    };
    const r = repairOnce(rule, 'tools-list', at(schema), { version: '2025-06-18' });
    expect(r.doc).toEqual(
      at({
        $schema: 'http://json-schema.org/draft-07/schema#',
        $id: 'https://example.com/out.json',
        type: 'object',
        properties: { result: { type: 'array', items: { $ref: '#/definitions/u' } } },
        required: ['result'],
        definitions: { u: { type: 'string' } },
      }),
    );
    // Nothing else is reported on the wrapped schema: it compiles, its reference included.
    expect(run('tools-list', r.doc, { version: '2025-06-18' })).toEqual([]);
  });
});

describe('schema compilation and references', () => {
  it('reports schemas nested deeper than the call stack reaches, as a server may send them, without failing', () => {
    // Parsed from text, as off the wire: 30,000 nested properties; in the outputSchema, a remote $ref
    // and a 2020-12 keyword at the bottom.
    const depth = 30_000;
    const deep = (leaf: string) =>
      JSON.parse(`${'{"properties":{"a":'.repeat(depth)}${leaf}${'}}'.repeat(depth)}`) as JsonObject;
    const inputSchema = { type: 'object', ...deep('{"type":"string"}') };
    const outputSchema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      ...deep('{"$ref":"https://example.com/s.json","prefixItems":[]}'),
    };
    const findings = run(
      'tools-list',
      { tools: [tool({ inputSchema, outputSchema })] },
      { version: '2025-11-25' },
    );
    expect(findings.filter((f) => f.message.includes('failed internally'))).toEqual([]);
    expect(findings.map((f) => f.rule)).toEqual([
      'tool-output-schema-ignored-keywords',
      'tool-schema-not-compilable',
      'tool-schema-not-compilable',
      'tool-schema-remote-ref',
    ]);
    const below = '/properties/a'.repeat(depth);
    expect(findings.map((f) => f.pointer)).toEqual([
      `/tools/0/outputSchema${below}/prefixItems`,
      '/tools/0/inputSchema',
      '/tools/0/outputSchema',
      `/tools/0/outputSchema${below}/$ref`,
    ]);
    expect(findings[1]?.message).toBe(
      'inputSchema does not compile as 2020-12 JSON Schema: the schema is nested too deeply to compile, or is not JSON',
    );
  });

  it('tool-schema-not-compilable reports invalid schemas and unknown dialects', () => {
    const rule = 'tool-schema-not-compilable';
    expect(hits(rule, 'tools-list', { tools: [tool({ inputSchema: { type: 'objekt' } })] }, v25)).toEqual([
      ['default', '/tools/0/inputSchema'],
    ]);
    const draft4 = { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' };
    expect(hits(rule, 'tools-list', { tools: [tool({ outputSchema: draft4 })] }, v25)).toEqual([
      ['dialect', '/tools/0/outputSchema/$schema'],
    ]);
    const dangling = { type: 'object', properties: { a: { $ref: '#/$defs/nope' } } };
    expect(hits(rule, 'tools-list', { tools: [tool({ outputSchema: dangling })] }, v25)).toEqual([
      ['default', '/tools/0/outputSchema'],
    ]);
    expect(hits(rule, 'tools-list', list26([tool({ outputSchema: 5 })]), v26)).toEqual([
      ['notObject', '/tools/0/outputSchema'],
    ]);
  });

  it('tool-schema-remote-ref finds references to other documents, never fetching them', () => {
    const rule = 'tool-schema-remote-ref';
    const remote = { type: 'object', properties: { u: { $ref: 'https://example.com/u.json#/x' } } };
    expect(hits(rule, 'tools-list', { tools: [tool({ outputSchema: remote })] }, v25)).toEqual([
      ['default', '/tools/0/outputSchema/properties/u/$ref'],
    ]);
    // inputSchema references are checked from 2026-07-28 on.
    expect(hits(rule, 'tools-list', { tools: [tool({ inputSchema: remote })] }, v25)).toEqual([]);
    expect(hits(rule, 'tools-list', list26([tool({ inputSchema: remote })]), v26)).toEqual([
      ['default', '/tools/0/inputSchema/properties/u/$ref'],
    ]);
    const embedded = {
      $id: 'https://example.com/root',
      type: 'object',
      $defs: { u: { $id: 'https://example.com/u.json' } },
      properties: { u: { $ref: 'https://example.com/u.json' } },
    };
    expect(hits(rule, 'tools-list', { tools: [tool({ outputSchema: embedded })] }, v25)).toEqual([]);
    const data = { type: 'object', const: { $ref: 'https://example.com/x' } };
    expect(hits(rule, 'tools-list', { tools: [tool({ outputSchema: data })] }, v25)).toEqual([]);
    expect(
      hits('tool-schema-not-compilable', 'tools-list', { tools: [tool({ outputSchema: remote })] }, v25),
    ).toEqual([]);
  });

  it('tool-schema-remote-ref looks through lists, follows $dynamicRef, and resolves embedded $ids by their base', () => {
    const rule = 'tool-schema-remote-ref';
    const found = (outputSchema: unknown) =>
      run('tools-list', { tools: [tool({ outputSchema })] }, v25)
        .filter((f) => f.rule === rule)
        .map((f) => [f.pointer, f.message]);
    const schema = {
      type: 'object',
      anyOf: [{ type: 'object' }, { $ref: 'https://example.com/a.json' }],
      // Embedded in a list, with a fragment: the reference below, with another fragment, is local.
      allOf: [{ $defs: { b: { $id: 'https://example.com/b.json#top' } } }],
      properties: {
        b: { $ref: 'https://example.com/b.json#/properties/x' },
        c: { $dynamicRef: 'https://example.com/c.json#meta' },
        d: { $dynamicRef: '#meta' },
        // Values, not schemas: a $ref or an $id inside them is data.
        e: {
          enum: [{ $ref: 'https://example.com/e.json' }],
          examples: [{ $id: 'https://example.com/a.json' }],
        },
        f: { $ref: 42 },
      },
    };
    expect(found(schema)).toEqual([
      [
        '/tools/0/outputSchema/anyOf/1/$ref',
        'outputSchema references another document (https://example.com/a.json); clients must not fetch it',
      ],
      [
        '/tools/0/outputSchema/properties/c/$dynamicRef',
        'outputSchema references another document (https://example.com/c.json#meta); clients must not fetch it',
      ],
    ]);
    // A tool that is no object has no schema to look through.
    expect(hits(rule, 'tools-list', { tools: [null, 'x', 5] }, v25)).toEqual([]);
  });

  it('tool-output-schema-ignored-keywords flags keywords SDK v1 ignores, for 2020-12 schemas only', () => {
    const rule = 'tool-output-schema-ignored-keywords';
    const schema = {
      type: 'object',
      unevaluatedProperties: false,
      properties: { prefixItems: { type: 'string' } },
    };
    expect(
      hits(rule, 'tools-list', { tools: [tool({ outputSchema: schema })] }, { version: '2025-11-25' }),
    ).toEqual([['default', '/tools/0/outputSchema/unevaluatedProperties']]);
    expect(hits(rule, 'tools-list', { tools: [tool({ outputSchema: schema })] }, v25)).toEqual([]);
  });

  it('tool-output-schema-ignored-keywords looks through subschemas, in lists too, but not into data', () => {
    const rule = 'tool-output-schema-ignored-keywords';
    const flagged = (outputSchema: unknown, options: RunOptions = { version: '2025-11-25' }) =>
      hits(rule, 'tools-list', { tools: [tool({ outputSchema })] }, options).map(([, pointer]) => pointer);
    const schema = {
      type: 'object',
      allOf: [{ type: 'object' }, { dependentRequired: { a: ['b'] } }],
      properties: {
        // A property named like a keyword is no keyword; the keywords inside its schema are.
        minContains: { type: 'array', minContains: 1, items: { type: 'object', unevaluatedItems: false } },
      },
      // Values, not schemas: whatever they hold is data.
      const: { prefixItems: [] },
      enum: [{ maxContains: 1 }],
      default: { $dynamicRef: '#x' },
      examples: [{ dependentSchemas: {} }],
    };
    expect(flagged(schema)).toEqual([
      '/tools/0/outputSchema/allOf/1/dependentRequired',
      '/tools/0/outputSchema/properties/minContains/minContains',
      '/tools/0/outputSchema/properties/minContains/items/unevaluatedItems',
    ]);
    // `properties` that is no map of schemas is looked through as any other member.
    expect(flagged({ type: 'object', properties: [{ prefixItems: [] }] })).toEqual([
      '/tools/0/outputSchema/properties/0/prefixItems',
    ]);
    // The dialect decides: 2019-09 has these keywords too, draft-07 has none of them.
    const dialect = (uri: string) => ({ $schema: uri, type: 'object', unevaluatedProperties: false });
    expect(flagged(dialect('https://json-schema.org/draft/2019-09/schema'))).toEqual([
      '/tools/0/outputSchema/unevaluatedProperties',
    ]);
    expect(flagged(dialect('http://json-schema.org/draft-07/schema#'))).toEqual([]);
    expect(flagged(dialect('https://json-schema.org/draft/2020-12/schema'), v25)).toEqual([
      '/tools/0/outputSchema/unevaluatedProperties',
    ]);
    // Nothing to look through: no outputSchema, or one that is no object, or no tool at all.
    expect(flagged(undefined)).toEqual([]);
    expect(flagged(['prefixItems'])).toEqual([]);
    expect(hits(rule, 'tools-list', { tools: [null, 'x', 5] }, { version: '2025-11-25' })).toEqual([]);
  });
});

describe('schemas that break their meta-schema but compile', () => {
  const rule = 'tool-schema-meta-schema-mismatch';
  const v27 = { version: '2025-11-25' } as const;
  /**
   * Each breaks the 2020-12 meta-schema, as the Python SDK client reads a schema without `$schema`
   * (jsonschema 4.26 `validate` raised SchemaError on each, checked by hand), yet compiles.
   */
  const faulty: [string, JsonObject][] = [
    ['title', { type: 'object', title: 5, properties: { a: { type: 'string' } } }],
    ['minLength', { type: 'object', properties: { a: { type: 'string', minLength: -1 } } }],
    ['required', { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'a'] }],
    ['description', { type: 'object', description: 7, properties: { a: { type: 'string' } } }],
  ];

  it('the SDK clients apply them: the check compiles them as they do and judges structuredContent by them', () => {
    for (const [name, outputSchema] of faulty) {
      for (const validator of [new V1Validator(), new V2Validator()]) {
        const check = validator.getValidator(outputSchema);
        expect(check({ a: 'x' }).valid, name).toBe(true);
        expect(check({ a: 5 }).valid, name).toBe(false);
      }
      const owner = tool({ outputSchema });
      const list = { tools: [owner] };
      expect(hits('tool-schema-not-compilable', 'tools-list', list, v25), name).toEqual([]);
      const result = (a: unknown) => ({
        content: [{ type: 'text', text: JSON.stringify({ a }) }],
        structuredContent: { a },
      });
      const mismatches = (a: unknown) =>
        hits('structured-content-schema-mismatch', 'result', result(a), { ...v25, tool: owner });
      expect(mismatches('x'), name).toEqual([]);
      expect(mismatches(5), name).toEqual([['default', '/structuredContent/a']]);
    }
  });

  it('says the Python SDK client rejects their calls, and only for outputSchema', () => {
    for (const [name, outputSchema] of faulty) {
      const findings = run('tools-list', { tools: [tool({ outputSchema })] }, v25).filter(
        (f) => f.rule === rule,
      );
      expect(
        findings.map((f) => [f.messageId, f.pointer, f.severity]),
        name,
      ).toEqual([['default', '/tools/0/outputSchema', 'warning']]);
      expect(findings[0]?.message, name).toMatch(
        /^outputSchema breaks the JSON Schema 2020-12 meta-schema \(schema is invalid: data\//,
      );
      expect(affectedClients(findings[0] as never).map((c) => c.client)).toEqual(['python-sdk']);
    }
    const [, titled] = faulty[0] as [string, JsonObject];
    const input = (version: RunOptions) =>
      run('tools-list', { tools: [tool({ inputSchema: titled })] }, version).filter((f) => f.rule === rule);
    // From 2025-11-25 an inputSchema "MUST be a valid JSON Schema object"; before, no client checks one.
    expect(input(v27).map((f) => [f.messageId, f.severity])).toEqual([['inputMust', 'error']]);
    expect(input(v25).map((f) => [f.messageId, f.severity])).toEqual([['input', 'info']]);
    for (const finding of [...input(v27), ...input(v25)])
      expect(affectedClients(finding as never)).toEqual([]);
  });

  it('reads an outputSchema without $schema as 2020-12 in every version, and a declared one as declared', () => {
    const tuple = { type: 'object', properties: { p: { type: 'array', items: [{ type: 'string' }] } } };
    expect(hits(rule, 'tools-list', { tools: [tool({ outputSchema: tuple })] }, v25)).toEqual([
      ['default', '/tools/0/outputSchema'],
    ]);
    const draft7 = { $schema: 'http://json-schema.org/draft-07/schema#', ...tuple };
    expect(hits(rule, 'tools-list', { tools: [tool({ outputSchema: draft7 })] }, v25)).toEqual([]);
    // Well-formed schemas, and ones that do not compile (the other rule's), say nothing here.
    const fine = { type: 'object', title: 'T', properties: { a: { type: 'string', minLength: 0 } } };
    expect(hits(rule, 'tools-list', { tools: [tool({ outputSchema: fine })] }, v25)).toEqual([]);
    const broken = { type: 'object', properties: { a: { type: 'strin' } } };
    expect(hits(rule, 'tools-list', { tools: [tool({ outputSchema: broken })] }, v25)).toEqual([]);
    expect(
      hits('tool-schema-not-compilable', 'tools-list', { tools: [tool({ outputSchema: broken })] }, v25),
    ).toEqual([['default', '/tools/0/outputSchema']]);
  });

  it('claims the SDK clients break only on an outputSchema that does not compile, not on an inputSchema', () => {
    const broken = { type: 'object', properties: { a: { type: 'strin' } } };
    const clients = (field: string) =>
      run('tools-list', { tools: [tool({ [field]: broken })] }, v25)
        .filter((f) => f.rule === 'tool-schema-not-compilable')
        .map((f) => affectedClients(f as never).map((c) => c.client));
    expect(clients('outputSchema')).toEqual([['ts-sdk-v1', 'ts-sdk-v2']]);
    expect(clients('inputSchema')).toEqual([[]]);
  });
});

describe('tool-annotations-invalid and tool-field-invalid', () => {
  it('reports and repairs annotation hints and title', () => {
    const rule = 'tool-annotations-invalid';
    const at = (annotations: unknown) => ({ tools: [tool({ annotations })] });
    expect(hits(rule, 'tools-list', at('ro'), v25)).toEqual([['notObject', '/tools/0/annotations']]);
    expect(hits(rule, 'tools-list', at({ readOnlyHint: 'true', openWorldHint: 1, title: 3 }), v25)).toEqual([
      ['default', '/tools/0/annotations/readOnlyHint'],
      ['default', '/tools/0/annotations/openWorldHint'],
      ['title', '/tools/0/annotations/title'],
    ]);
    expect(repairOnce(rule, 'tools-list', at({ readOnlyHint: 'True' }), v25).doc).toEqual(
      at({ readOnlyHint: true }),
    );
    const dropped = repairOnce(rule, 'tools-list', at({ destructiveHint: 'maybe' }), v25);
    expect(dropped.doc).toEqual(at({}));
    expect(dropped.outcome?.lossy).toBe(true);
    expect(repairOnce(rule, 'tools-list', at({ title: 3 }), v25).doc).toEqual(at({ title: '3' }));
  });

  it('reports and repairs mistyped tool fields', () => {
    const rule = 'tool-field-invalid';
    expect(
      hits(rule, 'tools-list', { tools: [tool({ description: null, icons: 'x', _meta: [] })] }, v25),
    ).toEqual([
      ['default', '/tools/0/description'],
      ['default', '/tools/0/_meta'],
      ['default', '/tools/0/icons'],
    ]);
    expect(repairOnce(rule, 'tools-list', { tools: [tool({ title: 5 })] }, v25).doc).toEqual({
      tools: [tool({ title: '5' })],
    });
    expect(repairOnce(rule, 'tools-list', { tools: [tool({ description: null })] }, v25).doc).toEqual({
      tools: [tool()],
    });
  });

  it('reports each icon the SDK refuses, and a taskSupport it does not know, as the SDK does', () => {
    const rule = 'tool-field-invalid';
    const icons = [
      { src: 'https://x/a.png' },
      { mimeType: 5, sizes: '48x48' },
      5,
      { src: 'b', theme: 'blue' },
    ];
    const list = { tools: [tool({ icons, execution: { taskSupport: 'sometimes' } })] };
    expect(hits(rule, 'tools-list', list, v25)).toEqual([
      ['icon', '/tools/0/icons/1'],
      ['icon', '/tools/0/icons/2'],
      ['icon', '/tools/0/icons/3'],
      ['taskSupport', '/tools/0/execution/taskSupport'],
    ]);
    expect(ListToolsResultSchema.safeParse(list).success).toBe(false);
    expect(hits(rule, 'tools-list', { tools: [tool({ execution: 5 })] }, v25)).toEqual([
      ['default', '/tools/0/execution'],
    ]);
    const fine = { tools: [tool({ icons: [icons[0]], execution: { taskSupport: 'optional' } })] };
    expect(hits(rule, 'tools-list', fine, v25)).toEqual([]);
    expect(ListToolsResultSchema.safeParse(fine).success).toBe(true);
    const repaired = repairAll(list, v25);
    expect(repaired).toEqual({ tools: [tool({ icons: [icons[0]], execution: {} })] });
    expect(ListToolsResultSchema.safeParse(repaired).success).toBe(true);
  });
});

describe('tools-list-next-cursor-invalid', () => {
  const rule = 'tools-list-next-cursor-invalid';
  it('reports a cursor that is no string, which the SDK refuses', () => {
    for (const nextCursor of [5, null, {}, true]) {
      expect(hits(rule, 'tools-list', { tools: [], nextCursor }, v25)).toEqual([['default', '/nextCursor']]);
      expect(ListToolsResultSchema.safeParse({ tools: [], nextCursor }).success).toBe(false);
    }
    expect(hits(rule, 'tools-list', { tools: [], nextCursor: 'p2' }, v25)).toEqual([]);
    expect(hits(rule, 'tools-list', list26([]), v26)).toEqual([]);
  });

  it('turns a number into its string, so that paging goes on, and drops anything else', () => {
    const number = repairOnce(rule, 'tools-list', { tools: [], nextCursor: 5 }, v25);
    expect(number.doc).toEqual({ tools: [], nextCursor: '5' });
    expect(number.outcome?.lossy).toBeUndefined();
    const object = repairOnce(rule, 'tools-list', { tools: [], nextCursor: { page: 2 } }, v25);
    expect(object.doc).toEqual({ tools: [] });
    expect(object.outcome?.lossy).toBe(true);
  });
});

/** Every finding on a tools/list result, whole: rule, message id, pointer and the words a user reads. */
function said(list: unknown, options: RunOptions = v25): string[][] {
  return run('tools-list', list, options).map((f) => [f.rule, f.messageId, f.pointer, f.message]);
}

describe('what the tools rules say', () => {
  const one = (extra: Record<string, unknown>) => ({ tools: [tool(extra)] });

  it('names the list itself when it has no tools array', () => {
    expect(said([])).toEqual([
      [
        'tools-list-not-array',
        'notObject',
        '',
        'the tools/list result is a JSON array; it must be an object with a "tools" array',
      ],
    ]);
    expect(said({})).toEqual([
      ['tools-list-not-array', 'default', '/tools', 'the tools/list result has no "tools" array'],
    ]);
    expect(said({ tools: 'x' })).toEqual([
      [
        'tools-list-not-array',
        'notArray',
        '/tools',
        '"tools" is a JSON string; it must be an array of tool definitions',
      ],
    ]);
  });

  it('names each tool that is no object, has no name, or repeats one', () => {
    expect(said({ tools: ['x'] })).toEqual([
      [
        'tool-not-object',
        'default',
        '/tools/0',
        'the tool definition is a JSON string; it must be an object with "name" and "inputSchema"',
      ],
    ]);
    expect(said({ tools: [{ inputSchema: { type: 'object' } }] })).toEqual([
      ['tool-name-missing', 'default', '/tools/0/name', 'the tool has no "name"'],
    ]);
    expect(said({ tools: [tool({ name: 5 })] })).toEqual([
      ['tool-name-missing', 'notString', '/tools/0/name', '"name" is a JSON integer; it must be a string'],
    ]);
    expect(
      said({
        tools: [tool({ name: 'a' }), 'x', tool({ name: 'b' }), tool({ name: 'a' }), tool({ name: 'b' })],
      }).filter(([rule]) => rule === 'tool-name-duplicate'),
    ).toEqual([
      ['tool-name-duplicate', 'default', '/tools/3/name', 'tool name "a" is already used by tool 0'],
      ['tool-name-duplicate', 'default', '/tools/4/name', 'tool name "b" is already used by tool 2'],
    ]);
  });

  it('words a bad name from 2025-11-25 on: empty, too long, or with the characters it may not hold', () => {
    const v11 = { version: '2025-11-25' } as const;
    const named = (name: string) => said({ tools: [tool({ name })] }, v11);
    expect(named('')).toEqual([['tool-name-format', 'empty', '/tools/0/name', 'the tool name is empty']]);
    expect(named('a'.repeat(128))).toEqual([]);
    expect(named('a'.repeat(129))).toEqual([
      [
        'tool-name-format',
        'tooLong',
        '/tools/0/name',
        'the tool name is 129 characters long; the limit is 128',
      ],
    ]);
    expect(named('get weather!  now')).toEqual([
      [
        'tool-name-format',
        'default',
        '/tools/0/name',
        'tool name "get weather!  now" contains " ", "!"; use only A-Z a-z 0-9 _ - .',
      ],
    ]);
    expect(named(`${'é'.repeat(129)}`).map(([, id]) => id)).toEqual(['tooLong', 'default']);
    expect(named('A-z_0.9')).toEqual([]);
  });

  it('names each annotation of the wrong type, the string as its value and others by type', () => {
    expect(said(one({ annotations: 'x' }))).toEqual([
      [
        'tool-annotations-invalid',
        'notObject',
        '/tools/0/annotations',
        '"annotations" is a JSON string; it must be an object',
      ],
    ]);
    const annotations = {
      readOnlyHint: 'yes',
      destructiveHint: 1,
      idempotentHint: null,
      openWorldHint: false,
      title: 3,
    };
    expect(said(one({ annotations }))).toEqual([
      [
        'tool-annotations-invalid',
        'default',
        '/tools/0/annotations/readOnlyHint',
        'annotations.readOnlyHint is the string "yes"; hints must be true or false',
      ],
      [
        'tool-annotations-invalid',
        'default',
        '/tools/0/annotations/destructiveHint',
        'annotations.destructiveHint is a JSON integer; hints must be true or false',
      ],
      [
        'tool-annotations-invalid',
        'default',
        '/tools/0/annotations/idempotentHint',
        'annotations.idempotentHint is null; hints must be true or false',
      ],
      [
        'tool-annotations-invalid',
        'title',
        '/tools/0/annotations/title',
        'annotations.title is a JSON integer; it must be a string',
      ],
    ]);
    expect(said(one({ annotations: { readOnlyHint: true, destructiveHint: true } }))).toEqual([
      [
        'tool-annotations-contradictory',
        'default',
        '/tools/0/annotations',
        'annotations say readOnlyHint: true and destructiveHint: true; a read-only tool modifies nothing',
      ],
    ]);
    expect(said(one({ annotations: { readOnlyHint: true, destructiveHint: false, title: 'T' } }))).toEqual(
      [],
    );
  });

  it('names each optional field of the wrong JSON type', () => {
    expect(said(one({ title: 1, description: null, _meta: [], icons: {} }))).toEqual([
      [
        'tool-field-invalid',
        'default',
        '/tools/0/title',
        '"title" is a JSON integer; it must be a JSON string',
      ],
      [
        'tool-field-invalid',
        'default',
        '/tools/0/description',
        '"description" is null; it must be a JSON string',
      ],
      [
        'tool-field-invalid',
        'default',
        '/tools/0/_meta',
        '"_meta" is a JSON array; it must be a JSON object',
      ],
      [
        'tool-field-invalid',
        'default',
        '/tools/0/icons',
        '"icons" is a JSON object; it must be a JSON array',
      ],
    ]);
    expect(said(one({ title: 't', description: 'd', _meta: {}, icons: [] }))).toEqual([]);
  });

  it('words each inputSchema defect', () => {
    expect(said({ tools: [{ name: 't' }] })).toEqual([
      ['tool-input-schema-invalid', 'default', '/tools/0/inputSchema', 'the tool has no "inputSchema"'],
    ]);
    expect(said(one({ inputSchema: true }))).toEqual([
      [
        'tool-input-schema-invalid',
        'notObject',
        '/tools/0/inputSchema',
        '"inputSchema" is a JSON boolean; it must be a JSON Schema object',
      ],
    ]);
    expect(said(one({ inputSchema: { properties: { a: { type: 'string' } } } }))).toEqual([
      [
        'tool-input-schema-invalid',
        'typeMissing',
        '/tools/0/inputSchema/type',
        'inputSchema has no "type"; its root must be `"type": "object"`',
      ],
    ]);
    expect(said(one({ inputSchema: { type: 'array' } }))).toEqual([
      [
        'tool-input-schema-invalid',
        'type',
        '/tools/0/inputSchema/type',
        'inputSchema has "type" "array"; its root must be `"type": "object"`',
      ],
    ]);
    expect(said(one({ inputSchema: { type: 'object', properties: { a: true } } }))).toEqual([
      [
        'tool-input-schema-invalid',
        'property',
        '/tools/0/inputSchema/properties/a',
        'inputSchema.properties.a is a JSON boolean; clients built on SDK v1 require a schema object',
      ],
    ]);
    // Boolean subschemas are 2020-12, which only SDK v1 refuses; 2026-07-28 has no SDK v1 clients.
    expect(said(list26([tool({ inputSchema: { type: 'object', properties: { a: true } } })]), v26)).toEqual(
      [],
    );
    expect(said(one({ inputSchema: { type: 'object', required: 'a' } }))[0]).toEqual([
      'tool-input-schema-invalid',
      'required',
      '/tools/0/inputSchema/required',
      'inputSchema.required must be an array of property names',
    ]);
    expect(said(one({ inputSchema: { type: 'object', properties: [] } }))[0]).toEqual([
      'tool-input-schema-invalid',
      'properties',
      '/tools/0/inputSchema/properties',
      'inputSchema.properties is a JSON array; it must be an object of schemas',
    ]);
  });

  it('words each outputSchema defect', () => {
    expect(said(one({ outputSchema: 'x' }))).toEqual([
      [
        'tool-output-schema-not-object',
        'default',
        '/tools/0/outputSchema',
        '"outputSchema" is a JSON string; it must be a JSON Schema object',
      ],
    ]);
    expect(said(one({ outputSchema: {} }))).toEqual([
      [
        'tool-output-schema-not-object',
        'typeMissing',
        '/tools/0/outputSchema/type',
        'outputSchema has no "type"; its root must be `"type": "object"`',
      ],
    ]);
    expect(
      said(one({ outputSchema: { type: 'object', properties: { a: { $ref: 'https://x.test/a.json' } } } })),
    ).toEqual([
      [
        'tool-schema-remote-ref',
        'default',
        '/tools/0/outputSchema/properties/a/$ref',
        'outputSchema references another document (https://x.test/a.json); clients must not fetch it',
      ],
    ]);
    expect(said(one({ outputSchema: { $schema: 'http://example.com/s', type: 'object' } }))).toEqual([
      [
        'tool-schema-not-compilable',
        'dialect',
        '/tools/0/outputSchema/$schema',
        'outputSchema declares an unsupported dialect: unsupported $schema "http://example.com/s"',
      ],
    ]);
    expect(
      said(one({ outputSchema: { type: 'object', properties: { a: { type: 'strin' } } } }))[0]?.[3],
    ).toMatch(
      /^outputSchema does not compile as draft-07 JSON Schema: schema is invalid: data\/properties\/a\/type /,
    );
  });

  it('in 2026-07-28, words the cacheable-result members and any outputSchema root', () => {
    const list = { tools: [tool({ outputSchema: 3 })], resultType: 'x', ttlMs: 1.5, cacheScope: 3 };
    expect(said(list, v26)).toEqual([
      ['tools-list-cacheable-result', 'ttlMs', '/ttlMs', '"ttlMs" is 1.5; it must be an integer ≥ 0'],
      [
        'tools-list-cacheable-result',
        'cacheScope',
        '/cacheScope',
        '"cacheScope" is 3; it must be "public" or "private"',
      ],
      [
        'tools-list-cacheable-result',
        'resultType',
        '/resultType',
        '"resultType" is "x"; a tools/list result is "complete"',
      ],
      [
        'tool-schema-not-compilable',
        'notObject',
        '/tools/0/outputSchema',
        'outputSchema is a JSON integer; it must be a JSON Schema object',
      ],
    ]);
    expect(said({ tools: [] }, v26)[0]).toEqual([
      'tools-list-cacheable-result',
      'default',
      '/resultType',
      'the tools/list result has no "resultType"; protocol 2026-07-28 requires it',
    ]);
    const newer = {
      type: 'object',
      properties: { p: { type: 'array', prefixItems: [{ type: 'number' }], unevaluatedItems: false } },
    };
    expect(said(list26([tool({ outputSchema: newer })]), v26)).toEqual([
      [
        'tool-output-schema-ignored-keywords',
        'default',
        '/tools/0/outputSchema/properties/p/prefixItems',
        'outputSchema uses "prefixItems", which SDK v1 clients (Ajv draft-07) silently ignore',
      ],
      [
        'tool-output-schema-ignored-keywords',
        'default',
        '/tools/0/outputSchema/properties/p/unevaluatedItems',
        'outputSchema uses "unevaluatedItems", which SDK v1 clients (Ajv draft-07) silently ignore',
      ],
    ]);
  });
});

describe('what the tools repairs do and say', () => {
  const one = (extra: Record<string, unknown>) => ({ tools: [tool(extra)] });
  const cases: [string, unknown, unknown, { description: string; lossy?: boolean }][] = [
    [
      'tool-annotations-invalid',
      one({ annotations: 'x' }),
      one({}),
      { description: 'removed the non-object annotations', lossy: true },
    ],
    [
      'tool-annotations-invalid',
      one({ annotations: { title: true } }),
      one({ annotations: { title: 'true' } }),
      { description: 'converted annotations.title true to a string' },
    ],
    [
      'tool-annotations-invalid',
      one({ annotations: { title: { a: 1 } } }),
      one({ annotations: {} }),
      { description: 'removed the non-string annotations.title', lossy: true },
    ],
    [
      'tool-annotations-invalid',
      one({ annotations: { readOnlyHint: ' FALSE ' } }),
      one({ annotations: { readOnlyHint: false } }),
      { description: 'converted annotations.readOnlyHint " FALSE " to false' },
    ],
    [
      'tool-annotations-invalid',
      one({ annotations: { openWorldHint: 1 } }),
      one({ annotations: {} }),
      { description: 'removed annotations.openWorldHint (1); clients use its default', lossy: true },
    ],
    [
      'tool-field-invalid',
      one({ title: true }),
      one({ title: 'true' }),
      { description: 'converted "title" to a string' },
    ],
    [
      'tool-field-invalid',
      one({ description: null }),
      one({}),
      { description: 'removed "description" (null)', lossy: false },
    ],
    [
      'tool-field-invalid',
      one({ icons: 'x' }),
      one({}),
      { description: 'removed "icons" (a JSON string)', lossy: true },
    ],
    [
      'tool-input-schema-invalid',
      { tools: [{ name: 't' }] },
      one({}),
      { description: 'added "inputSchema": { "type": "object" }' },
    ],
    [
      'tool-input-schema-invalid',
      one({ inputSchema: { properties: {} } }),
      one({ inputSchema: { type: 'object', properties: {} } }),
      { description: 'added "type": "object" to the root of inputSchema' },
    ],
    [
      'tool-output-schema-not-object',
      one({ outputSchema: 'x' }),
      one({}),
      {
        description: 'removed the non-object outputSchema; results of this tool are no longer checked',
        lossy: true,
      },
    ],
    [
      'tool-output-schema-not-object',
      one({ outputSchema: {} }),
      one({ outputSchema: { type: 'object' } }),
      { description: 'added "type": "object" to the root of outputSchema' },
    ],
    [
      'tool-output-schema-not-object',
      one({ outputSchema: { items: {} } }),
      one({ outputSchema: { type: 'object', properties: { result: { items: {} } }, required: ['result'] } }),
      {
        description:
          'wrapped outputSchema as { result: <schema> }; structuredContent must be wrapped the same way',
      },
    ],
    [
      'tool-not-object',
      { tools: [null, tool()] },
      { tools: [tool()] },
      { description: 'removed null from the tools list', lossy: true },
    ],
    ['tools-list-not-array', {}, { tools: [] }, { description: 'added an empty "tools" array' }],
    [
      'tools-list-not-array',
      { tools: tool() },
      { tools: [tool()] },
      { description: 'put the single tool definition into a "tools" array' },
    ],
  ];

  it.each(cases.map((c) => [c[0], JSON.stringify(c[1]), ...c.slice(1)] as const))(
    '%s on %s',
    (rule, _shown, before, after, outcome) => {
      const r = repairOnce(rule, 'tools-list', before, v25);
      expect(r.doc).toEqual(after);
      expect(r.outcome).toEqual(outcome);
      expect(r.after).toEqual([]);
    },
  );

  it('declines what no rule can fix in place', () => {
    expect(
      repairOnce(
        'tool-input-schema-invalid',
        'tools-list',
        one({ inputSchema: { type: 'object', required: 'a' } }),
        v25,
      ).outcome,
    ).toBeUndefined();
    expect(
      repairOnce(
        'tool-output-schema-not-object',
        'tools-list',
        one({ outputSchema: { type: 'object', required: 'a' } }),
        v25,
      ).outcome,
    ).toBeUndefined();
    expect(repairOnce('tools-list-not-array', 'tools-list', [], v25).outcome).toBeUndefined();
  });

  it('replaces each wrong cacheable-result member with its conservative value, saying what it replaced', () => {
    const complete = { tools: [], resultType: 'complete', ttlMs: 0, cacheScope: 'public' };
    const cases: [object, object, string][] = [
      [{ resultType: 'x' }, {}, 'replaced "x" with "resultType": "complete"'],
      [{ ttlMs: -5 }, {}, 'replaced -5 with "ttlMs": 0'],
      [{ cacheScope: 'x' }, { cacheScope: 'private' }, 'replaced "x" with "cacheScope": "private"'],
    ];
    for (const [wrong, fixed, description] of cases) {
      const r = repairOnce('tools-list-cacheable-result', 'tools-list', { ...complete, ...wrong }, v26);
      expect(r.doc).toEqual({ ...complete, ...fixed });
      expect(r.outcome).toEqual({ description });
    }
    expect(repairOnce('tools-list-cacheable-result', 'tools-list', { tools: [] }, v26).outcome).toEqual({
      description: 'added "resultType": "complete"',
    });
  });
});
