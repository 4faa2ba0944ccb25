/**
 * An MCP server on the official TypeScript SDK v1 whose tools return whatever is convenient (or
 * broken); shaped() turns each return value into a conformant result for the protocol version the
 * client negotiated. Run it with `npx tsx examples/shaped-server.ts` and connect any client over stdio.
 *
 * In your own project, import from 'mcp-shape' instead of '../src/index.js'.
 */

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';
import { shaped } from '../src/index.js';
import { EXAMPLE_TOOLS } from './tools.js';

const server = new McpServer({ name: 'shaped-example', version: '1.0.0' });

for (const tool of EXAMPLE_TOOLS) {
  server.registerTool(
    tool.name,
    { description: tool.description, outputSchema: tool.outputSchema },
    shaped(tool.handler, {
      server,
      // shaped() checks structuredContent against the same schema, as JSON Schema.
      outputSchema: tool.outputSchema && z.toJSONSchema(tool.outputSchema),
      // Repairs are logged to stderr (stdout carries the protocol).
      onFixes: (fixes, { protocolVersion }) =>
        console.error(`${tool.name} @ ${protocolVersion}: ${fixes.map((f) => f.rule).join(', ')}`),
    }),
  );
}

await server.connect(new StdioServerTransport());
