/**
 * Argument synthesis from inputSchema: hints first, minimal valid values, one call unless exploring,
 * and never a value that consents to or asks for a change unless the user named the tool.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ArgumentPlan,
  isConsentName,
  isMutationValue,
  type SynthesisOptions,
  synthesizeArguments,
} from '../../src/audit/arguments.js';
import type { JsonObject } from '../../src/core/json.js';
import { createOutputSchemaCompiler } from '../../src/core/schema.js';
import { runs } from '../support/runs.js';

function argsOf(plan: ArgumentPlan): JsonObject[] {
  if ('skip' in plan) throw new Error(`skipped: ${plan.skip}`);
  return plan.args;
}
const synth = (schema: unknown, budget = 1, options: Partial<SynthesisOptions> = {}) =>
  argsOf(synthesizeArguments(schema, { budget, explore: budget > 1, ...options }));

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
    expect(synth(schema)).toEqual([{ a: 'fixed', b: 7, c: 'Paris' }]);
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
    const [args] = synth(schema);
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
    expect(synth(schema)).toEqual([{ city: 'Lyon' }]);
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
    expect(synth(schema, 3)).toEqual([
      { q: 'example' },
      { q: 'example', mode: 'fast', verbose: true },
      { q: 'example', mode: 'exact', verbose: false },
    ]);
    expect(synth(schema, 2)).toHaveLength(2);
    expect(synth({ type: 'object', properties: { q: { type: 'string' } } }, 3)).toEqual([{}]);
    // Without --explore: one call, whatever the budget.
    expect(argsOf(synthesizeArguments(schema, { budget: 3 }))).toEqual([{ q: 'example' }]);
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
          const plan = synthesizeArguments(schema, { budget: 3, explore: true });
          if ('skip' in plan) {
            // Only a required enum of nothing but mutations leaves nothing safe to send.
            expect(Object.values(properties).some((p) => 'enum' in p && p.enum.every(isMutationValue))).toBe(
              true,
            );
            return;
          }
          for (const args of plan.args) {
            expect(valid(schema, args)).toEqual([]);
            for (const [name, value] of Object.entries(args)) {
              expect(isMutationValue(value), `${name}: ${JSON.stringify(value)}`).toBe(false);
              if (isConsentName(name)) expect(value).not.toBe(true);
            }
          }
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('never sends true to a consent or force boolean, nor explores it there', () => {
    const schema = {
      type: 'object',
      properties: {
        path: { type: 'string' },
        confirm: { type: 'boolean', default: true },
        force: { type: 'boolean' },
        skipConfirmation: { type: 'boolean' },
        verbose: { type: 'boolean' },
      },
      required: ['path', 'confirm'],
    };
    const calls = synth(schema, 5);
    expect(calls[0]).toEqual({ path: 'example', confirm: false });
    for (const call of calls) {
      expect(call.confirm).not.toBe(true);
      expect(call.force).not.toBe(true);
      expect(call.skipConfirmation).not.toBe(true);
    }
    expect(calls.some((c) => c.verbose === true)).toBe(true);
    // A consent that must be true leaves nothing safe to send.
    const mustConsent = { type: 'object', properties: { yes: { const: true } }, required: ['yes'] };
    expect(synthesizeArguments(mustConsent, { budget: 1 })).toEqual({
      skip: expect.stringMatching(/required parameter "yes" has no value that is safe to send.*--call/),
    });
  });

  it('never sends or explores an enum or const value that names a mutation', () => {
    const schema = {
      type: 'object',
      properties: {
        name: { type: 'string' },
        operation: { type: 'string', enum: ['set', 'get', 'delete', 'describe', 'scale-up', 'forceDelete'] },
      },
      required: ['name', 'operation'],
    };
    const calls = synth(schema, 6);
    expect(calls.map((c) => c.operation)).toEqual(['get', 'describe']);
    const onlyMutations = {
      type: 'object',
      properties: { action: { enum: ['create', 'update', 'POST'] } },
      required: ['action'],
    };
    expect(synthesizeArguments(onlyMutations, { budget: 3, explore: true })).toMatchObject({
      skip: expect.stringContaining('required parameter "action"'),
    });
    expect(
      synthesizeArguments({ ...onlyMutations, properties: { action: { const: 'apply' } } }, { budget: 1 }),
    ).toMatchObject({
      skip: expect.any(String),
    });
    // A default or example that names a mutation gives way to a safe value.
    const defaulted = {
      type: 'object',
      properties: { mode: { enum: ['write', 'read'], default: 'write' } },
      required: ['mode'],
    };
    expect(synth(defaulted)).toEqual([{ mode: 'read' }]);
  });

  it('always sends a dry-run switch as true, even when it is optional', () => {
    const schema = {
      type: 'object',
      properties: {
        target: { type: 'string' },
        dryRun: { type: 'boolean', default: false },
        preview: { type: 'boolean' },
      },
      required: ['target'],
    };
    expect(synth(schema, 4)).toEqual([{ target: 'example', dryRun: true, preview: true }]);
  });

  it('sends a dry-run switch turned around by a negation as false, which keeps the dry run on', () => {
    const names = [
      'no_dry_run',
      'noDryRun',
      'disable_preview',
      'dry_run_disabled',
      'without_preview',
      'not_simulate',
    ];
    const schema = {
      type: 'object',
      properties: Object.fromEntries(
        names.map((n) => [n, { type: 'boolean', description: 'true = actually delete' }]),
      ),
    };
    expect(synth(schema, 4)).toEqual([Object.fromEntries(names.map((n) => [n, false]))]);
    const required = {
      ...schema,
      required: ['no_dry_run'],
      properties: { no_dry_run: { type: 'boolean', default: true } },
    };
    expect(synth(required, 4)).toEqual([{ no_dry_run: false }]);
  });

  it('lets a tool named with --call have its consent, mutation and dry-run values', () => {
    const schema = {
      type: 'object',
      properties: {
        operation: { enum: ['set', 'get'] },
        confirm: { type: 'boolean' },
        dry_run: { type: 'boolean' },
      },
      required: ['operation'],
    };
    const calls = synth(schema, 4, { named: true });
    expect(calls[0]).toEqual({ operation: 'set' });
    expect(calls.map((c) => [c.operation, c.confirm, c.dry_run])).toContainEqual(['get', true, true]);
  });

  it('recognizes consent names and mutation values by their words', () => {
    for (const name of [
      'confirm',
      'force',
      'yes',
      'overwrite',
      'delete',
      'purge',
      'approve',
      'forceDelete',
      'skip_confirmation',
      'allow-overwrite',
    ])
      expect(isConsentName(name), name).toBe(true);
    for (const name of ['verbose', 'recursive', 'includeHidden', 'limit'])
      expect(isConsentName(name), name).toBe(false);
    for (const value of [
      'set',
      'delete',
      'create',
      'update',
      'write',
      'apply',
      'scale_up',
      'DELETE',
      'rollout-restart',
    ])
      expect(isMutationValue(value), value).toBe(true);
    for (const value of ['get', 'list', 'describe', 'logs', 'status', 'settings', 'reader', 42])
      expect(isMutationValue(value), String(value)).toBe(false);
  });
});

describe('synthesizeArguments on a hostile inputSchema', () => {
  const skipped = (schema: unknown, options: Partial<SynthesisOptions> = {}) => {
    const plan = synthesizeArguments(schema, { budget: 3, ...options });
    if (!('skip' in plan)) throw new Error(`called with ${JSON.stringify(plan.args).slice(0, 200)}`);
    return plan.skip;
  };

  // The test's timeout bounds the work: building what the schemas ask for would take minutes.
  it('does not build a string, an array or a tree larger than it bounds, and says why the tool is not called', {
    timeout: 10_000,
  }, () => {
    const required = (s: JsonObject) => ({ type: 'object', required: ['p'], properties: { p: s } });
    // Each threw a RangeError out of the audit, or ran it out of memory.
    const longString = required({ type: 'string', minLength: 1e12 });
    const manyItems = required({ type: 'array', minItems: 1e8 });
    const letters = 'abcdefghij'.split('');
    const wide = {
      type: 'object',
      required: letters,
      properties: Object.fromEntries(letters.map((k) => [k, { $ref: '#' }])),
    };
    const nestedItems = required({
      type: 'array',
      minItems: 100,
      items: { type: 'array', minItems: 100, items: { type: 'array', minItems: 100 } },
    });
    for (const schema of [longString, manyItems, wide, nestedItems]) {
      expect(skipped(schema)).toMatch(/asks for larger arguments than the audit builds.*--args/);
      expect(skipped(schema, { explore: true })).toMatch(/larger arguments/);
    }
    // At the limits, it still builds them.
    const [args] = synth(required({ type: 'string', minLength: 999_000 }));
    expect(String(args?.p).length).toBe(999_000);
  });

  // 6 s alone; over 10 s once other test files ran beside it.
  it('reads a $ref with broken percent-encoding as unresolvable, and takes a huge allOf, property list or minProperties', {
    timeout: 120_000,
  }, () => {
    expect(synth({ type: 'object', required: ['p'], properties: { p: { $ref: '#/%E0%A4%A' } } })).toEqual([
      { p: 'example' },
    ]);
    const branches = Array.from({ length: 200_000 }, () => ({ type: 'object' }));
    expect(synth({ type: 'object', required: ['p'], properties: { p: { allOf: branches } } })).toEqual([
      { p: {} },
    ]);
    const properties = Object.fromEntries(
      Array.from({ length: 200_000 }, (_, i) => [`b${i}`, { type: 'boolean' }]),
    );
    expect(synth({ type: 'object', properties }, 2)).toHaveLength(2);
    // minProperties past what is listed: every optional one is sent, counted as it goes (it took
    // seconds counting the object's keys again for each).
    const strings = Object.fromEntries(
      Array.from({ length: 9_000 }, (_, i) => [`s${i}`, { type: 'string' }]),
    );
    const [all] = synth({ type: 'object', properties: strings, minProperties: 1e9 });
    expect(Object.keys(all ?? {})).toHaveLength(9_000);
  });
});
