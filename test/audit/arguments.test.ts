/** Argument synthesis from inputSchema: hints first, minimal valid values, enum/boolean exploration. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { synthesizeArguments } from '../../src/audit/arguments.js';
import { createOutputSchemaCompiler } from '../../src/core/schema.js';

const schemas = createOutputSchemaCompiler();
const valid = (schema: unknown, value: unknown) => {
  const compiled = schemas.compile(schema, '2025-11-25');
  if (!compiled.ok) throw new Error(compiled.message);
  return compiled.validate(value);
};

describe('synthesizeArguments', () => {
  it('fills required parameters from const, default, examples and enum, in that order', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { const: 'fixed', default: 'no' },
        b: { type: 'integer', default: 7, examples: [9] },
        c: { type: 'string', examples: ['Paris'] },
        d: { type: 'string', enum: ['x', 'y'] },
        optional: { type: 'string' },
      },
      required: ['a', 'b', 'c'],
    };
    expect(synthesizeArguments(schema, 1)).toEqual([{ a: 'fixed', b: 7, c: 'Paris' }]);
  });

  it('picks minimal values that satisfy formats, bounds, multiples, lengths and patterns', () => {
    const schema = {
      type: 'object',
      properties: {
        email: { type: 'string', format: 'email' },
        when: { type: 'string', format: 'date-time' },
        id: { type: 'string', format: 'uuid' },
        count: { type: 'integer', minimum: 3, multipleOf: 2 },
        ratio: { type: 'number', exclusiveMinimum: 0, maximum: 1 },
        code: { type: 'string', pattern: '^[0-9]+$' },
        name: { type: 'string', minLength: 10 },
        tags: { type: 'array', items: { type: 'string' }, minItems: 2 },
        nested: { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] },
        maybe: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 1 }] },
      },
      required: ['email', 'when', 'id', 'count', 'ratio', 'code', 'name', 'tags', 'nested', 'maybe'],
    };
    const [args] = synthesizeArguments(schema, 1);
    expect(valid(schema, args)).toEqual([]);
    expect(args).toMatchObject({ count: 4, ratio: 0.5, code: '0', tags: ['example', 'example'], maybe: 1 });
  });

  it('follows local $refs', () => {
    const schema = {
      type: 'object',
      $defs: { city: { type: 'string', examples: ['Lyon'] } },
      properties: { city: { $ref: '#/$defs/city' } },
      required: ['city'],
    };
    expect(synthesizeArguments(schema, 1)).toEqual([{ city: 'Lyon' }]);
  });

  it('explores enum and boolean parameters up to the budget, without repeating a call', () => {
    const schema = {
      type: 'object',
      properties: {
        q: { type: 'string' },
        mode: { type: 'string', enum: ['fast', 'slow', 'exact'], default: 'slow' },
        verbose: { type: 'boolean' },
      },
      required: ['q'],
    };
    expect(synthesizeArguments(schema, 3)).toEqual([
      { q: 'example' },
      { q: 'example', mode: 'fast', verbose: true },
      { q: 'example', mode: 'exact', verbose: false },
    ]);
    expect(synthesizeArguments(schema, 2)).toHaveLength(2);
    expect(synthesizeArguments({ type: 'object', properties: { q: { type: 'string' } } }, 3)).toEqual([{}]);
  });

  it('always produces arguments that validate against simple generated schemas', () => {
    const property = fc.oneof(
      // Lengths every one of these formats can meet (an ipv4 of 20 characters does not exist).
      fc.record(
        {
          type: fc.constant('string'),
          minLength: fc.nat(9),
          format: fc.constantFrom('email', 'uri', 'date', 'uuid', 'ipv4'),
        },
        { requiredKeys: ['type'] },
      ),
      fc.record({
        type: fc.constant('string'),
        minLength: fc.nat(60),
        format: fc.constantFrom('email', 'uri'),
      }),
      fc
        .tuple(fc.integer({ min: -50, max: 50 }), fc.nat(50))
        .map(([minimum, span]) => ({ type: 'integer', minimum, maximum: minimum + span })),
      fc.record({ type: fc.constant('number'), exclusiveMinimum: fc.integer({ min: -5, max: 5 }) }),
      fc.constant({ type: 'boolean' }),
      fc
        .uniqueArray(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 4 })
        .map((values) => ({ enum: values })),
      fc.record({
        type: fc.constant('array'),
        items: fc.constant({ type: 'integer', minimum: 1 }),
        minItems: fc.nat(3),
      }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), property, { maxKeys: 6 }),
        fc.boolean(),
        (properties, allRequired) => {
          const schema = { type: 'object', properties, required: allRequired ? Object.keys(properties) : [] };
          for (const args of synthesizeArguments(schema, 3)) expect(valid(schema, args)).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
