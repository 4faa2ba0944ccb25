/**
 * Python source to a compact syntax tree. tree-sitter's Python grammar (the wasm in
 * @vscode/tree-sitter-wasm) parses; one cursor walk then copies the named nodes, their field names
 * and ranges into plain objects and the wasm tree is freed at once. Every later step is plain
 * JavaScript: a wasm call per node property would cost more than the analysis itself.
 *
 * Why web-tree-sitter and not the native `tree-sitter` binding: measured on the bench's Python
 * corpus, both parse at the same speed (about 80k lines per CPU-second), and the native binding's
 * cursor crosses N-API on every step, which costs as much as the walk below costs through
 * web-tree-sitter's wrappers. The wasm build needs no install script and runs on every platform.
 */

import { createRequire } from 'node:module';
import { Language, type Node, Parser, type Tree, type TreeCursor } from 'web-tree-sitter';
import { SyntaxErrorInSource } from '../source.js';

/**
 * The wasm exports a tree cursor's steps call. web-tree-sitter's TreeCursor copies the cursor into
 * the wasm transfer buffer and back on every step (four `setValue`s, then four `getValue`s), which
 * was half the cost of the walk. Each of these functions reads the cursor from that buffer and the
 * moves write it back, so a walk that calls them directly copies the cursor once, at each end. They
 * are the functions TreeCursor itself calls (web-tree-sitter is pinned to an exact version); when
 * they are absent the walk uses the public TreeCursor, with the same result (a test compares both).
 */
interface CursorExports {
  readonly HEAP32: Int32Array;
  _ts_init(): number;
  _ts_tree_cursor_goto_first_child_wasm(tree: number): number;
  _ts_tree_cursor_goto_next_sibling_wasm(tree: number): number;
  _ts_tree_cursor_goto_parent_wasm(tree: number): number;
  _ts_tree_cursor_current_node_type_id_wasm(tree: number): number;
  _ts_tree_cursor_current_field_id_wasm(tree: number): number;
  _ts_tree_cursor_start_index_wasm(tree: number): number;
  _ts_tree_cursor_end_index_wasm(tree: number): number;
}

const CURSOR_EXPORTS = [
  '_ts_init',
  '_ts_tree_cursor_goto_first_child_wasm',
  '_ts_tree_cursor_goto_next_sibling_wasm',
  '_ts_tree_cursor_goto_parent_wasm',
  '_ts_tree_cursor_current_node_type_id_wasm',
  '_ts_tree_cursor_current_field_id_wasm',
  '_ts_tree_cursor_start_index_wasm',
  '_ts_tree_cursor_end_index_wasm',
] as const;

function isCursorExports(module: Record<string, unknown>): module is Record<string, unknown> & CursorExports {
  return (
    module.HEAP32 instanceof Int32Array && CURSOR_EXPORTS.every((name) => typeof module[name] === 'function')
  );
}

/** The parser, and the direct cursor calls when this process's web-tree-sitter offers them. */
export interface PythonParser {
  readonly parser: Parser;
  readonly direct: { readonly exports: CursorExports; readonly transfer: number } | undefined;
}

/**
 * The one parser of the process, kept on globalThis: web-tree-sitter builds its wasm module once per
 * process and fills only the first init's object with the exports, so a second copy of this module (a
 * re-evaluated one in a test worker, or the ESLint plugin's beside the CLI's) would find them empty and
 * lose the direct cursor calls.
 */
const LOADING = Symbol.for('mcp-shape.python-parser');

export function pythonParser(): Promise<PythonParser> {
  const holder = globalThis as { [LOADING]?: Promise<PythonParser> };
  holder[LOADING] ??= (async () => {
    // Emscripten fills the object given to init with the module's exports and heap views. Only
    // the first init in a process builds the module, so another caller's init leaves it empty.
    const module: Record<string, unknown> = {};
    await Parser.init(module);
    const wasm = createRequire(import.meta.url).resolve(
      '@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm',
    );
    const parser = new Parser();
    parser.setLanguage(await Language.load(wasm));
    // `_ts_init` only writes the ABI versions into the transfer buffer and returns its address.
    const direct = isCursorExports(module) ? { exports: module, transfer: module._ts_init() } : undefined;
    return { parser, direct };
  })();
  return holder[LOADING];
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
  /** Named nodes the walk leaves out (see `compact`), by type id. */
  readonly skipped: boolean[];
}

const tables = new WeakMap<Language, Tables>();

/**
 * Named nodes no later step reads, left out of the compact tree: comments, and the quotes that open
 * and close every string (`string_start`, `string_end`; a string's prefix is read from its source).
 * They were a fifth of the nodes of the Python bench corpus, each an object the garbage collector
 * copied as long as the project's trees lived.
 */
const SKIPPED_TYPES = new Set(['comment', 'string_start', 'string_end']);

/**
 * The same string as V8 keeps it for a property name: internalized, like every string literal. The
 * analysis compares node types and field names with literals (`node.type === 'identifier'`, a
 * `switch` over types, `field(node, 'body')`) millions of times; web-tree-sitter builds its names
 * from wasm memory as plain strings, and comparing a plain string with a literal compares their
 * characters, where two internalized strings compare by address.
 */
function internalized(name: string): string {
  return Object.keys({ [name]: true })[0] ?? name;
}

function tablesOf(language: Language): Tables {
  let known = tables.get(language);
  if (!known) {
    const types: string[] = [];
    const named: boolean[] = [];
    for (let i = 0; i < language.nodeTypeCount; i++) {
      types[i] = internalized(language.nodeTypeForId(i) ?? '');
      named[i] = language.nodeTypeIsNamed(i);
    }
    const fields = language.fields.map((name) => (name === null ? null : internalized(name)));
    const skipped = types.map((t) => SKIPPED_TYPES.has(t));
    known = { types, named, fields, skipped };
    tables.set(language, known);
  }
  return known;
}

/** The steps of a walk over a tree, one wasm call each. */
interface CursorSteps {
  typeId(): number;
  fieldId(): number;
  start(): number;
  end(): number;
  firstChild(): boolean;
  nextSibling(): boolean;
  parent(): boolean;
}

/** Steps through the wasm exports, the cursor staying in the transfer buffer (see CursorExports). */
class DirectSteps implements CursorSteps {
  constructor(
    private readonly x: CursorExports,
    private readonly tree: number,
  ) {}
  typeId(): number {
    return this.x._ts_tree_cursor_current_node_type_id_wasm(this.tree);
  }
  fieldId(): number {
    return this.x._ts_tree_cursor_current_field_id_wasm(this.tree);
  }
  start(): number {
    return this.x._ts_tree_cursor_start_index_wasm(this.tree);
  }
  end(): number {
    return this.x._ts_tree_cursor_end_index_wasm(this.tree);
  }
  firstChild(): boolean {
    return this.x._ts_tree_cursor_goto_first_child_wasm(this.tree) === 1;
  }
  nextSibling(): boolean {
    return this.x._ts_tree_cursor_goto_next_sibling_wasm(this.tree) === 1;
  }
  parent(): boolean {
    return this.x._ts_tree_cursor_goto_parent_wasm(this.tree) === 1;
  }
}

/** Steps through web-tree-sitter's public TreeCursor. */
class PublicSteps implements CursorSteps {
  constructor(private readonly cursor: TreeCursor) {}
  typeId(): number {
    return this.cursor.nodeTypeId;
  }
  fieldId(): number {
    return this.cursor.currentFieldId;
  }
  start(): number {
    return this.cursor.startIndex;
  }
  end(): number {
    return this.cursor.endIndex;
  }
  firstChild(): boolean {
    return this.cursor.gotoFirstChild();
  }
  nextSibling(): boolean {
    return this.cursor.gotoNextSibling();
  }
  parent(): boolean {
    return this.cursor.gotoParent();
  }
}

/** The wasm address of a tree, which the direct cursor calls take (web-tree-sitter keeps it at [0]). */
function treeAddress(tree: Tree): number | undefined {
  const address: unknown = Reflect.get(tree, 0);
  return typeof address === 'number' ? address : undefined;
}

/**
 * Source is handed to tree-sitter a chunk at a time, each no longer than web-tree-sitter's 10 KB
 * UTF-16 input buffer holds (5,119 code units). Given the whole string, web-tree-sitter answers each
 * read with the entire rest of the source (`source.slice(index)`), of which it copies one buffer's
 * worth: measured on the Python bench corpus, the raw parse runs 49–54k lines per CPU-second that
 * way and 57–58k with chunks.
 */
const PARSE_CHUNK = 5_000;

/** The cursor's four words in the transfer buffer (id and context), as TreeCursor stores them. */
const CURSOR_WORDS = 4;

/**
 * Parses Python; throws `SyntaxErrorInSource` at the first error (tree-sitter repairs broken code
 * with ERROR and MISSING nodes, and handlers read from a repaired tree would be guesses).
 * `direct: false` walks with the public TreeCursor (tests compare the two walks).
 */
export function parsePython(
  python: PythonParser,
  source: string,
  options: { direct?: boolean } = {},
): PyTree {
  const { parser } = python;
  // Python ends a line at a lone CR too, which the grammar does not: given to it as LF, one character
  // for one, so every offset stays the source's.
  const text = source.includes('\r') ? source.replace(/\r(?!\n)/g, '\n') : source;
  const tree = parser.parse((index) =>
    index < text.length ? text.slice(index, index + PARSE_CHUNK) : undefined,
  );
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
    const cursor = tree.walk();
    try {
      const direct = options.direct === false ? undefined : python.direct;
      const address = treeAddress(tree);
      if (!direct || address === undefined)
        return { root: compact(new PublicSteps(cursor), source, language), source };
      // tree.walk() left the new cursor in the transfer buffer; the direct steps move it there.
      const root = compact(new DirectSteps(direct.exports, address), source, language);
      // Back into the TreeCursor, so that delete() frees the cursor as it now is.
      const words = direct.exports.HEAP32.subarray(
        direct.transfer >> 2,
        (direct.transfer >> 2) + CURSOR_WORDS,
      );
      for (let i = 0; i < CURSOR_WORDS; i++) Reflect.set(cursor, i, words[i]);
      return { root, source };
    } finally {
      cursor.delete();
    }
  } finally {
    // Trees live in wasm memory, outside the garbage collector.
    tree.delete();
  }
}

/**
 * The children of a node without named children: one shared array instead of one per leaf. Not
 * frozen, and of the elements kind of every other children array (a slice of an array of nodes), so
 * that every children array has one hidden class: a frozen one made each `for…of` over children and
 * each `children.length` see two, and the optimizer then kept an iterator object per step. Nothing
 * writes to a node's children.
 */
const NO_CHILDREN: PyNode[] = [undefined as unknown as PyNode].slice(0, 0);

/** A node while the walk builds it: its children are set when the walk leaves it. */
type Building = { -readonly [K in keyof PyNode]: PyNode[K] };

/**
 * The named nodes under the cursor's node, as plain objects, but for SKIPPED_TYPES.
 *
 * Every tree of a scanned project stays alive until the project is analysed, so its size is what the
 * garbage collector copies and marks again and again while the rest is parsed. A node's children are
 * therefore gathered on one shared stack and copied into an array of their exact number when the walk
 * leaves the node, and a leaf shares NO_CHILDREN: arrays grown by `push` kept room for 17 children
 * each, and the trees of the Python bench corpus took 189 bytes a node.
 */
function compact(cursor: CursorSteps, source: string, language: Language): PyNode {
  const { types, named, fields, skipped } = tablesOf(language);
  const root: Building = {
    type: 'module',
    start: 0,
    end: source.length,
    field: undefined,
    children: NO_CHILDREN,
    parent: undefined,
  };
  // Iterative: a deeply nested file must not overflow the call stack here.
  const stack: Building[] = [root];
  // The children found so far of every node on `stack`, each node's after its parent's; `from[i]` is
  // where those of stack[i] start.
  const gathered: PyNode[] = [];
  const from: number[] = [0];
  const leave = (): void => {
    const node = stack.pop() as Building;
    const start = from.pop() as number;
    if (gathered.length > start) {
      node.children = gathered.slice(start);
      gathered.length = start;
    }
  };
  let descend = cursor.firstChild();
  while (descend) {
    const typeId = cursor.typeId();
    const parent = stack[stack.length - 1] as Building;
    let entered = false;
    if (named[typeId] && !skipped[typeId]) {
      const fieldId = cursor.fieldId();
      const node: Building = {
        type: types[typeId] ?? '',
        start: cursor.start(),
        end: cursor.end(),
        field: fieldId ? (fields[fieldId] ?? undefined) : undefined,
        children: NO_CHILDREN,
        parent,
      };
      gathered.push(node);
      if (cursor.firstChild()) {
        stack.push(node);
        from.push(gathered.length);
        entered = true;
      }
    }
    if (entered) continue;
    // Next sibling, or up until there is one.
    while (!cursor.nextSibling()) {
      if (!cursor.parent() || stack.length <= 1) {
        descend = false;
        break;
      }
      leave();
    }
  }
  while (stack.length > 0) leave();
  return root;
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

/**
 * The child filling `field`, if any. Indexed loops here and in `pushChildren`: children arrays are
 * of two kinds (NO_CHILDREN is frozen), and a `for…of` over them allocated an iterator result per
 * child, a fifth of everything a Python scan allocated.
 */
export function field(node: PyNode, name: string): PyNode | undefined {
  const { children } = node;
  for (let i = 0; i < children.length; i++) {
    const child = children[i] as PyNode;
    if (child.field === name) return child;
  }
  return undefined;
}

/** Pushes a node's children onto the stack of a tree walk. */
export function pushChildren(stack: PyNode[], node: PyNode): void {
  const { children } = node;
  for (let i = 0; i < children.length; i++) stack.push(children[i] as PyNode);
}

export function fields(node: PyNode, name: string): PyNode[] {
  return node.children.filter((c) => c.field === name);
}

export function text(tree: PyTree, node: PyNode): string {
  return tree.source.slice(node.start, node.end);
}
