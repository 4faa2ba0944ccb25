/** `mcp-shape scan [PATH...]`: static analysis of MCP server source (TS/JS and Python). */

import { existsSync } from 'node:fs';
import { Command, Option } from 'commander';
import { exitCodeFor } from '../../report/build.js';
import type { ReportFormat } from '../../report/index.js';
import { SCAN_DEFAULT_PROTOCOL, scanPaths } from '../../scan/index.js';
import type { ProtocolVersion } from '../../spec/versions.js';
import { UserError } from '../errors.js';
import { formatHelp, formatOption, PROTOCOL_HELP, protocolOption } from '../options.js';
import { emitReport } from '../output.js';

interface ScanFlags {
  protocol: ProtocolVersion;
  format: ReportFormat;
  out?: string;
}

export function scanCommand(): Command {
  return new Command('scan')
    .description(
      'Find MCP tool handlers in TS/JS and Python source and check what they return, with the same rules as check.',
    )
    .argument('[paths...]', 'files or directories (default: the current directory)')
    .addOption(
      new Option('--protocol <version>', `${PROTOCOL_HELP} (default: ${SCAN_DEFAULT_PROTOCOL})`)
        .argParser(protocolOption)
        .default(SCAN_DEFAULT_PROTOCOL, SCAN_DEFAULT_PROTOCOL),
    )
    .addOption(new Option('--format <format>', formatHelp()).argParser(formatOption).default('text'))
    .option('--out <file>', 'write the report to a file instead of standard output')
    .addHelpText(
      'after',
      `
Directories are walked for .ts/.tsx/.mts/.cts/.js/.jsx/.mjs/.cjs and .py files, skipping
node_modules, .git, virtualenvs, dist and build (name a path inside one to scan it anyway).

The text and JSON reports carry the verdict of the check
mcp-server.tool-definitions.return-content-types (pass / fail / skip).

Exit codes: 0 no error finding, 1 error findings, 2 usage or input error.`,
    )
    .action(async (paths: string[], flags: ScanFlags) => {
      process.exitCode = await runScan(paths.length > 0 ? paths : ['.'], flags);
    });
}

async function runScan(paths: string[], flags: ScanFlags): Promise<number> {
  const missing = paths.find((p) => !existsSync(p));
  if (missing) throw new UserError(`cannot scan ${missing}: no such file or directory`);
  const { report, verdict, files } = await scanPaths(paths, { protocolVersion: flags.protocol });
  if (files.length === 0) throw new UserError(`no TS/JS or Python files under ${paths.join(', ')}`);
  for (const f of files) if (f.error) process.stderr.write(`mcp-shape: ${f.file}: not parsed: ${f.error}\n`);
  emitReport(report, flags.format, flags.out);
  return exitCodeFor(report);
}
