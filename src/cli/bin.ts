#!/usr/bin/env node
import { main } from './main.js';

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // Only a bug in mcp-shape reaches here; user mistakes are UserErrors handled in main().
  process.stderr.write(
    `mcp-shape: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 70;
}
