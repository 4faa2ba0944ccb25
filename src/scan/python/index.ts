/** The Python front end: parse with tree-sitter and extract handlers and hand-built payloads. */

import type { Extracted } from '../analyze.js';
import { extractPython } from './extract.js';
import { pythonParser } from './parser.js';

export async function extractPythonSource(source: string): Promise<Extracted<number>> {
  const parser = await pythonParser();
  const tree = parser.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree');
  try {
    return extractPython(tree);
  } finally {
    // Trees live in wasm memory, outside the garbage collector.
    tree.delete();
  }
}
