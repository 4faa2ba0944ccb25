/** `mcp-shape scan [PATH...]`: static analysis of MCP server source (TS/JS and Python). */

import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Command, InvalidArgumentError, Option } from 'commander';
import { repositoryRoot } from '../../config/repository.js';
import { DEFAULT_MAX_FILE_SIZE, scanPaths } from '../../scan/index.js';
import { createPathFilter, type GlobList } from '../../scan/path-filter.js';
import { DEFAULT_PROTOCOL_VERSION, type ProtocolVersion, parseProtocolVersion } from '../../spec/versions.js';
import { EXIT, errorLine, UserError } from '../errors.js';
import { formatHelp, formatOption, PROTOCOL_HELP, protocolOption } from '../options.js';
import { addPolicyOptions, configOf, finishReport, type PolicyFlags } from '../policy.js';

interface ScanFlags extends PolicyFlags {
  protocol: ProtocolVersion;
  maxFileSize: number;
  include?: string[];
  exclude?: string[];
  gitignore: boolean;
  includeTests?: boolean;
}

function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

const MIB = 1024 * 1024;

function mebibytesOption(value: string): number {
  const mib = Number(value);
  if (!Number.isFinite(mib) || mib <= 0) throw new InvalidArgumentError('expected a positive number of MiB');
  return mib * MIB;
}

export function scanCommand(): Command {
  const command = new Command('scan')
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
    .option('--out <file>', 'write the report to a file instead of standard output (- is standard output)')
    .addOption(
      new Option('--max-file-size <MiB>', 'skip (and report) source files larger than this many MiB')
        .argParser(mebibytesOption)
        .default(DEFAULT_MAX_FILE_SIZE, String(DEFAULT_MAX_FILE_SIZE / MIB)),
    )
    .option(
      '--exclude <glob>',
      'leave out files and directories matching GLOB when walking (repeatable)',
      collect,
    )
    .option('--include <glob>', 'when walking, scan only files matching GLOB (repeatable)', collect)
    .option('--no-gitignore', 'also scan what .gitignore files ignore')
    .option(
      '--include-tests',
      'also scan test code (test/, tests/, __tests__/, *.test.*, *.spec.*, test_*.py, *_test.py, conftest.py)',
    );
  return addPolicyOptions(command, 'scan', {
    protocol: { option: 'protocol', convert: (v: string) => parseProtocolVersion(v) },
    include: { option: 'include' },
    exclude: { option: 'exclude' },
    gitignore: { option: 'gitignore' },
    includeTests: { option: 'includeTests' },
  })
    .addHelpText(
      'after',
      `
Directories are walked for .ts/.tsx/.mts/.cts/.js/.jsx/.mjs/.cjs and .py files, skipping
node_modules, .git, virtualenvs, dist and build, what .gitignore ignores, and what --exclude
matches (name a path inside one to scan it anyway). Globs are relative to the working directory
(or, from the configuration file, to its directory); one without "/" matches a name at any depth:
  --exclude 'fixtures/**' --exclude '*.test.ts' --include 'src/**'

Verdict of the check mcp-server.tool-definitions.return-content-types:
  pass  every return statement of every tool handler returns a properly typed content array
  fail  some return is wrong (named with the tool and what is wrong), or its value is not
        known statically ("not proven"; check those at run time with mcp-shape audit)
  skip  no tool handler found
The text, html and markdown reports open with it (json carries it as details.verdict, sarif as
the run's summary); each finding shows the offending code with a caret under the expression, the
branch it arises in and the tool returns it reaches.

Test code is not a server: walking a directory leaves out test/, tests/ and __tests__/
directories and *.test.*, *.spec.*, test_*.py, *_test.py and conftest.py files (listed in
details.skippedTests) unless --include-tests is given; a test file named on the command line is
scanned. The exit code follows the findings, as in check.

Files that cannot be scanned (unreadable, binary, over --max-file-size, syntax errors) are
listed on standard error, one line each, and in details.unscanned; the verdict is FAIL while there
are any. They count as warnings for
--fail-on: the default (error) does not fail on them, --fail-on warning does. When no file at
all could be scanned, the exit code is 2.

Exit codes: 0 nothing at or above --fail-on (default: error), 1 findings at or above it,
2 usage or input error (a missing path, a bad option or configuration).`,
    )
    .action(async (paths: string[], flags: ScanFlags, self: Command) => {
      process.exitCode = await runScan(paths.length > 0 ? paths : ['.'], flags, self);
    });
}

/** Globs from the command line are relative to the working directory, from the configuration to its file. */
function globList(
  self: Command,
  key: 'include' | 'exclude',
  patterns: string[] | undefined,
): GlobList | undefined {
  if (!patterns) return undefined;
  const config = configOf(self);
  const base =
    self.getOptionValueSource(key) === 'config' && config ? dirname(resolve(config.file)) : process.cwd();
  return { patterns, base };
}

async function runScan(paths: string[], flags: ScanFlags, self: Command): Promise<number> {
  const missing = paths.find((p) => !existsSync(p));
  if (missing) throw new UserError(`no such file or directory: ${missing}`);
  const anchor = paths[0] as string;
  const filter = createPathFilter({
    cwd: process.cwd(),
    roots: paths,
    include: globList(self, 'include', flags.include),
    exclude: globList(self, 'exclude', flags.exclude),
    gitignoreRoot: flags.gitignore ? repositoryRoot(resolve(anchor)) : undefined,
  });
  const { report, files, unscanned, skippedTests } = await scanPaths(paths, {
    protocolVersion: flags.protocol,
    maxFileSize: flags.maxFileSize,
    filter,
    ...(flags.includeTests ? { includeTests: true } : {}),
  });
  if (files.length === 0 && unscanned.length === 0) {
    const filtered = flags.include || flags.exclude ? ' (after --include/--exclude and .gitignore)' : '';
    const tests =
      skippedTests.length > 0
        ? ` (${skippedTests.length} test ${skippedTests.length === 1 ? 'path' : 'paths'} left out; --include-tests scans them)`
        : '';
    throw new UserError(`no TS/JS or Python files under ${paths.join(', ')}${filtered}${tests}`);
  }
  for (const u of unscanned) {
    const at = u.line === undefined ? '' : `:${u.line}:${u.column}`;
    // The file's name and the parser's words quote the repository: escaped for the terminal.
    process.stderr.write(errorLine(`${u.file}${at}: ${u.reason}`));
  }
  // Nothing could be scanned at all: there is no report to speak of, only bad input.
  if (files.every((f) => f.error !== undefined)) return EXIT.usage;
  return finishReport(self, report, { anchor, incomplete: unscanned.length });
}
