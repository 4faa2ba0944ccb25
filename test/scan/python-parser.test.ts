/**
 * The Python parser's two walks: the direct one (wasm cursor calls, the cursor left in the transfer
 * buffer) and web-tree-sitter's public TreeCursor build the same compact tree, node for node.
 */

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Node } from 'web-tree-sitter';
import { scanSource } from '../../src/scan/index.js';
import { type PyNode, parsePython, pythonParser } from '../../src/scan/python/parser.js';
import { SyntaxErrorInSource } from '../../src/scan/source.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/scan');

function pythonFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return pythonFiles(full);
    return e.name.endsWith('.py') ? [full] : [];
  });
}

/** The tree as data, without the parent links (which make it cyclic). */
type Shape = [string, number, number, string | undefined, Shape[]];
function shape(node: PyNode): Shape {
  return [node.type, node.start, node.end, node.field, node.children.map(shape)];
}

/** The named children of a web-tree-sitter node as shapes, without the nodes parsePython leaves out. */
function namedShapes(node: Node): Shape[] {
  const shapes: Shape[] = [];
  node.namedChildren.forEach((child, i) => {
    if (!child || ['comment', 'string_start', 'string_end'].includes(child.type)) return;
    const field = node.fieldNameForNamedChild(i) ?? undefined;
    shapes.push([child.type, child.startIndex, child.endIndex, field, namedShapes(child)]);
  });
  return shapes;
}

function expectParentLinks(node: PyNode): void {
  for (const child of node.children) {
    expect(child.parent).toBe(node);
    expectParentLinks(child);
  }
}

function countNodes(node: PyNode): number {
  return 1 + node.children.reduce((n, c) => n + countNodes(c), 0);
}

describe('parsePython', () => {
  it('walks with the direct cursor calls in this build of web-tree-sitter', async () => {
    expect((await pythonParser()).direct).toBeDefined();
  });

  const sources: [string, string][] = pythonFiles(FIXTURES).map((f) => [f, readFileSync(f, 'utf8')]);
  sources.push(
    ['deep nesting', `x = ${'['.repeat(300)}1${']'.repeat(300)}\n`],
    ['non-ASCII', 's = "héllo wörld 🚀"  # ünïcode\ndef f():\n    return {"type": "text", "text": "日本"}\n'],
    ['empty', ''],
  );

  it.each(sources)('builds the same tree either way: %s', async (_name, source) => {
    const python = await pythonParser();
    let direct: PyNode | SyntaxErrorInSource;
    let viaPublic: PyNode | SyntaxErrorInSource;
    try {
      direct = parsePython(python, source).root;
    } catch (error) {
      if (!(error instanceof SyntaxErrorInSource)) throw error;
      direct = error;
    }
    try {
      viaPublic = parsePython(python, source, { direct: false }).root;
    } catch (error) {
      if (!(error instanceof SyntaxErrorInSource)) throw error;
      viaPublic = error;
    }
    if (direct instanceof SyntaxErrorInSource || viaPublic instanceof SyntaxErrorInSource) {
      expect(direct).toEqual(viaPublic);
      return;
    }
    expect(shape(direct)).toEqual(shape(viaPublic));
    if (source.trim()) expect(countNodes(direct)).toBeGreaterThan(2);
  });

  it.each(sources)(
    "builds what web-tree-sitter's own node API shows, parent links included: %s",
    async (_name, source) => {
      const python = await pythonParser();
      const tree = python.parser.parse(source);
      if (!tree) throw new Error('no tree');
      try {
        if (tree.rootNode.hasError) return; // the comparison above covers the syntax error
        const root = parsePython(python, source).root;
        expect(shape(root)).toEqual(['module', 0, source.length, undefined, namedShapes(tree.rootNode)]);
        expectParentLinks(root);
      } finally {
        tree.delete();
      }
    },
  );

  it('leaves no cursor or tree behind: many parses in a row keep working', async () => {
    const python = await pythonParser();
    const source = 'def f(x):\n    return {"content": [{"type": "text", "text": str(x)}]}\n';
    const first = shape(parsePython(python, source).root);
    for (let i = 0; i < 2000; i++) parsePython(python, source);
    expect(shape(parsePython(python, source).root)).toEqual(first);
    expect(shape(parsePython(python, source, { direct: false }).root)).toEqual(first);
  });

  it('gives leaves and inner nodes children arrays of one kind: plain arrays, none frozen, leaves sharing one', async () => {
    const python = await pythonParser();
    const { root } = parsePython(python, 'x = f(1)\ny = "a"\n');
    const nodes: PyNode[] = [];
    const stack = [root];
    for (let node = stack.pop(); node; node = stack.pop()) {
      nodes.push(node);
      stack.push(...node.children);
    }
    const leaves = nodes.filter((n) => n.children.length === 0);
    expect(leaves.length).toBeGreaterThan(2);
    expect(new Set(leaves.map((n) => n.children)).size).toBe(1);
    // A frozen empty array for the leaves made every loop over children see two hidden classes.
    expect(nodes.filter((n) => Object.isFrozen(n.children))).toEqual([]);
  });
});

/** A low-level server's call_tool handler, up to its body. */
const LOW_LEVEL_CALL = [
  'from mcp.server.lowlevel import Server',
  'server = Server("x")',
  '@server.call_tool()',
  'async def call(name, arguments):',
];

describe('string prefixes, read from the source (the tree has no string_start)', () => {
  it('judges a bytes literal as bytes and a raw literal as its text, whatever the case of the prefix', async () => {
    const source = [
      ...LOW_LEVEL_CALL,
      '    if name == "a":',
      '        return [{"type": "text", "text": b"raw"}]',
      '    if name == "b":',
      '        return [{"type": "text", "text": Rb"raw"}]',
      '    return [{"type": r"te\\xt", "text": f"{name}"}]',
      '',
    ].join('\n');
    const { handlers, findings } = await scanSource('s.py', source);
    const returns = handlers.flatMap((h) => h.returns.map((r) => [r.line, r.status, r.reason ?? '']));
    expect(returns).toEqual([
      [6, 'unresolved', '"text" of content[0] is `b"raw"` at s.py:6 (a bytes value)'],
      [8, 'unresolved', '"text" of content[0] is `Rb"raw"` at s.py:8 (a bytes value)'],
      [9, 'invalid', ''],
    ]);
    expect(findings.map((f) => [f.rule, f.location?.line, f.message.split(';')[0]])).toEqual([
      ['block-type-unknown', 9, 'unknown content block type "te\\xt"'],
    ]);
  });
});

describe("escape sequences, which the grammar nests inside a string's content", () => {
  it('reads them as Python does; a raw string keeps them', async () => {
    const source = [
      ...LOW_LEVEL_CALL,
      '    if name == "a":',
      '        return [{"type": "te\\x78t", "text": "a\\tb"}]',
      '    if name == "b":',
      '        return [{"type": "\\164ext", "text": "\\a\\v"}]',
      '    return [{"type": r"te\\x78t", "text": "x"}]',
      '',
    ].join('\n');
    const { handlers, findings } = await scanSource('e.py', source);
    expect(handlers.flatMap((h) => h.returns.map((r) => [r.line, r.status]))).toEqual([
      [6, 'typed'],
      [8, 'typed'],
      [9, 'invalid'],
    ]);
    expect(findings.map((f) => [f.rule, f.location?.line, f.message.split(';')[0]])).toEqual([
      ['block-type-unknown', 9, 'unknown content block type "te\\x78t"'],
    ]);
  });

  it('in a tool name', async () => {
    const source = [
      'from mcp.server.fastmcp import FastMCP',
      'mcp = FastMCP("x")',
      '@mcp.tool(name="st\\x6fck")',
      'def stock() -> str:',
      '    return "ok"',
      '',
    ].join('\n');
    const { handlers } = await scanSource('n.py', source);
    expect(handlers.map((h) => h.tool)).toEqual(['stock']);
  });
});

/**
 * `\N{name}`: a character by its Unicode name, read by the name table of the npm package unicode-name
 * (a dependency); for a name the table lacks, the text is unknown, never the escape as written
 * (`"\N{LATIN SMALL LETTER T}ext"` is `text`, not an unknown block type).
 */
describe('\\N{name} escapes', () => {
  const scanned = (type: string) =>
    scanSource('u.py', [...LOW_LEVEL_CALL, `    return [{"type": "${type}", "text": "hi"}]`, ''].join('\n'));

  it('reads a name, an alias and any case by the name table', async () => {
    for (const type of [
      '\\N{LATIN SMALL LETTER T}ext',
      '\\N{latin small letter t}ext',
      'te\\N{LATIN SMALL LETTER X}t',
    ]) {
      const { handlers, findings } = await scanSource(
        'u.py',
        [...LOW_LEVEL_CALL, `    return [{"type": "${type}", "text": "a\\N{NBSP}b"}]`, ''].join('\n'),
      );
      const [entry] = handlers.flatMap((h) => h.returns);
      expect(findings, type).toEqual([]);
      expect(entry?.status, type).toBe('typed');
    }
  });

  it('reads a name the table lacks as unknown text, never the escape as written', async () => {
    const { handlers, findings } = await scanned('\\N{LATIN SMALL LETTER NO SUCH}ext');
    expect(findings).toEqual([]);
    const [entry] = handlers.flatMap((h) => h.returns);
    expect(entry?.status).toBe('unresolved');
    expect(entry?.reason).toContain("Unicode's name table");
  });

  it('judges the block a name spells (an image without data)', async () => {
    const { handlers, findings } = await scanned('\\N{LATIN SMALL LETTER I}mage');
    const [entry] = handlers.flatMap((h) => h.returns);
    expect(findings.map((f) => f.rule)).toEqual(['block-data-invalid', 'block-mime-type-missing']);
    expect(entry?.status).toBe('invalid');
  });
});

describe('the source handed to tree-sitter in chunks', () => {
  it('keeps every range right across chunk ends, with characters outside the BMP on them', async () => {
    const python = await pythonParser();
    // Lines of varied length, so the chunk ends (every 5,000 code units) fall inside many of them,
    // some between the two halves of an emoji.
    const lines = Array.from(
      { length: 1500 },
      (_, i) => `x_${i} = "${'é'.repeat(i % 7)}${'😀'.repeat(1 + (i % 5))}${'a'.repeat(i % 3)}"`,
    );
    const source = `${lines.join('\n')}\n`;
    expect(source.length).toBeGreaterThan(5 * 5_000);
    const { root } = parsePython(python, source);
    expect(root.children).toHaveLength(lines.length);
    root.children.forEach((statement, i) => {
      expect(source.slice(statement.start, statement.end)).toBe(lines[i]);
    });
  });
});
