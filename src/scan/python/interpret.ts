/**
 * The value analysis for Python, the counterpart of js/interpret.ts over the compact syntax tree
 * of parser.ts. Statements are followed in order through `if`/`elif`/`else`, `match`, `try` (with
 * `except`, `else` and `finally`), `with`, loops (each body twice, then joined), early returns,
 * reassignment and augmented assignment; dicts and lists are abstract objects changed by
 * `d["k"] = v`, `append`, `extend`, `update`, `setdefault`, `{**a}` and `dict(a, k=v)`; conditional
 * expressions, `or`/`and`, comprehensions and generator expressions produce sets of values; any
 * string-valued expression (f-strings, `%`, `.format`, `str(e)`, concatenation) is a string. Calls
 * to functions, methods and classes of the project (same file, or imported relatively or by an
 * absolute intra-project import) are interpreted with their arguments bound; the MCP SDK's pydantic
 * models (`TextContent(type="text", …)`) become objects with their wire member names.
 */

import { appendAll } from '../../core/append.js';
import { BudgetExceeded, MAX_NESTING } from '../abstract/budget.js';
import { sourceText } from '../abstract/concretize.js';
import { provenIn } from '../abstract/declared.js';
import { Heap, type Member, newArray, newObject, type ObjState } from '../abstract/heap.js';
import { type Exit, Interpreter, Run } from '../abstract/interpreter.js';
import {
  appendItems,
  assignFrom,
  awaited,
  escapeTo,
  itemOf,
  objectsOf,
  readMember,
  spreadInto,
  writeMember,
} from '../abstract/objects.js';
import { cloneState, joinAllStates, joinStates, type State } from '../abstract/state.js';
import {
  assembledFormat,
  bool,
  constantString,
  derivedFrom,
  type FunctionValue,
  fn,
  type Guard,
  integralNumber,
  isIntegral,
  isNumeric,
  type JsonKind,
  join,
  json,
  kindOfVariant,
  mayBeFalsy,
  mayBeTruthy,
  maybeUndef,
  mayHaveAffix,
  NOTHING,
  nul,
  num,
  ofKind,
  ref,
  type Site,
  type SourceFile,
  someString,
  str,
  tested,
  undef,
  unknown,
  type Value,
  type Variant,
  yielding,
} from '../abstract/value.js';
import type { Project } from '../project.js';
import { judgeLax } from '../pydantic-lax.js';
import { type Given, type Helper, helperMime } from './fastmcp-helpers.js';
import { classModel, routeResponseModel } from './models.js';
import { resolvePythonImport } from './modules.js';
import { field, fields, type PyNode, type PyTree, pushChildren } from './parser.js';
import { decodeEscape, stringContent } from './strings.js';

export interface PyModule {
  readonly file: SourceFile;
  readonly tree: PyTree;
  /** The dotted name the module is imported by, when known (for relative imports). */
  run?: PyRun;
  failed?: string;
}

type FnNode = PyNode;

/** One interpretation of a function body, a class body or a module's top level. */
export class PyRun extends Run<string> {
  readonly breaks: State<string>[][] = [];
  readonly continues: State<string>[][] = [];

  constructor(
    override readonly fn: FnNode,
    readonly module: PyModule,
    /** Where free variables are looked up (the enclosing function's run; class scopes are skipped). */
    readonly closure: PyRun | undefined,
    readonly isClass: boolean,
    heap: Heap,
  ) {
    super(fn, heap);
  }
}

export interface RecordedCall {
  readonly args: readonly Value[];
  readonly keywords: ReadonlyMap<string, Value>;
  readonly heap: Heap;
}

/** Pydantic models of `mcp.types` whose fields are the wire format. */
const MODELS = new Set([
  'TextContent',
  'ImageContent',
  'AudioContent',
  'EmbeddedResource',
  'ResourceLink',
  'TextResourceContents',
  'BlobResourceContents',
  'CallToolResult',
  'Annotations',
  'ToolResult',
  // A tool definition (`@server.list_tools()` returns them): read for its outputSchema.
  'Tool',
]);

/** The `type` a content model has when the call leaves it out (its pydantic default). */
const MODEL_TYPES: Record<string, string> = {
  TextContent: 'text',
  ImageContent: 'image',
  AudioContent: 'audio',
  EmbeddedResource: 'resource',
  ResourceLink: 'resource_link',
};

/** Methods that change the list, dict or set they are called on. */
const PY_MUTATORS = new Set([
  'append',
  'extend',
  'insert',
  'update',
  'setdefault',
  'pop',
  'popitem',
  'clear',
  'remove',
  'add',
  'discard',
  'sort',
  'reverse',
]);

/** Model fields pydantic validates as strings. */
const STRING_FIELDS = new Set(['text', 'data', 'mimeType', 'uri', 'name', 'blob', 'title', 'description']);

function asString(value: Value): Value {
  return value.map((v) =>
    v.k === 'unknown' && !v.kind
      ? { ...v, kind: 'string' as const, reason: `${v.reason}, validated as a string by pydantic` }
      : v,
  );
}

/**
 * A model's `uri` is an `AnyUrl` (mcp.types: `Annotated[AnyUrl, UrlConstraints(host_required=False)]`):
 * pydantic parses it when the model is built, or the constructor raises, and sends the URL it parsed.
 * So a string the source does not fix is an absolute URI once it is there.
 */
function asUri(value: Value): Value {
  return value.map((v) =>
    (v.k === 'str' && v.value === undefined) || (v.k === 'unknown' && (!v.kind || v.kind === 'string'))
      ? { k: 'str' as const, site: v.site, format: 'uri' as const, ...(v.guards ? { guards: v.guards } : {}) }
      : v,
  );
}

const ANNOTATED = 'Annotated[';

/**
 * A parameter annotation without whitespace, and without an `Annotated[T, …]` wrapper (T up to its first
 * `,` or `]`). Found by searching, not by the regex `^Annotated\[([^,\]]+).*\]$`, which backtracks
 * quadratically: a 200 KB `Annotated[aaa…] | None` held the scan for 30 seconds.
 */
function bareAnnotation(annotation: string): string {
  const type = annotation.replace(/\s+/g, '');
  if (!type.startsWith(ANNOTATED) || !type.endsWith(']')) return type;
  const end = type.slice(ANNOTATED.length).search(/[,\]]/);
  return end > 0 ? type.slice(ANNOTATED.length, ANNOTATED.length + end) : type;
}

/** The JSON type a parameter annotation promises, when a framework validates arguments against it. */
export function kindOfAnnotation(annotation: string): JsonKind | undefined {
  const type = bareAnnotation(annotation);
  if (/^str$/.test(type)) return 'string';
  if (/^(int|float)$/.test(type)) return 'number';
  if (/^bool$/.test(type)) return 'boolean';
  if (/^(dict|Dict)(\[.*\])?$/.test(type)) return 'object';
  if (/^(list|List|tuple|Tuple|Sequence)(\[.*\])?$/.test(type)) return 'array';
  return undefined;
}

/**
 * The type inside `Optional[T]`, `T | None`, `None | T` or `Union[T, None]` (a parameter that may also be
 * None), of an annotation without whitespace; `undefined` for any other annotation.
 */
function withoutOptional(type: string): string | undefined {
  const optional = /^(?:typing\.)?Optional\[(.+)\]$/.exec(type);
  if (optional) return optional[1];
  const union =
    /^(?:typing\.)?Union\[(.+),None\]$/.exec(type) ?? /^(.+)\|None$/.exec(type) ?? /^None\|(.+)$/.exec(type);
  return union?.[1];
}

/** A list of integers (`list[int]`, `List[int]`), as bareAnnotation writes it. */
const INT_LIST = /^(list|List|typing\.List)\[int\]$/;

/** Builtins and methods whose result is surely an integer (`int()`, `len()`, `str.count()`…). */
const INTEGRAL_CALLS = new Set(['int', 'len', 'ord']);
const INTEGRAL_METHODS = new Set(['count', 'index', 'find']);

/** Operators that keep two integers an integer (`/` makes a float; `**` may, with a negative power). */
const INTEGRAL_OPERATORS = new Set(['+', '-', '*', '//', '%']);

/** `base64`'s encoders of the standard alphabet, whose bytes `.decode()` turns into base64 text. */
const BASE64_ENCODERS = new Set(['b64encode', 'standard_b64encode']);

/** Codecs that decode ASCII bytes as the same characters. */
const ASCII_CODECS = new Set(['ascii', 'utf-8', 'utf8', 'UTF-8', 'latin-1', 'latin1', 'iso-8859-1']);

/** FastMCP helpers it converts itself (`Image(path=…)` → an image block with a mimeType). */
const FRAMEWORK_HELPERS = new Set(['Image', 'Audio', 'File']);

/** The Python SDK accepts both the wire names and snake_case field names. */
const ALIASES: Record<string, string> = {
  mime_type: 'mimeType',
  is_error: 'isError',
  structured_content: 'structuredContent',
  last_modified: 'lastModified',
};

/** The value of `float(text)` when `text` names NaN or an infinity (Python reads it so, any case). */
function nonFinite(text: string): number | undefined {
  const name = text.trim().toLowerCase();
  if (/^[+-]?nan$/.test(name)) return Number.NaN;
  if (/^[+]?inf(inity)?$/.test(name)) return Number.POSITIVE_INFINITY;
  if (/^-inf(inity)?$/.test(name)) return Number.NEGATIVE_INFINITY;
  return undefined;
}

/** Builtins and well-known functions whose result type is certain. */
const CALL_KINDS = new Map<string, JsonKind>([
  ['str', 'string'],
  ['repr', 'string'],
  ['format', 'string'],
  ['chr', 'string'],
  ['hex', 'string'],
  ['int', 'number'],
  ['float', 'number'],
  ['len', 'number'],
  ['abs', 'number'],
  ['round', 'number'],
  ['sum', 'number'],
  ['ord', 'number'],
  ['bool', 'boolean'],
  ['isinstance', 'boolean'],
  ['hasattr', 'boolean'],
  ['callable', 'boolean'],
  ['any', 'boolean'],
  ['all', 'boolean'],
  ['json.loads', 'object'],
  ['time.time', 'number'],
]);

/** Methods whose result type is certain whatever the receiver. */
const METHOD_KINDS = new Map<string, JsonKind>([
  ['format', 'string'],
  ['join', 'string'],
  ['decode', 'string'],
  ['strip', 'string'],
  ['lstrip', 'string'],
  ['rstrip', 'string'],
  ['lower', 'string'],
  ['upper', 'string'],
  ['title', 'string'],
  ['capitalize', 'string'],
  ['replace', 'string'],
  ['isoformat', 'string'],
  ['strftime', 'string'],
  ['hexdigest', 'string'],
  ['model_dump_json', 'string'],
  ['read_text', 'string'],
  ['as_posix', 'string'],
  ['split', 'array'],
  ['splitlines', 'array'],
  ['startswith', 'boolean'],
  ['endswith', 'boolean'],
  ['isdigit', 'boolean'],
  ['exists', 'boolean'],
  ['count', 'number'],
  ['index', 'number'],
  ['find', 'number'],
  ['model_dump', 'object'],
]);

/** Calls that never change their arguments: objects passed to them stay as they are. */
const PURE_CALLS = new Set([
  'print',
  'len',
  'str',
  'repr',
  'isinstance',
  'hasattr',
  'getattr',
  'type',
  'id',
  'sorted',
  'list',
  'tuple',
  'set',
  'dict',
  'enumerate',
  'zip',
  'min',
  'max',
  'sum',
  'any',
  'all',
  'iter',
  'next',
  'format',
  'json.dumps',
  'JSONResponse',
  'jsonify',
  'Response',
]);
const PURE_METHODS = new Set([
  'debug',
  'info',
  'warning',
  'warn',
  'error',
  'exception',
  'critical',
  'log',
  'dumps',
  'get',
  'format',
  'json',
  'send',
  'write',
]);

/** Nodes that open a scope of their own: their bodies are not the enclosing function's code. */
/** Targets that bind each of their parts (`a, b = …`, `[a, *rest] = …`). */
const TARGET_LISTS = new Set([
  'pattern_list',
  'tuple_pattern',
  'list_pattern',
  'tuple',
  'list',
  'expression_list',
  'parenthesized_expression',
  'list_splat_pattern',
  'as_pattern_target',
]);

/** The names a function assigns (its locals), and those it declares `global` and `nonlocal`. */
interface ScopeInfo {
  readonly locals: ReadonlySet<string>;
  readonly globals: ReadonlySet<string>;
  readonly nonlocals: ReadonlySet<string>;
}

/** The keyword arguments of a call that passes none, shared (see args). */
const NO_KEYWORDS: ReadonlyMap<string, Value> = new Map();

/** No names changed elsewhere, shared (see changedElsewhere). */
const NO_CHANGES: ReadonlyMap<string, 'value' | 'members'> = new Map();

/** An empty set of names, shared (see scopeInfo). */
const NO_NAMES: ReadonlySet<string> = new Set();

const SCOPES = new Set(['function_definition', 'class_definition', 'lambda', 'decorated_definition']);

export class PyInterpreter extends Interpreter<string, PyRun, PyNode> {
  private readonly modules = new Map<string, PyModule>();
  private readonly rootRuns = new Map<PyNode, PyRun>();
  private readonly classes = new Map<number, { node: PyNode; run: PyRun }>();
  /** Calls under way that were made inside a `try` block: an exception they raise may be caught. */
  private guardedCalls = 0;
  private readonly locals = new WeakMap<PyNode, ScopeInfo>();
  /** Comprehension variables in scope, innermost last. */
  private readonly comprehensions: Map<string, Value>[] = [];
  readonly recorded = new Map<PyNode, RecordedCall>();

  constructor(
    project: Project,
    private readonly parse: (file: SourceFile) => PyTree | undefined,
    readonly watchedCalls: ReadonlySet<PyNode> = new Set(),
    watchedObjects: ReadonlySet<PyNode> = new Set(),
  ) {
    super(project, watchedObjects);
  }

  protected override resetTransient(): void {
    this.comprehensions.length = 0;
  }

  // ── modules ────────────────────────────────────────────────────────────────────────────────

  module(file: SourceFile, tree?: PyTree): PyModule | undefined {
    const key = file.absolute ?? `\u0000${file.path}`;
    const known = this.modules.get(key);
    if (known) return known;
    const parsed = tree ?? this.parse(file);
    if (!parsed) return undefined;
    const mod: PyModule = { file, tree: parsed };
    this.modules.set(key, mod);
    return mod;
  }

  moduleRun(mod: PyModule): PyRun | undefined {
    if (mod.run) return mod.run;
    if (mod.failed) return undefined;
    const run = new PyRun(mod.tree.root, mod, undefined, false, new Heap(this.project.frozen));
    mod.run = run;
    this.isolated(
      run,
      () => this.block(mod.tree.root.children),
      (reason) => {
        mod.failed = reason;
      },
    );
    return mod.failed ? undefined : run;
  }

  /** The function (or module) a definition is nested in: its run holds the definition's free variables. */
  enclosingFunction(node: PyNode): PyNode {
    for (let p = node.parent; p; p = p.parent) {
      if (p.type === 'function_definition' || p.type === 'lambda' || p.type === 'module') return p;
    }
    return node;
  }

  /** A function analysed on its own, with unknown parameters. */
  rootRun(fnNode: PyNode, mod: PyModule): PyRun | undefined {
    if (fnNode.type === 'module') return this.moduleRun(mod);
    const known = this.rootRuns.get(fnNode);
    if (known) return known;
    const closure = this.rootRun(this.enclosingFunction(fnNode), mod);
    if (!closure) return undefined;
    const run = new PyRun(fnNode, mod, closure, false, new Heap(this.project.frozen));
    this.rootRuns.set(fnNode, run);
    this.isolated(
      run,
      () => {
        this.bindParams(fnNode, undefined);
        this.functionBody(fnNode);
      },
      () => undefined,
    );
    return run;
  }

  /**
   * The class definition a module-level name is bound to once the module has run (defined there, or
   * imported from another file of the project), when it is bound to exactly one. A dotted name is a
   * class reached through imported modules (`schemas.Item` after `from app import schemas`).
   */
  classBoundTo(name: string, mod: PyModule): { node: PyNode; module: PyModule } | undefined {
    const state = this.moduleRun(mod)?.state;
    const [head = '', ...path] = name.split('.');
    let value = state?.vars.get(head);
    for (const key of path) {
      const [holder] = value ?? [];
      if (value?.length !== 1 || holder?.k !== 'ref') return undefined;
      value = state?.heap.get(holder.id)?.props.get(key)?.value;
    }
    const [only] = value ?? [];
    if (value?.length !== 1 || only?.k !== 'ref') return undefined;
    const found = this.classes.get(only.id);
    return found && { node: found.node, module: found.run.module };
  }

  /** The function value a `def` node denotes, with its free variables from the enclosing run. */
  functionValue(fnNode: PyNode, mod: PyModule): FunctionValue | undefined {
    const closure = this.rootRun(this.enclosingFunction(fnNode), mod);
    if (!closure) return undefined;
    return { node: fnNode, closure, name: this.nameOf(fnNode, mod) };
  }

  private nameOf(fnNode: PyNode, mod: PyModule): string {
    const name = field(fnNode, 'name');
    return name ? mod.tree.source.slice(name.start, name.end) : 'lambda';
  }

  /**
   * Interprets a handler as its framework calls it: with `args` when the caller knows them, else with
   * unknown arguments. `validated`: the framework checks arguments against the parameters' annotations
   * (FastMCP), so `city: str` is a string.
   */
  runFunction(value: FunctionValue, validated = false, args?: Args): PyRun {
    const node = value.node as PyNode;
    const closure = value.closure as PyRun;
    const run = new PyRun(node, closure.module, closure, false, new Heap(this.project.frozen));
    this.asFrameworkCalls(() =>
      this.within(run, () => {
        this.bindParams(node, args, value.self, validated, value.partial);
        this.functionBody(node);
        this.finish(run);
      }),
    );
    run.state?.heap.freeze();
    return run;
  }

  private siteIn(mod: PyModule, node: PyNode): Site {
    return { file: mod.file, start: node.start, end: node.end };
  }

  protected site(node: PyNode): Site {
    return this.siteIn(this.current.module, node);
  }

  protected runSite(run: PyRun): Site {
    return this.siteIn(run.module, run.fn);
  }

  private text(node: PyNode): string {
    return this.current.module.tree.source.slice(node.start, node.end);
  }

  // ── names ───────────────────────────────────────────────────────────────────────────────────

  /** Names a function assigns (its locals), and its `global`/`nonlocal` declarations. */
  private scopeInfo(fnNode: PyNode): ScopeInfo {
    const known = this.locals.get(fnNode);
    if (known) return known;
    const info = { locals: new Set<string>(), globals: new Set<string>(), nonlocals: new Set<string>() };
    const source = this.current.module.tree.source;
    const name = (n: PyNode) => source.slice(n.start, n.end);
    const targets = (t: PyNode | undefined): void => {
      if (!t) return;
      if (t.type === 'identifier') info.locals.add(name(t));
      else if (TARGET_LISTS.has(t.type)) for (const c of t.children) targets(c);
    };
    const params = field(fnNode, 'parameters');
    for (const p of params?.children ?? []) {
      const id =
        p.type === 'identifier' ? p : (field(p, 'name') ?? p.children.find((c) => c.type === 'identifier'));
      if (id) info.locals.add(name(id));
    }
    const stack: PyNode[] = [];
    const top = fnNode.type === 'module' ? fnNode : field(fnNode, 'body');
    if (top) pushChildren(stack, top);
    for (let node = stack.pop(); node; node = stack.pop()) {
      switch (node.type) {
        case 'function_definition':
        case 'class_definition': {
          const n = field(node, 'name');
          if (n) info.locals.add(name(n));
          continue;
        }
        case 'decorated_definition':
          appendAll(
            stack,
            node.children.filter((c) => c.field === 'definition'),
          );
          continue;
        case 'lambda':
        case 'list_comprehension':
        case 'dictionary_comprehension':
        case 'set_comprehension':
        case 'generator_expression':
          continue;
        case 'assignment':
        case 'augmented_assignment':
          targets(field(node, 'left'));
          break;
        case 'named_expression':
          targets(field(node, 'name'));
          break;
        case 'for_statement':
          targets(field(node, 'left'));
          break;
        case 'as_pattern_target':
          targets(node);
          continue;
        case 'import_statement':
        case 'import_from_statement':
          for (const c of node.children) {
            if (c.type === 'aliased_import') targets(field(c, 'alias'));
            else if (c.type === 'dotted_name' && c.field !== 'module_name') {
              const first = c.children[0];
              if (first) info.locals.add(name(first));
            }
          }
          continue;
        case 'global_statement':
          for (const c of node.children) info.globals.add(name(c));
          continue;
        case 'nonlocal_statement':
          for (const c of node.children) info.nonlocals.add(name(c));
          continue;
      }
      pushChildren(stack, node);
    }
    for (const g of info.globals) info.locals.delete(g);
    for (const g of info.nonlocals) info.locals.delete(g);
    // Most functions declare no global or nonlocal: one shared empty set each (they are only read
    // from now on) instead of two sets per function kept as long as the project.
    const scope: ScopeInfo = {
      locals: info.locals,
      globals: info.globals.size === 0 ? NO_NAMES : info.globals,
      nonlocals: info.nonlocals.size === 0 ? NO_NAMES : info.nonlocals,
    };
    this.locals.set(fnNode, scope);
    return scope;
  }

  private lookup(name: string, at: Site): Value {
    for (let i = this.comprehensions.length - 1; i >= 0; i--) {
      const value = this.comprehensions[i]?.get(name);
      if (value) return value;
    }
    let run: PyRun | undefined = this.current;
    const info = run.fn.type === 'module' ? undefined : this.scopeInfo(run.fn);
    if (info?.globals.has(name)) run = this.moduleRunOf(run);
    else if (info?.nonlocals.has(name)) run = run.closure;
    for (; run; run = run.closure) {
      const value = run.state?.vars.get(name);
      if (value) return run.done && run !== this.current ? this.laterValue(run, name, value, at) : value;
      if (
        run === this.current &&
        !run.isClass &&
        run.fn.type !== 'module' &&
        this.scopeInfo(run.fn).locals.has(name) &&
        !run.done
      ) {
        return unknown(at, `"${name}" before it is assigned`);
      }
    }
    return this.builtin(name, at);
  }

  /**
   * A name of a finished run (a module's global, a factory's local), read later by one of its
   * closures. If another function changes it (`CACHE[k] = v` in one tool, read in another; `global
   * X` reassigned), it may hold anything by then: its objects are open to this reader, a reassigned
   * one may be any value.
   */
  private laterValue(run: PyRun, name: string, value: Value, at: Site): Value {
    const changed = this.changedElsewhere(run.fn).get(name);
    if (changed === 'value')
      return join(value, unknown(at, `"${name}", which another function reassigns at run time`));
    if (changed === 'members') {
      escapeTo(this.heap, [value], `"${name}" is changed by another function at run time`, (id) =>
        this.classes.has(id),
      );
    }
    return value;
  }

  private readonly changed = new WeakMap<PyNode, ReadonlyMap<string, 'value' | 'members'>>();

  /** Names of `fn`'s scope that functions nested in it reassign or change the members of. */
  private changedElsewhere(fn: PyNode): ReadonlyMap<string, 'value' | 'members'> {
    const known = this.changed.get(fn);
    if (known) return known;
    const out = new Map<string, 'value' | 'members'>();
    this.changed.set(fn, out);
    const source = this.current.module.tree.source;
    const text = (n: PyNode) => source.slice(n.start, n.end);
    const nested: PyNode[] = [];
    const stack: PyNode[] = [];
    pushChildren(stack, fn);
    for (let n = stack.pop(); n; n = stack.pop()) {
      if (n.type === 'function_definition' || n.type === 'lambda') nested.push(n);
      pushChildren(stack, n);
    }
    const note = (name: string, what: 'value' | 'members') => {
      if (what === 'value' || !out.has(name)) out.set(name, what);
    };
    for (const g of nested) {
      const info = this.scopeInfo(g);
      const rootOf = (target: PyNode): PyNode | undefined => {
        let t: PyNode | undefined = target;
        while (t && (t.type === 'subscript' || t.type === 'attribute')) t = t.children[0];
        return t?.type === 'identifier' ? t : undefined;
      };
      const body = [...(field(g, 'body')?.children ?? [])];
      for (let n = body.pop(); n; n = body.pop()) {
        if (n.type === 'function_definition' || n.type === 'lambda' || n.type === 'class_definition')
          continue;
        if (n.type === 'assignment' || n.type === 'augmented_assignment') {
          const left = field(n, 'left');
          if (left?.type === 'identifier') {
            const name = text(left);
            if (info.globals.has(name) || info.nonlocals.has(name)) note(name, 'value');
          } else if (left) {
            const root = rootOf(left);
            if (root && !info.locals.has(text(root))) note(text(root), 'members');
          }
        } else if (n.type === 'call') {
          const callee = field(n, 'function');
          const object = callee?.type === 'attribute' ? field(callee, 'object') : undefined;
          const method = callee?.type === 'attribute' ? field(callee, 'attribute') : undefined;
          if (
            object?.type === 'identifier' &&
            method &&
            PY_MUTATORS.has(text(method)) &&
            !info.locals.has(text(object))
          ) {
            note(text(object), 'members');
          }
        } else if (n.type === 'delete_statement') {
          for (const target of n.children) {
            const root = rootOf(target);
            if (root && !info.locals.has(text(root))) note(text(root), 'members');
          }
        }
        pushChildren(body, n);
      }
    }
    // Most scopes have no such names: one shared empty map, kept as long as the project, for them all.
    if (out.size === 0) this.changed.set(fn, NO_CHANGES);
    return out;
  }

  private moduleRunOf(run: PyRun): PyRun {
    let r = run;
    while (r.closure) r = r.closure;
    return r;
  }

  private builtin(name: string, at: Site): Value {
    switch (name) {
      case 'None':
        return nul(at);
      case 'True':
        return bool(at, true);
      case 'False':
        return bool(at, false);
      default:
        return unknown(at, `"${name}" is known only at run time`);
    }
  }

  /** Whether a name is defined anywhere the current code can see (else it is a builtin). */
  private isBound(name: string): boolean {
    for (const scope of this.comprehensions) if (scope.has(name)) return true;
    for (let run: PyRun | undefined = this.current; run; run = run.closure) {
      if (run.state?.vars.has(name)) return true;
      if (run.fn.type !== 'module' && !run.isClass && this.scopeInfo(run.fn).locals.has(name)) return true;
      if (run.fn.type === 'module' && this.scopeInfo(run.fn).locals.has(name)) return true;
    }
    return false;
  }

  private assignName(name: string, value: Value): void {
    const run = this.current;
    const info = run.fn.type === 'module' || run.isClass ? undefined : this.scopeInfo(run.fn);
    let target: PyRun | undefined = run;
    if (info?.globals.has(name)) target = this.moduleRunOf(run);
    else if (info?.nonlocals.has(name)) {
      for (target = run.closure; target && !target.state?.vars.has(name); target = target.closure);
    }
    if (!target?.state) return;
    if (target === run) target.state.vars.set(name, value);
    else {
      const old = target.state.vars.get(name);
      target.state.vars.set(name, old ? join(old, value) : value);
    }
  }

  // ── imports ─────────────────────────────────────────────────────────────────────────────────

  private importStatement(node: PyNode): void {
    const source = this.current.module.tree.source;
    const name = (n: PyNode) => source.slice(n.start, n.end);
    const at = this.site(node);
    if (node.type === 'import_statement') {
      for (const c of node.children) {
        if (c.type === 'aliased_import') {
          const dotted = field(c, 'name');
          const alias = field(c, 'alias');
          if (dotted && alias) this.assignName(name(alias), this.moduleValue(name(dotted), 0, at));
        } else if (c.type === 'dotted_name') {
          // `import pkg.render` binds `pkg`, with `render` reachable as its attribute.
          const parts = name(c).split('.');
          let value = this.moduleValue(parts.join('.'), 0, at);
          for (let i = parts.length - 1; i > 0; i--) {
            const parent = this.moduleValue(parts.slice(0, i).join('.'), 0, at);
            writeMember(this.heap, parent, parts[i], value, at);
            value = parent;
          }
          const first = parts[0];
          if (first) this.assignName(first, value);
        }
      }
      return;
    }
    const moduleName = field(node, 'module_name');
    if (!moduleName) return;
    let level = 0;
    let dotted = '';
    if (moduleName.type === 'relative_import') {
      const prefix = moduleName.children.find((c) => c.type === 'import_prefix');
      level = prefix ? prefix.end - prefix.start : 0;
      const rest = moduleName.children.find((c) => c.type === 'dotted_name');
      dotted = rest ? name(rest) : '';
    } else dotted = name(moduleName);
    for (const c of node.children) {
      if (c === moduleName) continue;
      if (c.type === 'wildcard_import') {
        const target = this.importedModule(dotted, level);
        const run = target ? this.moduleRun(target) : undefined;
        for (const [key, value] of run?.state?.vars.entries() ?? [])
          if (!key.startsWith('_')) this.assignName(key, value);
        continue;
      }
      const imported =
        c.type === 'aliased_import' ? field(c, 'name') : c.type === 'dotted_name' ? c : undefined;
      const alias = c.type === 'aliased_import' ? field(c, 'alias') : imported;
      if (!imported || !alias) continue;
      this.assignName(name(alias), this.fromImport(dotted, level, name(imported), at));
    }
  }

  private importedModule(dotted: string, level: number): PyModule | undefined {
    const from = this.current.module.file.absolute;
    if (!from) return undefined;
    const path = resolvePythonImport(this.project, from, dotted, level);
    const file = path ? this.project.load(path) : undefined;
    return file ? this.module(file) : undefined;
  }

  /** `import pkg.mod` / `from . import mod`: the module as an object of its final top-level names. */
  private moduleValue(dotted: string, level: number, at: Site): Value {
    const target = this.importedModule(dotted, level);
    if (!target) return unknown(at, `the module ${'.'.repeat(level)}${dotted}`);
    if (this.active.includes(target.tree.root))
      return unknown(at, `the module ${dotted}, imported in a cycle`);
    const run = this.moduleRun(target);
    if (!run?.state) return unknown(at, `the module ${dotted}: ${target.failed ?? 'not analysed'}`);
    const props = new Map<string, Member>();
    for (const [key, value] of run.state.vars.entries()) props.set(key, { value, site: at });
    return ref(
      at,
      this.heap.alloc({
        ...newObject(at, `module ${dotted}`),
        props,
        open: `names of the module ${dotted} set at run time`,
      }),
    );
  }

  private fromImport(dotted: string, level: number, name: string, at: Site): Value {
    const target = this.importedModule(dotted, level);
    if (!target) {
      // `from . import helpers`: a submodule.
      const sub = this.importedModule(dotted ? `${dotted}.${name}` : name, level);
      if (sub) return this.moduleValue(dotted ? `${dotted}.${name}` : name, level, at);
      const from = `${'.'.repeat(level)}${dotted}`;
      return unknown(
        at,
        level > 0
          ? `"${name}" is imported from ${from}, which cannot be read`
          : `"${name}" comes from the package ${from}`,
      );
    }
    if (this.active.includes(target.tree.root)) return unknown(at, `"${name}" is imported in a cycle`);
    const run = this.moduleRun(target);
    const value = run?.state?.vars.get(name);
    if (value) return value;
    const sub = this.importedModule(dotted ? `${dotted}.${name}` : name, level);
    if (sub) return this.moduleValue(dotted ? `${dotted}.${name}` : name, level, at);
    return unknown(
      at,
      `"${name}" from ${'.'.repeat(level)}${dotted}${target.failed ? `: ${target.failed}` : ''}`,
    );
  }

  // ── functions and classes ───────────────────────────────────────────────────────────────────

  private defValue(node: PyNode): Value {
    // Methods look up free variables in the function around the class, not in the class body.
    let closure: PyRun = this.current;
    while (closure.isClass && closure.closure) closure = closure.closure;
    return fn(this.site(node), {
      node,
      closure,
      name: node.type === 'lambda' ? 'lambda' : this.nameOf(node, this.current.module),
    });
  }

  /**
   * `@tool def f(…)` is `f = tool(f)`: a decorator the project defines (a function, a method of a
   * project object as in `@registry.register("name")`, or a call of one giving the decorator) is run on
   * the function, as Python runs it when the `def` is executed, so a registry it fills
   * (`TOOLS[fn.__name__] = fn`) holds the function, and the name is bound to what the decorator returns. Decorators applied bottom-up; one the project does not define (`@mcp.tool()`,
   * `@functools.wraps(fn)`) is left as it was: the name keeps the function, and costs one lookup.
   */
  private decorate(node: PyNode, definition: PyNode): void {
    const decorators = node.children;
    let value: Value | undefined;
    for (let i = decorators.length - 1; i >= 0; i--) {
      const decorator = decorators[i] as PyNode;
      if (decorator.type !== 'decorator') continue;
      const [expression] = decorator.children;
      const callee = expression?.type === 'call' ? field(expression, 'function') : expression;
      // `tool`, or `registry.tool` of an object or module of the project.
      let root = callee;
      while (root?.type === 'attribute') root = field(root, 'object');
      if (!callee || root?.type !== 'identifier' || !this.current.state) break;
      const name = this.text(root);
      let bound = this.isBound(name) ? this.lookup(name, this.site(root)) : NOTHING;
      if (bound.length === 0 || !bound.every((v) => v.k === 'fn' || v.k === 'ref')) {
        // A library decorator leaves the function as it was, but for the name `functools.wraps` gives.
        if (expression?.type === 'call' && /^(?:functools\.)?wraps$/.test(this.text(callee)))
          value = this.wrapped(definition, expression, value);
        break;
      }
      if (callee !== root) bound = this.ev(callee);
      if (bound.length === 0 || !bound.every((v) => v.k === 'fn')) break;
      const at = this.site(decorator);
      const applied = expression?.type === 'call' ? this.ev(expression) : bound;
      value ??= this.lookup(this.nameOf(definition, this.current.module), at);
      value = this.call(
        applied,
        { positional: [value], keywords: NO_KEYWORDS },
        at,
        this.text(expression as PyNode),
      );
    }
    if (value) this.assignName(this.nameOf(definition, this.current.module), value);
  }

  /** `@functools.wraps(fn) def wrapper(…)`: the wrapper, named as `fn` (FastMCP names a tool by `__name__`). */
  private wrapped(definition: PyNode, call: PyNode, value: Value | undefined): Value | undefined {
    const [first] = field(call, 'arguments')?.children ?? [];
    if (!first || first.type === 'keyword_argument') return value;
    const names = this.ev(first).flatMap((v) => (v.k === 'fn' ? [v.fn.wraps ?? v.fn.name] : []));
    const [wraps] = names;
    if (wraps === undefined || names.some((n) => n !== wraps)) return value;
    const wrapper = value ?? this.lookup(this.nameOf(definition, this.current.module), this.site(call));
    return wrapper.map((v) => (v.k === 'fn' ? { ...v, fn: { ...v.fn, wraps } } : v));
  }

  private classDefinition(node: PyNode): Value {
    const at = this.site(node);
    const run = new PyRun(node, this.current.module, this.current, true, this.heap);
    const previous = this.current;
    this.current = run;
    try {
      const body = field(node, 'body');
      if (body) this.block(body.children);
    } finally {
      this.current = previous;
    }
    if (run.state) this.state.heap = run.state.heap;
    const props = new Map<string, Member>();
    for (const [key, value] of run.state?.vars.entries() ?? []) props.set(key, { value, site: at });
    const superclasses = field(node, 'superclasses');
    const id = this.heap.alloc({
      ...newObject(at, `class ${this.nameOf(node, this.current.module)}`),
      props,
      ...(superclasses && superclasses.children.length > 0 ? { open: 'members of the base classes' } : {}),
    });
    this.classes.set(id, { node, run });
    return ref(at, id);
  }

  /** `Cls(…)`: an instance with the class's methods bound to it, after `__init__` runs. */
  private instantiate(classId: number, args: Args, at: Site, node?: PyNode): Value {
    const refused = this.refusedModel(classId, args, at);
    if (refused) return refused;
    const response = node && this.responseModel(classId, args, node, at);
    if (response) return response;
    const cls = this.heap.get(classId);
    const id = this.heap.alloc(newObject(at));
    const self = ref(at, id);
    const props = new Map<string, Member>();
    for (const [key, member] of cls?.props ?? []) {
      props.set(key, {
        value: member.value.map((v) => (v.k === 'fn' ? { ...v, fn: { ...v.fn, self } } : v)),
        site: member.site,
      });
    }
    const name = cls?.model?.replace(/^class /, '');
    this.heap.set(id, { ...newObject(at, name), props, open: 'attributes set at run time' });
    const init = props.get('__init__')?.value;
    if (init) this.call(init, args, at, '__init__');
    return self;
  }

  /**
   * `Model(field=…)` of a pydantic model whose fields this analysis reads, when pydantic surely refuses
   * the arguments: a literal it does not take for its field (`Weather(temp="hot")` for a `float`), or a
   * required field left out. The constructor then raises ValidationError on every call, and FastMCP
   * answers with an error result instead of the return. The call stands for the fields it was given, a
   * plain object, which the check of the return against its annotation rejects where the argument was
   * written. Any other construction is the instance, which passes as the model; so is one inside a
   * `try` (here or in a caller), whose handler may catch the ValidationError and answer otherwise.
   */
  private refusedModel(classId: number, args: Args, at: Site): Value | undefined {
    // Positional arguments (a TypeError for a BaseModel) and spread ones are left to run time.
    if (args.positional.length > 0 || args.spread) return undefined;
    if (this.current.tries.length > 0 || this.guardedCalls > 0) return undefined;
    const cls = this.classes.get(classId);
    const model =
      cls && classModel(cls.node, cls.run.module, (name, scope) => this.classBoundTo(name, scope));
    if (!model?.validatedWhenBuilt || !model.fields) return undefined;
    let refused = false;
    const props = new Map<string, Member>();
    for (const f of model.fields) {
      const given = args.keywords.get(f.name);
      if (given === undefined) {
        refused ||= f.required;
        continue;
      }
      props.set(f.name, { value: given, site: given[0]?.site ?? at });
      const literal = literalOf(given);
      if (f.type && literal !== NOT_LITERAL && judgeLax(f.type, literal).rejected.length > 0) refused = true;
    }
    return refused ? ref(at, this.heap.alloc({ ...newObject(at), props, refused: model })) : undefined;
  }

  /**
   * `RpcResponse(id=…, result=…)` of a pydantic model with a `jsonrpc` field, given its `result` or
   * `error`: a JSON-RPC response a gateway returns (FastAPI sends the model's fields as JSON, defaults
   * included). It is the object of those fields, allocated at the call, so that it is judged as an
   * envelope literal is (FastAPI sends a default of None as null: `"error": null` beside the result).
   */
  private responseModel(classId: number, args: Args, node: PyNode, at: Site): Value | undefined {
    if (args.positional.length > 0 || args.spread) return undefined;
    if (!args.keywords.has('result') && !args.keywords.has('error')) return undefined;
    const cls = this.classes.get(classId);
    const model =
      cls && classModel(cls.node, cls.run.module, (name, scope) => this.classBoundTo(name, scope));
    if (!model?.validatedWhenBuilt || !model.fields?.some((f) => f.name === 'jsonrpc')) return undefined;
    // `@app.post(…, response_model_exclude_none=True)` leaves out the fields that are None;
    // `response_model_exclude_unset` / `_defaults`, those given no value (`jsonrpc` among them).
    const route = this.current.fn.parent;
    const decorators = route?.type === 'decorated_definition' ? this.text(route).split(/\bdef\b/)[0] : '';
    const excludes = (what: string) =>
      new RegExp(`response_model_exclude_${what}\\s*=\\s*True`).test(decorators ?? '');
    const defaults = excludes('(?:unset|defaults)') ? undefined : this.heap.get(classId)?.props;
    const withoutNone = excludes('none');
    const props = new Map<string, Member>();
    for (const f of model.fields) {
      const value = args.keywords.get(f.name);
      const member = value ? { value, site: value[0]?.site ?? at } : defaults?.get(f.name);
      if (member && !(withoutNone && member.value.every((v) => v.k === 'null'))) props.set(f.name, member);
    }
    const id = this.allocate(node, { ...newObject(at), props });
    this.modelResponses.add(id);
    return ref(at, id);
  }

  /** Binds parameters; `args` undefined: the framework supplies them (unknown). `self` binds the first. */
  private bindParams(
    node: PyNode,
    given: Args | undefined,
    self?: Value,
    validated = false,
    partial?: FunctionValue['partial'],
  ): void {
    const params = field(node, 'parameters')?.children ?? [];
    // A partial's arguments come first; run as a tool, they are bound and the rest are inputs.
    const args: Args | undefined =
      given && partial
        ? {
            ...given,
            positional: [...partial.positional, ...given.positional],
            keywords: new Map([...partial.keywords, ...given.keywords]),
          }
        : given;
    let boundPosition = 0;
    const source = this.current.module.tree.source;
    const used = new Set<string>();
    let position = 0;
    params.forEach((p, i) => {
      const id =
        p.type === 'identifier' ? p : (field(p, 'name') ?? p.children.find((c) => c.type === 'identifier'));
      if (!id) return;
      const name = source.slice(id.start, id.end);
      used.add(name);
      const at = this.site(p);
      if (i === 0 && self) {
        this.assignName(name, self);
        return;
      }
      if (p.type === 'list_splat_pattern') {
        const items = args ? args.positional.slice(position).map((value) => ({ value, site: at })) : [];
        this.assignName(
          name,
          ref(
            at,
            this.heap.alloc({ ...newArray(at, 'tuple'), items, ...(args ? {} : { open: 'arguments' }) }),
          ),
        );
        position = Number.POSITIVE_INFINITY;
        return;
      }
      if (p.type === 'dictionary_splat_pattern') {
        const props = new Map<string, Member>();
        for (const [k, v] of args?.keywords ?? []) if (!used.has(k)) props.set(k, { value: v, site: at });
        this.assignName(
          name,
          ref(
            at,
            this.heap.alloc({ ...newObject(at), props, ...(args ? {} : { open: 'keyword arguments' }) }),
          ),
        );
        return;
      }
      if (p.type === 'keyword_separator' || p.type === 'positional_separator') return;
      if (!args) {
        // A partial's positional arguments are bound; its keywords are defaults a caller may override.
        const preset =
          boundPosition < (partial?.positional.length ?? 0)
            ? partial?.positional[boundPosition++]
            : undefined;
        if (preset) {
          this.assignName(name, preset);
          return;
        }
        const annotation = validated ? field(p, 'type') : undefined;
        const given = annotation
          ? this.validatedParameter(source.slice(annotation.start, annotation.end), name, at)
          : unknown(at, `the parameter "${name}"`);
        // A caller that leaves the argument out gets the default, which nothing validates
        // (`s: str = None` is None then, whatever the annotation says).
        const defaultNode = field(p, 'value');
        const fallback = partial?.keywords.get(name) ?? (defaultNode ? this.ev(defaultNode) : undefined);
        this.assignName(name, fallback ? join(given, fallback) : given);
        return;
      }
      let value =
        args.keywords.get(name) ??
        (position < args.positional.length ? args.positional[position] : undefined);
      if (!args.keywords.has(name)) position++;
      if (!value) {
        const fallback = field(p, 'value');
        value = fallback ? this.ev(fallback) : unknown(at, `the parameter "${name}"`);
      }
      this.assignName(name, value);
    });
  }

  /** What a parameter holds when the call gives it and the framework validated it against `annotation`. */
  private validatedParameter(annotation: string, name: string, at: Site): Value {
    const written = bareAnnotation(annotation);
    // `Optional[str]`, `str | None`: the inner type, or None (one level: a nested Optional is unknown).
    const inner = withoutOptional(written);
    const type = inner === undefined ? written : bareAnnotation(inner);
    const parameter = unknown(at, `the parameter "${name}"`, kindOfAnnotation(type));
    const value = INT_LIST.test(type)
      ? this.arrayOf(num(at, undefined, true), at)
      : type === 'int'
        ? integralNumber(parameter)
        : parameter;
    return inner === undefined ? value : join(value, nul(at));
  }

  private functionBody(node: PyNode): void {
    if (node.type === 'lambda') {
      const body = field(node, 'body');
      if (body) this.recordReturn(body, this.ev(body));
      return;
    }
    const body = field(node, 'body');
    if (!body) return;
    if (this.isGenerator(body)) {
      this.recordReturn(body, unknown(this.site(node), 'a generator'));
      return;
    }
    this.block(body.children);
  }

  /** Whether each function body run so far holds a `yield`: a body runs once per call, read once. */
  private readonly generators = new Map<PyNode, boolean>();

  private isGenerator(body: PyNode): boolean {
    let known = this.generators.get(body);
    if (known === undefined) {
      known = false;
      const stack: PyNode[] = [];
      pushChildren(stack, body);
      for (let n = stack.pop(); n; n = stack.pop()) {
        if (n.type === 'yield') {
          known = true;
          break;
        }
        if (!SCOPES.has(n.type)) pushChildren(stack, n);
      }
      this.generators.set(body, known);
    }
    return known;
  }

  private call(callee: Value, args: Args, at: Site, text: string, node?: PyNode): Value {
    let result: Value = NOTHING;
    // `TOOLS[name](…)` of a table holding project functions and some stored unseen: an unknown callee
    // beside known ones is no library function but one the analysis did not see stored.
    const mixed = callee.length > 1 && callee.some((v) => v.k === 'fn');
    for (const v of callee) {
      if (!this.current.state) break;
      if (mixed && v.k === 'unknown') {
        this.escapeArgs(args, text, at);
        result = join(
          result,
          unknown(
            at,
            `the result of ${text}(), which may also be a function the analysis does not know (${v.reason})`,
          ),
        );
        continue;
      }
      result = join(result, this.callVariant(v, args, at, text, node));
    }
    return result.length > 0 ? result : nul(at);
  }

  private callVariant(v: Variant, args: Args, at: Site, text: string, site?: PyNode): Value {
    if (v.k === 'ref') {
      if (this.classes.has(v.id)) return this.instantiate(v.id, args, at, site);
      const state = this.heap.get(v.id);
      const call = state?.props.get('__call__')?.value;
      if (call) return this.call(call, args, at, text);
    }
    if (v.k !== 'fn') {
      this.escapeArgs(args, text, at);
      return unknown(at, `the result of ${text}(), which is not part of the scanned project`);
    }
    const node = v.fn.node as PyNode;
    if (this.active.includes(node)) return unknown(at, `a recursive call to ${v.fn.name}()`);
    if (this.active.length > 20) return unknown(at, 'calls nested too deeply to follow');
    this.callees.add(node);
    const closure = v.fn.closure as PyRun;
    const run = new PyRun(node, closure.module, closure, false, this.heap);
    // The callee does not see the caller's comprehension variables.
    const comprehensions = this.comprehensions.splice(0);
    const guarded = this.current.tries.length > 0;
    if (guarded) this.guardedCalls++;
    try {
      this.within(run, () => {
        this.bindParams(node, args, v.fn.self, false, v.fn.partial);
        this.functionBody(node);
        this.finish(run);
      });
    } finally {
      if (guarded) this.guardedCalls--;
      appendAll(this.comprehensions, comprehensions);
    }
    let value: Value = NOTHING;
    for (const r of run.returns.values()) value = join(value, r.value);
    // Falling off the end next to explicit returns is often a path that cannot happen; with no
    // return at all, the function certainly returns None.
    if (run.fellThrough) value = join(value, run.returns.size > 0 ? maybeUndef(at) : nul(at));
    if (run.state) this.state.heap = run.state.heap;
    const declared = this.declare(value, field(node, 'return_type'), closure.module);
    if (!closure.module.tree.source.startsWith('async', node.start)) return declared;
    // Calling an `async def` gives a coroutine, which only `await` turns into what it returns. Not a
    // dict, nor anything a client can be sent: open, so that a result holding one is never proven.
    return ref(
      at,
      this.heap.alloc({
        ...newObject(at),
        promised: awaited(this.heap, declared),
        open: `a coroutine: ${text}() is not awaited`,
      }),
    );
  }

  private declare(value: Value, annotation: PyNode | undefined, mod: PyModule): Value {
    return annotation
      ? provenIn(this.heap, value, mod.tree.source.slice(annotation.start, annotation.end))
      : value;
  }

  /**
   * A call out of the project: what it is handed may change there, and may be what a client
   * receives; a function it is handed while a handler runs may be called there, any number of times
   * (`executor.map(add, rows)`, `asyncio.to_thread(fn)`), with arguments the analysis does not know.
   */
  private escapeArgs(args: Args, text: string, at: Site): void {
    const values = [...args.positional, ...args.keywords.values()];
    // `return jsonify(envelope)`, `JSONResponse(envelope)`: what leaves for the client.
    this.noteOutflow(at, values);
    const name = text.slice(text.lastIndexOf('.') + 1);
    if (PURE_CALLS.has(text) || PURE_METHODS.has(name)) return;
    for (const value of this.followsCallbacks ? values : []) {
      const functions = value.filter((v) => v.k === 'fn');
      if (functions.length === 0 || !this.current.state) continue;
      const count = Math.max(
        ...functions.map((f) => field(f.fn.node as PyNode, 'parameters')?.children.length ?? 0),
      );
      const given = {
        positional: Array.from({ length: count }, () =>
          unknown(at, `an argument ${text}() passes to its callback`),
        ),
        keywords: new Map<string, Value>(),
      };
      this.repeatedly(at, () => this.call(functions, given, at, 'callback'));
    }
    if (!this.current.state) return;
    escapeTo(this.heap, values, `passed to ${text}(), which the analysis cannot follow`, (id) =>
      this.classes.has(id),
    );
  }

  // ── statements ──────────────────────────────────────────────────────────────────────────────

  private block(statements: readonly PyNode[]): void {
    for (const statement of statements) {
      if (!this.current.state) return;
      this.exec(statement);
    }
  }

  private exec(node: PyNode): void {
    if (!this.current.state) return;
    this.project.budget.tick();
    switch (node.type) {
      case 'expression_statement':
        for (const c of node.children) this.ev(c);
        return;
      case 'return_statement': {
        const [value] = node.children;
        this.recordReturn(node, value ? this.ev(value) : nul(this.site(node)));
        return;
      }
      case 'raise_statement':
        for (const c of node.children) this.ev(c);
        this.throwHere();
        return;
      case 'if_statement':
        this.ifStatement(node);
        return;
      case 'for_statement':
        this.forStatement(node);
        return;
      case 'while_statement':
        this.whileStatement(node);
        return;
      case 'try_statement':
        this.tryStatement(node);
        return;
      case 'with_statement': {
        for (const item of node.children.find((c) => c.type === 'with_clause')?.children ?? []) {
          const value = field(item, 'value');
          if (value?.type === 'as_pattern') {
            const [expression] = value.children;
            const alias = field(value, 'alias');
            const v = expression ? this.ev(expression) : NOTHING;
            if (alias)
              this.bindTarget(
                alias,
                unknown(this.site(alias), `what ${sourceText(this.site(expression ?? alias))} yields`),
              );
            void v;
          } else if (value) this.ev(value);
        }
        const body = field(node, 'body');
        if (body) this.block(body.children);
        return;
      }
      case 'match_statement':
        this.matchStatement(node);
        return;
      case 'function_definition':
        this.assignName(this.nameOf(node, this.current.module), this.defValue(node));
        return;
      case 'class_definition':
        this.assignName(this.nameOf(node, this.current.module), this.classDefinition(node));
        return;
      case 'decorated_definition': {
        const definition = field(node, 'definition');
        if (definition) this.exec(definition);
        if (definition?.type === 'function_definition') this.decorate(node, definition);
        return;
      }
      case 'import_statement':
      case 'import_from_statement':
        this.importStatement(node);
        return;
      case 'break_statement': {
        const state = this.current.state;
        if (state) this.current.breaks.at(-1)?.push(state);
        this.current.state = undefined;
        return;
      }
      case 'continue_statement': {
        const state = this.current.state;
        if (state) this.current.continues.at(-1)?.push(state);
        this.current.state = undefined;
        return;
      }
      case 'delete_statement':
        for (const target of node.children.flatMap((c) =>
          c.type === 'expression_list' ? c.children : [c],
        )) {
          if (target.type === 'subscript') {
            const object = field(target, 'value');
            const key = field(target, 'subscript');
            if (object && key)
              writeMember(
                this.heap,
                this.ev(object),
                this.keyOf(key),
                undef(this.site(target)),
                this.site(target),
              );
          }
        }
        return;
      case 'block':
        this.block(node.children);
        return;
      case 'assert_statement':
        for (const c of node.children) this.ev(c);
        return;
      default:
        return;
    }
  }

  private guardOf(test: PyNode, holds: boolean): Guard {
    return { text: sourceText(this.site(test)), holds, site: this.site(test) };
  }

  private ifStatement(node: PyNode): void {
    const condition = field(node, 'condition');
    const consequence = field(node, 'consequence');
    const alternatives = fields(node, 'alternative');
    this.branch(node, condition, consequence, alternatives);
  }

  /** `if c: A` then the `elif`/`else` chain, as nested branches. */
  private branch(
    node: PyNode,
    condition: PyNode | undefined,
    consequence: PyNode | undefined,
    alternatives: readonly PyNode[],
  ): void {
    const test = condition ? this.ev(condition) : NOTHING;
    if (!this.current.state) return;
    const truthy = test.length === 0 || test.some(mayBeTruthy);
    const falsy = test.length === 0 || test.some(mayBeFalsy);
    const [next, ...rest] = alternatives;
    const runElse = () => {
      if (!next) return;
      if (next.type === 'elif_clause')
        this.branch(next, field(next, 'condition'), field(next, 'consequence'), rest);
      else {
        const body = field(next, 'body') ?? next.children.find((c) => c.type === 'block');
        if (body) this.block(body.children);
      }
    };
    if (truthy && !falsy) {
      if (consequence) this.block(consequence.children);
      return;
    }
    if (falsy && !truthy) {
      runElse();
      return;
    }
    this.fork(
      this.site(node),
      condition
        ? { whenTrue: this.guardOf(condition, true), whenFalse: this.guardOf(condition, false) }
        : undefined,
      () => {
        if (condition) this.refine(condition, true);
        if (consequence) this.block(consequence.children);
      },
      () => {
        if (condition) this.refine(condition, false);
        runElse();
      },
    );
  }

  /**
   * Narrows variables in a branch by its condition: after `if isinstance(result, str):`, `result`
   * is a string; after `if not data: return …`, `data` is truthy; after `if x is None: return`,
   * `x` is not None.
   */
  private refine(test: PyNode, holds: boolean): void {
    if (!this.current.state) return;
    switch (test.type) {
      case 'parenthesized_expression': {
        const [inner] = test.children;
        if (inner) this.refine(inner, holds);
        return;
      }
      case 'not_operator': {
        const [inner] = test.children;
        if (inner) this.refine(inner, !holds);
        return;
      }
      case 'boolean_operator': {
        const left = field(test, 'left');
        const right = field(test, 'right');
        if (!left || !right) return;
        const operator = this.current.module.tree.source.slice(left.end, right.start).trim();
        if ((operator === 'and' && holds) || (operator === 'or' && !holds)) {
          this.refine(left, holds);
          this.refine(right, holds);
        }
        return;
      }
      case 'identifier':
        this.narrow(test, (v) => (holds ? mayBeTruthy(v) : mayBeFalsy(v)));
        return;
      case 'call': {
        const fn = field(test, 'function');
        const [subject, types] = field(test, 'arguments')?.children ?? [];
        // `mime.startswith("image/")`
        const method = fn?.type === 'attribute' ? field(fn, 'attribute') : undefined;
        const object = fn?.type === 'attribute' ? field(fn, 'object') : undefined;
        const affix = subject?.type === 'string' ? constantString(this.ev(subject)) : undefined;
        if (method && object && affix !== undefined && !types) {
          const name = this.text(method);
          if (name === 'startswith' || name === 'endswith') {
            const end = name === 'startswith' ? 'start' : 'end';
            this.narrow(object, (v) => mayHaveAffix(v, end, affix, holds));
          }
          return;
        }
        if (fn?.type !== 'identifier' || this.text(fn) !== 'isinstance' || !subject || !types) return;
        const names = (types.type === 'tuple' ? types.children : [types]).map((t) =>
          this.text(t).replace(/^.*\./, ''),
        );
        // `isinstance(x, str)`: a string on this path (a bool is an int too, so only `bool` says bool).
        const kind = names.every((n) => n === 'str')
          ? 'string'
          : names.every((n) => n === 'bool')
            ? 'boolean'
            : undefined;
        const passes = (v: Variant) =>
          v.k === 'unknown' || v.k === 'fn' || names.some((n) => isInstance(this.heap, v, n)) === holds;
        const member = this.memberPath(subject);
        if (member) {
          if (holds && kind)
            this.typeMember(member.object, member.key, kind, sourceText(this.site(test)), passes);
          return;
        }
        this.narrow(
          subject,
          passes,
          holds ? sourceText(this.site(test)) : undefined,
          holds ? kind : undefined,
        );
        return;
      }
      case 'comparison_operator': {
        const [left, right] = test.children;
        if (!left || !right || test.children.length !== 2) return;
        const operator = this.current.module.tree.source
          .slice(left.end, right.start)
          .trim()
          .replace(/\s+/g, ' ');
        const equal = (operator === '==' || operator === 'is') === holds;
        if (!['==', '!=', 'is', 'is not'].includes(operator)) return;
        const [subject, literal] = isPyLiteral(right)
          ? [left, right]
          : isPyLiteral(left)
            ? [right, left]
            : [];
        if (!subject || !literal) return;
        const constant =
          literal.type === 'none'
            ? null
            : literal.type === 'true'
              ? true
              : literal.type === 'false'
                ? false
                : constantString(this.ev(literal));
        this.narrow(subject, (v) => (equal ? pyMayEqual(v, constant) : pyMayDiffer(v, constant)));
        return;
      }
      default:
        return;
    }
  }

  /** `x["key"]` or `x.get("key")` of a local name `x`, with a constant key. */
  private memberPath(node: PyNode): { object: PyNode; key: string } | undefined {
    if (node.type === 'subscript') {
      const object = field(node, 'value');
      const key = field(node, 'subscript');
      const name = key?.type === 'string' ? constantString(this.ev(key)) : undefined;
      return object?.type === 'identifier' && name !== undefined ? { object, key: name } : undefined;
    }
    if (node.type !== 'call') return undefined;
    const fn = field(node, 'function');
    const args = field(node, 'arguments')?.children ?? [];
    const object = fn?.type === 'attribute' ? field(fn, 'object') : undefined;
    const method = fn?.type === 'attribute' ? field(fn, 'attribute') : undefined;
    const [key] = args;
    if (object?.type !== 'identifier' || !method || this.text(method) !== 'get' || args.length !== 1)
      return undefined;
    const name = key?.type === 'string' ? constantString(this.ev(key)) : undefined;
    return name === undefined ? undefined : { object, key: name };
  }

  /** After `isinstance(x["key"], str)` held: `x`'s member is of that kind on this path (withTypedMember). */
  private typeMember(
    node: PyNode,
    key: string,
    kind: 'string' | 'boolean',
    test: string,
    passes: (v: Variant) => boolean,
  ): void {
    if (this.comprehensions.length > 0 || !this.current.state) return;
    const name = this.text(node);
    const value = this.current.state.vars.get(name);
    if (!value) return;
    const typed = this.withTypedMember(value, key, kind, test, passes, this.site(node), `${name}["${key}"]`);
    if (typed.length > 0) this.current.state.vars.set(name, typed);
  }

  /**
   * Keeps the variants of a local name that pass `keep` (never all of them away). `test`: a type
   * test the name passed, which its unknown variants remember (value.ts, `tested`).
   */
  private narrow(
    node: PyNode,
    keep: (v: Variant) => boolean,
    test?: string,
    kind?: 'string' | 'boolean',
  ): void {
    if (node.type !== 'identifier' || this.comprehensions.length > 0) return;
    const name = this.text(node);
    const value = this.current.state?.vars.get(name);
    if (!value) return;
    const filtered = value.filter(keep);
    const marked = test === undefined ? filtered : tested(filtered, test);
    const kept = kind === undefined ? marked : ofKind(marked, kind);
    if (kept.length > 0 && (kept.length < value.length || test !== undefined))
      this.current.state?.vars.set(name, kept);
    // No value the name may have passes the test, and all of them are known: the branch is dead.
    else if (kept.length === 0 && value.every((v) => v.k !== 'unknown' && !(v.k === 'undef' && v.soft))) {
      this.current.state = undefined;
    }
  }

  /**
   * A loop: the body twice, then joined. `head` binds the item or runs the test and says whether the
   * loop may end there: `while True:` is left only by break, return or raise.
   */
  private loop(
    node: PyNode,
    head: () => boolean,
    body: PyNode | undefined,
    elseClause: PyNode | undefined,
  ): void {
    const at = this.site(node);
    const breaks: State<string>[] = [];
    const continues: State<string>[] = [];
    this.current.breaks.push(breaks);
    this.current.continues.push(continues);
    let passes: (State<string> | undefined)[];
    let mayEnd = false;
    try {
      passes = this.iterations(at, () => {
        if (head()) mayEnd = true;
        continues.length = 0;
        if (body && this.current.state) this.block(body.children);
        return continues;
      });
    } finally {
      this.current.breaks.pop();
      this.current.continues.pop();
    }
    // `else` runs when the loop ends without `break`. The states before and after each pass stand for
    // the test failing there.
    this.current.state = mayEnd ? joinAllStates(passes, at) : undefined;
    if (elseClause && this.current.state) {
      const elseBody = field(elseClause, 'body') ?? elseClause.children.find((c) => c.type === 'block');
      if (elseBody) this.block(elseBody.children);
    }
    this.current.state = joinAllStates([this.current.state, ...breaks], at);
  }

  private forStatement(node: PyNode): void {
    const left = field(node, 'left');
    const right = field(node, 'right');
    const iterable = right ? this.ev(right) : NOTHING;
    this.loop(
      node,
      () => {
        // Read at each pass: what the body appends to the list it iterates is visited too.
        if (left && right) this.bindTarget(left, this.itemOf(iterable, this.site(right)));
        return true;
      },
      field(node, 'body'),
      field(node, 'alternative'),
    );
  }

  private whileStatement(node: PyNode): void {
    const condition = field(node, 'condition');
    this.loop(
      node,
      () => !condition || this.ev(condition).some(mayBeFalsy),
      field(node, 'body'),
      field(node, 'alternative'),
    );
  }

  private tryStatement(node: PyNode): void {
    const entry = this.current.state;
    if (!entry) return;
    const throws: State<string>[] = [];
    this.current.tries.push(throws);
    this.current.state = cloneState(entry);
    try {
      const body = field(node, 'body');
      if (body) this.block(body.children);
    } finally {
      this.current.tries.pop();
    }
    let afterTry = this.current.state;
    const elseClause = node.children.find((c) => c.type === 'else_clause');
    if (elseClause && afterTry) {
      const body = field(elseClause, 'body') ?? elseClause.children.find((c) => c.type === 'block');
      if (body) this.block(body.children);
      afterTry = this.current.state;
    }
    const handlers = node.children.filter(
      (c) => c.type === 'except_clause' || c.type === 'except_group_clause',
    );
    const outcomes: (State<string> | undefined)[] = [afterTry];
    for (const handler of handlers) {
      // Anything in the try block may raise: the handler starts from what any point could see.
      this.current.state = joinAllStates(
        [cloneState(entry), afterTry && cloneState(afterTry), ...throws.map((t) => cloneState(t))],
        this.site(handler),
      );
      for (const c of handler.children) {
        if (c.type === 'as_pattern') {
          const alias = field(c, 'alias');
          if (alias) this.bindTarget(alias, unknown(this.site(alias), 'the caught exception'));
        }
      }
      const body = handler.children.find((c) => c.type === 'block');
      if (body) this.block(body.children);
      outcomes.push(this.current.state);
    }
    this.current.state = joinAllStates(outcomes, this.site(node));
    const finallyClause = node.children.find((c) => c.type === 'finally_clause');
    const finallyBody = finallyClause?.children.find((c) => c.type === 'block');
    if (finallyBody) {
      if (!this.current.state) {
        this.current.state = cloneState(entry);
        this.block(finallyBody.children);
        this.current.state = undefined;
      } else this.block(finallyBody.children);
    }
  }

  private matchStatement(node: PyNode): void {
    const subject = field(node, 'subject');
    if (subject) this.ev(subject);
    const entry = this.current.state;
    if (!entry) return;
    const body = field(node, 'body');
    const clauses = (body?.children ?? []).filter((c) => c.type === 'case_clause');
    const exits: Exit<string>[] = [];
    let exhaustive = false;
    for (const clause of clauses) {
      const pattern = clause.children.find((c) => c.type === 'case_pattern');
      if (pattern && pattern.children.length === 0 && !clause.children.some((c) => c.type === 'if_clause'))
        exhaustive = true;
      this.current.state = cloneState(entry);
      const consequence = field(clause, 'consequence') ?? clause.children.find((c) => c.type === 'block');
      if (consequence) this.block(consequence.children);
      const guard: Guard | undefined =
        subject && pattern
          ? {
              text: `${sourceText(this.site(subject))} matches ${sourceText(this.site(pattern))}`,
              holds: true,
              site: this.site(pattern),
            }
          : undefined;
      if (this.current.state) exits.push({ state: this.current.state, ...(guard ? { guard } : {}) });
    }
    if (!exhaustive) exits.push({ state: entry });
    this.current.state = this.joinExits(exits, this.site(node));
  }

  // ── assignment ──────────────────────────────────────────────────────────────────────────────

  private bindTarget(target: PyNode, value: Value): void {
    switch (target.type) {
      case 'identifier':
        this.assignName(this.text(target), value);
        return;
      case 'as_pattern_target':
      case 'parenthesized_expression':
        for (const c of target.children) this.bindTarget(c, value);
        return;
      case 'pattern_list':
      case 'tuple_pattern':
      case 'list_pattern':
      case 'tuple':
      case 'list':
      case 'expression_list':
        target.children.forEach((c, i) => {
          if (c.type === 'list_splat_pattern' || c.type === 'list_splat') {
            const inner = c.children[0];
            if (inner) this.bindTarget(inner, this.arrayOf(this.itemOf(value, this.site(c)), this.site(c)));
          } else this.bindTarget(c, readMember(this.heap, value, String(i), this.site(c), NOTHING));
        });
        return;
      case 'subscript': {
        const object = field(target, 'value');
        const key = field(target, 'subscript');
        if (object && key) writeMember(this.heap, this.ev(object), this.keyOf(key), value, this.site(target));
        return;
      }
      case 'attribute': {
        const object = field(target, 'object');
        const attribute = field(target, 'attribute');
        if (object && attribute)
          writeMember(this.heap, this.ev(object), this.text(attribute), value, this.site(target));
        return;
      }
    }
  }

  /** A subscript key: a constant string or integer, else undefined (computed at run time). */
  private keyOf(node: PyNode): string | undefined {
    if (node.type === 'integer')
      return node.end - node.start < 16 ? String(Number(this.text(node).replace(/_/g, ''))) : undefined;
    if (node.type === 'unary_operator' && node.children[0]?.type === 'integer')
      return `-${this.text(node.children[0])}`;
    const value = this.ev(node);
    return constantString(value);
  }

  private assignment(node: PyNode): Value {
    const left = field(node, 'left');
    const right = field(node, 'right');
    const annotation = field(node, 'type');
    if (!right) return NOTHING;
    let value = right.type === 'assignment' ? this.assignment(right) : this.ev(right);
    if (annotation) value = this.declare(value, annotation, this.current.module);
    if (left && this.current.state) this.bindTarget(left, value);
    return value;
  }

  private augmented(node: PyNode): Value {
    const left = field(node, 'left');
    const right = field(node, 'right');
    if (!left || !right) return NOTHING;
    const operator = this.current.module.tree.source.slice(left.end, right.start).trim();
    const current = this.ev(left);
    const addend = this.ev(right);
    const at = this.site(node);
    if (operator === '+=' && objectsOf(this.heap, current).some((o) => o.state.kind === 'array')) {
      // `items += [...]` extends the list in place.
      appendItems(this.heap, current, [this.itemOf(addend, at)], at);
      return current;
    }
    if (operator === '|=' && objectsOf(this.heap, current).some((o) => o.state.kind === 'object')) {
      assignFrom(this.heap, current, addend, at);
      return current;
    }
    const value = this.combine(operator.slice(0, -1), current, addend, at);
    if (this.current.state) this.bindTarget(left, value);
    return value;
  }

  // ── expressions ─────────────────────────────────────────────────────────────────────────────

  ev(node: PyNode): Value {
    if (++this.nesting > MAX_NESTING) {
      this.nesting--;
      throw new BudgetExceeded('expressions nested too deeply');
    }
    try {
      this.project.budget.tick();
      return this.evaluate(node);
    } finally {
      this.nesting--;
    }
  }

  private evaluate(node: PyNode): Value {
    const at = this.site(node);
    switch (node.type) {
      case 'string':
        return this.string(node);
      case 'concatenated_string': {
        let out = '';
        let constant = true;
        let nonEmpty = false;
        for (const part of node.children) {
          const value = this.string(part);
          const s = constantString(value);
          if (s === undefined) {
            constant = false;
            if (value.some((v) => v.k === 'str' && v.nonEmpty)) nonEmpty = true;
          } else {
            out += s;
            if (s !== '') nonEmpty = true;
          }
        }
        return constant ? str(at, out) : someString(at, nonEmpty);
      }
      case 'integer':
      case 'float': {
        const n = Number(this.text(node).replace(/_/g, ''));
        return Number.isFinite(n) ? num(at, n) : num(at);
      }
      case 'true':
        return bool(at, true);
      case 'false':
        return bool(at, false);
      case 'none':
        return nul(at);
      case 'identifier':
        return this.lookup(this.text(node), at);
      case 'parenthesized_expression': {
        const [inner] = node.children;
        return inner ? this.ev(inner) : NOTHING;
      }
      case 'await': {
        const [inner] = node.children;
        // Evaluated first: a call replaces the heap with the one it ends with.
        const value = inner ? this.ev(inner) : NOTHING;
        return awaited(this.heap, value);
      }
      case 'dictionary':
        return this.dictionary(node);
      case 'list':
      case 'tuple':
      case 'set':
      case 'expression_list':
        return this.sequence(node);
      case 'list_comprehension':
      case 'set_comprehension':
      case 'generator_expression': {
        const { value, derived } = this.comprehension(node);
        return this.arrayOf(value, at, derived);
      }
      case 'dictionary_comprehension':
        this.comprehension(node);
        return ref(at, this.allocate(node, { ...newObject(at), open: `keys computed by ${sourceText(at)}` }));
      case 'conditional_expression': {
        const [body, condition, alternative] = node.children;
        if (!body || !condition || !alternative) return NOTHING;
        return this.conditional(condition, body, alternative, at);
      }
      case 'boolean_operator': {
        const left = field(node, 'left');
        const right = field(node, 'right');
        if (!left || !right) return NOTHING;
        const operator = this.current.module.tree.source.slice(left.end, right.start).trim();
        return this.logical(operator === 'and' ? 'and' : 'or', left, right, at);
      }
      case 'not_operator': {
        const [argument] = node.children;
        const value = argument ? this.ev(argument) : NOTHING;
        if (value.length > 0 && value.every((v) => !mayBeTruthy(v))) return bool(at, true);
        if (value.length > 0 && value.every((v) => !mayBeFalsy(v))) return bool(at, false);
        return bool(at);
      }
      case 'comparison_operator':
        for (const c of node.children) this.ev(c);
        return bool(at);
      case 'binary_operator': {
        const left = field(node, 'left');
        const right = field(node, 'right');
        if (!left || !right) return NOTHING;
        const operator = this.current.module.tree.source.slice(left.end, right.start).trim();
        return this.combine(operator, this.ev(left), this.ev(right), at);
      }
      case 'unary_operator': {
        const argument = field(node, 'argument');
        const value = argument ? this.ev(argument) : NOTHING;
        const [only] = value;
        if (
          value.length === 1 &&
          only?.k === 'num' &&
          only.value !== undefined &&
          this.text(node).startsWith('-')
        )
          return num(at, -only.value);
        // `-n`, `+n` and `~n` of an integer (or of a bool) are integers.
        return num(at, undefined, isIntegral(value));
      }
      case 'attribute': {
        const object = field(node, 'object');
        const attribute = field(node, 'attribute');
        if (!object || !attribute) return NOTHING;
        const receiver = this.ev(object);
        // An attribute of a construction that raised is never read: what it stands for is the raise.
        const refused = receiver.filter((v) => v.k === 'ref' && this.heap.get(v.id)?.refused);
        const rest = refused.length > 0 ? receiver.filter((v) => !refused.includes(v)) : receiver;
        // Only other variants are read: with none left, reading would make up an unknown value.
        const read =
          rest.length === 0
            ? NOTHING
            : readMember(
                this.heap,
                rest,
                this.text(attribute),
                at,
                unknown(at, `${sourceText(at)} is known only at run time`),
              );
        return refused.length > 0 ? join(read, refused) : read;
      }
      case 'subscript': {
        const object = field(node, 'value');
        const key = field(node, 'subscript');
        if (!object || !key) return NOTHING;
        const value = this.ev(object);
        if (key.type === 'slice') {
          for (const c of key.children) this.ev(c);
          return value.every((v) => v.k === 'str')
            ? someString(at, false)
            : this.arrayOf(this.itemOf(value, at), at);
        }
        return readMember(this.heap, value, this.keyOf(key), at, NOTHING);
      }
      case 'call':
        return this.callExpression(node);
      case 'lambda':
        return this.defValue(node);
      case 'named_expression': {
        const name = field(node, 'name');
        const value = field(node, 'value');
        const v = value ? this.ev(value) : NOTHING;
        if (name) this.assignName(this.text(name), v);
        return v;
      }
      case 'assignment':
        return this.assignment(node);
      case 'augmented_assignment':
        return this.augmented(node);
      case 'keyword_argument': {
        const value = field(node, 'value');
        return value ? this.ev(value) : NOTHING;
      }
      case 'yield':
        for (const c of node.children) this.ev(c);
        return unknown(at, 'the value sent into a generator');
      case 'ellipsis':
        return unknown(at, '...');
      default:
        return unknown(at, `${sourceText(at)} is known only at run time`);
    }
  }

  private string(node: PyNode): Value {
    const at = this.site(node);
    const source = this.current.module.tree.source;
    // The prefix (`f`, `rb`, …) before the opening quote: the compact tree has no string_start.
    let quote = node.start;
    while (quote < node.end && source[quote] !== '"' && source[quote] !== "'") quote++;
    const prefix = quote === node.start ? '' : source.slice(node.start, quote);
    if (prefix !== '' && /[bB]/.test(prefix)) return unknown(at, 'a bytes value');
    const raw = prefix !== '' && /[rR]/.test(prefix);
    let out = '';
    let constant = true;
    // Constant text, and `null` for each number known only at run time, to tell whether the string is
    // a URI whatever they are; `other` once a part is anything else. Made at the first interpolation
    // (most strings have none), from the text before it: only the parts joined are ever read.
    let parts: (string | null)[] | undefined;
    let other = false;
    const { children } = node;
    for (let i = 0; i < children.length; i++) {
      const child = children[i] as PyNode;
      switch (child.type) {
        case 'interpolation': {
          parts ??= [out];
          const expression = field(child, 'expression') ?? child.children[0];
          const value = expression ? this.ev(expression) : NOTHING;
          const [only] = value;
          const plain = !child.children.some(
            (c) => c.type === 'format_specifier' || c.type === 'type_conversion',
          );
          if (
            value.length === 1 &&
            only &&
            (only.k === 'str' || only.k === 'num') &&
            only.value !== undefined &&
            plain
          ) {
            out += String(only.value);
            parts.push(String(only.value));
          } else {
            constant = false;
            if (plain && isNumeric(value)) parts.push(null);
            else other = true;
          }
          break;
        }
        case 'string_content': {
          const content = stringContent(source, child, raw);
          if (content === undefined) return this.unnamed(at);
          out += content;
          parts?.push(content);
          break;
        }
        case 'escape_sequence': {
          const sequence = source.slice(child.start, child.end);
          const decoded = raw ? sequence : decodeEscape(sequence);
          if (decoded === undefined) return this.unnamed(at);
          out += decoded;
          parts?.push(decoded);
          break;
        }
      }
    }
    if (!constant) return someString(at, out !== '', other ? undefined : assembledFormat(parts ?? []));
    return str(at, out);
  }

  /** A str literal holding a `\N{…}` the scan cannot read: a string, its text unknown. */
  private unnamed(at: Site): Value {
    return unknown(
      at,
      `the text of ${sourceText(at)}, whose \\N{…} names a character by Unicode's name table, which the scan could not read it by`,
      'string',
    );
  }

  private dictionary(node: PyNode): Value {
    const at = this.site(node);
    const props = new Map<string, Member>();
    let open: string | undefined;
    for (const child of node.children) {
      if (child.type === 'pair') {
        const keyNode = field(child, 'key');
        const valueNode = field(child, 'value');
        const key = keyNode ? this.keyOf(keyNode) : undefined;
        const value = valueNode ? this.ev(valueNode) : NOTHING;
        if (key === undefined || !valueNode) {
          open = `a key computed at run time (${keyNode ? sourceText(this.site(keyNode)) : '?'})`;
          continue;
        }
        props.delete(key);
        props.set(key, { value, site: this.site(valueNode) });
      } else if (child.type === 'dictionary_splat') {
        const [inner] = child.children;
        const spread = inner ? this.ev(inner) : NOTHING;
        for (const v of spread) if (v.k === 'ref' && this.allocatedByWatched(v.id)) this.spreadIds.add(v.id);
        open = spreadInto(props, spread, this.heap, this.site(child)) ?? open;
      }
    }
    if (!open && node.parent?.type === 'return_statement' && (props.has('result') || props.has('error'))) {
      const sent = this.sentByResponseModel(node, props, at);
      if (sent) return sent;
    }
    return ref(at, this.allocate(node, { ...newObject(at), props, ...(open ? { open } : {}) }));
  }

  /**
   * `return {"id": …, "result": …}` in a FastAPI route with a response model (`response_model=Rpc`, or
   * `-> Rpc`): FastAPI validates the dict into the model and sends the model's fields, so the response
   * is as `Rpc(id=…, result=…)` is sent (see responseModel): defaults added, or, under
   * `response_model_exclude_unset`, only the keys the dict set, and keys the model lacks dropped.
   */
  private sentByResponseModel(node: PyNode, props: ReadonlyMap<string, Member>, at: Site): Value | undefined {
    const route = this.current.fn;
    if (route.type !== 'function_definition') return undefined;
    const name = routeResponseModel(this.current.module.tree.source, route);
    if (!name) return undefined;
    const model = this.lookup(name, at);
    const [only] = model;
    if (model.length !== 1 || only?.k !== 'ref' || !this.classes.has(only.id)) return undefined;
    const keywords = new Map<string, Value>();
    for (const [key, member] of props) keywords.set(key, member.value);
    return this.responseModel(only.id, { positional: [], keywords }, node, at);
  }

  private sequence(node: PyNode): Value {
    const at = this.site(node);
    const items: Member[] = [];
    let rest: Value | undefined;
    let open: string | undefined;
    for (const child of node.children) {
      if (child.type === 'list_splat') {
        const [inner] = child.children;
        const spread = inner ? this.ev(inner) : NOTHING;
        const arrays = objectsOf(this.heap, spread).filter((o) => o.state.kind === 'array');
        const single = spread.length === 1 && arrays.length === 1 ? arrays[0]?.state : undefined;
        if (single && !rest) {
          appendAll(items, single.items);
          if (single.rest) rest = single.rest;
          if (single.open) open = single.open;
        } else {
          rest = join(rest ?? NOTHING, this.itemOf(spread, this.site(child)));
        }
        continue;
      }
      const value = this.ev(child);
      if (rest) rest = join(rest, value);
      else items.push({ value, site: this.site(child) });
    }
    const model = node.type === 'list' ? undefined : node.type === 'set' ? 'set' : 'tuple';
    return ref(
      at,
      this.allocate(node, {
        ...newArray(at, model),
        items,
        ...(rest ? { rest } : {}),
        ...(open ? { open } : {}),
      }),
    );
  }

  /**
   * The value of a comprehension's body, over the items of its `for` clauses. `derived`: the first
   * clause iterates an input the code tested the type of (`isinstance(node, list)`), so the list
   * built mirrors it (heap.ts).
   */
  private comprehension(node: PyNode): { value: Value; derived: string | undefined } {
    const scope = new Map<string, Value>();
    this.comprehensions.push(scope);
    let derived: string | undefined;
    let first = true;
    try {
      for (const clause of node.children) {
        if (clause.type === 'for_in_clause') {
          const left = field(clause, 'left');
          const right = field(clause, 'right');
          const iterable = right ? this.ev(right) : NOTHING;
          if (first) derived = derivedFrom(iterable);
          first = false;
          const item = right ? this.itemOf(iterable, this.site(right)) : NOTHING;
          if (left) this.bindComprehension(left, item, scope);
        } else if (clause.type === 'if_clause') {
          for (const c of clause.children) this.ev(c);
        }
      }
      const body = field(node, 'body') ?? node.children[0];
      if (!body) return { value: NOTHING, derived };
      if (body.type === 'pair') {
        const value = field(body, 'value');
        return { value: value ? this.ev(value) : NOTHING, derived };
      }
      return { value: this.ev(body), derived };
    } finally {
      this.comprehensions.pop();
    }
  }

  private bindComprehension(target: PyNode, value: Value, scope: Map<string, Value>): void {
    if (target.type === 'identifier') {
      scope.set(this.text(target), value);
      return;
    }
    target.children.forEach((c, i) => {
      this.bindComprehension(c, readMember(this.heap, value, String(i), this.site(c), NOTHING), scope);
    });
  }

  /** A new list of any number of `item`s; `derived`: see heap.ts. */
  private arrayOf(item: Value, at: Site, derived?: string): Value {
    return ref(
      at,
      this.heap.alloc({
        ...newArray(at),
        ...(item.length > 0 ? { rest: item } : {}),
        ...(derived ? { derived } : {}),
      }),
    );
  }

  private itemOf(iterable: Value, at: Site): Value {
    return itemOf(this.heap, iterable, at);
  }

  /** An item of `iterable` for min(), max() or next() (never the iterable itself). */
  private someItemOf(iterable: Value, name: string, at: Site): Value {
    const item = this.itemOf(iterable, at);
    return item.length > 0 ? item : unknown(at, `the result of ${name}()`);
  }

  private conditional(condition: PyNode, body: PyNode, alternative: PyNode, at: Site): Value {
    const test = this.ev(condition);
    const truthy = test.some(mayBeTruthy);
    const falsy = test.some(mayBeFalsy);
    if (truthy && !falsy) return this.ev(body);
    if (falsy && !truthy) return this.ev(alternative);
    const ga = this.guardOf(condition, true);
    const gb = this.guardOf(condition, false);
    const [a, b] = this.fork(
      at,
      { whenTrue: ga, whenFalse: gb },
      () => {
        this.refine(condition, true);
        return this.ifReachable(() => this.ev(body));
      },
      () => {
        this.refine(condition, false);
        return this.ifReachable(() => this.ev(alternative));
      },
    );
    return join(a, b, ga, gb);
  }

  private logical(op: 'and' | 'or', left: PyNode, right: PyNode, at: Site): Value {
    const a = this.ev(left);
    const keep = a.filter((v) => (op === 'and' ? mayBeFalsy(v) : mayBeTruthy(v)));
    const needsRight = a.some((v) => (op === 'and' ? mayBeTruthy(v) : mayBeFalsy(v)));
    if (!needsRight) return a;
    if (keep.length === 0) return this.ev(right);
    const base = this.state;
    this.current.state = cloneState(base);
    this.refine(left, op === 'and');
    const b = this.ifReachable(() => this.ev(right));
    this.current.state = joinStates(base, this.current.state, at);
    return join(keep, b, undefined, this.guardOf(left, op === 'and'));
  }

  private combine(op: string, a: Value, b: Value, at: Site): Value {
    const [x] = a;
    const [y] = b;
    const stringy = (v: Value) => v.length > 0 && v.every((w) => kindOfVariant(w) === 'string');
    if (op === '+') {
      if (
        a.length === 1 &&
        b.length === 1 &&
        x?.k === 'str' &&
        y?.k === 'str' &&
        x.value !== undefined &&
        y.value !== undefined
      )
        return str(at, x.value + y.value);
      if (stringy(a) || stringy(b)) {
        const nonEmpty = [...a, ...b].some(
          (v) => v.k === 'str' && ((v.value !== undefined && v.value !== '') || v.nonEmpty === true),
        );
        return someString(at, nonEmpty);
      }
      const arrays = [...objectsOf(this.heap, a), ...objectsOf(this.heap, b)].filter(
        (o) => o.state.kind === 'array',
      );
      if (arrays.length > 0) return this.arrayOf(join(this.itemOf(a, at), this.itemOf(b, at)), at);
      // Two numbers, known or not (`a + b` of two `int` parameters), add up to a number.
      const numeric = (v: Value) => v.length > 0 && v.every((w) => kindOfVariant(w) === 'number');
      if (numeric(a) && numeric(b)) return num(at, undefined, isIntegral(a) && isIntegral(b));
      return unknown(at, `${sourceText(at)} is known only at run time`);
    }
    if (op === '%' && stringy(a))
      return someString(
        at,
        a.some((v) => v.k === 'str' && v.value !== undefined && v.value !== ''),
      );
    if (op === '*' && (stringy(a) || stringy(b))) return someString(at, false);
    return num(at, undefined, INTEGRAL_OPERATORS.has(op) && isIntegral(a) && isIntegral(b));
  }

  // ── calls ───────────────────────────────────────────────────────────────────────────────────

  private args(node: PyNode | undefined): Args {
    const positional: Value[] = [];
    // Most calls pass no keyword: they share one empty map (arguments are only read).
    let keywords: Map<string, Value> | undefined;
    if (!node) return { positional, keywords: NO_KEYWORDS };
    if (node.type === 'generator_expression') {
      positional.push(this.ev(node));
      return { positional, keywords: NO_KEYWORDS };
    }
    let spread = false;
    const { children } = node;
    for (let i = 0; i < children.length; i++) {
      const a = children[i] as PyNode;
      if (a.type === 'keyword_argument') {
        const name = field(a, 'name');
        const value = field(a, 'value');
        if (name && value) {
          keywords ??= new Map();
          keywords.set(this.text(name), this.ev(value));
        }
      } else if (a.type === 'list_splat') {
        spread = true;
        const [inner] = a.children;
        if (inner) positional.push(this.itemOf(this.ev(inner), this.site(a)));
      } else if (a.type === 'dictionary_splat') {
        spread = true;
        const [inner] = a.children;
        const spreadValue = inner ? this.ev(inner) : NOTHING;
        for (const { state } of objectsOf(this.heap, spreadValue)) {
          keywords ??= new Map();
          for (const [k, m] of state.props) keywords.set(k, m.value);
        }
      } else positional.push(this.ev(a));
    }
    return spread
      ? { positional, keywords: keywords ?? NO_KEYWORDS, spread }
      : { positional, keywords: keywords ?? NO_KEYWORDS };
  }

  private dottedName(node: PyNode): string | undefined {
    if (node.type === 'identifier') return this.text(node);
    if (node.type === 'attribute') {
      const object = field(node, 'object');
      const attribute = field(node, 'attribute');
      const prefix = object ? this.dottedName(object) : undefined;
      return attribute ? `${prefix ?? ''}.${this.text(attribute)}` : undefined;
    }
    return undefined;
  }

  private callExpression(node: PyNode): Value {
    const at = this.site(node);
    const fnNode = field(node, 'function');
    if (!fnNode) return NOTHING;
    const argsNode = field(node, 'arguments');
    const name = this.dottedName(fnNode);
    const last = name?.slice(name.lastIndexOf('.') + 1);
    const root = name?.split('.')[0];
    const bound = root !== undefined && root !== '' && this.isBound(root);
    // A name bound to a module or object the project does not define (`import json`) is a library.
    const library = !bound || (root !== undefined && !this.isProjectValue(root));
    if (last && (MODELS.has(last) || (last === 'dict' && !bound))) {
      const args = this.args(argsNode);
      this.record(node, args);
      return this.model(node, last, args);
    }
    if (library && last && BASE64_ENCODERS.has(last) && (name === last || name === `base64.${last}`)) {
      this.args(argsNode);
      return yielding(at, `the bytes ${sourceText(at)} returns`, 'base64');
    }
    if (last && FRAMEWORK_HELPERS.has(last) && !(fnNode.type === 'identifier' && this.isProjectValue(last))) {
      const args = this.args(argsNode);
      const raises = this.helperRaises(last, args);
      return ref(
        at,
        this.heap.alloc({
          ...newObject(at, last),
          props: helperProps(last as Helper, args, at),
          open: `${last}(…) converted by FastMCP`,
          ...(raises === undefined ? {} : { raises }),
        }),
      );
    }
    if (library && (name === 'partial' || name === 'functools.partial')) {
      const args = this.args(argsNode);
      this.record(node, args);
      return this.partial(args, at) ?? this.call(this.ev(fnNode), args, at, name);
    }
    if (fnNode.type === 'attribute') {
      const object = field(fnNode, 'object');
      const attribute = field(fnNode, 'attribute');
      if (!object || !attribute) return NOTHING;
      const receiver = this.ev(object);
      const args = this.args(argsNode);
      this.record(node, args);
      return this.method(
        receiver,
        name ?? `.${this.text(attribute)}`,
        this.text(attribute),
        args,
        at,
        library,
      );
    }
    const args = this.args(argsNode);
    this.record(node, args);
    if (fnNode.type === 'identifier' && !bound) return this.builtinCall(this.text(fnNode), args, at);
    return this.call(this.ev(fnNode), args, at, name ?? sourceText(this.site(fnNode)), node);
  }

  /**
   * Why a FastMCP `Image`/`Audio`/`File(path=None, data=None, …)` surely raises, if it does (read in
   * python-sdk's src/mcp/server/fastmcp/utilities/types.py and jlowin/fastmcp's
   * src/fastmcp/utilities/types.py, alike here): built with neither `path` nor `data`, its constructor
   * raises ValueError (a `try` around it may catch that, so not there); given a `str` as `data`, it is
   * built, and FastMCP's conversion of the return raises (`base64.b64encode` takes bytes), outside any
   * `try` of the handler. Either way FastMCP sends an error result in place of the return.
   */
  private helperRaises(helper: string, args: Args): string | undefined {
    if (args.spread) return undefined;
    const data = args.keywords.get('data') ?? args.positional[1];
    const path = args.keywords.get('path') ?? args.positional[0];
    const guarded = this.current.tries.length > 0 || this.guardedCalls > 0;
    if (data === undefined && path === undefined && !guarded) {
      return `\`${helper}()\` is given neither \`path\` nor \`data\`, and its constructor raises ValueError`;
    }
    const surelyString =
      data !== undefined && data.length > 0 && data.every((v) => kindOfVariant(v) === 'string');
    if (surelyString && (path === undefined || !guarded)) {
      const how = helper === 'File' ? 'base64.b64encode, or .decode for a text format' : 'base64.b64encode';
      return `\`${helper}(data=…)\` is given a str where FastMCP's ${helper} takes bytes, and converting it raises (${how} takes bytes)`;
    }
    return undefined;
  }

  /**
   * `functools.partial(fn, *args, **kwargs)` of a function of the project: that function, with the
   * arguments given here bound ahead of each call's (and, run as a tool, ahead of the inputs).
   */
  private partial(args: Args, at: Site): Value | undefined {
    const [target, ...positional] = args.positional;
    if (args.spread || !target?.length || target.some((v) => v.k !== 'fn')) return undefined;
    return target.map((v) => {
      if (v.k !== 'fn') return v;
      const before = v.fn.partial;
      const keywords = new Map([...(before?.keywords ?? []), ...args.keywords]);
      return {
        k: 'fn',
        site: at,
        fn: { ...v.fn, partial: { positional: [...(before?.positional ?? []), ...positional], keywords } },
      };
    });
  }

  private isProjectValue(name: string): boolean {
    const value = this.lookup(name, this.site(this.current.fn));
    return value.some((v) => v.k === 'fn' || v.k === 'ref');
  }

  private record(node: PyNode, args: Args): void {
    if (!this.watchedCalls.has(node) || !this.current.state) return;
    const prev = this.recorded.get(node);
    // A snapshot for the record; the call goes on with a copy of its own.
    const heap = this.heap.clone();
    this.state.heap = this.heap.clone();
    if (!prev) {
      this.recorded.set(node, { args: args.positional, keywords: args.keywords, heap });
      return;
    }
    const keywords = new Map(prev.keywords);
    for (const [k, v] of args.keywords) keywords.set(k, join(keywords.get(k) ?? NOTHING, v));
    this.recorded.set(node, {
      args: args.positional.map((a, i) => join(prev.args[i] ?? NOTHING, a)),
      keywords,
      heap: Heap.join(prev.heap, heap),
    });
  }

  /** `TextContent(type="text", text=…)`, `dict(a, k=v)`: keyword arguments become members. */
  private model(node: PyNode, name: string, args: Args): Value {
    const at = this.site(node);
    const props = new Map<string, Member>();
    let open: string | undefined;
    const argsNode = field(node, 'arguments');
    if (name === 'dict') {
      for (const positional of args.positional) {
        const objects = objectsOf(this.heap, positional);
        if (objects.length === 0) open = `members of ${sourceText(at)}`;
        open = spreadInto(props, positional, this.heap, at) ?? open;
      }
    } else if (args.positional.length > 0) open = `positional arguments of ${name}(…)`;
    for (const [key, value] of args.keywords) {
      const argument = argsNode?.children.find(
        (a) =>
          a.type === 'keyword_argument' && field(a, 'name') && this.text(field(a, 'name') as PyNode) === key,
      );
      const valueNode = argument ? field(argument, 'value') : undefined;
      const wire = ALIASES[key] ?? key;
      // Pydantic validates a model's fields when it is built: an unknown text is a string, or the
      // constructor raised (and the client gets an error result, not a malformed block).
      const validated =
        name === 'dict' || !STRING_FIELDS.has(wire) ? value : wire === 'uri' ? asUri(value) : asString(value);
      props.set(wire, { value: validated, site: valueNode ? this.site(valueNode) : at });
    }
    if (argsNode?.children.some((a) => a.type === 'dictionary_splat'))
      open ??= `members of ${sourceText(at)}`;
    const type = MODEL_TYPES[name];
    if (type && !props.has('type')) props.set('type', { value: str(at, type), site: at });
    return ref(
      at,
      this.allocate(node, {
        ...newObject(at, name === 'dict' ? undefined : name),
        props,
        ...(open ? { open } : {}),
      }),
    );
  }

  private builtinCall(name: string, args: Args, at: Site): Value {
    const [first, second] = args.positional;
    switch (name) {
      case 'str': {
        const [only] = first ?? [];
        if (first?.length === 1 && only && (only.k === 'str' || only.k === 'num') && only.value !== undefined)
          return str(at, String(only.value));
        return someString(at, first?.every((v) => v.k !== 'str' && v.k !== 'unknown') === true);
      }
      case 'list':
      case 'tuple':
      case 'sorted':
      case 'reversed':
      case 'set':
        return this.arrayOf(first ? this.itemOf(first, at) : NOTHING, at, first && derivedFrom(first));
      case 'enumerate':
        return this.arrayOf(
          this.tuple([num(at, undefined, true), first ? this.itemOf(first, at) : NOTHING], at),
          at,
        );
      case 'zip':
        return this.arrayOf(
          this.tuple(
            args.positional.map((a) => this.itemOf(a, at)),
            at,
          ),
          at,
        );
      case 'map':
        return this.arrayOf(
          second
            ? this.call(
                first ?? NOTHING,
                { positional: [this.itemOf(second, at)], keywords: new Map() },
                at,
                'map',
              )
            : NOTHING,
          at,
        );
      case 'filter':
        return this.arrayOf(second ? this.itemOf(second, at) : NOTHING, at);
      case 'range':
        // range() takes integers only, so its items are integers.
        return this.arrayOf(num(at, undefined, true), at);
      case 'print':
        return nul(at);
      case 'min':
      case 'max': {
        // min(a, b, …) answers one of its arguments; min(items) one of the items, or its `default=`.
        if (args.positional.length > 1)
          return args.positional.reduce((all, value) => join(all, value), NOTHING);
        const fallback = args.keywords.get('default') ?? NOTHING;
        return first
          ? join(this.someItemOf(first, name, at), fallback)
          : unknown(at, `the result of ${name}()`);
      }
      case 'sum':
        // A sum of integers (and the default start, 0) is an integer.
        if (first && args.positional.length === 1 && isIntegral(this.itemOf(first, at)))
          return num(at, undefined, true);
        break;
      case 'next':
        // An item of the iterator, or the default given after it.
        return first
          ? join(this.someItemOf(first, name, at), second ?? NOTHING)
          : unknown(at, 'the result of next()');
      case 'getattr':
        return second
          ? join(
              readMember(this.heap, first ?? NOTHING, constantString(second), at, NOTHING),
              args.positional[2] ?? NOTHING,
            )
          : unknown(at, 'getattr()');
      case 'super':
        return unknown(at, 'the superclass');
      case 'float': {
        // float("nan"), float("inf"): pydantic writes them to JSON as null, as JSON.stringify does.
        const [only] = first ?? [];
        const special = first?.length === 1 && only?.k === 'str' ? nonFinite(String(only.value)) : undefined;
        if (special !== undefined) return num(at, special);
        break;
      }
    }
    const kind = CALL_KINDS.get(name);
    if (kind === 'string') return someString(at, false);
    // round(x) without a number of digits rounds to an int; with one, to a float.
    if (
      INTEGRAL_CALLS.has(name) ||
      (name === 'round' && args.positional.length === 1 && args.keywords.size === 0)
    )
      return num(at, undefined, true);
    if (kind) return unknown(at, `the result of ${name}()`, kind);
    this.escapeArgs(args, name, at);
    return unknown(at, `the result of ${name}(), which is not part of the scanned project`);
  }

  private tuple(items: readonly Value[], at: Site): Value {
    return ref(
      at,
      this.heap.alloc({ ...newArray(at, 'tuple'), items: items.map((value) => ({ value, site: at })) }),
    );
  }

  private method(
    receiver: Value,
    dotted: string,
    name: string,
    args: Args,
    at: Site,
    library: boolean,
  ): Value {
    const [first, second] = args.positional;
    if (library) {
      // Modules the project does not define: the standard library and well-known packages.
      if (dotted === 'json.dumps' || dotted.endsWith('.json.dumps'))
        return first ? json(at, first) : someString(at, false);
      const kind = CALL_KINDS.get(dotted);
      if (kind)
        return kind === 'string' ? someString(at, false) : unknown(at, `the result of ${dotted}()`, kind);
    }
    let out: Value = NOTHING;
    for (const v of receiver) {
      if (!this.current.state) break;
      out = join(out, this.methodOn(v, receiver, dotted, name, args, at, first, second));
    }
    return out.length > 0 ? out : nul(at);
  }

  private methodOn(
    v: Variant,
    receiver: Value,
    dotted: string,
    name: string,
    args: Args,
    at: Site,
    first: Value | undefined,
    second: Value | undefined,
  ): Value {
    if (v.k === 'ref') {
      const state = this.heap.get(v.id);
      // `Weather(temp="hot").model_dump()`: the construction raised, so no method of it runs.
      if (state?.refused) return [v];
      const member = state?.props.get(name);
      if (member?.value.some((m) => m.k === 'fn' || (m.k === 'ref' && this.classes.has(m.id)))) {
        // A method of a project class or module: `self` is bound already for instances.
        return this.call(member.value, args, at, dotted);
      }
      if (state?.kind === 'array') {
        const handled = this.listMethod(v, state, receiver, name, args, at);
        if (handled) return handled;
      }
      if (
        state?.kind === 'object' &&
        !state.model?.startsWith('module') &&
        !state.model?.startsWith('class')
      ) {
        const handled = this.dictMethod(v, receiver, name, args, at);
        if (handled) return handled;
      }
    }
    if (v.k === 'unknown' && v.yields === 'base64' && name === 'decode') {
      const codec = first ? constantString(first) : 'utf-8';
      if (codec !== undefined && ASCII_CODECS.has(codec)) return someString(at, false, 'base64');
    }
    // `Path(p).as_uri()`: pathlib's file URI (it raises for a relative path).
    if (v.k === 'unknown' && name === 'as_uri') return someString(at, true, 'uri');
    if ((v.k === 'str' || v.k === 'json') && METHOD_KINDS.get(name) === 'string') {
      return someString(
        at,
        name === 'format' && v.k === 'str' && (v.value !== undefined ? v.value !== '' : v.nonEmpty === true),
      );
    }
    if (v.k === 'str' && (name === 'split' || name === 'splitlines')) return this.arrayOf(str(at), at);
    void first;
    void second;
    const kind = METHOD_KINDS.get(name);
    // `node.strip()` where `isinstance(node, str)`: a string only because the input is one.
    const test = v.k === 'unknown' ? v.tested : undefined;
    if (INTEGRAL_METHODS.has(name) && test === undefined) {
      if (v.k !== 'ref' || !this.heap.get(v.id)) this.escapeArgs(args, dotted, at);
      return num(at, undefined, true);
    }
    if (kind === 'string' && test === undefined) return someString(at, false);
    if (v.k !== 'ref' || !this.heap.get(v.id)) this.escapeArgs(args, dotted, at);
    const result = unknown(at, `the result of ${dotted}(), which is not part of the scanned project`, kind);
    return test === undefined ? result : tested(result, test);
  }

  private listMethod(
    v: Variant & { k: 'ref' },
    state: ObjState,
    receiver: Value,
    name: string,
    args: Args,
    at: Site,
  ): Value | undefined {
    const [first, second] = args.positional;
    switch (name) {
      case 'append':
        if (first) appendItems(this.heap, receiver, [first], at, false, v.id);
        return nul(at);
      case 'extend':
        if (first) {
          const items = objectsOf(this.heap, first).filter((o) => o.state.kind === 'array');
          const single = first.length === 1 && items.length === 1 ? items[0]?.state : undefined;
          if (single && !single.rest && !single.open)
            appendItems(
              this.heap,
              receiver,
              single.items.map((m) => m.value),
              at,
              false,
              v.id,
            );
          else {
            this.heap.set(v.id, {
              ...state,
              rest: join(state.rest ?? NOTHING, this.itemOf(first, at)),
              ...(first.some((x) => x.k === 'unknown') ? { open: `items of ${sourceText(at)}` } : {}),
            });
          }
        }
        return nul(at);
      case 'insert':
        if (second)
          this.heap.set(v.id, {
            ...state,
            rest: join(state.rest ?? NOTHING, [...state.items.flatMap((m) => m.value), ...second]),
            items: [],
          });
        return nul(at);
      case 'pop':
        return this.itemOf([v], at);
      case 'copy':
        return ref(at, this.heap.alloc({ ...state, site: at }));
      case 'clear':
        this.heap.set(v.id, { ...state, items: [] });
        return nul(at);
      case 'sort':
      case 'reverse':
      case 'remove':
        return nul(at);
      case 'index':
      case 'count':
        return num(at, undefined, true);
      default:
        return undefined;
    }
  }

  private dictMethod(
    v: Variant & { k: 'ref' },
    receiver: Value,
    name: string,
    args: Args,
    at: Site,
  ): Value | undefined {
    const [first, second] = args.positional;
    const key = first ? constantString(first) : undefined;
    switch (name) {
      case 'get':
        // A missing key gives the default (None when there is none).
        return readMember(this.heap, [v], key, at, second ?? nul(at));
      case 'update':
        if (first) assignFrom(this.heap, receiver.length === 1 ? receiver : [v], first, at);
        if (args.keywords.size > 0) {
          for (const [k, value] of args.keywords)
            writeMember(this.heap, receiver.length === 1 ? receiver : [v, v], k, value, at);
        }
        return nul(at);
      case 'setdefault': {
        const state = this.heap.get(v.id);
        if (key !== undefined && state && !state.props.has(key))
          writeMember(this.heap, receiver.length === 1 ? receiver : [v, v], key, second ?? nul(at), at);
        return readMember(this.heap, [v], key, at, NOTHING);
      }
      case 'pop': {
        const value = join(readMember(this.heap, [v], key, at, NOTHING), second ?? NOTHING);
        if (key !== undefined)
          writeMember(this.heap, receiver.length === 1 ? receiver : [v, v], key, undef(at), at);
        return value;
      }
      case 'keys':
        return this.arrayOf(this.itemOf([v], at), at);
      case 'values':
        return this.arrayOf(readMember(this.heap, [v], undefined, at, NOTHING), at);
      case 'items':
        return this.arrayOf(
          this.tuple([this.itemOf([v], at), readMember(this.heap, [v], undefined, at, NOTHING)], at),
          at,
        );
      case 'copy':
        return ref(at, this.heap.alloc({ ...(this.heap.get(v.id) as ObjState), site: at }));
      default:
        return undefined;
    }
  }
}

interface Args {
  readonly positional: readonly Value[];
  readonly keywords: ReadonlyMap<string, Value>;
  /** A `*args` or `**kwargs` was spread in: it may hold arguments the analysis cannot list. */
  readonly spread?: boolean;
}

export type { Args };

function isPyLiteral(node: PyNode): boolean {
  return ['none', 'true', 'false', 'string', 'integer', 'float'].includes(node.type);
}

function pyMayEqual(v: Variant, literal: unknown): boolean {
  if (literal === null) return v.k === 'null' || v.k === 'unknown';
  if (v.k === 'str' || v.k === 'num' || v.k === 'bool') return v.value === undefined || v.value === literal;
  return v.k === 'unknown';
}

function pyMayDiffer(v: Variant, literal: unknown): boolean {
  if (literal === null) return v.k !== 'null';
  if (v.k === 'str' || v.k === 'num' || v.k === 'bool') return v.value === undefined || v.value !== literal;
  return true;
}

/** `isinstance(v, name)` for the builtin types JSON values have. */
function isInstance(heap: Heap, v: Variant, name: string): boolean {
  const state = v.k === 'ref' ? heap.get(v.id) : undefined;
  switch (name) {
    case 'str':
      return v.k === 'str' || v.k === 'json';
    case 'int':
    case 'float':
      return v.k === 'num';
    case 'bool':
      return v.k === 'bool';
    case 'dict':
    case 'Mapping':
      return state?.kind === 'object' && state.model === undefined;
    case 'list':
    case 'Sequence':
      return state?.kind === 'array' && state.model === undefined;
    case 'tuple':
      return state?.model === 'tuple';
    default:
      return state?.model === name;
  }
}

/**
 * What a FastMCP helper call keeps of its arguments for the block it becomes: the MIME type each
 * FastMCP derives (./fastmcp-helpers.ts), as `_mime_type` (the SDK's FastMCP, whose attribute has that
 * name) and `_standalone_mime_type`, placed at the argument it comes from.
 */
function helperProps(helper: Helper, args: Args, at: Site): Map<string, Member> {
  const props = new Map<string, Member>();
  if (args.spread) return props;
  const format = args.keywords.get('format') ?? args.positional[2];
  const path = args.keywords.get('path') ?? args.positional[0];
  const mime = helperMime(helper, givenText(format), givenText(path));
  const site = (givenText(format) !== 'absent' ? format : path)?.[0]?.site ?? at;
  if (mime.sdk !== undefined) props.set('_mime_type', { value: str(site, mime.sdk), site });
  if (mime.standalone !== undefined)
    props.set('_standalone_mime_type', { value: str(site, mime.standalone), site });
  return props;
}

/**
 * An argument's text as the helper reads it: a literal string, or an f-string whose text ends in a
 * constant suffix (`f"{out}/chart.png"`, all the suffix needs); absent when not given, None or empty.
 */
function givenText(value: Value | undefined): Given {
  if (value === undefined) return 'absent';
  const literal = literalOf(value);
  if (literal === null || literal === '') return 'absent';
  if (typeof literal === 'string') return { text: literal };
  const [only, ...more] = value;
  const someString = only?.k === 'str' || (only?.k === 'unknown' && only.kind === 'string');
  if (!only || !someString || more.length > 0) return 'unknown';
  const source = only.site.file.text.slice(only.site.start, only.site.end);
  // A literal character before the dot: a placeholder there may be empty, and `.png` has no suffix.
  const tail = /[^{}/\\]\.([A-Za-z0-9]+)["']$/.exec(source);
  return tail && /^[rRbBuU]*[fF][rRbB]*["']/.test(source) ? { text: `x.${tail[1]}` } : 'unknown';
}

const NOT_LITERAL = Symbol('not a literal');

/** The value a literal argument surely has (`"hot"`, `2`, `True`, `None`); NOT_LITERAL otherwise. */
function literalOf(value: Value): string | number | boolean | null | typeof NOT_LITERAL {
  const [only, ...more] = value;
  if (!only || more.length > 0) return NOT_LITERAL;
  if (only.k === 'null') return null;
  if ((only.k === 'str' || only.k === 'num' || only.k === 'bool') && only.value !== undefined)
    return only.value;
  return NOT_LITERAL;
}
