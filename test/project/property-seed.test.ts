import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { seedFrom } from '../support/property-seed.js';
import { runs } from '../support/runs.js';

describe('MCP_SHAPE_SEED', () => {
  it('reads an integer seed, none when unset or empty, and refuses anything else', () => {
    expect(seedFrom('20261122')).toBe(20261122);
    expect(seedFrom('-7')).toBe(-7);
    expect(seedFrom(undefined)).toBeUndefined();
    expect(seedFrom('')).toBeUndefined();
    expect(() => seedFrom('abc')).toThrow('MCP_SHAPE_SEED must be an integer, got abc');
    expect(() => seedFrom('1.5')).toThrow(/integer/);
  });

  it('is what fast-check draws from in this run when set', () => {
    const expected = seedFrom(process.env.MCP_SHAPE_SEED);
    expect(fc.readConfigureGlobal().seed).toBe(expected);
    if (expected === undefined) return;
    // The same seed gives the same draws.
    const draw = () => fc.sample(fc.integer(), { numRuns: 5, seed: expected });
    expect(fc.sample(fc.integer(), 5)).toEqual(draw());
  });
});

describe('runs', () => {
  const saved = { mutation: process.env.MCP_SHAPE_MUTATION_RUN, matrix: process.env.MCP_SHAPE_MATRIX_RUN };
  const restore = (name: string, value: string | undefined) => {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  };
  beforeEach(() => {
    delete process.env.MCP_SHAPE_MUTATION_RUN;
    delete process.env.MCP_SHAPE_MATRIX_RUN;
  });
  afterEach(() => {
    restore('MCP_SHAPE_MUTATION_RUN', saved.mutation);
    restore('MCP_SHAPE_MATRIX_RUN', saved.matrix);
  });

  it('is the full count outside a mutation run and the Node matrix', () => {
    expect(runs(3000)).toBe(3000);
    expect(runs(12)).toBe(12);
  });

  it('is a fraction in a mutation run, at least 20 and never more than asked', () => {
    process.env.MCP_SHAPE_MUTATION_RUN = '1';
    expect(runs(3000)).toBe(300);
    expect(runs(1000, 0.5)).toBe(500);
    expect(runs(100)).toBe(20);
    expect(runs(12)).toBe(12);
  });

  it('is a tenth in the Node 22/24 matrix, at least 20 and never more than asked', () => {
    process.env.MCP_SHAPE_MATRIX_RUN = '1';
    expect(runs(3000)).toBe(300);
    expect(runs(500)).toBe(50);
    expect(runs(100)).toBe(20);
    expect(runs(12)).toBe(12);
  });
});
