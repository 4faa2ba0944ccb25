/**
 * Nesting deeper than the call stack reaches, anywhere in a result or a message: JSON.parse builds it
 * from a line a server sends, and the proxy, check and audit validate what they parsed. No rule may fail
 * on it (an internal failure is an info finding, and the check it skipped a possible false pass), and
 * the findings on the rest of the document stay as they were.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isObject } from '../../src/core/json.js';
import type { ProtocolVersion } from '../../src/spec/versions.js';
import { validateMessageSync, validateToolResultSync } from '../../src/validate/index.js';
import { anyResult } from '../spec/arbitraries.js';
import { runs } from '../support/runs.js';

const DEPTH = 30_000;
const DEEP_ARRAY = `${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`;
const VERSIONS: readonly ProtocolVersion[] = ['2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28'];

/** Every object and array of `value` (itself first), with no more than `limit` of them. */
function containers(value: unknown, limit = 200): object[] {
  const out: object[] = [];
  const pending = [value];
  while (pending.length > 0 && out.length < limit) {
    const next = pending.shift();
    if (typeof next !== 'object' || next === null) continue;
    out.push(next);
    pending.push(...Object.values(next));
  }
  return out;
}

/** Puts a freshly parsed deep value into `container`: as a new member, or in place of an item. */
function plant(container: object, deep: string, slot: number): void {
  const value = JSON.parse(deep) as unknown;
  if (Array.isArray(container)) {
    if (container.length === 0) container.push(value);
    else container[slot % container.length] = value;
  } else
    (container as Record<string, unknown>)[
      ['_meta', 'deep', 'structuredContent', 'data'][slot % 4] as string
    ] = value;
}

const internal = (findings: readonly { message: string }[]) =>
  findings.filter((f) => f.message.includes('failed internally')).map((f) => f.message);

describe('nesting deeper than the call stack, anywhere', () => {
  // A few seconds alone; minutes when two Stryker workers share the machine.
  it('no rule fails on it, in a result or in the response that carries it', { timeout: 180_000 }, () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...VERSIONS)
          .chain((v) => fc.tuple(fc.constant(v), anyResult(v), fc.nat(), fc.nat(), fc.boolean())),
        ([version, generated, where, slot, asArray]) => {
          // A copy: the generators share some values between draws (a mutation's `[]`, say).
          const { result, tool } = structuredClone(generated);
          const spots = containers(result);
          if (spots.length === 0) return;
          plant(spots[where % spots.length] as object, asArray ? DEEP_ARRAY : DEEP_OBJECT, slot);
          const options = { protocolVersion: version, ...(tool ? { tool } : {}) };
          expect(internal(validateToolResultSync(result, options))).toEqual([]);
          const response = { jsonrpc: '2.0', id: 1, result };
          const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } };
          expect(
            internal(
              validateMessageSync(response, {
                protocolVersion: version,
                request,
                ...(tool ? { tools: [tool] } : {}),
              }),
            ),
          ).toEqual([]);
        },
      ),
      { numRuns: runs(80) },
    );
  });

  it('structuredContent too deep for a recursive outputSchema to follow is an error, as the SDK clients fail on it', () => {
    const tool = {
      name: 't',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', additionalProperties: { $ref: '#' } },
    };
    const structuredContent = JSON.parse(`{"a":${DEEP_OBJECT.replace(/1(?=})/, '{}')}}`) as unknown;
    const findings = validateToolResultSync(
      { content: [{ type: 'text', text: 'x' }], structuredContent },
      { protocolVersion: '2025-11-25', tool },
    );
    expect(internal(findings)).toEqual([]);
    expect(findings.filter((f) => f.rule === 'structured-content-schema-mismatch')).toEqual([
      expect.objectContaining({
        severity: 'error',
        pointer: '/structuredContent',
        message: 'structuredContent is nested too deeply to validate (outputSchema #)',
      }),
    ]);
  });

  it('no rule fails on it in a tools/list result: schemas, annotations, icons, _meta', () => {
    const tool = () => ({
      name: 'deep',
      title: 'Deep',
      inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
      outputSchema: { type: 'object' },
      annotations: { readOnlyHint: true },
      icons: [{ src: 'https://example.com/i.png' }],
      _meta: {},
    });
    for (const version of VERSIONS) {
      for (const at of ['inputSchema', 'outputSchema', 'annotations', 'icons', '_meta', 'title'] as const) {
        for (const deep of [DEEP_ARRAY, DEEP_OBJECT]) {
          const t: Record<string, unknown> = tool();
          const member = t[at];
          if (isObject(member)) member.deep = JSON.parse(deep);
          else t[at] = JSON.parse(deep);
          const response = { jsonrpc: '2.0', id: 1, result: { tools: [t] } };
          const request = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
          expect(
            internal(validateMessageSync(response, { protocolVersion: version, request })),
            `${version} ${at}`,
          ).toEqual([]);
        }
      }
    }
  });
});
