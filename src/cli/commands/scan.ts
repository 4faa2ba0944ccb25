/** `mcp-shape scan [PATH...]`: static analysis of MCP server source (TS/JS and Python). */

import { existsSync, writeFileSync } from 'node:fs';
import { Command, InvalidArgumentError, Option } from 'commander';
import { exitCodeFor } from '../../report/build.js';
import { renderJson } from '../../report/json.js';
import { renderSarif } from '../../report/sarif.js';
import { renderText } from '../../report/text.js';
import { SCAN_DEFAULT_PROTOCOL, scanPaths } from '../../scan/index.js';
import { renderVerdict } from '../../scan/verdict.js';
import type { ProtocolVersion } from '../../spec/versions.js';
import { UserError } from '../errors.js';
import { PROTOCOL_HELP, protocolOption } from '../options.js';

const SCAN_FORMATS = ['text', 'json', 'sarif'] as const;
type ScanFormat = (typeof SCAN_FORMATS)[number];

interface ScanFlags {
  protocol: ProtocolVersion;
  format: ScanFormat;
  out?: string;
}

function scanFormat(value: string): ScanFormat {
  if (!(SCAN_FORMATS as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`expected one of ${SCAN_FORMATS.join(', ')}`);
  }
  return value as ScanFormat;
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
    .addOption(
      new Option('--format <format>', `output format: ${SCAN_FORMATS.join(', ')}`)
        .argParser(scanFormat)
        .default('text'),
    )
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
  let rendered: string;
  switch (flags.format) {
    case 'json':
      rendered = renderJson(report);
      break;
    case 'sarif':
      rendered = renderSarif(report);
      break;
    case 'text': {
      const color = flags.out === undefined ? {} : { color: false };
      const findings = report.findings.length > 0 ? `${renderText(report, color)}\n` : '';
      rendered = `${findings}${renderVerdict(verdict)}`;
    }
  }
  if (flags.out === undefined) process.stdout.write(rendered);
  else {
    try {
      writeFileSync(flags.out, rendered);
    } catch (error) {
      throw new UserError(
        `cannot write ${flags.out}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      );
    }
  }
  return exitCodeFor(report);
}
