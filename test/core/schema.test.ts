/** outputSchema compilation (src/core/schema.ts): the dialect, errors located, remote refs refused. */

import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import { patternEngine, toRe2Syntax } from '../../src/core/pattern-engine.js';
import { createOutputSchemaCompiler, schemaDialect } from '../../src/core/schema.js';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';
const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

describe('schemaDialect', () => {
  it('reads $schema, with or without its trailing #', () => {
    expect(schemaDialect({ $schema: DRAFT_07 }, '2025-11-25')).toBe('draft-07');
    expect(schemaDialect({ $schema: 'http://json-schema.org/draft-06/schema' }, '2025-11-25')).toBe(
      'draft-07',
    );
    expect(schemaDialect({ $schema: DRAFT_2019 }, '2025-06-18')).toBe('2019-09');
    expect(schemaDialect({ $schema: `${DRAFT_2020}#` }, '2025-06-18')).toBe('2020-12');
  });

  it("takes the protocol version's default without $schema", () => {
    expect(schemaDialect({ type: 'object' }, '2025-06-18')).toBe('draft-07');
    expect(schemaDialect({ type: 'object' }, '2025-11-25')).toBe('2020-12');
    expect(schemaDialect(true, '2025-11-25')).toBe('2020-12');
    expect(schemaDialect(null, '2025-06-18')).toBe('draft-07');
  });

  it('knows no other $schema', () => {
    expect(
      schemaDialect({ $schema: 'http://json-schema.org/draft-04/schema#' }, '2025-11-25'),
    ).toBeUndefined();
    expect(schemaDialect({ $schema: 7 }, '2025-11-25')).toBeUndefined();
    // Only an empty fragment at the end is dropped.
    expect(
      schemaDialect({ $schema: 'http://json-schema.org/draft-07/sch#ema' }, '2025-11-25'),
    ).toBeUndefined();
  });
});

describe('createOutputSchemaCompiler', () => {
  it('validates with errors located in the instance and the schema', () => {
    const compiled = createOutputSchemaCompiler().compile(
      { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      '2025-06-18',
    );
    expect(compiled).toMatchObject({ ok: true, dialect: 'draft-07' });
    if (!compiled.ok) return;
    expect(compiled.validate({ n: 1 })).toEqual([]);
    expect(compiled.validate({ n: 'x' })).toEqual([
      { instancePath: '/n', schemaPath: '#/properties/n/type', message: 'must be number' },
    ]);
    expect(compiled.validate({})).toEqual([
      { instancePath: '', schemaPath: '#/required', message: "must have required property 'n'" },
    ]);
  });

  it('reports a failed union once, saying what its options asked, nested unions and other errors kept apart', () => {
    const compiled = createOutputSchemaCompiler().compile(
      {
        type: 'object',
        properties: {
          // z.number().nullable().nullable()
          v: { anyOf: [{ anyOf: [{ type: 'number' }, { type: 'null' }] }, { type: 'null' }] },
          kind: {
            oneOf: [
              { type: 'object', properties: { k: { const: 'a' } }, required: ['k'] },
              { type: 'string', maxLength: 1 },
              { type: 'boolean' },
              { type: 'integer' },
            ],
          },
          n: { type: 'number' },
        },
      },
      '2025-11-25',
    );
    if (!compiled.ok) throw new Error('does not compile');
    expect(compiled.validate({ v: [], kind: { k: 'b' }, n: 'x' })).toEqual([
      {
        instancePath: '/v',
        schemaPath: '#/properties/v/anyOf',
        message: 'must match a schema in anyOf: must be number, or must be null',
      },
      {
        instancePath: '/kind',
        schemaPath: '#/properties/kind/oneOf',
        message:
          'must match exactly one schema in oneOf: /k must be equal to constant, or must be string, or must be boolean (+1 more)',
      },
      { instancePath: '/n', schemaPath: '#/properties/n/type', message: 'must be number' },
    ]);
    expect(compiled.validate({ v: 1, kind: 'a', n: 2 })).toEqual([]);
  });

  it('says a value nested deeper than a recursive schema can follow cannot be validated, instead of throwing', () => {
    const compiled = createOutputSchemaCompiler().compile(
      { type: 'object', additionalProperties: { $ref: '#' } },
      '2025-11-25',
    );
    if (!compiled.ok) throw new Error('does not compile');
    const depth = 60_000;
    const deep = JSON.parse(`${'{"a":'.repeat(depth)}{}${'}'.repeat(depth)}`) as unknown;
    expect(compiled.validate(deep)).toEqual([
      { instancePath: '', schemaPath: '#', message: 'is nested too deeply to validate' },
    ]);
    expect(compiled.validate({ a: { b: {} } })).toEqual([]);
    // Any other failure is not about depth: it goes to the caller (the engine reports the rule as failed).
    const unreadable = {
      get a(): unknown {
        throw new TypeError('a getter that throws');
      },
    };
    expect(() => compiled.validate(unreadable)).toThrow('a getter that throws');
  });

  it('reports every error and checks formats', () => {
    const compiled = createOutputSchemaCompiler().compile(
      { type: 'object', properties: { a: { type: 'string', format: 'email' }, b: { type: 'integer' } } },
      '2025-11-25',
    );
    if (!compiled.ok) throw new Error('compiles');
    expect(compiled.validate({ a: 'not an address', b: 1.5 }).map((e) => e.instancePath)).toEqual([
      '/a',
      '/b',
    ]);
    expect(compiled.validate({ a: 'a@example.com', b: 1 })).toEqual([]);
  });

  it('compiles each dialect with its own keywords', () => {
    const compiler = createOutputSchemaCompiler();
    const closed2019 = compiler.compile(
      { $schema: DRAFT_2019, type: 'object', properties: { a: {} }, unevaluatedProperties: false },
      '2025-06-18',
    );
    expect(closed2019).toMatchObject({ ok: true, dialect: '2019-09' });
    if (closed2019.ok) expect(closed2019.validate({ b: 1 })).toHaveLength(1);
    const tuple2020 = compiler.compile({ type: 'array', prefixItems: [{ type: 'string' }] }, '2025-11-25');
    expect(tuple2020).toMatchObject({ ok: true, dialect: '2020-12' });
    if (tuple2020.ok) expect(tuple2020.validate([1])).toHaveLength(1);
    // draft-07 has neither unevaluatedProperties nor prefixItems: unknown keywords, ignored.
    const closed07 = compiler.compile(
      { type: 'object', properties: { a: {} }, unevaluatedProperties: false },
      '2025-06-18',
    );
    expect(closed07).toMatchObject({ ok: true, dialect: 'draft-07' });
    if (closed07.ok) expect(closed07.validate({ b: 1 })).toEqual([]);
    const tuple07 = compiler.compile({ type: 'array', prefixItems: [{ type: 'string' }] }, '2025-06-18');
    expect(tuple07).toMatchObject({ ok: true, dialect: 'draft-07' });
    if (tuple07.ok) expect(tuple07.validate([1])).toEqual([]);
  });

  it('refuses an unknown dialect, a schema that is no object, and an invalid schema', () => {
    const compiler = createOutputSchemaCompiler();
    expect(compiler.compile({ $schema: 'https://example.com/s' }, '2025-11-25')).toEqual({
      ok: false,
      dialect: undefined,
      reason: 'unsupported-dialect',
      message: 'unsupported $schema "https://example.com/s"',
    });
    expect(compiler.compile(true, '2025-11-25')).toEqual({
      ok: false,
      dialect: '2020-12',
      reason: 'invalid-schema',
      message: 'a schema must be an object',
    });
    expect(compiler.compile(null, '2025-06-18')).toEqual({
      ok: false,
      dialect: 'draft-07',
      reason: 'invalid-schema',
      message: 'a schema must be an object',
    });
    expect(compiler.compile({ type: 'nonsense' }, '2025-11-25')).toMatchObject({
      ok: false,
      dialect: '2020-12',
      reason: 'invalid-schema',
    });
  });

  it('never fetches a $ref to another document, and tells it from a dangling local one', () => {
    const compiler = createOutputSchemaCompiler();
    const remote = compiler.compile({ $ref: 'https://example.com/schema.json' }, '2025-11-25');
    expect(remote).toMatchObject({ ok: false, reason: 'remote-ref' });
    if (!remote.ok) expect(remote.message).toContain('https://example.com/schema.json');
    expect(compiler.compile({ $ref: '#/$defs/missing' }, '2025-11-25')).toMatchObject({
      ok: false,
      reason: 'invalid-schema',
    });
  });

  it('compiles two schemas with one $id, and caches by schema text and version', () => {
    const compiler = createOutputSchemaCompiler();
    const a = compiler.compile({ $id: 'urn:example:x', type: 'string' }, '2025-11-25');
    const b = compiler.compile({ $id: 'urn:example:x', type: 'number' }, '2025-11-25');
    expect(a.ok && b.ok).toBe(true);
    if (a.ok && b.ok) {
      expect(a.validate('s')).toEqual([]);
      expect(b.validate('s')).toHaveLength(1);
    }
    expect(compiler.compile({ $id: 'urn:example:x', type: 'string' }, '2025-11-25')).toBe(a);
    expect(compiler.compile({ $id: 'urn:example:x', type: 'string' }, '2025-06-18')).not.toBe(a);
  });

  it('compiles a schema with its $id, as both SDK clients do: one they cannot serialize does not compile', () => {
    // Both clients' validators throw "URN without nid cannot be serialized" on it (a URN needs a namespace).
    const compiled = createOutputSchemaCompiler().compile({ $id: 'urn:x', type: 'string' }, '2025-11-25');
    expect(compiled.ok).toBe(false);
    if (!compiled.ok) expect(compiled.message).toContain('URN without nid');
  });

  it('keeps at most about 500 compiled schemas', () => {
    const compiler = createOutputSchemaCompiler();
    const first = compiler.compile({ const: 0 }, '2025-11-25');
    for (let i = 1; i <= 500; i++) compiler.compile({ const: i }, '2025-11-25');
    expect(compiler.compile({ const: 0 }, '2025-11-25')).toBe(first);
    compiler.compile({ const: 501 }, '2025-11-25');
    compiler.compile({ const: 502 }, '2025-11-25');
    expect(compiler.compile({ const: 0 }, '2025-11-25')).not.toBe(first);
  });
});

describe('patterns a server writes', () => {
  const compiler = createOutputSchemaCompiler();
  const schemaOf = (pattern: string) => ({
    type: 'object',
    properties: { id: { type: 'string', pattern } },
    patternProperties: { [pattern]: { type: 'number' } },
  });

  it('runs a pattern with nested quantifiers in linear time, with the answer the native engine gives', () => {
    // 30 characters that almost match: the native engine takes minutes on each of these.
    const almost = `${'a'.repeat(30)}!`;
    const compiled = compiler.compile(schemaOf('^((a*)*)*$'), '2025-11-25');
    if (!compiled.ok) throw new Error(compiled.message);
    // No timing is asserted: the native engine would hold the test past its timeout.
    expect(compiled.validate({ id: almost }).map((e) => e.instancePath)).toEqual(['/id']);
    expect(compiled.validate({ id: 'aaaa', aaaa: 'x' }).map((e) => e.instancePath)).toEqual(['/aaaa']);
    expect(compiled.validate({ id: 'aaaa' })).toEqual([]);
  });

  it('runs overlapping alternatives under a quantifier in linear time, which safe-regex2 lets pass', () => {
    // Forty characters that almost match: the native engine stalls on each of these.
    const almost = `${'a'.repeat(40)}!`;
    for (const pattern of ['^(a|a)*$', '^(a|aa)+$', '^(\\w|\\d)+$', '^(.|a)*$', '^(\\s|\\S|a)*$']) {
      const compiled = compiler.compile({ properties: { id: { type: 'string', pattern } } }, '2025-11-25');
      if (!compiled.ok) throw new Error(compiled.message);
      expect(
        compiled.validate({ id: almost }).map((e) => e.instancePath),
        pattern,
      ).toEqual(pattern.includes('.') || pattern.includes('S') ? [] : ['/id']);
    }
  });

  it('rewrites a pattern for RE2 only under flag u, as Ajv compiles it', () => {
    // Without u, ECMAScript reads \u{2} as two u's; the rewriting reads it as U+0002.
    for (const flags of ['', 'u']) {
      const engine = patternEngine('^\\u{2}$', flags);
      for (const text of ['uu', '\u0002'])
        expect(engine.test(text), `${flags} ${text}`).toBe(new RegExp('^\\u{2}$', flags).test(text));
    }
  });

  it('interrupts a look-around pattern that backtracks, and says the value could not be matched', () => {
    const compiled = compiler.compile(
      { properties: { id: { type: 'string', pattern: '^(?=(a|a)*$)' } } },
      '2025-11-25',
    );
    if (!compiled.ok) throw new Error(compiled.message);
    expect(compiled.validate({ id: 'aaaa' })).toEqual([]);
    expect(compiled.validate({ id: `${'a'.repeat(40)}!` }).map((e) => e.message)).toEqual([
      expect.stringContaining('could not be matched against a pattern'),
    ]);
  });

  it('without node:vm (a browser) runs no look-around pattern with a quantified group, and says so', () => {
    const host = process as { getBuiltinModule?: unknown };
    const getBuiltinModule = host.getBuiltinModule;
    host.getBuiltinModule = undefined;
    try {
      // safe-regex2 lets this one pass; on the native engine it stalls on forty a's and a '!'.
      expect(() => patternEngine('^(?=(a|a)*$)', 'u').test(`${'a'.repeat(40)}!`)).toThrow(
        'could not be matched against a pattern',
      );
      // Look-around without a quantified group still runs, natively.
      expect(patternEngine('^(?=a)\\w+$', 'u').test('ab')).toBe(true);
    } finally {
      host.getBuiltinModule = getBuiltinModule;
    }
  });

  it('does not match a huge pattern against a long string, and says the value cannot be shown to match', () => {
    // Linear in each, but 18 KB of pattern on 10 KB of text took the linear engine seconds a try.
    const compiled = compiler.compile(
      { properties: { id: { type: 'string', pattern: `${'(a|b)*'.repeat(3000)}$` } } },
      '2025-11-25',
    );
    if (!compiled.ok) throw new Error(compiled.message);
    expect(compiled.validate({ id: `${'ab'.repeat(5000)}c` }).map((e) => e.message)).toEqual([
      expect.stringContaining('too long to match against a pattern'),
    ]);
    // A short string is still matched.
    expect(compiled.validate({ id: 'abc' })).toEqual([]);
  });

  it('matches a string past the linear budget on the native engine, bounded, rather than refusing it', () => {
    const base64 = compiler.compile(
      { properties: { data: { type: 'string', pattern: '^[A-Za-z0-9+/]*={0,2}$' } } },
      '2025-11-25',
    );
    if (!base64.ok) throw new Error(base64.message);
    const image = Buffer.alloc(2_000_000, 7).toString('base64');
    expect(base64.validate({ data: image })).toEqual([]);
    expect(base64.validate({ data: `${image}!` }).map((e) => e.message)).toEqual([
      expect.stringContaining('must match pattern'),
    ]);
    // A pattern that backtracks on a near miss that long is interrupted: not shown to match.
    const hostile = compiler.compile(
      { properties: { id: { type: 'string', pattern: '^(a|a)*$' } } },
      '2025-11-25',
    );
    if (!hostile.ok) throw new Error(hostile.message);
    expect(hostile.validate({ id: `${'a'.repeat(3_000_000)}!` }).map((e) => e.message)).toEqual([
      expect.stringContaining('too long to match against a pattern'),
    ]);
  });

  it('agrees with the native engine on patterns both read, safe or not', () => {
    const cases: [string, string[]][] = [
      ['^(a+)+$', ['', 'a', 'aaa', 'aab', 'ba']],
      ['^([a-z]+\\d*)*-end$', ['abc1-end', 'abc1-ends', '-end', 'ab12cd-end']],
      ['(x+x+)+y', ['xxy', 'xxxx', 'axxxy']],
      ['^[a-z]{2,4}$', ['ab', 'abcde', 'a1']],
      ['^(a|a)*$', ['', 'aaa', 'aab']],
      ['^(a|aa)+$', ['a', 'aaaa', 'aaab']],
      ['(\\w|\\d)+$', ['a1', 'a1!', '!']],
    ];
    // Where RE2 reads a class or escape otherwise than ECMAScript does, each on texts that tell them apart.
    const texts = [
      '',
      'a',
      'A',
      '1',
      '_',
      ' ',
      '\t',
      '\n',
      '\r',
      '\v',
      '\f',
      '\u00a0',
      '\u2028',
      '\u2029',
      '\ufeff',
      '\u3000',
      '\u0001',
      '\u0000',
      'é',
      'Ω',
      '😀',
      '\ud800',
      '\udc00',
      ']',
      '[',
      ':',
      '-',
      '^',
      'a b',
      'x\ny',
    ];
    const classes = [
      '.',
      '\\s',
      '\\S',
      '[\\s]',
      '[\\S]',
      '[^\\s]',
      '[^\\S]',
      '[\\sa]',
      '[^\\Sa]',
      '[^]',
      '[]',
      '[^]a',
      '[]|a',
      '[[:alpha:]',
      '[[:]',
      '[\\]]',
      '[^\\]]',
      '\\u0041',
      '\\u{1F600}',
      '[\\u2028-\\u2029]',
      '\\cJ',
      '\\0',
      '\\x41',
      '\\w',
      '\\W',
      '\\d',
      '\\D',
      '\\b',
      '\\B',
      '\\p{L}',
      '\\P{L}',
      '\\p{Lu}',
      '[\\p{N}_]',
      '\\/',
      '[\\-a]',
      '[a-]',
      '[-a]',
      '\\$',
      '\\.',
      '[.]',
      '(?:.)',
      '(?<n>.)',
      '.+?',
      '.{2}',
      '\\f',
      '\\v',
      '\\B',
      '(?:)',
      'a{2,}',
      'a{0}',
      'x*?',
      '$^',
      '[^\\W]',
      '[\\W\\d]',
      '[a-c\\s]+',
      '[\\u{61}-\\u{63}]',
      '[^\\s\\S]',
      'a|',
      '\\P{Ll}+',
    ];
    for (const part of classes) {
      cases.push([`^${part}$`, texts], [part, texts], [`^(${part})+$`, texts.map((t) => t + t)]);
    }
    for (const [pattern, texts] of cases) {
      // Every one of these runs on the linear engine, written over to ECMAScript's meaning.
      const linear = RE2JS.compile(toRe2Syntax(pattern) ?? '(');
      for (const text of texts) {
        expect(linear.test(text), `re2js: ${pattern} on ${JSON.stringify(text)}`).toBe(
          new RegExp(pattern, 'u').test(text),
        );
      }
      const compiled = compiler.compile({ properties: { id: { type: 'string', pattern } } }, '2025-11-25');
      if (!compiled.ok) throw new Error(compiled.message);
      for (const text of texts) {
        expect(compiled.validate({ id: text }).length === 0, `${pattern} on ${text}`).toBe(
          new RegExp(pattern, 'u').test(text),
        );
      }
    }
  });

  it('leaves back-references and look-around, which RE2 lacks, to the native engine, and refuses what ECMAScript refuses', () => {
    const backReference = compiler.compile(schemaOf('^((\\w)\\2)+$'), '2025-11-25');
    if (!backReference.ok) throw new Error(backReference.message);
    expect(backReference.validate({ id: 'aabb' })).toEqual([]);
    expect(backReference.validate({ id: 'abab' })).not.toEqual([]);
    const invalid = compiler.compile(schemaOf('((a*)*'), '2025-11-25');
    expect(invalid.ok).toBe(false);
  });
});
