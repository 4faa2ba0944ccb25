/**
 * The ESLint plugin (`mcp-shape/eslint`). Each catalog rule that static analysis can report is an
 * ESLint rule of the same id (`mcp-shape/block-mime-type-missing`), so configs can turn rules on and
 * off one by one and the docs links match the CLI's. All of them share one analysis per file: the
 * same handler extraction and evaluation as `mcp-shape scan` (ESLint's ESTree is what oxc-parser
 * produces with `preserveParens: false`), cached on the AST object.
 *
 * Settings: `settings: { mcpShape: { protocolVersion: '2025-06-18' } }` (default: scan's default).
 */

import { createRequire } from 'node:module';
import type { ESLint, Rule as EslintRule, Linter } from 'eslint';
import type { Program } from 'oxc-parser';
import { ruleDocsUrl } from '../report/rule-links.js';
import { RULES } from '../rules/catalog.js';
import type { Rule } from '../rules/types.js';
import { analyzeExtracted, SCAN_DEFAULT_PROTOCOL, type StaticFinding } from '../scan/analyze.js';
import { extractJs } from '../scan/js/extract.js';
import { mentionsMcp } from '../scan/source.js';
import { type ProtocolVersion, parseProtocolVersion } from '../spec/versions.js';

const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

/** Subjects a source file can produce: results and blocks from handlers, messages from envelopes. */
const STATIC_SUBJECTS = new Set(['result', 'block', 'message']);

export const STATIC_RULES: readonly Rule[] = RULES.filter(
  (r) => STATIC_SUBJECTS.has(r.subject) && !r.needsCompleteDocument,
);

type Cache = WeakMap<object, Map<ProtocolVersion, readonly StaticFinding<number>[]>>;
const cache: Cache = new WeakMap();

function protocolOf(context: EslintRule.RuleContext): ProtocolVersion {
  const settings = context.settings as { mcpShape?: { protocolVersion?: unknown } } | undefined;
  const requested = settings?.mcpShape?.protocolVersion;
  return (typeof requested === 'string' && parseProtocolVersion(requested)) || SCAN_DEFAULT_PROTOCOL;
}

/** Findings for the file being linted, computed once per AST and protocol version. */
function findingsFor(context: EslintRule.RuleContext): readonly StaticFinding<number>[] {
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
    findings = mentionsMcp(sourceCode.text)
      ? analyzeExtracted(extractJs(ast as unknown as Program, sourceCode.text), { version: protocolVersion })
          .findings
      : [];
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
      messages: { finding: '{{message}}{{tool}} ({{pointer}})' },
      schema: [],
    },
    create(context) {
      return {
        'Program:exit'() {
          for (const finding of findingsFor(context)) {
            if (finding.rule !== rule.id) continue;
            context.report({
              loc: context.sourceCode.getLocFromIndex(finding.at),
              messageId: 'finding',
              data: {
                message: finding.message,
                tool: finding.tool ? ` in tool "${finding.tool}"` : '',
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
