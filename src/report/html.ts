/**
 * The HTML report: one self-contained file (inline CSS and JS, no requests) to attach to a CI run or
 * open locally. Findings are rendered to HTML here, on the server side, with every string escaped; the
 * script only filters by severity and expands details, and never builds markup from data.
 *
 * A Content-Security-Policy allows exactly the inline style and script below (by hash) and nothing
 * else, so even a mistake in escaping could not run injected script or load anything.
 */

import { createHash } from 'node:crypto';
import { CLIENTS } from '../clients/catalog.js';
import type { Finding, Severity } from '../core/finding.js';
import { SEVERITIES } from '../core/finding.js';
import { getRule } from '../rules/catalog.js';
import { affectedClients, clientsText } from './clients.js';
import { codeFrameHtml } from './code-frame.js';
import { detailsForPeople } from './details.js';
import { placesText } from './fold.js';
import {
  auditHeaderHtml,
  auditSectionsHtml,
  callFactHtml,
  esc,
  inlineMarkdown,
  rationaleHtml,
  rulesSummaryHtml,
} from './html-sections.js';
import {
  type FindingLimit,
  HTML_LIMIT,
  type LeftOut,
  leftOut,
  leftOutHeadline,
  leftOutLines,
  shownFindings,
} from './limit.js';
import { checkedNoun, groupFindings, plural, ruleDocsHref } from './outline.js';
import { policyNotesHtml } from './policy-notes.js';
import { runVerdict } from './run-verdict.js';
import { scanVerdictHtml } from './scan-verdict.js';
import { jsonTerminalSafe } from './terminal.js';
import type { Report } from './types.js';
import { failureReason, showMatrix, versionVerdictOf } from './version-matrix.js';

export interface HtmlOptions {
  /** URL of the rule docs directory; default: from the package homepage, else no links. */
  readonly docsBaseUrl?: string;
  /** How many findings to show (default HTML_LIMIT); the rest are counted, rule by rule. */
  readonly limit?: FindingLimit;
}

/** The most characters of details the page shows as JSON. */
const DETAILS_BUDGET = 256 * 1024;

const SEVERITY_PLURAL: Record<Severity, string> = { error: 'errors', warning: 'warnings', info: 'info' };

const STYLE = `
:root { color-scheme: light dark; --fg: #1f2328; --muted: #59636e; --bg: #fff; --panel: #f6f8fa; --line: #d1d9e0;
  --error: #cf222e; --warning: #9a6700; --info: #0969da; --ok: #1a7f37; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23;
  --line: #3d444d; --error: #ff7b72; --warning: #d29922; --info: #58a6ff; --ok: #3fb950; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1.5rem; font: 15px/1.5 system-ui, sans-serif; color: var(--fg);
  background: var(--bg); }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
h2 { font-size: 1rem; margin: 1.5rem 0 .5rem; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .9em; }
pre { background: var(--panel); padding: .75rem; overflow: auto; border-radius: 6px; }
[hidden] { display: none !important; }
.verdict { margin: 0 0 1rem; color: var(--muted); }
.verdict.failed { color: var(--error); font-weight: 600; }
.summary { display: flex; flex-wrap: wrap; gap: .75rem; margin-bottom: 1rem; }
.count { border: 1px solid var(--line); border-radius: 8px; padding: .5rem 1rem; min-width: 8rem; background: var(--panel); }
.count .n { display: block; font-size: 1.75rem; font-weight: 600; }
.count.error .n { color: var(--error); } .count.warning .n { color: var(--warning); }
.count.info .n { color: var(--info); }
.toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 1rem; padding: .5rem 0;
  border-bottom: 1px solid var(--line); }
.toolbar fieldset { border: 0; margin: 0; padding: 0; display: flex; gap: 1rem; }
.toolbar legend { float: left; margin-right: .5rem; color: var(--muted); }
button { font: inherit; padding: .2rem .75rem; border: 1px solid var(--line); border-radius: 6px;
  background: var(--panel); color: var(--fg); cursor: pointer; }
.finding { border: 1px solid var(--line); border-left-width: 4px; border-radius: 6px; margin: .5rem 0; }
.finding.error { border-left-color: var(--error); } .finding.warning { border-left-color: var(--warning); }
.finding.info { border-left-color: var(--info); }
.finding > summary { cursor: pointer; padding: .5rem .75rem; overflow-wrap: anywhere; }
.finding .body { padding: 0 1rem .75rem 1.75rem; border-top: 1px solid var(--line); }
.sev { font-weight: 600; text-transform: uppercase; font-size: .75rem; letter-spacing: .04em; margin-right: .5rem; }
.sev.error { color: var(--error); } .sev.warning { color: var(--warning); } .sev.info { color: var(--info); }
.pointer { color: var(--muted); margin-right: .5rem; }
.rule-id { color: var(--muted); margin-left: .5rem; font-size: .85em; }
.body h3 { font-size: 1rem; margin: .75rem 0 .25rem; }
.body dt { font-weight: 600; margin-top: .5rem; }
.body dd { margin: 0; }
.body ul { margin: .25rem 0; padding-left: 1.25rem; }
.empty { color: var(--muted); font-style: italic; }
.frame .ctx { color: var(--muted); } .frame .caret { color: var(--error); }
.scan-verdict.pass .status { color: var(--ok); } .scan-verdict.fail .status { color: var(--error); }
.versions table { border-collapse: collapse; margin: .5rem 0 1rem; }
.versions th, .versions td { border: 1px solid var(--line); padding: .25rem .75rem; text-align: left; }
.versions .pass { color: var(--ok); } .versions .fail { color: var(--error); }
.ok { color: var(--ok); }
.facts { display: flex; flex-wrap: wrap; gap: .25rem 1.5rem; margin: 0 0 1rem; }
.facts dt { color: var(--muted); font-size: .85em; }
.facts dd { margin: 0; font-family: ui-monospace, monospace; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 1rem 0; width: 100%; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .6rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }
th { background: var(--panel); }
.status.refused, .status.failed { color: var(--error); }
`;

const SCRIPT = `
(() => {
  const boxes = Array.from(document.querySelectorAll('input[data-filter]'));
  const findings = Array.from(document.querySelectorAll('.finding'));
  const apply = () => {
    const shown = new Set(boxes.filter((b) => b.checked).map((b) => b.dataset.filter));
    for (const finding of findings) finding.hidden = !shown.has(finding.dataset.severity);
    for (const group of document.querySelectorAll('.group')) {
      group.hidden = !group.querySelector('.finding:not([hidden])');
    }
    const empty = document.getElementById('filtered-out');
    if (empty) empty.hidden = findings.length === 0 || findings.some((f) => !f.hidden);
  };
  for (const box of boxes) box.addEventListener('change', apply);
  const toggle = document.getElementById('toggle-all');
  if (toggle) {
    toggle.addEventListener('click', () => {
      const open = toggle.dataset.open !== 'true';
      for (const finding of findings) if (!finding.hidden) finding.open = open;
      toggle.dataset.open = String(open);
      toggle.textContent = open ? 'Collapse all' : 'Expand all';
    });
  }
  apply();
})();
`;

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

const CSP = [
  "default-src 'none'",
  `style-src ${sha256(STYLE)}`,
  `script-src ${sha256(SCRIPT)}`,
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

export function renderHtml(report: Report, options: HtmlOptions = {}): string {
  const title = `mcp-shape ${report.command} report`;
  const shown = shownFindings(report.findings, options.limit ?? HTML_LIMIT);
  const cut = leftOut(report.findings, shown);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(CSP)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${esc(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>${esc(title)}</h1>
${auditHeaderHtml(report)}
${verdictHtml(report)}
${scanVerdictHtml(report)}
</header>
${summary(report)}${notesHtml(report)}
${versionsHtml(report)}
${rulesSummaryHtml(report.findings, options.docsBaseUrl)}
${auditSectionsHtml(report, options.docsBaseUrl)}
${report.findings.length > 0 ? toolbar(report) : '<p class="ok">No findings.</p>'}
<main>
${leftOutHtml(cut, false)}${groupFindings(shown)
  .map(
    (group) =>
      `<section class="group">\n<h2>${esc(group.label || '(document)')}</h2>\n${group.findings.map((f) => findingHtml(f, options, report)).join('\n')}\n</section>`,
  )
  .join('\n')}
<p id="filtered-out" class="empty" hidden>No findings match the severity filter.</p>
${leftOutHtml(cut, true)}</main>
${detailsHtml(report)}
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** What the page does not show of the findings: said before them, and rule by rule after them. */
function leftOutHtml(cut: LeftOut | undefined, byRule: boolean): string {
  if (!cut) return '';
  const headline = `<p class="left-out"><strong>${esc(leftOutHeadline(cut))}</strong></p>\n`;
  if (!byRule) return headline;
  const items = leftOutLines(cut).map((line) => `<li>${esc(line)}</li>`);
  return `<section class="left-out" aria-label="Findings not shown">\n${headline}<ul>${items.join('')}</ul>\n</section>\n`;
}

/** What the baseline, --min-severity and rule settings left out or changed; nothing when none did. */
function notesHtml(report: Report): string {
  const notes = policyNotesHtml(report, esc);
  return notes ? `\n${notes}` : '';
}

/** The headline: the counts, and whether the run failed (exit 1), said in words as well as colour. */
function verdictHtml(report: Report): string {
  const { errors, warnings, infos, checked } = report.summary;
  const counts = `${plural(errors, 'error')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')}`;
  const run = runVerdict(report);
  const status = run.failed ? 'failed' : run.nothingChecked ? 'skipped' : 'passed';
  const reason = run.why ?? run.nothingChecked;
  const line = `${run.failed ? 'Failed' : run.nothingChecked ? 'Skipped' : 'Passed'} (--fail-on ${run.failOn}): ${counts} in ${plural(checked, checkedNoun(report.command))} checked${reason ? `; ${reason}` : ''}`;
  return `<p class="verdict ${status}" data-run="${status}">${esc(line)}</p>`;
}

function summary(report: Report): string {
  const counts: Record<Severity, number> = {
    error: report.summary.errors,
    warning: report.summary.warnings,
    info: report.summary.infos,
  };
  const cards = SEVERITIES.map(
    (s) =>
      `<div class="count ${s}" data-count="${s}"><span class="n">${counts[s]}</span>${SEVERITY_PLURAL[s]}</div>`,
  );
  cards.push(
    `<div class="count checked" data-count="checked"><span class="n">${report.summary.checked}</span>${esc(
      `${checkedNoun(report.command)}s checked`,
    )}</div>`,
  );
  return `<section class="summary" aria-label="Summary">\n${cards.join('\n')}\n</section>`;
}

function toolbar(report: Report): string {
  const present = new Set(report.findings.map((f) => f.severity));
  const boxes = SEVERITIES.filter((s) => present.has(s)).map(
    (s) => `<label><input type="checkbox" data-filter="${s}" checked> ${SEVERITY_PLURAL[s]}</label>`,
  );
  return `<div class="toolbar">
<fieldset><legend>Show</legend>${boxes.join('')}</fieldset>
<button type="button" id="toggle-all" data-open="false">Expand all</button>
</div>`;
}

function findingHtml(finding: Finding, options: HtmlOptions, report: Report): string {
  const rule = getRule(finding.rule);
  const where = finding.pointer === '' ? '(root)' : finding.pointer;
  const body: string[] = [];
  if (rule) body.push(`<h3>${esc(rule.title)}</h3>`, rationaleHtml(rule.rationale));
  const facts: string[] = [];
  if (finding.fix) {
    facts.push(
      `<dt>Fix</dt><dd>${esc(finding.fix.description)}${finding.fix.automatic ? ' <em>(automatic with <code>mcp-shape repair</code>)</em>' : ''}</dd>`,
    );
  }
  // '' for a finding that no call of the audit made: nothing to join.
  facts.push(callFactHtml(finding, report));
  const places = placesText(finding, 50);
  if (places) facts.push(`<dt>Seen ${finding.occurrences?.length} times</dt><dd>${esc(places)}</dd>`);
  const affected = clientsText(finding);
  if (affected) {
    const items = affectedClients(finding).map(
      (c) =>
        `<li><strong>${esc(CLIENTS[c.client].name)}</strong>: ${inlineMarkdown(c.detail)} <small>(${esc(c.source)})</small></li>`,
    );
    facts.push(`<dt>Clients affected</dt><dd>${esc(affected)}<ul>${items.join('')}</ul></dd>`);
  }
  // A link only where there is a page to open (a catalog rule, a homepage): the title, fix and
  // clients above are the rule's doc inline otherwise.
  const href = ruleDocsHref(finding.rule, options.docsBaseUrl);
  const ruleId = href
    ? `<a href="${esc(href)}" rel="noopener noreferrer">${esc(finding.rule)}</a>`
    : esc(finding.rule);
  facts.push(`<dt>Rule</dt><dd>${ruleId}</dd>`);
  body.push(codeFrameHtml(finding.location), `<dl>${facts.join('')}</dl>`);
  return `<details class="finding ${finding.severity}" data-severity="${finding.severity}">
<summary><span class="sev ${finding.severity}">${finding.severity}</span><code class="pointer">${esc(where)}</code><span class="message">${esc(finding.message)}</span><code class="rule-id">${esc(finding.rule)}</code></summary>
<div class="body">${body.join('\n')}</div>
</details>`;
}

/** check: the line saying where the verdict changes between versions, and the matrix table. */
function versionsHtml(report: Report): string {
  const line = versionVerdictOf(report);
  const matrix = showMatrix(report);
  if (!line && !matrix) return '';
  const parts = ['<section class="versions" aria-label="Protocol versions">'];
  if (line) parts.push(`<p class="version-verdict">${esc(line)}</p>`);
  if (matrix) {
    parts.push(
      '<table><thead><tr><th>Protocol version</th><th>Verdict</th><th>Errors</th><th>Warnings</th><th>Info</th><th>Fails because</th></tr></thead><tbody>',
      ...matrix.versions.map(
        (row) =>
          `<tr data-version="${esc(row.protocolVersion)}"><td>${esc(row.protocolVersion)}</td><td class="${row.verdict}">${row.verdict}</td><td>${row.errors}</td><td>${row.warnings}</td><td>${row.infos}</td><td>${esc(failureReason(row))}</td></tr>`,
      ),
      '</tbody></table>',
    );
  }
  parts.push('</section>');
  return parts.join('\n');
}

function detailsHtml(report: Report): string {
  // The version matrix is shown as a table above; the rest of the details as JSON.
  const { versionMatrix: _shown, ...details } = report.details ?? {};
  if (Object.keys(details).length === 0) return '';
  const json = jsonTerminalSafe(JSON.stringify(detailsForPeople(details), null, 2));
  // A baseline's 20,000 stale entries made a 7 MB page: past this size they are the JSON report's.
  const shown =
    json.length <= DETAILS_BUDGET
      ? `<pre>${esc(json)}</pre>`
      : `<p>${json.length} characters of details are in the JSON report (--format json).</p>`;
  return `<details class="report-details"><summary>Details</summary>${shown}</details>`;
}
