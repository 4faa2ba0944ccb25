/**
 * SARIF 2.1.0 for any Report, shaped for GitHub code scanning:
 * - artifact URIs are relative to the repository root (`%SRCROOT%`: the git top level of the checked
 *   paths, or `root`), so GitHub places them whichever directory the command ran from; the base has
 *   no `uri` (SARIF §3.14.14: unknown to the producer), since a `file:` path of the machine that ran
 *   it means nothing where the log is read;
 * - every result has `partialFingerprints` (src/policy/fingerprint.ts), so a line moved is not a new
 *   alert;
 * - rules carry the whole rule doc as `help.text` and `help.markdown`, `properties.tags`, and
 *   `security-severity` only for rules whose defect is a security problem; `helpUri` only when the
 *   package has a homepage (src/report/rule-links.ts).
 * Findings with a source line (scan, `audit --source`) get a region; others (check, audit) get a
 * logical location named by their JSON Pointer, plus the file when there is one. SARIF is plain
 * JSON, so this is a small builder rather than a dependency (node-sarif-builder needs Node 22).
 */

import { isAbsolute, resolve } from 'node:path';
import type * as Sarif from 'sarif';
import { repositoryRoot, rootRelative } from '../config/repository.js';
import type { Finding, Location as FindingLocation, Severity, SourceSnippet } from '../core/finding.js';
import { renderRuleDoc, renderRuleDocText } from '../docs/rule-doc.js';
import { FINGERPRINT_KEY } from '../policy/fingerprint.js';
import { fingerprintReport } from '../policy/fingerprint-report.js';
import { RULES } from '../rules/catalog.js';
import type { Rule } from '../rules/types.js';
import { unfold } from './fold.js';
import { jsonPieces } from './json-chunks.js';
import { readPackage, ruleDocsUrl, rulesDocsBase } from './rule-links.js';
import { jsonTerminalSafe } from './terminal.js';
import type { Report } from './types.js';

export interface SarifOptions {
  /** Directory relative finding paths are relative to (default: the process's). */
  readonly cwd?: string;
  /**
   * Repository root artifact URIs are relative to (default: the git top level of the first file in
   * the report, else `cwd`).
   */
  readonly root?: string;
  /** URL of the rule docs directory for `helpUri`; default: from the package's homepage, if any. */
  readonly docsBaseUrl?: string;
  /** Rules to describe (default: the whole catalog). */
  readonly rules?: readonly Rule[];
  /**
   * Findings a baseline hid: results with an external suppression, which code scanning shows as
   * dismissed; left out, their alerts would read as fixed.
   */
  readonly suppressed?: { readonly findings: readonly Finding[]; readonly baseline: string };
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

export const SRCROOT = '%SRCROOT%';

function tags(rule: Rule): string[] {
  return ['mcp', rule.subject, rule.security ? 'security' : 'correctness'];
}

function descriptor(rule: Rule, docsBase: string | undefined): Sarif.ReportingDescriptor {
  const helpUri = ruleDocsUrl(rule.id, docsBase);
  return {
    id: rule.id,
    name: rule.id.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase()),
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.rationale },
    help: {
      text: renderRuleDocText(rule),
      // The generated rule doc minus its "generated" comment: rationale, clients, fix, examples.
      markdown: renderRuleDoc(rule).replace(/^<!--.*?-->\n/, ''),
    },
    ...(helpUri ? { helpUri } : {}),
    defaultConfiguration: { level: LEVEL[rule.severity] },
    properties: {
      subject: rule.subject,
      versions: [...rule.versions],
      tags: tags(rule),
      ...(rule.security ? { 'security-severity': rule.security.severity.toFixed(1) } : {}),
    },
  };
}

/**
 * A repository-relative path as a URI reference: each segment percent-encoded (`#`, `?`, spaces,
 * non-ASCII); `.` and `..` are unreserved characters, so they stay as they are.
 */
function encodePath(path: string): string {
  return path
    .split('/')
    .map((segment) => encodeURIComponent(segment))
    .join('/');
}

/** Labels such as `<stdin>` and `-` name no file. */
function namesFile(file: string): boolean {
  return file !== '-' && file !== '' && !/^<.*>$/.test(file);
}

interface Paths {
  readonly root: string;
  readonly cwd: string;
}

function artifactLocation(file: string, paths: Paths): Sarif.ArtifactLocation | undefined {
  if (!namesFile(file)) return undefined;
  // Outside the root the reference starts with `../`: still relative, never a machine's file: URL.
  return { uri: encodePath(rootRelative(file, paths.root, paths.cwd)), uriBaseId: SRCROOT };
}

function physicalLocation(
  artifact: Sarif.ArtifactLocation,
  line: number | undefined,
  column: number | undefined,
  where?: FindingLocation,
): Sarif.PhysicalLocation {
  const snippet = where?.snippet;
  const region: Sarif.Region | undefined = line
    ? {
        startLine: line,
        ...(column ? { startColumn: column } : {}),
        ...(where?.endLine ? { endLine: where.endLine } : {}),
        ...(where?.endColumn ? { endColumn: where.endColumn } : {}),
      }
    : undefined;
  // Scan findings carry their source lines: the region's own text as its snippet, the lines around it
  // as the context region (code scanning shows them without the checkout). A window cut from a long
  // line (firstColumn) is not the line, so it is left out.
  const whole = snippet && !snippet.firstColumn ? snippet : undefined;
  const text = region && whole ? regionText(region, whole) : undefined;
  if (region && text !== undefined) region.snippet = { text };
  const context: Sarif.Region | undefined =
    whole && (!region || contains(whole, region))
      ? {
          startLine: whole.startLine,
          endLine: whole.startLine + whole.lines.length - 1,
          snippet: { text: whole.lines.join('\n') },
        }
      : undefined;
  return {
    artifactLocation: artifact,
    ...(region ? { region } : {}),
    ...(context ? { contextRegion: context } : {}),
  };
}

/**
 * The text a region covers (SARIF §3.30.13: a snippet is the region's part of the artifact), from the
 * lines a scan finding carries; `undefined` when they do not hold all of it. Columns count UTF-16 units
 * from 1, and an end column is one past the region's last character; without one, it runs to the end of
 * its line (§3.30.10).
 */
function regionText(region: Sarif.Region, snippet: SourceSnippet): string | undefined {
  const first = region.startLine as number;
  const last = region.endLine ?? first;
  const lines: string[] = [];
  for (let n = first; n <= last; n++) {
    const line = snippet.lines[n - snippet.startLine];
    if (line === undefined) return undefined;
    lines.push(line);
  }
  const end = region.endColumn !== undefined ? region.endColumn - 1 : undefined;
  lines[lines.length - 1] = (lines.at(-1) as string).slice(0, end);
  lines[0] = (lines[0] as string).slice((region.startColumn ?? 1) - 1);
  return lines.join('\n');
}

/**
 * Whether the snippet's lines, as a context region, are a proper superset of `region` (§3.29.5): they
 * hold all of its lines, and more than it (more lines, or the rest of a line it starts or ends inside).
 */
function contains(snippet: SourceSnippet, region: Sarif.Region): boolean {
  const first = region.startLine as number;
  const last = region.endLine ?? first;
  const end = snippet.startLine + snippet.lines.length - 1;
  if (first < snippet.startLine || last > end) return false;
  return (
    snippet.lines.length > last - first + 1 || (region.startColumn ?? 1) > 1 || region.endColumn !== undefined
  );
}

/** SARIF message text is Markdown-like: brackets would start an embedded link (§3.11.6). */
function plainText(text: string): string {
  return text.replace(/[\\[\]]/g, (c) => `\\${c}`);
}

/**
 * The returns a scan finding reaches, as related locations, and the sentence naming them with
 * embedded links (`at [server.ts:31](0)`), which code scanning shows as links to those lines.
 */
function reached(
  finding: Finding,
  paths: Paths,
): { sentence: string; related: Sarif.Location[] } | undefined {
  const related: Sarif.Location[] = [];
  const items: string[] = [];
  for (const r of finding.location?.reaches ?? []) {
    const artifact = artifactLocation(r.file, paths);
    if (!artifact) continue;
    const id = related.length;
    related.push({
      id,
      physicalLocation: physicalLocation(artifact, r.line, r.column),
      message: { text: `the return of tool "${plainText(r.tool)}" this value reaches` },
    });
    items.push(`"${plainText(r.tool)}" at [${plainText(artifact.uri ?? r.file)}:${r.line}](${id})`);
  }
  if (items.length === 0) return undefined;
  const list = items.length === 1 ? items[0] : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
  const what = items.length === 1 ? 'the return of tool' : 'the returns of tools';
  return { sentence: `; reaches ${what} ${list}`, related };
}

/**
 * Always escaped, links or not: a message quotes what a server sent (tool names, MIME types, text), and
 * `[click](https://…)` in it would be an embedded link a viewer shows as ours.
 */
function resultMessage(finding: Finding, sentence: string | undefined): string {
  const text = `${plainText(finding.message)}${sentence ?? ''}`;
  return finding.fix ? `${text}. Fix: ${plainText(finding.fix.description)}` : text;
}

function locationOf(finding: Finding, paths: Paths): Sarif.Location {
  const where = finding.location;
  const location: Sarif.Location = {
    logicalLocations: [
      {
        fullyQualifiedName: [where?.tool, finding.pointer === '' ? '(root)' : finding.pointer]
          .filter(Boolean)
          .join(' '),
        kind: 'element',
      },
    ],
  };
  if (where?.file) {
    const artifact = artifactLocation(where.file, paths);
    if (artifact) location.physicalLocation = physicalLocation(artifact, where.line, where.column, where);
  }
  return location;
}

/** The first file the report names, whose repository is the default root. */
function firstFile(report: Report): string | undefined {
  const named = report.findings
    .map((f) => f.location?.file)
    .find((file): file is string => file !== undefined && namesFile(file));
  if (named !== undefined) return named;
  // details.unscanned as scan writes it: a list of { file, reason } (notificationsFor reads it so too).
  const unscanned = report.details?.unscanned as readonly { readonly file: string }[] | undefined;
  return unscanned?.[0]?.file;
}

function pathsFor(report: Report, options: SarifOptions): Paths {
  const cwd = options.cwd ?? process.cwd();
  if (options.root) return { root: resolve(cwd, options.root), cwd };
  const file = firstFile(report);
  const start = file ? (isAbsolute(file) ? file : resolve(cwd, file)) : cwd;
  return { root: repositoryRoot(start) ?? repositoryRoot(cwd) ?? cwd, cwd };
}

export function buildSarif(report: Report, options: SarifOptions = {}): Sarif.Log {
  const pkg = readPackage();
  const paths = pathsFor(report, options);
  const docsBase = options.docsBaseUrl ?? rulesDocsBase(pkg.homepage);
  const catalog = options.rules ?? RULES;
  const rules = catalog.map((r) => descriptor(r, docsBase));
  const indexById = new Map(rules.map((r, i) => [r.id, i]));
  const findings = fingerprintReport(report, paths).findings;
  const suppressed = options.suppressed
    ? fingerprintReport({ ...report, findings: options.suppressed.findings }, paths).findings
    : [];
  for (const finding of [...findings, ...suppressed]) {
    // Findings outside the catalog (none today) still need a descriptor for their ruleIndex.
    if (!indexById.has(finding.rule)) {
      indexById.set(finding.rule, rules.length);
      rules.push({ id: finding.rule, shortDescription: { text: finding.rule } });
    }
  }
  const kept = withinResultLimit(findings);
  const keptSuppressed = withinResultLimit(suppressed, kept.length);
  const resultOf = (finding: Finding): Sarif.Result => {
    const reach = reached(finding, paths);
    const places = unfold(finding);
    const more = places.length - MAX_LOCATIONS_PER_RESULT;
    const message = resultMessage(finding, reach?.sentence);
    return {
      ruleId: finding.rule,
      ruleIndex: indexById.get(finding.rule) ?? 0,
      level: LEVEL[finding.severity],
      message: { text: more > 0 ? `${message} (and ${more} more places, left out of this file)` : message },
      // A folded finding is one result with every place it was seen, up to the limit code scanning takes.
      locations: places.slice(0, MAX_LOCATIONS_PER_RESULT).map((place) => locationOf(place, paths)),
      ...(reach ? { relatedLocations: reach.related } : {}),
      partialFingerprints: { [FINGERPRINT_KEY]: finding.fingerprint as string },
      properties: {
        pointer: finding.pointer,
        ...(finding.occurrences ? { occurrences: finding.occurrences.length } : {}),
        ...(finding.location?.tool ? { tool: finding.location.tool } : {}),
        ...(finding.location?.protocolVersion ? { protocolVersion: finding.location.protocolVersion } : {}),
        ...(finding.location?.call ? { call: finding.location.call } : {}),
      },
    };
  };
  const justification = `recorded in the baseline ${options.suppressed?.baseline ?? ''}`;
  const results: Sarif.Result[] = [
    ...kept.map(resultOf),
    ...keptSuppressed.map((finding) => ({
      ...resultOf(finding),
      suppressions: [{ kind: 'external' as const, status: 'accepted' as const, justification }],
    })),
  ];
  // informationUri, like helpUri, only names a page anyone can open.
  const homepage = rulesDocsBase(pkg.homepage) ? pkg.homepage : undefined;
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-shape',
            version: pkg.version,
            ...(homepage ? { informationUri: homepage } : {}),
            rules,
          },
        },
        originalUriBaseIds: {
          [SRCROOT]: { description: { text: 'The root of the repository the checked files belong to.' } },
        },
        columnKind: 'utf16CodeUnits',
        invocations: [
          {
            executionSuccessful: true,
            ...notificationsFor(
              report,
              paths,
              findings.length + suppressed.length - kept.length - keptSuppressed.length,
            ),
            // summary carries check's versionVerdict line; the matrix behind it goes along as data.
            properties: {
              command: report.command,
              summary: report.summary,
              ...(report.details?.versionMatrix ? { versionMatrix: report.details.versionMatrix } : {}),
            },
          },
        ],
        results,
      },
    ],
  };
}

/**
 * Files a scan could not read or parse (`details.unscanned`) become tool execution notifications:
 * GitHub code scanning shows them on the tool's status, so a file left out is not mistaken for a
 * clean one.
 */
function notificationsFor(
  report: Report,
  paths: Paths,
  leftOut: number,
): Pick<Sarif.Invocation, 'toolExecutionNotifications'> {
  const unscanned = report.details?.unscanned;
  const notes = (Array.isArray(unscanned) ? unscanned : []) as {
    file: string;
    reason: string;
    line?: number;
    column?: number;
  }[];
  const notifications: Sarif.Notification[] = notes.map((u) => {
    const artifact = artifactLocation(u.file, paths);
    return {
      level: 'error',
      message: { text: `${u.file}: ${u.reason}` },
      ...(artifact
        ? { locations: [{ physicalLocation: physicalLocation(artifact, u.line, u.column) }] }
        : {}),
    };
  });
  if (leftOut > 0) {
    notifications.push({
      level: 'warning',
      message: {
        text: `${leftOut} more result${leftOut === 1 ? '' : 's'} left out of this file: GitHub code scanning rejects a run of more than ${MAX_RESULTS_PER_RUN.toLocaleString('en-US')}; the JSON report has them all`,
      },
    });
  }
  return notifications.length > 0 ? { toolExecutionNotifications: notifications } : {};
}

/**
 * GitHub code scanning's hard limits (docs.github.com, "SARIF results exceed hard limit"): it rejects
 * the whole file for a run of more than 25,000 results or a result of more than 1,000 locations. A
 * server that adds `requestId` to each of 200 tools' answers, audited in five versions, made one result
 * of 1,000 places; a 7,000-line capture, a run of 28,000 results.
 */
const MAX_RESULTS_PER_RUN = 25_000;
const MAX_LOCATIONS_PER_RESULT = 1_000;

/** The findings a run keeps: all, or the most severe MAX_RESULTS_PER_RUN in report order within each severity. */
function withinResultLimit<F extends Finding>(findings: readonly F[], taken = 0): readonly F[] {
  const limit = Math.max(0, MAX_RESULTS_PER_RUN - taken);
  if (findings.length <= limit) return findings;
  const rank = { error: 0, warning: 1, info: 2 } as const;
  return findings
    .map((finding, index) => ({ finding, index }))
    .sort((a, b) => rank[a.finding.severity] - rank[b.finding.severity] || a.index - b.index)
    .slice(0, limit)
    .sort((a, b) => a.index - b.index)
    .map(({ finding }) => finding);
}

export function renderSarif(report: Report, options: SarifOptions = {}): string {
  return `${jsonTerminalSafe(JSON.stringify(buildSarif(report, options), null, 2))}\n`;
}

/** renderSarif's text in pieces, for a log whose text may be longer than a string can be. */
export function* renderSarifPieces(report: Report, options: SarifOptions = {}): Generator<string> {
  // Four levels split (log, runs, run, results): each result is written whole.
  for (const piece of jsonPieces(buildSarif(report, options), 4)) yield jsonTerminalSafe(piece);
  yield '\n';
}
