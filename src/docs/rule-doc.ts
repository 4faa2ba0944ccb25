/**
 * Renders the rule docs (docs/rules/<id>.md) and the generated rule index from the catalog. Pure: the
 * generate script writes the output and a test fails when the files on disk drift from it.
 */

import { CLIENTS } from '../clients/catalog.js';
import type { Example, Rule } from '../rules/types.js';
import { PROTOCOL_VERSIONS } from '../spec/versions.js';

const EFFECTS: Record<string, string> = {
  'rejects-call': 'rejects the whole call',
  'drops-message': 'drops the message; the call hangs',
  'drops-content': 'silently drops content',
  misreads: 'misreads the result',
  limits: 'refuses or truncates it',
};

function exampleBlock(example: Example): string {
  const value = exampleText(example);
  const lang = example.frame ? 'text' : example.source !== undefined ? 'js' : 'json';
  return `\`\`\`${lang}\n${value}\n\`\`\``;
}

/** `error`, or `error; warning for "…"` when some messages carry another severity. */
function severityCell(rule: Rule): string {
  const other = Object.entries(rule.messageSeverity ?? {}).filter(([, s]) => s !== rule.severity);
  if (other.length === 0) return rule.severity;
  const by = other.map(([id, s]) => `${s} for "${cell(placeholders(rule.messages[id] ?? id))}"`);
  return `${rule.severity}; ${by.join('; ')}`;
}

function versionsLine(rule: Rule): string {
  if (rule.versions.length === PROTOCOL_VERSIONS.length) return 'all versions';
  return rule.versions.join(', ');
}

export function renderRuleDoc(rule: Rule): string {
  const lines: string[] = [
    '<!-- Generated from the rule catalog by `npm run generate`; edit src/rules instead. -->',
    `# ${rule.id}`,
    '',
    `**${rule.title}**`,
    '',
    '| | |',
    '|---|---|',
    `| Severity | ${severityCell(rule)} |`,
    `| Applies to | ${rule.subject} |`,
    `| Protocol versions | ${versionsLine(rule)} |`,
    `| Automatic repair | ${rule.repair ? 'yes' : 'no'} |`,
    ...(rule.security
      ? [`| Security severity | ${rule.security.severity.toFixed(1)}: ${cell(rule.security.why)} |`]
      : []),
    '',
    '## Why',
    '',
    rule.rationale,
    '',
  ];
  if (rule.clients.length > 0) {
    lines.push('## Clients affected', '', '| Client | Effect | What happens | Source |', '|---|---|---|---|');
    for (const c of rule.clients) {
      const name = CLIENTS[c.client].name;
      lines.push(`| ${name} | ${EFFECTS[c.effect] ?? c.effect} | ${cell(c.detail)} | ${cell(c.source)} |`);
    }
    lines.push('');
  }
  if (rule.fix) lines.push('## How to fix', '', placeholders(rule.fix), '');
  lines.push(
    '## Examples',
    '',
    `Wrong${rule.examples.wrong.protocolVersion ? ` (${rule.examples.wrong.protocolVersion})` : ''}:`,
    '',
    exampleBlock(rule.examples.wrong),
    '',
    `Right${rule.examples.right.protocolVersion ? ` (${rule.examples.right.protocolVersion})` : ''}:`,
    '',
    exampleBlock(rule.examples.right),
    '',
  );
  return lines.join('\n');
}

/**
 * The rule doc as plain text, for places that show no Markdown (SARIF `help.text`): the same
 * sections as the Markdown doc, with tables written as lines.
 */
export function renderRuleDocText(rule: Rule): string {
  const lines: string[] = [
    `${rule.id}: ${rule.title}`,
    '',
    `Severity: ${rule.severity}. Applies to: ${rule.subject}. Protocol versions: ${versionsLine(rule)}. Automatic repair: ${rule.repair ? 'yes' : 'no'}.`,
  ];
  if (rule.security)
    lines.push(`Security severity: ${rule.security.severity.toFixed(1)}: ${rule.security.why}`);
  lines.push('', 'Why', '', rule.rationale, '');
  if (rule.clients.length > 0) {
    lines.push('Clients affected', '');
    for (const c of rule.clients) {
      lines.push(
        `- ${CLIENTS[c.client].name}: ${EFFECTS[c.effect] ?? c.effect}. ${c.detail} (source: ${c.source})`,
      );
    }
    lines.push('');
  }
  if (rule.fix) lines.push('How to fix', '', placeholders(rule.fix), '');
  lines.push('Wrong:', exampleText(rule.examples.wrong), '', 'Right:', exampleText(rule.examples.right), '');
  return lines.join('\n');
}

function exampleText(example: Example): string {
  if (example.frame) return example.frame.text;
  return example.source ?? JSON.stringify(example.value, null, 2);
}

/** Fix texts are templates filled per finding; in the docs their placeholders read as ‹name›. */
export function placeholders(template: string): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, '‹$1›');
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function renderRuleIndexDoc(rules: readonly Rule[]): string {
  const lines = [
    '<!-- Generated from the rule catalog by `npm run generate`; edit src/rules instead. -->',
    '# Rules',
    '',
    '| Rule | Severity | Subject | Versions | Repair | Title |',
    '|---|---|---|---|---|---|',
  ];
  for (const r of [...rules].sort((a, b) => a.id.localeCompare(b.id))) {
    lines.push(
      `| [${r.id}](${r.id}.md) | ${r.severity} | ${r.subject} | ${versionsLine(r)} | ${r.repair ? 'yes' : ''} | ${cell(r.title)} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Source of src/rules/index.ts, from the rule module paths relative to src/rules (e.g. `block/x.ts`). */
export function renderRuleIndexModule(modulePaths: readonly string[]): string {
  const sorted = [...modulePaths].sort();
  const names = sorted.map((p) =>
    p
      .replace(/\.ts$/, '')
      .replace(/^.*\//, '')
      .replace(/-(\w)/g, (_, c: string) => c.toUpperCase()),
  );
  const lines = [
    '// Generated by `npm run generate` from the files in src/rules/*/; do not edit by hand.',
    '',
    ...sorted.map((p, i) => `import ${names[i]} from './${p.replace(/\.ts$/, '.js')}';`),
    "import type { Rule } from './types.js';",
    '',
    'export const RULES: readonly Rule[] = [',
    ...names.map((n) => `  ${n},`),
    '];',
    '',
  ];
  return lines.join('\n');
}
