/**
 * A `protocolVersion` option that names no version is a mistake in the calling code: every library
 * entry point says so with one RangeError naming the versions it knows (the asynchronous ones reject
 * with it), instead of an `internal-error` finding or a TypeError from deep inside.
 */

import { describe, expect, it } from 'vitest';
import {
  convertWebMcp,
  errorResult,
  repair,
  repairMessage,
  repairMessageSync,
  repairSync,
  shaped,
  toolResult,
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
  validateToolsList,
  validateToolsListSync,
} from '../../src/index.js';
import { PROTOCOL_VERSIONS, protocolVersionOptionError } from '../../src/spec/versions.js';

const RESULT = { content: [{ type: 'text', text: 'hi' }] };
const MESSAGE = { jsonrpc: '2.0', id: 1, result: RESULT };
const TOOLS = { tools: [] };

type Call = (options: { protocolVersion: never }) => unknown;

const SYNC: Record<string, Call> = {
  validateToolResultSync: (o) => validateToolResultSync(RESULT, o),
  validateMessageSync: (o) => validateMessageSync(MESSAGE, o),
  validateToolsListSync: (o) => validateToolsListSync(TOOLS, o),
  repairSync: (o) => repairSync(RESULT, o),
  repairMessageSync: (o) => repairMessageSync(MESSAGE, o),
  errorResult: (o) => errorResult('failed', o),
  shaped: (o) => shaped(() => 'hi', o),
};

const ASYNC: Record<string, Call> = {
  validateToolResult: (o) => validateToolResult(RESULT, o),
  validateMessage: (o) => validateMessage(MESSAGE, o),
  validateToolsList: (o) => validateToolsList(TOOLS, o),
  repair: (o) => repair(RESULT, o),
  repairMessage: (o) => repairMessage(MESSAGE, o),
  toolResult: (o) => toolResult('hi', o),
  'toolResult (a value off the quick path)': (o) => toolResult({ rows: 3 }, o),
  convertWebMcp: (o) => convertWebMcp(RESULT, o),
};

// A typo, a prototype member's name, the CLI's aliases (not library versions), and non-strings.
const WRONG: readonly unknown[] = ['2025-06-19', 'constructor', '__proto__', 'draft', '', 20250618, {}];
const EXPECTED =
  /^unknown protocolVersion .+: expected one of 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28$/;

describe('an unknown protocolVersion option', () => {
  for (const [name, call] of Object.entries(SYNC)) {
    it(`${name} throws a RangeError naming the known versions`, () => {
      for (const protocolVersion of WRONG) {
        expect(() => call({ protocolVersion } as never), String(protocolVersion)).toThrow(RangeError);
        expect(() => call({ protocolVersion } as never)).toThrow(EXPECTED);
      }
    });
  }

  for (const [name, call] of Object.entries(ASYNC)) {
    it(`${name} rejects with it and never throws synchronously`, async () => {
      for (const protocolVersion of WRONG) {
        let returned: unknown;
        expect(() => {
          returned = call({ protocolVersion } as never);
        }).not.toThrow();
        await expect(returned, String(protocolVersion)).rejects.toThrow(EXPECTED);
        await expect(returned).rejects.toBeInstanceOf(RangeError);
      }
    });
  }

  it('every known version, and none at all (undefined or null), is accepted by every entry point', async () => {
    for (const protocolVersion of [...PROTOCOL_VERSIONS, undefined, null]) {
      for (const call of Object.values(SYNC)) expect(() => call({ protocolVersion } as never)).not.toThrow();
      for (const call of Object.values(ASYNC)) await call({ protocolVersion } as never);
    }
  });

  it('names a long string by its start and a non-string by its type', () => {
    expect(protocolVersionOptionError({ protocolVersion: 'x'.repeat(500) })?.message).toContain(
      `"${'x'.repeat(40)}…"`,
    );
    expect(protocolVersionOptionError({ protocolVersion: 7 })?.message).toContain('of type number');
    expect(protocolVersionOptionError({ protocolVersion: {} })?.message).toContain('of type object');
    expect(protocolVersionOptionError({ protocolVersion: null })).toBeUndefined();
    expect(protocolVersionOptionError(undefined)).toBeUndefined();
    expect(protocolVersionOptionError({})).toBeUndefined();
  });

  it('shaped() takes a function for the version and judges what it returns leniently, per call', () => {
    expect(() => shaped(() => 'hi', { protocolVersion: () => 'not a version' })).not.toThrow();
  });
});

describe('options that are no object', () => {
  const LIBRARY_SYNC = ['repairSync', 'repairMessageSync', 'errorResult', 'shaped'] as const;
  const LIBRARY_ASYNC = [
    'repair',
    'repairMessage',
    'toolResult',
    'toolResult (a value off the quick path)',
    'convertWebMcp',
  ] as const;

  it('null is none, as undefined is (it threw "Cannot read properties of null" or abandoned the repair)', async () => {
    for (const name of LIBRARY_SYNC) {
      const answered = SYNC[name]?.(null as never);
      expect(answered, name).not.toHaveProperty('abandoned');
    }
    for (const name of LIBRARY_ASYNC) {
      const answered = await ASYNC[name]?.(null as never);
      expect(answered, name).not.toHaveProperty('abandoned');
      if (name.startsWith('toolResult')) expect(answered, name).not.toHaveProperty('isError');
    }
    await expect(shaped(() => 'hi', null as never)()).resolves.toEqual({
      content: [{ type: 'text', text: 'hi' }],
    });
  });

  it('a version string where { protocolVersion } belongs is a TypeError, not the default version judged', async () => {
    const message =
      /options must be an object such as \{ protocolVersion: '2025-11-25' \}, got "2025-06-18"$/;
    for (const name of LIBRARY_SYNC) expect(() => SYNC[name]?.('2025-06-18' as never), name).toThrow(message);
    for (const name of LIBRARY_ASYNC) {
      let returned: unknown;
      expect(() => {
        returned = ASYNC[name]?.('2025-06-18' as never);
      }).not.toThrow();
      await expect(returned, name).rejects.toThrow(message);
      await expect(returned).rejects.toBeInstanceOf(TypeError);
    }
  });

  it('shaped() says a tool option it cannot read is one, when the tool is registered', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(() => shaped(() => 'hi', { tool: proxy })).toThrow(
      new TypeError(
        "shaped(): options.tool cannot be read (TypeError: Cannot perform 'IsArray' on a proxy that has been revoked)",
      ),
    );
  });
});
