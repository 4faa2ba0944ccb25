/**
 * End to end: the example servers (examples/shaped-server*.ts) run as real processes; the official SDK
 * clients talk to them over stdio. Every tool, broken shapes included, must reach the client without
 * error, as a result that our validator, the official schema and the SDK parser accept.
 */

import { join } from 'node:path';
import { Client as V2Client } from '@modelcontextprotocol/client';
import { StdioClientTransport as V2StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_TOOLS } from '../../examples/tools.js';
import type { ProtocolVersion } from '../../src/spec/versions.js';
import { validateToolResult } from '../../src/validate/index.js';
import { bundleScript } from '../support/cli-bundle.js';
import { hasShared, officialSchema } from './support/oracles.js';
import { RawStdioClient } from './support/raw-stdio.js';

const root = join(import.meta.dirname, '../..');
/**
 * The example servers, bundled once per file (test/support/cli-bundle.ts) and started with `node`, as a
 * user's built server would be: through tsx each start cost about 3 CPU-seconds.
 */
const SERVER_V1 = await bundleScript(root, 'examples/shaped-server.ts', 'examples');
const SERVER_V2 = await bundleScript(root, 'examples/shaped-server-v2.ts', 'examples');
const TIMEOUT = 120_000;

/** The example tools as the server lists them (with their outputSchema), by name. */
type Listed = ReadonlyMap<string, unknown>;

function byName(tools: readonly { name: string }[]): Listed {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

async function judge(result: unknown, version: ProtocolVersion, tool?: unknown): Promise<string[]> {
  const problems = (await validateToolResult(result, { protocolVersion: version, tool }))
    .filter((f) => f.severity === 'error')
    .map((f) => `${f.rule} ${f.pointer}`);
  if (hasShared) {
    const verdict = officialSchema(version)(result);
    if (!verdict.ok) problems.push(`schema: ${verdict.errors}`);
  }
  return problems;
}

/** Calls every example tool and lists each one whose result some judge rejects. */
async function failingTools(
  call: (name: string) => Promise<unknown>,
  version: ProtocolVersion,
  listed: Listed,
  parse?: (result: unknown) => string[],
): Promise<string[]> {
  const failures: string[] = [];
  for (const tool of EXAMPLE_TOOLS) {
    const result = await call(tool.name);
    const problems = [...(parse?.(result) ?? []), ...(await judge(result, version, listed.get(tool.name)))];
    if (problems.length > 0) failures.push(`${tool.name}: ${problems.join('; ')}`);
  }
  return failures;
}

describe('shaped() on an SDK v1 server, SDK v1 Client over stdio', () => {
  let client: Client;
  let transport: StdioClientTransport;
  let listed: Listed;
  const stderr: string[] = [];

  beforeAll(async () => {
    transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER_V1],
      cwd: root,
      stderr: 'pipe',
    });
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    client = new Client({ name: 'e2e', version: '0.0.0' });
    await client.connect(transport);
    // listTools() makes callTool() check structuredContent against each outputSchema, as clients do.
    listed = byName((await client.listTools()).tools);
  }, TIMEOUT);

  afterAll(async () => {
    await client?.close();
  });

  it('negotiated 2025-11-25, the SDK v1 latest', () => {
    expect(client.getServerVersion()?.name).toBe('shaped-example');
  });

  it.each(EXAMPLE_TOOLS.map((t) => [t.name, t.description]))(
    '%s (%s) reaches the client as a conformant result',
    async (name) => {
      // callTool parses with CallToolResultSchema and rejects with a ZodError on a malformed result.
      const result = await client.callTool({ name, arguments: {} });
      expect(await judge(result, '2025-11-25', listed.get(String(name)))).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'maps values as documented',
    async () => {
      const weather = await client.callTool({ name: 'weather', arguments: {} });
      expect(weather.structuredContent).toEqual({ city: 'Lyon', celsius: 21 });
      expect(weather.content).toEqual([{ type: 'text', text: '{"city":"Lyon","celsius":21}' }]);
      const primes = await client.callTool({ name: 'primes', arguments: {} });
      expect(primes.structuredContent).toEqual({ result: [2, 3, 5, 7] });
      const pixel = await client.callTool({ name: 'pixel', arguments: {} });
      expect(pixel.content).toEqual([expect.objectContaining({ type: 'image', mimeType: 'image/png' })]);
      const fails = await client.callTool({ name: 'fails', arguments: {} });
      expect(fails.isError).toBe(true);
      expect(fails.content).toEqual([{ type: 'text', text: 'the upstream API is down' }]);
    },
    TIMEOUT,
  );

  it(
    'keeps outputSchema promises (client-compat §4 rows 24-26): a match as is, a breach as an error saying why',
    async () => {
      const forecast = await client.callTool({ name: 'forecast', arguments: {} });
      expect(forecast).toEqual({
        content: [{ type: 'text', text: '{"temperature":21}' }],
        structuredContent: { temperature: 21 },
      });
      for (const name of ['forecast-wrong-type', 'forecast-missing', 'forecast-error-partial']) {
        const result = await client.callTool({ name, arguments: {} });
        expect(result.isError, name).toBe(true);
        expect(result.structuredContent, name).toBeUndefined();
      }
      const wrongType = await client.callTool({ name: 'forecast-wrong-type', arguments: {} });
      expect(JSON.stringify(wrongType.content)).toContain('/temperature must be number');
      const partial = await client.callTool({ name: 'forecast-error-partial', arguments: {} });
      expect(partial.content).toContainEqual({ type: 'text', text: 'the sensor is offline' });
    },
    TIMEOUT,
  );

  it(
    'logged the repairs through onFixes',
    async () => {
      await client.callTool({ name: 'string-content', arguments: {} });
      await expect.poll(() => stderr.join(''), { timeout: 20_000 }).toContain('string-content @ 2025-11-25');
    },
    TIMEOUT,
  );
});

describe.each(['2024-11-05', '2025-03-26', '2025-06-18'] as const)(
  'shaped() on an SDK v1 server, protocol %s negotiated by a raw stdio client',
  (version) => {
    let raw: RawStdioClient;
    let listed: Listed;

    beforeAll(async () => {
      raw = new RawStdioClient(process.execPath, [SERVER_V1], root);
      const init = await raw.initialize(version);
      expect((init.result as { protocolVersion: string }).protocolVersion).toBe(version);
      listed = byName(((await raw.request('tools/list', {})).result as { tools: { name: string }[] }).tools);
    }, TIMEOUT);

    afterAll(() => raw?.close());

    it(
      'every tool answers a result the SDK v1 parser, the schema and our validator accept',
      async () => {
        const failures = await failingTools(
          async (name) => (await raw.request('tools/call', { name, arguments: {} })).result,
          version,
          listed,
          (result) => {
            const parsed = CallToolResultSchema.safeParse(result);
            return parsed.success ? [] : [parsed.error.message];
          },
        );
        expect(failures).toEqual([]);
      },
      TIMEOUT,
    );

    it(
      'uses only the blocks the version has',
      async () => {
        const link = await raw.request('tools/call', { name: 'resource-link', arguments: {} });
        const types = ((link.result as { content: { type: string }[] }).content ?? []).map((b) => b.type);
        if (version < '2025-06-18') expect(types).not.toContain('resource_link');
        else expect(types).toContain('resource_link');
        const clip = await raw.request('tools/call', { name: 'audio-clip', arguments: {} });
        const clipTypes = ((clip.result as { content: { type: string }[] }).content ?? []).map((b) => b.type);
        if (version === '2024-11-05') expect(clipTypes).not.toContain('audio');
        else expect(clipTypes).toContain('audio');
      },
      TIMEOUT,
    );
  },
);

describe('shaped() on an SDK v2 server, SDK v2 Client at 2026-07-28 over stdio', () => {
  let client: V2Client;
  let listed: Listed;

  beforeAll(async () => {
    const transport = new V2StdioClientTransport({
      command: process.execPath,
      args: [SERVER_V2],
      cwd: root,
    });
    client = new V2Client(
      { name: 'e2e', version: '0.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(transport);
    listed = byName((await client.listTools()).tools);
  }, TIMEOUT);

  afterAll(async () => {
    await client?.close();
  });

  it.each(EXAMPLE_TOOLS.map((t) => [t.name, t.description]))(
    '%s (%s) reaches the client as a conformant result',
    async (name) => {
      const result = await client.callTool({ name, arguments: {} });
      // The v2 client strips wire-only members such as resultType before handing the result over.
      expect(
        await judge({ resultType: 'complete', ...result }, '2026-07-28', listed.get(String(name))),
      ).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'sends non-object structuredContent as is in 2026-07-28',
    async () => {
      const primes = await client.callTool({ name: 'primes', arguments: {} });
      expect(primes.structuredContent).toEqual([2, 3, 5, 7]);
    },
    TIMEOUT,
  );
});

describe('shaped() on an SDK v2 server, SDK v2 Client in the 2025 era over stdio', () => {
  let client: V2Client;
  let listed: Listed;

  beforeAll(async () => {
    const transport = new V2StdioClientTransport({
      command: process.execPath,
      args: [SERVER_V2],
      cwd: root,
    });
    client = new V2Client({ name: 'e2e', version: '0.0.0' });
    await client.connect(transport);
    listed = byName((await client.listTools()).tools);
  }, TIMEOUT);

  afterAll(async () => {
    await client?.close();
  });

  it(
    'every tool reaches the client as a conformant 2025-11-25 result',
    async () => {
      const failures = await failingTools(
        (name) => client.callTool({ name, arguments: {} }),
        '2025-11-25',
        listed,
      );
      expect(failures).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'wraps non-object structuredContent as {result} for the 2025 era',
    async () => {
      const primes = await client.callTool({ name: 'primes', arguments: {} });
      expect(primes.structuredContent).toEqual({ result: [2, 3, 5, 7] });
    },
    TIMEOUT,
  );
});
