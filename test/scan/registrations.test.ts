/**
 * Every registration form of issue 8, item 6, beyond the SDK forms the other fixtures cover: the SDK's
 * task tools, hand-rolled JSON-RPC gateways on Express, Hono, plain node:http, Flask and Starlette,
 * and the standalone `fastmcp` package (decorators with and without parentheses). Each file's
 * defects are marked `expect:` (fixtures.test.ts holds the scan to them); here: which tools each
 * form yields, and that a gateway's JSON-RPC error sent with an HTTP error status is advice.
 */

import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { scanPaths } from '../../src/scan/index.js';
import { REPO_ROOT } from '../support/cli.js';

const dir = join(REPO_ROOT, 'fixtures/scan/registrations');

describe('registration forms', () => {
  it('yields the tools of each form, with their returns judged', async () => {
    const { files, report } = await scanPaths([dir], { cwd: dir });
    expect(report.details?.unscanned).toBeUndefined();
    const tools = Object.fromEntries(
      files.map((f) => [
        f.file,
        f.handlers.map((h) => `${h.tool} [${h.framework}] ${h.returns.map((r) => r.status).join(',')}`),
      ]),
    );
    expect(tools).toEqual({
      'express-gateway.js': ['POST /mcp [gateway] invalid'],
      'fastmcp2.py': [
        'hello [fastmcp-python] typed',
        'greet [fastmcp-python] typed',
        'profile [fastmcp-python] typed',
      ],
      'flask_gateway.py': ['mcp [gateway] invalid'],
      'hono-gateway.ts': ['POST /mcp [gateway] invalid'],
      'http-gateway.mjs': ['createServer handler [gateway] invalid'],
      'starlette_gateway.py': ['mcp [gateway] invalid'],
      // createTask returns the task (typed); getTaskResult returns the result the client receives.
      'tool-task.ts': ['render [mcp-sdk] typed,invalid'],
    });
  });

  it('reports a transport-level JSON-RPC error (sent with 4xx/5xx) as info, naming the status', async () => {
    const { report } = await scanPaths([dir], { cwd: dir });
    const transport = report.findings.filter((f) => f.rule === 'envelope-id-invalid');
    expect(transport.map((f) => `${f.location?.file}:${f.severity}`).sort()).toEqual([
      'express-gateway.js:info',
      'flask_gateway.py:info',
      'hono-gateway.ts:info',
      'starlette_gateway.py:info',
    ]);
    for (const f of transport) expect(f.message).toMatch(/sent with HTTP status (400|404|405)/);
  });
});
