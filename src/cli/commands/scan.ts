/** `mcp-shape scan [PATH...]`: static analysis of MCP server source (TS/JS and Python). */

import { existsSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { exitCodeFor } from '../../report/build.js';
import type { ReportFormat } from '../../report/index.js';
import { DEFAULT_MAX_FILE_SIZE, scanPaths } from '../../scan/index.js';
import { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion } from '../../spec/versions.js';
import { EXIT, UserError } from '../errors.js';
import { formatHelp, formatOption, PROTOCOL_HELP, protocolOption } from '../options.js';
import { emitReport } from '../output.js';

interface ScanFlags {
  protocol: ProtocolVersion;
  format: ReportFormat;
  out?: string;
  maxFileSize: number;
}

const MB = 1024 * 1024;

function megabytesOption(value: string): number {
  const mb = Number(value);
  if (!Number.isFinite(mb) || mb <= 0)
    throw new InvalidArgumentError('expected a positive number of megabytes');
  return mb * MB;
}

export function scanCommand(): Command {
  return new Command('scan')
    .description(
      'Find MCP tool handlers in TS/JS and Python source and check what they return, with the same rules as check.',
    )
    .argument('[paths...]', 'files or directories (default: the current directory)')
    .addOption(
      new Option('--protocol <version>', PROTOCOL_HELP)
        .argParser(protocolOption)
        .default(DEFAULT_PROTOCOL_VERSION, DEFAULT_PROTOCOL_VERSION),
    )
    .addOption(new Option('--format <format>', formatHelp()).argParser(formatOption).default('text'))
    .option('--out <file>', 'write the report to a file instead of standard output')
    .addOption(
      new Option('--max-file-size <MB>', 'skip (and report) source files larger than this')
        .argParser(megabytesOption)
        .default(DEFAULT_MAX_FILE_SIZE, String(DEFAULT_MAX_FILE_SIZE / MB)),
    )
    .addHelpText(
      'after',
      `
Directories are walked for .ts/.tsx/.mts/.cts/.js/.jsx/.mjs/.cjs and .py files, skipping
node_modules, .git, virtualenvs, dist and build (name a path inside one to scan it anyway).

Verdict of the check mcp-server.tool-definitions.return-content-types:
  pass  every return statement of every tool handler returns a properly typed content array
  fail  some return is wrong (named with the tool and what is wrong), or its value is not
        known statically ("not proven"; check those at run time with mcp-shape audit)
  skip  no tool handler found
The text report ends with it; json, markdown and html carry it as details.verdict, sarif as
the run's summary. The exit code follows the findings, as in check.

Files that cannot be scanned (unreadable, binary, over --max-file-size, syntax errors) are
listed on standard error, one line each, and in details.unscanned.

Exit codes: 0 no error finding, 1 error findings, 2 usage or input error (a missing path,
a file that could not be scanned).`,
    )
    .action(async (paths: string[], flags: ScanFlags) => {
      process.exitCode = await runScan(paths.length > 0 ? paths : ['.'], flags);
    });
}

async function runScan(paths: string[], flags: ScanFlags): Promise<number> {
  const missing = paths.find((p) => !existsSync(p));
  if (missing) throw new UserError(`no such file or directory: ${missing}`);
  const { report, files, unscanned } = await scanPaths(paths, {
    protocolVersion: flags.protocol,
    maxFileSize: flags.maxFileSize,
  });
  if (files.length === 0 && unscanned.length === 0) {
    throw new UserError(`no TS/JS or Python files under ${paths.join(', ')}`);
  }
  for (const u of unscanned) {
    const at = u.line === undefined ? '' : `:${u.line}:${u.column}`;
    process.stderr.write(`mcp-shape: ${u.file}${at}: ${u.reason}\n`);
  }
  emitReport(report, flags.format, flags.out);
  // A scan that left files out is incomplete: that is an input error, whatever the rest found.
  return unscanned.length > 0 ? EXIT.usage : exitCodeFor(report);
}
