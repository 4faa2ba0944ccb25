/**
 * Python source to a compact syntax tree. tree-sitter's Python grammar (the wasm in
 * @vscode/tree-sitter-wasm) parses; one cursor walk then copies the named nodes, their field names
 * and ranges into plain objects and the wasm tree is freed at once. Every later step is plain
 * JavaScript: a wasm call per node property would cost more than the analysis itself.
 */

import { createRequire } from 'node:module';
import { Language, type Node, Parser } from 'web-tree-sitter';
import { SyntaxErrorInSource } from '../source.js';

let loading: Promise<Parser> | undefined;

export function pythonParser(): Promise<Parser> {
  loading ??= (async () => {
    await Parser.init();
    const wasm = createRequire(import.meta.url).resolve(
      '@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm',
    );
    const parser = new Parser();
    parser.setLanguage(await Language.load(wasm));
    return parser;
  })();
  return loading;
}

/** A named node of the Python syntax tree. */
export interface PyNode {
  readonly type: string;
  /** UTF-16 offsets into the source. */
  readonly start: number;
  readonly end: number;
  /** The field this node fills in its parent (`left`, `body`, …), if any. */
  readonly field: string | undefined;
  readonly children: PyNode[];
  parent: PyNode | undefined;
}

export interface PyTree {
  readonly root: PyNode;
  readonly source: string;
}

interface Tables {
  readonly types: string[];
  readonly named: boolean[];
  readonly fields: (string | null)[];
}

const tables = new WeakMap<Language, Tables>();

function tablesOf(language: Language): Tables {
  let known = tables.get(language);
  if (!known) {
    const types: string[] = [];
    const named: boolean[] = [];
    for (let i = 0; i < language.nodeTypeCount; i++) {
      types[i] = language.nodeTypeForId(i) ?? '';
      named[i] = language.nodeTypeIsNamed(i);
    }
    known = { types, named, fields: language.fields };
    tables.set(language, known);
  }
  return known;
}

/**
 * Parses Python; throws `SyntaxErrorInSource` at the first error (tree-sitter repairs broken code
 * with ERROR and MISSING nodes, and handlers read from a repaired tree would be guesses).
 */
export function parsePython(parser: Parser, source: string): PyTree {
  const tree = parser.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree');
  try {
    if (tree.rootNode.hasError) {
      const broken = firstSyntaxError(tree.rootNode);
      throw new SyntaxErrorInSource(
        broken?.isMissing ? `missing ${broken.type}` : 'invalid syntax',
        broken?.startIndex ?? 0,
      );
    }
    const language = parser.language;
    if (!language) throw new Error('no Python grammar loaded');
    const { types, named, fields } = tablesOf(language);
    // Comments carry no value; leaving them out keeps every later step from skipping them.
    const comment = types.indexOf('comment');
    const root: PyNode = {
      type: 'module',
      start: 0,
      end: source.length,
      field: undefined,
      children: [],
      parent: undefined,
    };
    const cursor = tree.walk();
    try {
      // Iterative: a deeply nested file must not overflow the call stack here.
      const stack: PyNode[] = [root];
      let descend = cursor.gotoFirstChild();
      while (descend) {
        const typeId = cursor.nodeTypeId;
        const parent = stack[stack.length - 1] as PyNode;
        let entered = false;
        if (named[typeId] && typeId !== comment) {
          const fieldId = cursor.currentFieldId;
          const node: PyNode = {
            type: types[typeId] ?? '',
            start: cursor.startIndex,
            end: cursor.endIndex,
            field: fieldId ? (fields[fieldId] ?? undefined) : undefined,
            children: [],
            parent,
          };
          parent.children.push(node);
          if (cursor.gotoFirstChild()) {
            stack.push(node);
            entered = true;
          }
        }
        if (entered) continue;
        // Next sibling, or up until there is one.
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent() || stack.length <= 1) {
            descend = false;
            break;
          }
          stack.pop();
        }
      }
    } finally {
      cursor.delete();
    }
    return { root, source };
  } finally {
    // Trees live in wasm memory, outside the garbage collector.
    tree.delete();
  }
}

function firstSyntaxError(node: Node): Node | undefined {
  // Iterative depth-first search, first in source order.
  const stack: Node[] = [node];
  for (let current = stack.pop(); current; current = stack.pop()) {
    if (current.isError || current.isMissing) return current;
    if (!current.hasError) continue;
    const children = current.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) stack.push(child);
    }
  }
  return undefined;
}

/** The child filling `field`, if any. */
export function field(node: PyNode, name: string): PyNode | undefined {
  for (const child of node.children) if (child.field === name) return child;
  return undefined;
}

export function fields(node: PyNode, name: string): PyNode[] {
  return node.children.filter((c) => c.field === name);
}

export function text(tree: PyTree, node: PyNode): string {
  return tree.source.slice(node.start, node.end);
}
