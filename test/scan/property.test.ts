/**
 * Property: for small generated handler programs that route one block literal to a tool's return
 * through branches, reassignments, ternaries, loops, maps and a helper in a second file, the scan
 * reports the literal at its own line when it is invalid, and reports nothing (and passes) when it
 * is valid. A literal with a member the caller sends (`text: flag`, `_meta: flag`, a spread of it)
 * is neither: no finding, and an unresolved return that keeps the verdict from passing. TS and
 * Python programs are generated alike.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanSources } from '../../src/scan/index.js';
import { computeVerdict } from '../../src/scan/verdict.js';
import { runs } from '../support/runs.js';

interface Literal {
  readonly ts: string;
  readonly py: string;
  /** The rule an invalid literal breaks; undefined for a valid one. */
  readonly rule?: string;
  /** A member is the caller's value (`flag`): the return is unresolved, neither typed nor invalid. */
  readonly unknown?: boolean;
}

const VALID: readonly Literal[] = [
  { ts: "{ type: 'text', text: 'hello' }", py: '{"type": "text", "text": "hello"}' },
  {
    ts: "{ type: 'image', data: 'aGk=', mimeType: 'image/png' }",
    py: '{"type": "image", "data": "aGk=", "mimeType": "image/png"}',
  },
  {
    ts: "{ type: 'resource_link', uri: 'file:///notes.txt', name: 'notes' }",
    py: '{"type": "resource_link", "uri": "file:///notes.txt", "name": "notes"}',
  },
];

const INVALID: readonly Literal[] = [
  { ts: "{ type: 'object', text: 'x' }", py: '{"type": "object", "text": "x"}', rule: 'block-type-unknown' },
  {
    ts: "{ type: 'image', data: 'aGk=' }",
    py: '{"type": "image", "data": "aGk="}',
    rule: 'block-mime-type-missing',
  },
  { ts: "{ type: 'text' }", py: '{"type": "text"}', rule: 'block-text-invalid' },
  { ts: "{ type: 'text', text: 42 }", py: '{"type": "text", "text": 42}', rule: 'block-text-invalid' },
];

const UNKNOWN: readonly Literal[] = [
  { ts: "{ type: 'text', text: flag }", py: '{"type": "text", "text": flag}', unknown: true },
  {
    ts: "{ type: 'text', text: 'x', _meta: flag }",
    py: '{"type": "text", "text": "x", "_meta": flag}',
    unknown: true,
  },
  { ts: "{ ...flag, type: 'text', text: 'x' }", py: '{**flag, "type": "text", "text": "x"}', unknown: true },
];

/** Where the literal is written. */
type Site = 'inline' | 'helper' | 'map';
/** How it reaches the return. */
type Flow = 'direct' | 'branch' | 'else' | 'ternary' | 'reassign' | 'loop';

interface Program {
  readonly files: { path: string; text: string }[];
  /** The file and 1-based line of the literal. */
  readonly file: string;
  readonly line: number;
}

const FILLER = VALID[0] as Literal;

/** Builds a program from lines, remembering where the `@@` marker (the literal) lands. */
function build(lines: string[], literal: string): { text: string; line: number } {
  const line = lines.findIndex((l) => l.includes('@@')) + 1;
  return { text: `${lines.map((l) => l.replace('@@', literal)).join('\n')}\n`, line };
}

function tsProgram(literal: Literal, site: Site, flow: Flow): Program {
  const value = site === 'helper' ? 'make()' : '@@';
  const producer = site === 'map' ? (v: string) => `items.map(() => (${v}))` : (v: string) => v;
  // The expression whose value is the block (or, for `map`, the blocks).
  const expr = producer(value);
  const asContent = (e: string) => (site === 'map' ? e : `[${e}]`);
  const body: string[] = [];
  switch (flow) {
    case 'direct':
      body.push(`  return { content: ${asContent(expr)} };`);
      break;
    case 'branch':
    case 'else': {
      const filler = producer(FILLER.ts);
      const [then, otherwise] = flow === 'branch' ? [expr, filler] : [filler, expr];
      body.push(`  let value = ${otherwise};`, '  if (flag) {', `    value = ${then};`, '  }');
      body.push(`  return { content: ${asContent('value')} };`);
      break;
    }
    case 'ternary':
      body.push(`  return { content: ${asContent(`flag ? ${producer(FILLER.ts)} : ${expr}`)} };`);
      break;
    case 'reassign':
      body.push(
        `  let value = ${producer(FILLER.ts)};`,
        `  value = ${expr};`,
        `  return { content: ${asContent('value')} };`,
      );
      break;
    case 'loop':
      body.push('  const content = [];', '  for (const item of items) {');
      body.push(site === 'map' ? `    content.push(...${expr});` : `    content.push(${expr});`);
      body.push('  }', '  return { content };');
      break;
  }
  const server = [
    "import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';",
    "import { make } from './helpers.js';",
    '',
    "const server = new McpServer({ name: 'generated', version: '1.0.0' });",
    '',
    "server.registerTool('tool', { description: 'generated' }, async ({ flag, items }) => {",
    ...body,
    '});',
  ];
  const helpers = [
    'export function make() {',
    site === 'helper' ? '  return @@;' : `  return ${FILLER.ts};`,
    '}',
  ];
  const s = build(server, literal.ts);
  const h = build(helpers, literal.ts);
  return {
    files: [
      { path: 'server.ts', text: s.text },
      { path: 'helpers.ts', text: h.text },
    ],
    file: site === 'helper' ? 'helpers.ts' : 'server.ts',
    line: site === 'helper' ? h.line : s.line,
  };
}

function pyProgram(literal: Literal, site: Site, flow: Flow): Program {
  const value = site === 'helper' ? 'make()' : '@@';
  const producer = site === 'map' ? (v: string) => `[${v} for _ in items]` : (v: string) => v;
  const expr = producer(value);
  const asContent = (e: string) => (site === 'map' ? e : `[${e}]`);
  const body: string[] = ['    flag = arguments.get("flag")', '    items = arguments.get("items", [])'];
  switch (flow) {
    case 'direct':
      body.push(`    return ${asContent(expr)}`);
      break;
    case 'branch':
    case 'else': {
      const filler = producer(FILLER.py);
      const [then, otherwise] = flow === 'branch' ? [expr, filler] : [filler, expr];
      body.push('    if flag:', `        value = ${then}`, '    else:', `        value = ${otherwise}`);
      body.push(`    return ${asContent('value')}`);
      break;
    }
    case 'ternary':
      body.push(`    return ${asContent(`${producer(FILLER.py)} if flag else ${expr}`)}`);
      break;
    case 'reassign':
      body.push(
        `    value = ${producer(FILLER.py)}`,
        `    value = ${expr}`,
        `    return ${asContent('value')}`,
      );
      break;
    case 'loop':
      body.push('    content = []', '    for item in items:');
      body.push(site === 'map' ? `        content.extend(${expr})` : `        content.append(${expr})`);
      body.push('    return content');
      break;
  }
  const server = [
    'from mcp.server.lowlevel import Server',
    '',
    'from .helpers import make',
    '',
    'server = Server("generated")',
    '',
    '',
    '@server.call_tool()',
    'async def call_tool(name, arguments):',
    ...body,
  ];
  const helpers = ['def make():', site === 'helper' ? '    return @@' : `    return ${FILLER.py}`];
  const s = build(server, literal.py);
  const h = build(helpers, literal.py);
  return {
    files: [
      { path: 'app/server.py', text: s.text },
      { path: 'app/helpers.py', text: h.text },
      { path: 'app/__init__.py', text: '' },
    ],
    file: site === 'helper' ? 'app/helpers.py' : 'app/server.py',
    line: site === 'helper' ? h.line : s.line,
  };
}

const sites = fc.constantFrom<Site>('inline', 'helper', 'map');
const flows = fc.constantFrom<Flow>('direct', 'branch', 'else', 'ternary', 'reassign', 'loop');
const literals = fc.oneof(
  fc.constantFrom(...VALID),
  fc.constantFrom(...INVALID),
  fc.constantFrom(...UNKNOWN),
);

async function check(program: Program, literal: Literal): Promise<void> {
  const inputs = program.files.map((f) => ({ path: f.path, absolute: `/generated/${f.path}`, text: f.text }));
  const { findings, handlers } = await scanSources(inputs, { cwd: '/generated' });
  const shown = program.files.map((f) => `--- ${f.path}\n${f.text}`).join('');
  const defects = findings.filter((f) => f.severity !== 'info');
  const verdict = computeVerdict(handlers);
  if (literal.rule) {
    expect(
      defects.map((f) => `${f.rule}@${f.location?.file}:${f.location?.line}`),
      shown,
    ).toEqual([`${literal.rule}@${program.file}:${program.line}`]);
    expect(verdict.status, shown).toBe('fail');
  } else if (literal.unknown) {
    expect(defects, shown).toEqual([]);
    expect(verdict, `${shown}\n${verdict.detail}`).toMatchObject({ status: 'fail', invalid: 0 });
    expect(verdict.unresolved, shown).toBeGreaterThan(0);
  } else {
    expect(defects, shown).toEqual([]);
    expect(verdict.status, `${shown}\n${verdict.detail}`).toBe('pass');
  }
}

describe('the scan follows a block literal to the return (property)', () => {
  it('TS: reports an invalid literal at its line, an unknown member as unresolved, and nothing when it is valid', async () => {
    await fc.assert(
      fc.asyncProperty(literals, sites, flows, async (literal, site, flow) => {
        await check(tsProgram(literal, site, flow), literal);
      }),
      { numRuns: runs(80) },
    );
  });

  it('Python: reports an invalid literal at its line, an unknown member as unresolved, and nothing when it is valid', async () => {
    await fc.assert(
      fc.asyncProperty(literals, sites, flows, async (literal, site, flow) => {
        await check(pyProgram(literal, site, flow), literal);
      }),
      { numRuns: runs(80) },
    );
  });
});
