/**
 * SARIF 2.1.0 for any Report, ready for GitHub code scanning. Rule metadata and help come from the
 * catalog (the same text as docs/rules/<id>.md). Findings with a source line (scan) get a physical
 * location; others (check, audit) get a logical location named by their JSON Pointer, plus the file
 * when there is one. SARIF is plain JSON, so this is a small builder rather than a dependency
 * (node-sarif-builder needs Node 22 and brings fs-extra).
 */

import { readFileSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import type { Finding, Location as FindingLocation, Severity } from '../core/finding.js';
import { placeholders, renderRuleDoc } from '../docs/rule-doc.js';
import { RULES } from '../rules/catalog.js';
import type { Rule } from '../rules/types.js';
import type { Report } from './types.js';

export interface SarifOptions {
  /** Directory artifact URIs are relative to (default: the process's). */
  readonly cwd?: string;
  /** Base of the rule docs links; default: the package's repository or homepage, else its install directory. */
  readonly docsBaseUri?: string;
  /** Rules to describe (default: the whole catalog). */
  readonly rules?: readonly Rule[];
}

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = {
  error: 'error',
  warning: 'warning',
  info: 'note',
};

const SRCROOT = '%SRCROOT%';

interface PackageJson {
  version: string;
  homepage?: string;
  repository?: string | { url?: string };
}

const packageJsonUrl = new URL('../../package.json', import.meta.url);

function readPackage(): PackageJson {
  return JSON.parse(readFileSync(packageJsonUrl, 'utf8')) as PackageJson;
}

/**
 * SARIF requires an absolute `helpUri`. A GitHub repository gives `…/blob/HEAD/docs/rules/`; without
 * one the installed package's own docs directory is used (a file: URI), which local viewers open.
 */
export function defaultDocsBase(pkg: PackageJson = readPackage()): string {
  const repo = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  const github = repo?.match(/github\.com[/:]([^/]+\/[^/.]+)/);
  if (github) return `https://github.com/${github[1]}/blob/HEAD/`;
  if (pkg.homepage) return pkg.homepage.endsWith('/') ? pkg.homepage : `${pkg.homepage}/`;
  return new URL('./', packageJsonUrl).href;
}

/** Absolute link to a rule's doc, as SARIF `helpUri` and ESLint `docs.url`. */
export function ruleDocsUrl(ruleId: string, docsBase: string = defaultDocsBase()): string {
  return new URL(`docs/rules/${ruleId}.md`, docsBase).href;
}

function helpText(rule: Rule): string {
  const parts = [rule.title, '', rule.rationale];
  if (rule.fix) parts.push('', `How to fix: ${placeholders(rule.fix)}`);
  parts.push(
    '',
    `Wrong: ${JSON.stringify(rule.examples.wrong.frame?.text ?? rule.examples.wrong.value)}`,
    `Right: ${JSON.stringify(rule.examples.right.frame?.text ?? rule.examples.right.value)}`,
  );
  return parts.join('\n');
}

function descriptor(rule: Rule, docsBase: string): Sarif.ReportingDescriptor {
  const docPath = `docs/rules/${rule.id}.md`;
  return {
    id: rule.id,
    name: rule.id.replace(/(^|-)([a-z0-9])/g, (_m, _d, c: string) => c.toUpperCase()),
    shortDescription: { text: rule.title },
    fullDescription: { text: rule.rationale },
    help: {
      text: helpText(rule),
      // The generated rule doc minus its "generated" comment: rationale, clients, fix, examples.
      markdown: renderRuleDoc(rule).replace(/^<!--.*?-->\n/, ''),
    },
    helpUri: ruleDocsUrl(rule.id, docsBase),
    defaultConfiguration: { level: LEVEL[rule.severity] },
    properties: {
      docs: docPath,
      subject: rule.subject,
      versions: [...rule.versions],
      tags: ['mcp', rule.subject],
    },
  };
}

/** Artifact URIs: relative to `cwd` with forward slashes when inside it, percent-encoded. */
function artifactUri(file: string, cwd: string): { uri: string; uriBaseId?: string } | undefined {
  if (file === '-' || file === '' || /^<.*>$/.test(file)) return undefined;
  const rel = isAbsolute(file) ? relative(cwd, file) : file;
  if (isAbsolute(rel) || rel.startsWith('..')) return { uri: pathToFileURL(file).href };
  return { uri: encodeURI(rel.split(sep).join('/')), uriBaseId: SRCROOT };
}

function locationOf(finding: Finding, cwd: string): Sarif.Location {
  const where = finding.location;
  const artifact = where?.file ? artifactUri(where.file, cwd) : undefined;
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
  if (artifact) location.physicalLocation = physicalLocation(artifact, where?.line, where?.column, where);
  return location;
}

function physicalLocation(
  artifactLocation: Sarif.ArtifactLocation,
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
  // Scan findings carry their source lines: the offending line as the region's snippet, the lines
  // around it as the context region (code scanning shows them without the checkout).
  const offending = snippet && line ? snippet.lines[line - snippet.startLine] : undefined;
  if (region && offending !== undefined && !snippet?.firstColumn) region.snippet = { text: offending };
  const context: Sarif.Region | undefined =
    snippet && !snippet.firstColumn
      ? {
          startLine: snippet.startLine,
          endLine: snippet.startLine + snippet.lines.length - 1,
          snippet: { text: snippet.lines.join('\n') },
        }
      : undefined;
  return {
    artifactLocation,
    ...(region ? { region } : {}),
    ...(context ? { contextRegion: context } : {}),
  };
}

/** The returns a scan finding reaches, as related locations: where the value ends up. */
function relatedLocations(finding: Finding, cwd: string): Pick<Sarif.Result, 'relatedLocations'> {
  const reaches = finding.location?.reaches ?? [];
  const related = reaches.flatMap((r, i): Sarif.Location[] => {
    const artifact = artifactUri(r.file, cwd);
    if (!artifact) return [];
    return [
      {
        id: i,
        physicalLocation: physicalLocation(artifact, r.line, r.column),
        message: { text: `the return of tool "${r.tool}" this value reaches` },
      },
    ];
  });
  return related.length > 0 ? { relatedLocations: related } : {};
}

export function buildSarif(report: Report, options: SarifOptions = {}): Sarif.Log {
  const pkg = readPackage();
  const cwd = options.cwd ?? process.cwd();
  const docsBase = options.docsBaseUri ?? defaultDocsBase(pkg);
  const catalog = options.rules ?? RULES;
  const rules = catalog.map((r) => descriptor(r, docsBase));
  const indexById = new Map(rules.map((r, i) => [r.id, i]));
  for (const finding of report.findings) {
    // Findings outside the catalog (none today) still need a descriptor for their ruleIndex.
    if (!indexById.has(finding.rule)) {
      indexById.set(finding.rule, rules.length);
      rules.push({ id: finding.rule, shortDescription: { text: finding.rule } });
    }
  }
  const results: Sarif.Result[] = report.findings.map((finding) => ({
    ruleId: finding.rule,
    ruleIndex: indexById.get(finding.rule) ?? 0,
    level: LEVEL[finding.severity],
    message: { text: finding.fix ? `${finding.message}. Fix: ${finding.fix.description}` : finding.message },
    locations: [locationOf(finding, cwd)],
    ...relatedLocations(finding, cwd),
    properties: {
      pointer: finding.pointer,
      ...(finding.location?.tool ? { tool: finding.location.tool } : {}),
      ...(finding.location?.protocolVersion ? { protocolVersion: finding.location.protocolVersion } : {}),
      ...(finding.location?.call ? { call: finding.location.call } : {}),
    },
  }));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'mcp-shape',
            version: pkg.version,
            informationUri: new URL('README.md', docsBase).href,
            rules,
          },
        },
        originalUriBaseIds: {
          [SRCROOT]: { uri: pathToFileURL(cwd.endsWith(sep) ? cwd : `${cwd}${sep}`).href },
        },
        columnKind: 'utf16CodeUnits',
        invocations: [
          {
            executionSuccessful: true,
            ...notificationsFor(report, cwd),
            properties: { command: report.command, summary: report.summary },
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
function notificationsFor(report: Report, cwd: string): Pick<Sarif.Invocation, 'toolExecutionNotifications'> {
  const unscanned = report.details?.unscanned;
  if (!Array.isArray(unscanned) || unscanned.length === 0) return {};
  const notes = unscanned as { file: string; reason: string; line?: number; column?: number }[];
  return {
    toolExecutionNotifications: notes.map((u) => {
      const artifact = artifactUri(u.file, cwd);
      return {
        level: 'error',
        message: { text: `${u.file}: ${u.reason}` },
        ...(artifact
          ? { locations: [{ physicalLocation: physicalLocation(artifact, u.line, u.column) }] }
          : {}),
      };
    }),
  };
}

export function renderSarif(report: Report, options: SarifOptions = {}): string {
  return `${JSON.stringify(buildSarif(report, options), null, 2)}\n`;
}
