/**
 * The same tools on the official TypeScript SDK v2 server package (@modelcontextprotocol/server). A v2
 * client can talk 2026-07-28 to it (server/discover, per-request envelope), where structuredContent may
 * be any JSON value and every result carries resultType; 2025-era clients still get initialize.
 * shaped() reads the version of each request from its context.
 *
 * In your own project, import from 'mcp-shape' instead of '../src/index.js'.
 */

import { McpServer, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import { shaped } from '../src/index.js';
import { EXAMPLE_TOOLS } from './tools.js';

// serveStdio picks the era from the opening message and pins one server from this factory to it.
serveStdio(() => {
  const server = new McpServer(
    { name: 'shaped-example-v2', version: '1.0.0' },
    // 2026-07-28 is served only when listed; the default list holds the 2025 era.
    { supportedProtocolVersions: ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS] },
  );
  for (const tool of EXAMPLE_TOOLS) {
    server.registerTool(
      tool.name,
      { description: tool.description, outputSchema: tool.outputSchema },
      shaped(tool.handler, { server, outputSchema: tool.outputSchema && z.toJSONSchema(tool.outputSchema) }),
    );
  }
  return server;
});
