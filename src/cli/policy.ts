/**
 * The CI layer every reporting command shares: the configuration file, `--fail-on`,
 * `--min-severity`, baselines, the repository root and extra report files. A command adds these
 * options with `addPolicyOptions`, names which configuration keys fill which of its own options, and
 * hands its finished report to `finishReport`, which decides the exit code. The decisions themselves
 * are pure (src/policy, src/config/load.ts); this file only reads and writes.
 */

import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import type { MatrixPolicy } from '../check/index.js';
import { ConfigError, commandConfig, type LoadedConfig, loadConfig } from '../config/load.js';
import { repositoryRoot, rootRelative } from '../config/repository.js';
import { SEVERITIES, type Severity } from '../core/finding.js';
import { systemErrorCode, systemErrorWords } from '../core/system-error.js';
import { readTextFile } from '../io/read-text.js';
import { applyPolicy, type Policy } from '../policy/apply.js';
import { BaselineError, createBaseline, parseBaseline, serializeBaseline } from '../policy/baseline.js';
import { fingerprintReportUnits } from '../policy/fingerprint-report.js';
import { FAIL_ON_VALUES, type FailOn } from '../policy/severity.js';
import { buildReport } from '../report/build.js';
import { type Report, type ReportFormat, renderReportPieces } from '../report/index.js';
import { EXIT, errorLine, UserError } from './errors.js';
import { formatOption } from './options.js';
import { writeOutput } from './output.js';

export type PolicyCommand = 'check' | 'scan' | 'audit';

export interface ReportTarget {
  readonly format: ReportFormat;
  readonly file: string;
}

/** The options addPolicyOptions adds, as commander parses them. */
export interface PolicyFlags {
  readonly format: ReportFormat;
  readonly out?: string;
  readonly config?: string;
  readonly failOn: FailOn;
  readonly minSeverity: Severity;
  readonly baseline?: string;
  readonly writeBaseline?: string;
  readonly root?: string;
  readonly report?: readonly ReportTarget[];
}

function choice<T extends string>(values: readonly T[]) {
  return (value: string): T => {
    if (!(values as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(`expected one of ${values.join(', ')}`);
    }
    return value as T;
  };
}

/** `--report sarif:results.sarif`. */
export function reportTargetOption(
  value: string,
  previous: readonly ReportTarget[] | undefined,
): ReportTarget[] {
  const colon = value.indexOf(':');
  if (colon <= 0 || colon === value.length - 1) {
    throw new InvalidArgumentError('expected FORMAT:FILE, e.g. sarif:mcp-shape.sarif');
  }
  const target = { format: formatOption(value.slice(0, colon)), file: value.slice(colon + 1) };
  return [...(previous ?? []), target];
}

/**
 * A configuration key that fills one of the command's own options when the command line does not
 * set it (commander's value source is then `default` or unset).
 */
export interface ConfigOption {
  readonly option: string;
  readonly convert?: (value: never) => unknown;
}

export type ConfigMapping = Readonly<Record<string, ConfigOption>>;

const loadedConfigs = new WeakMap<Command, LoadedConfig | undefined>();

export function addPolicyOptions(
  command: Command,
  name: PolicyCommand,
  mapping: ConfigMapping = {},
): Command {
  command
    .option(
      '--config <file>',
      'configuration file (default: mcp-shape.config.json or package.json "mcp-shape", searched upward)',
    )
    .addOption(
      new Option(
        '--fail-on <severity>',
        `least severity that fails the run (exit 1): ${FAIL_ON_VALUES.join(', ')}`,
      )
        .argParser(choice(FAIL_ON_VALUES))
        .default('error'),
    )
    .addOption(
      new Option('--min-severity <severity>', `least severity shown: ${SEVERITIES.join(', ')}`)
        .argParser(choice(SEVERITIES))
        .default('info'),
    )
    .option('--baseline <file>', 'hide the findings recorded in this baseline; only new ones count')
    .option('--write-baseline <file>', 'record the current findings as the baseline and exit 0')
    .option('--root <dir>', 'repository root for SARIF URIs and fingerprints (default: the git top level)')
    .addOption(
      new Option('--report <format:file>', 'also write the report in FORMAT to FILE (repeatable)').argParser(
        reportTargetOption,
      ),
    )
    .hook('preAction', (self) => {
      const loaded = readConfig(self);
      loadedConfigs.set(self, loaded);
      if (loaded) applyConfig(self, name, loaded, mapping);
      checkRoot(self, loaded);
    });
  return command;
}

/**
 * --root (or the configuration's `root`) names a directory: refused before the run when it is a file
 * or is not there, where it would otherwise make every SARIF URI and fingerprint relative to nothing.
 */
function checkRoot(command: Command, loaded: LoadedConfig | undefined): void {
  const root = (command.opts() as PolicyFlags).root;
  if (root === undefined) return;
  const named =
    command.getOptionValueSource('root') === 'config' ? `root ${root} (${loaded?.label})` : `--root ${root}`;
  let directory: boolean;
  try {
    directory = statSync(resolve(process.cwd(), root)).isDirectory();
  } catch (error) {
    const words = systemErrorCode(error) === 'ENOENT' ? 'no such directory' : systemErrorWords(error);
    throw new UserError(`${named}: ${words}`);
  }
  if (!directory) throw new UserError(`${named}: not a directory; it names the repository root`);
}

function readConfig(command: Command): LoadedConfig | undefined {
  try {
    return loadConfig({ cwd: process.cwd(), file: (command.opts() as PolicyFlags).config });
  } catch (error) {
    if (error instanceof ConfigError) throw new UserError(error.message);
    throw error;
  }
}

const COMMON: ConfigMapping = {
  failOn: { option: 'failOn' },
  minSeverity: { option: 'minSeverity' },
  baseline: { option: 'baseline' },
};

/** Configuration values for options the command line left at their defaults. */
function applyConfig(
  command: Command,
  name: PolicyCommand,
  loaded: LoadedConfig,
  mapping: ConfigMapping,
): void {
  const settings: Record<string, unknown> = { ...commandConfig(loaded.config, name) };
  if (loaded.config.root !== undefined) settings.root = loaded.config.root;
  const all: ConfigMapping = { ...COMMON, root: { option: 'root' }, ...mapping };
  for (const [key, value] of Object.entries(settings)) {
    const target = all[key];
    if (!target || value === undefined) continue;
    const source = command.getOptionValueSource(target.option);
    if (source === 'cli' || source === 'env') continue;
    command.setOptionValueWithSource(
      target.option,
      target.convert ? target.convert(value as never) : value,
      'config',
    );
  }
}

/** The loaded configuration of a command, after its preAction hook ran. */
export function configOf(command: Command): LoadedConfig | undefined {
  return loadedConfigs.get(command);
}

export interface FinishContext {
  /** A path the report is about (a scanned directory, a checked file): its repository is the root. */
  readonly anchor?: string;
  /** Inputs the command could not check; they count as warnings for --fail-on (see Policy). */
  readonly incomplete?: number;
}

/**
 * Applies the configuration, baseline and severity policy to a finished report, writes it (and
 * --report files, and --write-baseline), and returns the exit code.
 */
export function finishReport(command: Command, report: Report, context: FinishContext = {}): number {
  const flags = command.opts() as PolicyFlags;
  const loaded = configOf(command);
  const { policy, root, cwd } = runPolicy(command, report.command, context);
  const outcome = applyPolicy(
    report,
    { ...policy, incomplete: context.incomplete ?? 0 },
    fingerprintReportUnits(report, { root, cwd }),
  );
  const suppressed =
    outcome.suppressed.length > 0 && flags.baseline
      ? { suppressed: { findings: outcome.suppressed, baseline: flags.baseline } }
      : {};
  const renderOptions = {
    root,
    cwd,
    ...suppressed,
    ...(flags.format === 'text' && (flags.out === undefined || flags.out === '-') ? {} : { color: false }),
  };
  writeOutput(flags.out, renderReportPieces(outcome.report, flags.format, renderOptions));
  for (const target of flags.report ?? []) {
    writeOutput(
      target.file,
      renderReportPieces(outcome.report, target.format, { root, cwd, ...suppressed, color: false }),
    );
  }
  if (outcome.ruleSettings.length > 0) {
    // Findings a rule setting dropped or lowered are not in the report: said here, as CI logs show it.
    const settings = outcome.ruleSettings.map(
      (r) => `${r.rule} ${r.setting} (${r.findings} finding${r.findings === 1 ? '' : 's'})`,
    );
    process.stderr.write(errorLine(`rules set in ${loaded?.label}: ${settings.join(', ')}`));
  }
  if (flags.writeBaseline) {
    const written = createBaseline(report.command, outcome.effective, (file) =>
      rootRelative(file, root, cwd),
    );
    writeOutput(flags.writeBaseline, serializeBaseline(written));
    process.stderr.write(
      `mcp-shape: recorded ${written.findings.length} finding${written.findings.length === 1 ? '' : 's'} in ${flags.writeBaseline}\n`,
    );
    return EXIT.clean;
  }
  return outcome.failed ? EXIT.findings : EXIT.clean;
}

/** The policy a command's flags and configuration set, and the paths fingerprints are relative to. */
function runPolicy(
  command: Command,
  reportCommand: Report['command'],
  context: FinishContext,
): { policy: Policy; root: string; cwd: string } {
  const flags = command.opts() as PolicyFlags;
  const cwd = process.cwd();
  const root = rootFor(flags.root, context.anchor, cwd);
  // The first --write-baseline of a project whose configuration already names the file has none to read.
  const baseline =
    flags.baseline && !(flags.writeBaseline && !existsSync(resolve(cwd, flags.baseline)))
      ? readBaseline(flags.baseline, reportCommand)
      : undefined;
  const policy: Policy = {
    rules: configOf(command)?.config.rules,
    failOn: flags.failOn,
    minSeverity: flags.minSeverity,
    ...(baseline ? { baseline: { file: flags.baseline as string, baseline } } : {}),
  };
  return { policy, root, cwd };
}

/**
 * check's version matrix under the run's policy: the findings of each version as the run counts
 * them (the configuration's rule settings and the baseline applied), and what fails it, so that a
 * version's verdict is the exit code the run would have had under that version.
 */
export function matrixPolicy(command: Command, context: FinishContext = {}): MatrixPolicy {
  const { policy, root, cwd } = runPolicy(command, 'check', context);
  const rules = policy.rules !== undefined && Object.keys(policy.rules).length > 0;
  // Nothing to apply but --fail-on: each version's findings count as they are (fingerprinting every
  // version's findings costs seconds on a large capture, and a tally need not hold them).
  if (!rules && !policy.baseline) return { failOn: policy.failOn };
  return {
    failOn: policy.failOn,
    counted(findings) {
      const report = buildReport('check', findings, 0);
      // Only a baseline matches findings by fingerprint.
      const units = policy.baseline ? fingerprintReportUnits(report, { root, cwd }) : undefined;
      return applyPolicy(report, { ...policy, minSeverity: 'info' }, units).report.findings;
    },
  };
}

function rootFor(flag: string | undefined, anchor: string | undefined, cwd: string): string {
  if (flag !== undefined) return isAbsolute(flag) ? flag : resolve(cwd, flag);
  return (
    (anchor !== undefined ? repositoryRoot(resolve(cwd, anchor)) : undefined) ?? repositoryRoot(cwd) ?? cwd
  );
}

function readBaseline(file: string, command: Report['command']) {
  let text: string;
  try {
    text = readTextFile(file);
  } catch (error) {
    const hint = systemErrorCode(error) === 'ENOENT' ? '; record one with --write-baseline FILE' : '';
    throw new UserError(`${systemErrorWords(error)}: ${file} (--baseline${hint})`);
  }
  try {
    const baseline = parseBaseline(text, file);
    if (baseline.command !== command) {
      throw new UserError(`baseline ${file} records a ${baseline.command} run, not ${command}`);
    }
    return baseline;
  } catch (error) {
    if (error instanceof BaselineError) throw new UserError(error.message);
    throw error;
  }
}
