/** The Python front end: parse with tree-sitter and extract handlers and hand-built payloads. */

import type { Node } from 'web-tree-sitter';
import type { Extracted } from '../analyze.js';
import { SyntaxErrorInSource } from '../source.js';
import { extractPython } from './extract.js';
import { pythonParser } from './parser.js';

export async function extractPythonSource(source: string): Promise<Extracted<number>> {
  const parser = await pythonParser();
  const tree = parser.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree');
  try {
    // tree-sitter always returns a tree, with ERROR and MISSING nodes where the source is broken.
    // Python would refuse to run such a file, and handlers read from a repaired tree are guesses.
    const broken = firstSyntaxError(tree.rootNode);
    if (broken) {
      throw new SyntaxErrorInSource(
        broken.isMissing ? `missing ${broken.type}` : 'invalid syntax',
        broken.startIndex,
      );
    }
    return extractPython(tree);
  } finally {
    // Trees live in wasm memory, outside the garbage collector.
    tree.delete();
  }
}

function firstSyntaxError(node: Node): Node | undefined {
  if (node.isError || node.isMissing) return node;
  if (!node.hasError) return undefined;
  for (const child of node.children) {
    const found = child ? firstSyntaxError(child) : undefined;
    if (found) return found;
  }
  return node;
}
