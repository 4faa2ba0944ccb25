/**
 * The ESLint plugin (`mcp-shape/eslint`). Each catalog rule that static analysis can report is an
 * ESLint rule of the same id (`mcp-shape/block-mime-type-missing`), so configs can turn rules on and
 * off one by one and the docs links match the CLI's. All of them share one analysis per file: the
 * same value analysis as `mcp-shape scan` (ESLint's ESTree is what oxc-parser produces with
 * `preserveParens: false`), following helpers into the files the linted file imports, cached on the
 * AST object. A defect whose fix is in another file is reported at the return in this file that it
 * reaches, naming where to fix it.
 *
 * Settings: `settings: { mcpShape: { protocolVersion: '2025-06-18' } }` (default: scan's default).
 */

import { createRequire } from 'node:module';
import { isAbsolute } from 'node:path';
import type { ESLint, Rule as EslintRule, Linter } from 'eslint';
import type { Program } from 'oxc-parser';
import { ruleDocsUrl } from '../report/rule-links.js';
import { inlineSafe } from '../report/terminal.js';
import { RULES } from '../rules/catalog.js';
import type { Rule } from '../rules/types.js';
import { analyze, SCAN_DEFAULT_PROTOCOL, type StaticFinding } from '../scan/analyze.js';
import { DEFAULT_MAX_FILE_SIZE } from '../scan/index.js';
import { JsFrontEnd } from '../scan/js/index.js';
import { displayPath, Project } from '../scan/project.js';
import { mentionsMcp } from '../scan/source.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion, parseProtocolVersion } from '../spec/versions.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** Subjects a source file can produce: results and blocks from handlers, messages from envelopes. */
const STATIC_SUBJECTS = new Set(['result', 'block', 'message']);

export const STATIC_RULES: readonly Rule[] = RULES.filter(
  (r) => STATIC_SUBJECTS.has(r.subject) && !r.needsCompleteDocument,
);

/** A finding as ESLint reports it in the linted file. */
interface LintFinding {
  readonly rule: string;
  readonly start: number;
  readonly end: number;
  readonly message: string;
  readonly pointer: string;
}

type Cache = WeakMap<object, Map<ProtocolVersion, readonly LintFinding[]>>;
const cache: Cache = new WeakMap();

/**
 * The version `settings.mcpShape.protocolVersion` names, else scan's default. A value that names none is
 * a mistake in the configuration, thrown as every entry point throws it: read as the default, it
 * silently judged by another version than the one asked for.
 */
function protocolOf(context: EslintRule.RuleContext): ProtocolVersion {
  const settings = context.settings as { mcpShape?: { protocolVersion?: unknown } } | undefined;
  const requested = settings?.mcpShape?.protocolVersion;
  if (requested === undefined) return SCAN_DEFAULT_PROTOCOL;
  const version = typeof requested === 'string' ? parseProtocolVersion(requested) : undefined;
  if (version) return version;
  throw new RangeError(
    `mcp-shape: settings.mcpShape.protocolVersion ${JSON.stringify(requested)} is none of ${PROTOCOL_VERSIONS.join(', ')}, "latest" or "draft"`,
  );
}

function where(f: StaticFinding['site']): string {
  return `${f.file.path}:${f.file.lines.position(f.start).line}`;
}

/**
 * Findings of one file: those whose fix is in it at the literal, and those whose fix is in an
 * imported file at each return of this file that they reach. Their messages quote the source (tool
 * names, block types, paths), which ESLint's formatters print as they are: escaped here as the
 * reports escape them, so no file drives the terminal or forges a line.
 */
function lintFindings(findings: readonly StaticFinding[], fileId: number): LintFinding[] {
  const out: LintFinding[] = [];
  for (const f of findings) {
    const tools = f.reaches.map((r) => `"${r.tool}"`);
    const reached =
      tools.length > 0 ? ` in tool${tools.length === 1 ? '' : 's'} ${[...new Set(tools)].join(', ')}` : '';
    if (f.site.file.id === fileId) {
      out.push({
        rule: f.rule,
        start: f.site.start,
        end: f.site.end,
        message: inlineSafe(`${f.message}${reached}`),
        pointer: f.pointer,
      });
      continue;
    }
    for (const r of f.reaches) {
      if (r.site.file.id !== fileId) continue;
      out.push({
        rule: f.rule,
        start: r.site.start,
        end: r.site.end,
        message: inlineSafe(`${f.message} (fix at ${where(f.site)}) in tool "${r.tool}"`),
        pointer: f.pointer,
      });
    }
  }
  return out;
}

/** Findings for the file being linted, computed once per AST and protocol version. */
function findingsFor(context: EslintRule.RuleContext): readonly LintFinding[] {
  const { sourceCode } = context;
  const ast = sourceCode.ast;
  const protocolVersion = protocolOf(context);
  let perVersion = cache.get(ast);
  if (!perVersion) {
    perVersion = new Map();
    cache.set(ast, perVersion);
  }
  let findings = perVersion.get(protocolVersion);
  if (!findings) {
    findings = [];
    if (mentionsMcp(sourceCode.text)) {
      const cwd = context.cwd;
      const filename = context.filename;
      const absolute = isAbsolute(filename) ? filename : undefined;
      const project = new Project({ cwd, maxFileSize: DEFAULT_MAX_FILE_SIZE });
      const js = new JsFrontEnd(project);
      const file = project.add(absolute ? displayPath(absolute, cwd) : filename, absolute, sourceCode.text);
      const mod = js.add(file, ast as unknown as Program);
      findings = lintFindings(analyze(js.extract(mod), { version: protocolVersion }).findings, file.id);
    }
    perVersion.set(protocolVersion, findings);
  }
  return findings;
}

function eslintRule(rule: Rule): EslintRule.RuleModule {
  const docsUrl = ruleDocsUrl(rule.id);
  return {
    meta: {
      type: 'problem',
      docs: {
        description: rule.title,
        recommended: rule.severity !== 'info',
        // Only with a homepage: ESLint shows the URL as is, and a file: path would be dead elsewhere.
        ...(docsUrl ? { url: docsUrl } : {}),
      },
      messages: { finding: '{{message}} ({{pointer}})' },
      schema: [],
    },
    create(context) {
      return {
        'Program:exit'() {
          for (const finding of findingsFor(context)) {
            if (finding.rule !== rule.id) continue;
            context.report({
              loc: {
                start: context.sourceCode.getLocFromIndex(finding.start),
                end: context.sourceCode.getLocFromIndex(Math.max(finding.start, finding.end)),
              },
              messageId: 'finding',
              data: {
                message: finding.message,
                pointer: finding.pointer === '' ? 'the whole result' : finding.pointer,
              },
            });
          }
        },
      };
    },
  };
}

const rules: Record<string, EslintRule.RuleModule> = Object.fromEntries(
  STATIC_RULES.map((r) => [r.id, eslintRule(r)]),
);

const plugin = {
  meta: { name: 'mcp-shape', version },
  rules,
  configs: {} as Record<string, Linter.Config>,
} satisfies ESLint.Plugin;

/** Errors as ESLint errors, warnings as warnings; info-level advice stays off. */
plugin.configs.recommended = {
  name: 'mcp-shape/recommended',
  plugins: { 'mcp-shape': plugin },
  rules: Object.fromEntries(
    STATIC_RULES.filter((r) => r.severity !== 'info').map((r) => [
      `mcp-shape/${r.id}`,
      r.severity === 'error' ? 'error' : 'warn',
    ]),
  ),
};

export default plugin;
/**
 * `require('mcp-shape/eslint')` from a CommonJS config (eslint.config.cjs) gets the plugin itself, not
 * a module namespace with `.default`: Node's require(esm) returns the export named "module.exports"
 * when there is one (Node 20.19+, 22.12+, 24). One ESM build serves both module systems.
 */
export { plugin, plugin as 'module.exports' };
