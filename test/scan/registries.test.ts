/**
 * Tools kept in a registry the handler looks up at run time: a `Map` filled with `tools.set(t.name, t)`
 * and read by a low-level tools/call handler (`tools.get(name).run(args)`). Each stored tool's function
 * is run as a possible handler, so its defects are reported where they are written; a lookup may also
 * give a tool stored where the analysis did not see it, so the return is never proven whole.
 */

import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';
import { computeVerdict } from '../../src/scan/verdict.js';

const server = (block: string) => `import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const server = new Server({ name: 's', version: '1' }, { capabilities: { tools: {} } });
const tools = new Map<string, { name: string; run: (args: unknown) => Promise<unknown> }>();
function register(tool: { name: string; run: (args: unknown) => Promise<unknown> }) {
  tools.set(tool.name, tool);
}
register({ name: 'hello', run: async () => ({ content: [{ type: 'text', text: 'hi' }] }) });
register({ name: 'logo', run: async () => ({ content: [${block}] }) });
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const tool = tools.get(request.params.name);
  if (!tool) throw new Error('unknown tool');
  return tool.run(request.params.arguments);
});
`;

describe('a Map of tools looked up by a low-level handler', () => {
  it("reports a stored tool's invalid block where it is written, and fails", async () => {
    const file = await scanSource('server.ts', server("{ type: 'image', data: 'iVBORw0KGgo=' }"));
    expect(
      file.findings.map((f) => `${f.severity} ${f.rule} ${f.location?.file}:${f.location?.line}`),
    ).toEqual(['error block-mime-type-missing server.ts:10']);
    expect(file.handlers.flatMap((h) => h.returns.map((r) => `${r.line} ${r.status}`))).toEqual([
      '14 invalid',
    ]);
    expect(computeVerdict(file.handlers).status).toBe('fail');
  });

  it('leaves the clean twin unresolved, never typed: a tool may be stored where the scan did not see it', async () => {
    const file = await scanSource(
      'server.ts',
      server("{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }"),
    );
    expect(file.findings).toEqual([]);
    const returns = file.handlers.flatMap((h) => h.returns);
    expect(returns.map((r) => `${r.line} ${r.status}`)).toEqual(['14 unresolved']);
    expect(returns[0]?.reason).toContain('tool.run(request.params.arguments)');
    expect(computeVerdict(file.handlers)).toMatchObject({ status: 'fail', typed: 0, unresolved: 1 });
  });
});
