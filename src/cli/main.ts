/** The `mcp-shape` command line. Each command lives in commands/<name>.ts and is registered here. */

import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { auditCommand } from './commands/audit.js';
import { checkCommand } from './commands/check.js';
import { proxyCommand } from './commands/proxy.js';
import { repairCommand } from './commands/repair.js';
import { scanCommand } from './commands/scan.js';
import { EXIT, UserError } from './errors.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export function buildProgram(): Command {
  const program = new Command('mcp-shape')
    .description('Find and fix MCP tool results that clients reject.')
    .version(version)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  program.addCommand(checkCommand());
  program.addCommand(auditCommand());
  program.addCommand(scanCommand());
  program.addCommand(repairCommand());
  program.addCommand(proxyCommand());
  // addCommand() does not pass settings down, so every command gets the same error handling here.
  for (const command of program.commands) {
    command.exitOverride().showHelpAfterError('(run with --help for usage)');
  }
  return program;
}

export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv as string[], { from: 'user' });
    return process.exitCode === undefined ? EXIT.clean : Number(process.exitCode);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message; --help and --version exit cleanly.
      return error.exitCode === 0 ? EXIT.clean : EXIT.usage;
    }
    if (error instanceof UserError) {
      process.stderr.write(`mcp-shape: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
