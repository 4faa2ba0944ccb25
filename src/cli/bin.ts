#!/usr/bin/env node
import { systemErrorWords } from '../core/system-error.js';
import { main, startedCommand } from './main.js';

// `mcp-shape … | head` closes the pipe early; that is the reader's choice, not an error to report.
// Under the stdio proxy it is the client going away: the proxy's log on stderr says so in one line, even
// with --quiet, as it is why the proxy exits (and its exit ends the server).
// Any other failure to write standard output is the one line every input error gets.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') {
    if (startedCommand() === 'proxy') {
      process.stderr.write(
        'mcp-shape proxy: the client stopped reading (its end of standard output is closed); exiting, which ends the server\n',
      );
    }
    process.exit(process.exitCode ?? 0);
  }
  process.stderr.write(`mcp-shape: cannot write standard output: ${systemErrorWords(error)}\n`);
  process.exit(2);
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
