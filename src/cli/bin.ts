#!/usr/bin/env node
import { main } from './main.js';

// `mcp-shape … | head` closes the pipe early; that is the reader's choice, not an error to report.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  // Only a bug in mcp-shape reaches here; user mistakes are UserErrors handled in main().
  process.stderr.write(
    `mcp-shape: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 70;
}
