import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import {
  enclosingFunction,
  type FingerprintContext,
  fingerprintFindings,
  fingerprintUnits,
  normalizeSnippet,
} from '../../src/policy/fingerprint.js';
import { runs } from '../support/runs.js';

const SOURCE = [
  "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
  'const server = new McpServer({ name: "s", version: "1" });',
  'function helper(kind) {',
  '  if (kind) {',
  "    return { content: [{ type: 'image', data: PNG }] };",
  '  }',
  "  return { content: [{ type: 'image', data: PNG }] };",
  '}',
  "server.tool('shot', async () => ({ content: [{ type: 'image', data: PNG }] }));",
];

function sourceContext(
  files: Record<string, readonly string[]>,
  kind: FingerprintContext['kind'] = 'source',
) {
  return {
    kind,
    repoPath: (file: string) => file.replace(/^\.\//, ''),
    sourceLines: (file: string) => files[file],
  } satisfies FingerprintContext;
}

function finding(
  line: number,
  extra: Partial<Finding['location']> = {},
  rule = 'block-mime-type-missing',
): Finding {
  return {
    rule,
    severity: 'error',
    message: 'image block has no mimeType',
    pointer: '/content/0/mimeType',
    location: { file: 'src/server.ts', line, column: 5, ...extra },
  };
}

describe('fingerprints', () => {
  it('survive any lines inserted above and below a finding (property)', () => {
    const lineText = fc.string({ maxLength: 40 }).filter((s) => !s.includes('\n') && !SOURCE.includes(s));
    fc.assert(
      fc.property(
        fc.array(lineText, { maxLength: 20 }),
        fc.array(lineText, { maxLength: 20 }),
        (above, below) => {
          const edited = [...above, ...SOURCE, ...below];
          const at = (n: number) => n + above.length;
          const before = fingerprintFindings(
            [finding(5), finding(7), finding(9, { tool: 'shot' })],
            sourceContext({ 'src/server.ts': SOURCE }),
          );
          const after = fingerprintFindings(
            [finding(at(5)), finding(at(7)), finding(at(9), { tool: 'shot' })],
            sourceContext({ 'src/server.ts': edited }),
          );
          expect(after.map((f) => f.fingerprint)).toEqual(before.map((f) => f.fingerprint));
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it('survive reindenting and an edit elsewhere in the file, not a change of the line itself', () => {
    const base = fingerprintFindings(
      [finding(9, { tool: 'shot' })],
      sourceContext({ 'src/server.ts': SOURCE }),
    );
    const reindented = SOURCE.map((l, i) => (i === 8 ? `   ${l.replace(/ /g, '  ')}` : l));
    reindented[1] = 'const server = new McpServer({ name: "renamed", version: "2" });';
    const same = fingerprintFindings(
      [finding(9, { tool: 'shot' })],
      sourceContext({ 'src/server.ts': reindented }),
    );
    expect(same[0]?.fingerprint).toBe(base[0]?.fingerprint);
    const changed = [...SOURCE];
    changed[8] = "server.tool('shot', async () => ({ content: [{ type: 'image', data: OTHER }] }));";
    const other = fingerprintFindings(
      [finding(9, { tool: 'shot' })],
      sourceContext({ 'src/server.ts': changed }),
    );
    expect(other[0]?.fingerprint).not.toBe(base[0]?.fingerprint);
  });

  it('tell apart rule, file, tool and pointer; number identical findings in source order', () => {
    const context = sourceContext({ 'src/server.ts': SOURCE, 'src/other.ts': SOURCE });
    const fingerprints = fingerprintFindings(
      [
        finding(5),
        finding(7),
        finding(5, { file: 'src/other.ts' }),
        finding(5, {}, 'block-data-invalid'),
        { ...finding(5), pointer: '/content/0/data' },
      ],
      context,
    ).map((f) => f.fingerprint as string);
    expect(new Set(fingerprints).size).toBe(5);
    // Lines 5 and 7 hold the same text in the same function: one identity, numbered by position.
    const [hash5, n5] = (fingerprints[0] as string).split(':');
    const [hash7, n7] = (fingerprints[1] as string).split(':');
    expect(hash5).toBe(hash7);
    expect([n5, n7]).toEqual(['1', '2']);
    // Reversing the input order does not change who is first.
    const reversed = fingerprintFindings([finding(7), finding(5)], context).map((f) => f.fingerprint);
    expect(reversed).toEqual([fingerprints[1], fingerprints[0]]);
  });

  it('a defect in a helper belongs to the helper, whichever tools reach it and in what order', () => {
    const context = sourceContext({ 'src/server.ts': SOURCE });
    const reach = (tool: string, line: number) => ({ tool, file: 'src/server.ts', line, column: 1 });
    const [one, two, reordered] = fingerprintFindings(
      [
        finding(5, { tool: 'a', reaches: [reach('a', 20)] }),
        finding(5, { tool: 'b', reaches: [reach('b', 30), reach('a', 20)] }, 'block-data-invalid'),
        finding(5, { tool: 'a', reaches: [reach('a', 20), reach('b', 30)] }, 'block-data-invalid'),
      ],
      context,
    );
    // Reached by one tool in its own file: the tool's; reached by two: the helper function's.
    expect(one?.fingerprint).toBe(fingerprintFindings([finding(5, { tool: 'a' })], context)[0]?.fingerprint);
    expect(two?.fingerprint?.split(':')[0]).toBe(reordered?.fingerprint?.split(':')[0]);
    // Helper in another file than the tool it reaches: the helper's function, not the tool.
    const elsewhere = (tool: string) =>
      fingerprintFindings(
        [finding(5, { tool, reaches: [{ tool, file: 'src/tools.ts', line: 3, column: 1 }] })],
        context,
      )[0]?.fingerprint;
    expect(elsewhere('a')).toBe(elsewhere('renamed'));
  });

  it('use the snippet the scan kept when the file cannot be read any more', () => {
    const gone = sourceContext({});
    const withSnippet = (text: string) =>
      fingerprintFindings([finding(5, { tool: 'a', snippet: { startLine: 4, lines: ['x', text] } })], gone)[0]
        ?.fingerprint;
    expect(withSnippet("  return { type: 'image' };")).toBe(withSnippet("return  { type: 'image' };"));
    expect(withSnippet("  return { type: 'image' };")).not.toBe(withSnippet("  return { type: 'audio' };"));
  });

  it('for audits ignore the protocol version, call, line and file (from --source); for check keep the file', () => {
    const live = (version: string, call: string, file?: string): Finding => ({
      rule: 'block-mime-type-missing',
      severity: 'error',
      message: 'm',
      pointer: '/result/content/0/mimeType',
      location: { tool: 'shot', protocolVersion: version, call, ...(file ? { file, line: 3 } : {}) },
    });
    const context = sourceContext({}, 'live');
    const plain = fingerprintFindings([live('2025-06-18', 'shot#1'), live('2025-11-25', 'shot#1')], context);
    const placed = fingerprintFindings(
      [live('2025-11-25', 'shot#2', 'src/a.ts'), live('2025-06-18', 'shot#1', 'src/a.ts')],
      context,
    );
    expect(new Set(plain.map((f) => f.fingerprint?.split(':')[0])).size).toBe(1);
    expect(placed.map((f) => f.fingerprint).sort()).toEqual(plain.map((f) => f.fingerprint).sort());
    const document = sourceContext({}, 'document');
    const [a, b] = fingerprintFindings(
      [live('2025-06-18', '1', 'a.json'), live('2025-06-18', '1', 'b.json')],
      document,
    );
    expect(a?.fingerprint).not.toBe(b?.fingerprint);
  });
});

describe('enclosingFunction', () => {
  it('names the JS or Python function a line sits in, by indentation', () => {
    expect(enclosingFunction(SOURCE, 5)).toBe('helper');
    expect(enclosingFunction(SOURCE, 7)).toBe('helper');
    expect(enclosingFunction(SOURCE, 9)).toBeUndefined();
    const python = [
      'import json',
      '',
      'async def handle(name):',
      '    if name:',
      '        return {"content": 1}',
    ];
    expect(enclosingFunction(python, 5)).toBe('handle');
    const arrow = [
      'const build = async (x) => {',
      '  return x;',
      '};',
      'class A {',
      '  async run(a) {',
      '    go();',
      '  }',
      '}',
    ];
    expect(enclosingFunction(arrow, 2)).toBe('build');
    expect(enclosingFunction(arrow, 6)).toBe('run');
  });

  it('normalizes whitespace only', () => {
    expect(normalizeSnippet('\t return  {\ta:  1 }  ')).toBe('return { a: 1 }');
  });
});

describe('fingerprintUnits', () => {
  const place = (tool: string, pointer: string, version: string): Finding => ({
    rule: 'block-text-invalid',
    severity: 'error',
    message: 'm',
    pointer,
    location: { tool, protocolVersion: version, call: `${tool}#1` },
  });
  const folded = (...places: Finding[]): Finding => ({
    ...(places[0] as Finding),
    occurrences: places.map((p) => ({ pointer: p.pointer, location: p.location ?? {} })),
  });
  const live = sourceContext({}, 'live');

  it('split a folded finding by tool and pointer, not by version; the first unit keeps the fingerprint', () => {
    const a = place('a', '/result/content/0/text', '2025-06-18');
    const a2 = place('a', '/result/content/0/text', '2025-11-25');
    const b = place('b', '/result/content/0/text', '2025-11-25');
    const a1 = place('a', '/result/content/1/text', '2025-11-25');
    const [units] = fingerprintUnits([folded(a, a2, b, a1)], live);
    expect(units?.map((u) => [u.location?.tool, u.pointer, u.occurrences?.length])).toEqual([
      ['a', '/result/content/0/text', 2],
      ['b', '/result/content/0/text', undefined],
      ['a', '/result/content/1/text', undefined],
    ]);
    const alone = fingerprintFindings([folded(a, a2)], live)[0]?.fingerprint;
    expect(units?.[0]?.fingerprint).toBe(alone);
    expect(fingerprintFindings([folded(a, a2, b, a1)], live)[0]?.fingerprint).toBe(alone);
    expect(fingerprintUnits([folded(a, a2)], live)).toEqual([[{ ...folded(a, a2), fingerprint: alone }]]);
    expect(units?.[1]?.fingerprint).toBe(fingerprintFindings([b], live)[0]?.fingerprint);
  });
});
