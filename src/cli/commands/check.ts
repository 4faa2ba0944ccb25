/** `mcp-shape check [FILE|-]`: validates saved results, responses, tools lists and recorded sessions. */

import { Command, Option } from 'commander';
import { checkWithMatrix, classifyDocument, type MatrixCheckOutcome } from '../../check/index.js';
import type { JsonObject } from '../../core/json.js';
import { buildReport } from '../../report/build.js';
import type { Report } from '../../report/index.js';
import { type ProtocolVersion, parseProtocolVersion } from '../../spec/versions.js';
import { UsageError } from '../errors.js';
import {
  formatHelp,
  formatOption,
  PROTOCOL_DEFAULT_HELP,
  PROTOCOL_HELP,
  protocolOrAllOption,
} from '../options.js';
import { addPolicyOptions, finishReport, matrixPolicy, type PolicyFlags } from '../policy.js';
import { ambiguousTool, loadTools, parseOrFail, readTextInput } from '../read-input.js';

interface CheckFlags extends PolicyFlags {
  protocol?: ProtocolVersion | 'all';
  tools?: string;
  tool?: string;
}

export function checkCommand(): Command {
  const command = new Command('check')
    .description(
      'Validate a saved tools/call result, a JSON-RPC response, a tools/list result, or a JSONL session recording.',
    )
    .argument('[file]', 'JSON or JSONL file; "-" or nothing reads standard input')
    .addOption(
      new Option(
        '--protocol <version>',
        `${PROTOCOL_HELP}, or "all" for every version; ${PROTOCOL_DEFAULT_HELP}`,
      ).argParser(protocolOrAllOption),
    )
    .option('--tools <file>', 'a tools/list result or response, for outputSchema checks')
    .option(
      '--tool <name>',
      'the tool a single result belongs to (looked up in --tools; needed when it lists several and one has an outputSchema)',
    )
    .addOption(new Option('--format <format>', formatHelp()).argParser(formatOption).default('text'))
    .option('--out <file>', 'write the report to a file instead of standard output (- is standard output)');
  return addPolicyOptions(command, 'check', {
    protocol: { option: 'protocol', convert: (v: string) => parseProtocolVersion(v) },
  })
    .addHelpText(
      'after',
      `
Sessions (JSONL, one JSON-RPC message per line) take their protocol version from initialize or
server/discover when recorded; --protocol is used until then.

The input is checked under every protocol version too: when the verdict differs between versions, the
report says so in one line ("valid for 2024-11-05 … 2025-11-25; fails 2026-07-28: …").
--protocol all reports the findings of every version and prints the whole matrix.

Exit codes: 0 nothing at or above --fail-on (default: error), 1 findings at or above it,
2 usage or input error.`,
    )
    .action(async (file: string | undefined, flags: CheckFlags, self: Command) => {
      process.exitCode = await runCheck(file, flags, self);
    });
}

async function runCheck(file: string | undefined, flags: CheckFlags, self: Command): Promise<number> {
  const { text, label, invalidUtf8 } = await readTextInput(file);
  const input = parseOrFail(text, label);
  const tools = flags.tools ? await loadTools(flags.tools) : undefined;
  let tool: JsonObject | undefined;
  if (flags.tool) {
    tool = tools?.get(flags.tool);
    if (!tools) throw new UsageError('--tool needs --tools FILE to find the tool definition');
    if (!tool)
      throw new UsageError(
        `tool "${flags.tool}" is not in ${flags.tools} (it has: ${[...tools.keys()].join(', ') || 'no tools'})`,
      );
  } else if (tools?.size === 1) {
    tool = [...tools.values()][0];
  } else if (
    tools &&
    input.kind === 'json' &&
    ['message', 'tool-result', 'batch'].includes(classifyDocument(input.value))
  ) {
    // A session names its tools in its requests; a single saved result does not.
    const ambiguous = ambiguousTool(tools, flags.tools as string);
    if (ambiguous) throw new UsageError(ambiguous);
  }
  const context = file && file !== '-' ? { anchor: file } : {};
  const policy = matrixPolicy(self, context);
  const outcome = await checkWithMatrix(input, {
    protocolVersion: flags.protocol,
    file: label,
    tools,
    tool,
    policy,
    invalidUtf8,
  });
  const report = checkReport(outcome);
  return finishReport(self, report, context);
}

/** The Report of a check: the findings, what was checked, and the version matrix with its one line. */
export function checkReport(outcome: MatrixCheckOutcome): Report {
  return buildReport('check', outcome.findings, outcome.checked, {
    summary: {
      kind: outcome.kind,
      protocolVersions: outcome.protocolVersions,
      ...(outcome.noServerMessage ? { noServerMessage: true } : {}),
      ...(outcome.versionVerdict ? { versionVerdict: outcome.versionVerdict } : {}),
    },
    details: { versionMatrix: outcome.matrix },
  });
}
