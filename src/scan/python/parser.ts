/** Loads tree-sitter's Python grammar once; the wasm ships in @vscode/tree-sitter-wasm. */

import { createRequire } from 'node:module';
import { Language, Parser } from 'web-tree-sitter';

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
