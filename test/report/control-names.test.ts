/**
 * Names a server chooses (tools, calls, files, skip reasons) holding line breaks, tabs and terminal
 * escape sequences (CSI, an OSC 8 hyperlink, C1, U+2028), through every report format: none of their
 * control characters reaches the output raw, no line of the server's choosing is started, and each
 * format still parses. In JUnit an attribute's newline is a character reference (&#10;), which XML
 * attribute normalisation leaves alone, where a literal one would be read as a space.
 */

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { buildReport } from '../../src/report/build.js';
import { REPORT_FORMATS, renderReport } from '../../src/report/index.js';

const ESC = '\u001b';
const LINK = `${ESC}]8;;https://evil.example/${ESC}\\click${ESC}]8;;${ESC}\\`;
const NAME = `t\n# FORGED PASS\r${ESC}[31mred${LINK}\t\u0085\u2028end`;

/** C0 controls but tab and newline, DEL, C1, and the characters that reorder or break text. */
const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point.
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

const escapeRegExp = (text: string) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');

function hostileAudit() {
  const findings: Finding[] = [
    {
      rule: 'result-text-mirror-missing',
      severity: 'error',
      message: `tool ${NAME} said ${NAME}`,
      pointer: `/content/${NAME}`,
      location: { file: `${NAME}.json`, protocolVersion: '2025-06-18', tool: NAME, call: `${NAME}#1` },
    },
  ];
  return buildReport('audit', findings, 2, {
    details: { tools: [{ name: NAME, called: false, reason: `skipped: ${NAME}` }] },
  });
}

describe('names with line breaks and escape sequences in every format', () => {
  it.each(REPORT_FORMATS)('%s shows none of their control characters raw', (format) => {
    const output = renderReport(hostileAudit(), format, { color: false });
    const match = CONTROL.exec(output);
    expect(match, `U+${match?.[0].charCodeAt(0).toString(16)} in ${format}`).toBeNull();
    // The name's second line starts no line where a line is read on its own (HTML and XML element text
    // may break lines: the reader sees them inside one element).
    if (format !== 'html' && format !== 'junit')
      expect(output.split('\n').some((line) => /^\W*FORGED PASS/.test(line))).toBe(false);
    if (format === 'json' || format === 'sarif') expect(() => JSON.parse(output)).not.toThrow();
  });

  it('junit writes a newline, carriage return or tab in an attribute as a character reference', () => {
    const xml = renderReport(hostileAudit(), 'junit');
    expect(XMLValidator.validate(xml)).toBe(true);
    // No attribute value holds a raw line break or tab: XML would normalise it to a space.
    expect(xml).not.toMatch(/="[^"]*[\n\r\t][^"]*"/);
    const doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      trimValues: false,
      htmlEntities: true,
      isArray: (name) => ['testsuite', 'testcase'].includes(name),
    }).parse(xml) as {
      testsuites: {
        testsuite: {
          name: string;
          testcase: { name: string; classname: string; skipped?: { message: string } }[];
        }[];
      };
    };
    const cases = doc.testsuites.testsuite.flatMap((suite) => suite.testcase);
    // The line break reads back as the one the server sent; the escape sequences as shown text.
    const shown = 't\n# FORGED PASS\\x0d\\x1b[31mred\\x1b]8;;https://evil.example/\\x1b\\click';
    expect(cases.map((c) => c.name)).toEqual([
      expect.stringMatching(new RegExp(`^call ${escapeRegExp(shown)}`)),
      '1 other call: no findings',
      expect.stringMatching(new RegExp(`^tool ${escapeRegExp(shown)}`)),
    ]);
    // The pointer line of the failure body stays one line.
    expect(xml).toContain('error result-text-mirror-missing at /content/t\\n# FORGED PASS\\x0d');
    expect(cases[0]?.classname).toContain(`tool ${shown}`);
    expect(cases[2]?.skipped?.message).toContain(`skipped: ${shown}`);
  });
});
