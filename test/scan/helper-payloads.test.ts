/**
 * A dict a helper builds is judged where it goes: as what the tool handler that called the helper
 * returns, after its framework's conversion. It was also judged as a block of its own, whatever the
 * handler made of it, so a FastMCP tool returning `[text_block(1)]` (FastMCP sends each dict as JSON
 * text, valid content) had an error and a PASS at once; the low-level server sends the dict as built.
 */

import { describe, expect, it } from 'vitest';
import { scanSource } from '../../src/scan/index.js';
import { computeVerdict } from '../../src/scan/verdict.js';

const HELPER = `

def text_block(value):
    return {"type": "text", "text": value}

`;

async function scanned(source: string) {
  const file = await scanSource('server.py', source);
  return {
    findings: file.findings.map((f) => `${f.rule}@${f.location?.line}`),
    verdict: computeVerdict(file.handlers).status,
  };
}

describe('a block-like dict built by a helper a tool handler calls', () => {
  it('FastMCP sends it as JSON text: no finding, and the tool passes', async () => {
    const source = `from mcp.server.fastmcp import FastMCP
mcp = FastMCP("s")${HELPER}
@mcp.tool()
def counts() -> list:
    return [text_block(1), text_block("two")]
`;
    expect(await scanned(source)).toEqual({ findings: [], verdict: 'pass' });
  });

  it('the low-level server sends it as built: an error at the text it was given, and the tool fails', async () => {
    const source = `from mcp.server.lowlevel import Server
server = Server("s")${HELPER}
@server.call_tool()
async def call_tool(name, arguments):
    return [text_block(1), text_block("two")]
`;
    expect(await scanned(source)).toEqual({ findings: ['block-text-invalid@10'], verdict: 'fail' });
  });
});
