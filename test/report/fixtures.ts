/**
 * Reports shaped like the ones check, audit and scan produce, for the reporter tests. The rule ids are
 * real catalog rules except `result-text-mirror-missing` and `result-image-beside-structured`, which
 * stand for a rule the catalog does not (yet) know: reporters must cope with those too.
 */

import type { Finding } from '../../src/core/finding.js';
import { buildReport } from '../../src/report/build.js';
import type { Report } from '../../src/report/types.js';

const EXTRA_MEMBER = {
  rule: 'envelope-extra-member',
  severity: 'error',
  message: 'extra top-level member "requestId" in a JSON-RPC message',
  pointer: '/requestId',
  fix: {
    description: 'Remove "requestId" from the envelope; move vendor data into `result._meta`.',
    automatic: true,
  },
} as const satisfies Finding;

const MIME_MISSING = (index: number): Finding => ({
  rule: 'block-mime-type-missing',
  severity: 'error',
  message: 'image block has no mimeType',
  pointer: `/result/content/${index}`,
  fix: { description: 'Add "mimeType": "image/png".', automatic: true },
});

const MIRROR_MISSING: Finding = {
  rule: 'result-text-mirror-missing',
  severity: 'warning',
  message: 'structuredContent has no text block carrying the same data',
  pointer: '/result/structuredContent',
};

const IMAGE_BESIDE: Finding = {
  rule: 'result-image-beside-structured',
  severity: 'info',
  message: 'an image next to structuredContent is not shown to the model by Codex',
  pointer: '/result/content/1',
};

/**
 * `check` of an 8-line JSONL session: line 3 has three errors, line 5 a warning, line 7 an info.
 * JUnit: 3 units with findings + 1 testcase for the 5 clean lines; lines 3 and 5 fail.
 */
export function checkReport(): Report {
  const at = (line: number, call: string) => ({
    file: 'session.jsonl',
    line,
    protocolVersion: '2025-06-18',
    tool: 'get_weather',
    call,
  });
  const findings: Finding[] = [
    { ...EXTRA_MEMBER, location: at(3, '2') },
    { ...MIME_MISSING(0), location: at(3, '2') },
    { ...MIME_MISSING(2), location: at(3, '2') },
    { ...MIRROR_MISSING, location: at(5, '3') },
    { ...IMAGE_BESIDE, location: at(7, '4') },
  ];
  return buildReport('check', findings, 8, {
    summary: { kind: 'session', protocolVersions: ['2025-06-18'] },
  });
}

/**
 * `audit` across two versions and two tools: 6 calls made. Findings: call search#1 in 2025-06-18
 * (error), call search#1 in 2025-11-25 (error and warning), the definition of `fetch` in 2025-11-25
 * (warning, not a call). JUnit: 3 suites of units with findings, 4 clean calls in one testcase.
 */
export function auditReport(): Report {
  const findings: Finding[] = [
    { ...EXTRA_MEMBER, location: { protocolVersion: '2025-06-18', tool: 'search', call: 'search#1' } },
    { ...EXTRA_MEMBER, location: { protocolVersion: '2025-11-25', tool: 'search', call: 'search#1' } },
    { ...MIRROR_MISSING, location: { protocolVersion: '2025-11-25', tool: 'search', call: 'search#1' } },
    {
      rule: 'tool-name-invalid',
      severity: 'warning',
      message: 'tool name "fetch page" contains a space',
      pointer: '/tools/1/name',
      location: { protocolVersion: '2025-11-25', tool: 'fetch page' },
    },
  ];
  return buildReport('audit', findings, 6, {
    summary: { versionsAudited: 2, toolsListed: 3, toolsCalled: 2 },
    // The shape of src/audit/run.ts's details.
    details: {
      target: 'node server.js',
      transport: 'stdio',
      versions: [
        { requested: '2025-06-18', status: 'audited', answered: '2025-06-18', tools: 3, calls: 3 },
        { requested: '2025-11-25', status: 'audited', answered: '2025-11-25', tools: 3, calls: 3 },
      ],
      tools: [
        {
          name: 'search',
          called: true,
          because: 'readOnlyHint',
          versions: ['2025-06-18', '2025-11-25'],
          calls: 4,
        },
        {
          name: 'fetch page',
          called: true,
          because: '--call',
          versions: ['2025-06-18', '2025-11-25'],
          calls: 2,
        },
        {
          name: 'delete_all',
          called: false,
          reason: 'not read-only; use --call delete_all, --call-all or --args to call it',
          versions: ['2025-06-18', '2025-11-25'],
          calls: 0,
        },
      ],
    },
  });
}

/** `scan` of 4 source files: two findings in src/server.ts (lines 12 and 30), one in tools.py. */
export function scanReport(): Report {
  const findings: Finding[] = [
    {
      ...EXTRA_MEMBER,
      pointer: '/requestId',
      location: { file: 'src/server.ts', line: 12, column: 5 },
    },
    { ...MIME_MISSING(0), pointer: '/content/0', location: { file: 'src/server.ts', line: 30, column: 14 } },
    {
      rule: 'structured-content-not-object',
      severity: 'error',
      message: 'structuredContent is an array; this protocol version requires a JSON object',
      pointer: '/structuredContent',
      location: { file: 'tools.py', line: 8, column: 12 },
    },
  ];
  return buildReport('scan', findings, 4, { details: { verdict: 'breaks clients' } });
}

/** Server data that tries to break out of every format. */
export const HOSTILE_MESSAGE =
  'text "</span><script>window.__injected = 1</script>" and \'"><img src=x onerror="window.__injected=2">\' | a`b`` ]]> &amp; \u0000\u0001\uD800 end';

/**
 * HOSTILE_MESSAGE as the document reporters show it: the NUL and U+0001 as `\x00` and `\x01`, as in a
 * terminal, and the lone surrogate (which no document can carry) as U+FFFD.
 */
export const HOSTILE_MESSAGE_SHOWN = HOSTILE_MESSAGE.replace('\u0000\u0001\uD800', '\\x00\\x01\uFFFD');

export function hostileReport(): Report {
  const findings: Finding[] = [
    {
      rule: 'envelope-extra-member',
      severity: 'error',
      message: HOSTILE_MESSAGE,
      pointer: '/result/a`b|c/<i>',
      location: { file: 'evil"<b>.json', protocolVersion: '2025-06-18', tool: '<script>x</script>' },
      fix: { description: 'Remove "</dd><script>window.__injected=3</script>"', automatic: false },
    },
    {
      rule: 'result-text-mirror-missing',
      severity: 'warning',
      message: 'a warning with <b>markup</b> & "quotes"',
      pointer: '',
      location: { file: 'evil"<b>.json', protocolVersion: '2025-06-18', tool: '<script>x</script>' },
    },
  ];
  return buildReport('check', findings, 1);
}

export function cleanReport(): Report {
  return buildReport('check', [], 3);
}

/** A scan finding carrying its source lines: line 2 of three, the expression from column 3. */
export function framedFinding(message = 'unknown type'): Finding {
  return {
    rule: 'block-type-unknown',
    severity: 'error',
    message,
    pointer: '',
    location: { file: 's.ts', line: 2, column: 3, snippet: { startLine: 1, lines: ['a', '  x()', 'b'] } },
  };
}
