/**
 * The value analysis for TS/JS: an abstract interpreter over ESTree (oxc-parser's, or the one ESLint
 * hands the plugin). Each expression evaluates to a set of abstract values (abstract/value.ts);
 * statements are followed in order, through `if`/`switch`/`try`/loops (each loop body twice, then
 * joined), early returns, reassignments and mutations of objects (`push`, member assignment,
 * `Object.assign`, spreads). Calls to functions of the project (same file, or imported through a
 * relative import) are interpreted with their arguments bound, with a recursion guard; what the
 * project does not contain (packages, the network) stays unknown, with the reason why.
 */

import type {
  ArrayExpression,
  CallExpression,
  Class,
  Expression,
  NewExpression,
  Node,
  ObjectExpression,
  ParamPattern,
  Program,
  TSEnumDeclaration,
} from 'oxc-parser';
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
  flatten,
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
  constantKeys,
  constantString,
  type FunctionValue,
  fn,
  type Guard,
  isNullish,
  isNumeric,
  type JsonKind,
  join,
  joinAll,
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
  untyped,
  type Value,
  type Variant,
  yielding,
  yieldsOf,
} from '../abstract/value.js';
import type { Project } from '../project.js';
import { endOf, type FunctionLike, isFunction, memberName, offsetOf, staticKey, unwrap } from './ast.js';
import { resolveJsImport } from './modules.js';
import { registersHandler, routeName } from './routes.js';
import { type Binding, indexProgram, type ProgramIndex, type Scope } from './scope.js';
import { ZOD_NAMESPACE, ZOD_PACKAGES, zodCall, zodSchemaOf } from './zod.js';

export interface JsModule {
  readonly file: SourceFile;
  readonly index: ProgramIndex;
  run?: JsRun;
  /** Why the module's top level could not be interpreted. */
  failed?: string;
  /** `export default …` and CommonJS `module.exports`, set by the module's run. */
  defaultExport?: Value;
  moduleObject?: number;
}

interface Jump {
  readonly loop: boolean;
  readonly label?: string;
  readonly breaks: State<Binding>[];
  readonly continues: State<Binding>[];
}

/** One interpretation of a function body (or of a module's top level). */
export class JsRun extends Run<Binding> {
  readonly jumps: Jump[] = [];
  /** The label of the labeled statement about to run, for the loop it labels. */
  pendingLabel: string | undefined;

  constructor(
    override readonly fn: FunctionLike | Program,
    readonly module: JsModule,
    readonly closure: JsRun | undefined,
    readonly self: Value | undefined,
    heap: Heap,
  ) {
    super(fn, heap);
  }
}

/** A call the front end watches (a tool registration), with its evaluated arguments. */
export interface RecordedCall {
  readonly args: readonly Value[];
  readonly heap: Heap;
  /** The tool whose handler was being analysed when the call ran, if any. */
  readonly tool: string | undefined;
}

const MAX_CALL_DEPTH = 20;

/** Two runs of one call, as one record: each argument any value either run passed. */
function joinRecords(prev: RecordedCall | undefined, next: RecordedCall): RecordedCall {
  if (!prev) return next;
  return {
    args: next.args.map((a, i) => join(prev.args[i] ?? NOTHING, a)),
    heap: Heap.join(prev.heap, next.heap),
    tool: prev.tool ?? next.tool,
  };
}

/**
 * Loops over an array known item by item run once per item, in order, up to this many items; longer
 * ones, and arrays known only in part, run as any loop does (twice, joined).
 */
const MAX_UNROLLED = 16;
/**
 * Loops run once per item inside one another multiply: at most this many runs of the innermost body in
 * all. Past it an inner loop runs as any loop does: eight nested loops over 16 items each once ran into
 * the analysis budget, where two passes each are proven in milliseconds.
 */
const MAX_UNROLLED_RUNS = 64;

/** Global functions whose result type is certain. */
const GLOBAL_KINDS = new Map<string, JsonKind>(
  Object.entries({
    String: 'string',
    Number: 'number',
    Boolean: 'boolean',
    parseInt: 'number',
    parseFloat: 'number',
    encodeURIComponent: 'string',
    encodeURI: 'string',
    decodeURIComponent: 'string',
    btoa: 'string',
    atob: 'string',
    isNaN: 'boolean',
    isFinite: 'boolean',
  }) as [string, JsonKind][],
);

/** `Namespace.fn(…)` globals whose result type is certain. */
const STATIC_KINDS = new Map<string, JsonKind>(
  Object.entries({
    'Object.keys': 'array',
    'Object.values': 'array',
    'Object.entries': 'array',
    'Object.fromEntries': 'object',
    'Array.isArray': 'boolean',
    'Number.isInteger': 'boolean',
    'Number.isFinite': 'boolean',
    'Date.now': 'number',
    'Buffer.byteLength': 'number',
  }) as [string, JsonKind][],
);

/** Node's encodings other than base64: `readFile` with one of them gives a string. */
const TEXT_ENCODINGS = new Set([
  'utf8',
  'utf-8',
  'utf16le',
  'utf-16le',
  'ucs2',
  'ucs-2',
  'latin1',
  'binary',
  'ascii',
  'hex',
  'base64url',
]);

/** Methods whose result type is certain whatever the receiver. */
const METHOD_KINDS = new Map<string, JsonKind>(
  Object.entries({
    toString: 'string',
    toFixed: 'string',
    toPrecision: 'string',
    toISOString: 'string',
    toLocaleString: 'string',
    toLocaleDateString: 'string',
    toLocaleTimeString: 'string',
    toDateString: 'string',
    toUTCString: 'string',
    toUpperCase: 'string',
    toLowerCase: 'string',
    trim: 'string',
    trimStart: 'string',
    trimEnd: 'string',
    padStart: 'string',
    padEnd: 'string',
    replace: 'string',
    replaceAll: 'string',
    substring: 'string',
    repeat: 'string',
    normalize: 'string',
    charAt: 'string',
    join: 'string',
    split: 'array',
    includes: 'boolean',
    startsWith: 'boolean',
    endsWith: 'boolean',
    some: 'boolean',
    every: 'boolean',
    has: 'boolean',
    test: 'boolean',
    indexOf: 'number',
    lastIndexOf: 'number',
    findIndex: 'number',
    getTime: 'number',
    keys: 'array',
  }) as [string, JsonKind][],
);

/** Calls that read their arguments and never change them: objects passed to them stay as they are. */
const PURE_RECEIVERS = new Set([
  'console',
  'JSON',
  'Math',
  'Object',
  'Array',
  'Number',
  'String',
  'Date',
  'Promise',
]);
const PURE_METHODS = new Set([
  'log',
  'debug',
  'info',
  'warn',
  'warning',
  'error',
  'trace',
  'fatal',
  'verbose',
  'json',
  'send',
  'end',
  'write',
  'writeHead',
  'status',
  'setHeader',
  'header',
  'set',
  'has',
  'get',
  'stringify',
  'emit',
  'resolve',
  'reject',
  'storeTaskResult',
  // Registering a tool reads its definition (McpServer, FastMCP): a config object stays as written,
  // so its inputSchema and outputSchema are still known to every later registration that uses it.
  'registerTool',
  'registerToolTask',
  'tool',
  'addTool',
]);

/** Array methods whose callback builds or reads each item. */
const ITERATING = new Set([
  'map',
  'flatMap',
  'forEach',
  'filter',
  'reduce',
  'find',
  'findLast',
  'some',
  'every',
]);

/** A class the analysis met: its declaration, and the run it was declared in (its members' closure). */
interface ClassInfo {
  readonly node: Class;
  readonly closure: JsRun;
}

export class JsInterpreter extends Interpreter<Binding, JsRun, Node> {
  private readonly modules = new Map<string, JsModule>();
  private readonly byProgram = new Map<Program, JsModule>();
  private readonly rootRuns = new Map<FunctionLike | Program, JsRun>();
  /** Abstract instances of classes, for `this` in a method analysed on its own. */
  private readonly instances = new Map<Class, Value>();
  private readonly classes = new Map<number, ClassInfo>();
  readonly recorded = new Map<Node, RecordedCall>();
  /**
   * The same calls, apart by the tool name each was made with, when every one named its tool by a
   * constant: a registration in a loop over a table of tools (`for (const t of TOOLS)
   * server.registerTool(t.name, …, t.handler)`) then pairs each name with its own handler, which the
   * joined record cannot. `null` once a call named its tool by anything else.
   */
  readonly recordedByName = new Map<Node, Map<string, RecordedCall> | null>();
  /**
   * What the chain being evaluated gives where an optional link (`a?.b`, `a?.m()`, `f?.()`) finds its
   * object nullish: `undefined`, whatever links follow; maybe so (soft) where that object only may be
   * missing (an optional argument).
   */
  private chainShortCircuits: Value = NOTHING;

  constructor(
    project: Project,
    private readonly parse: (file: SourceFile) => Program | undefined,
    readonly watchedCalls: ReadonlySet<Node> = new Set(),
    watchedObjects: ReadonlySet<Node> = new Set(),
  ) {
    super(project, watchedObjects);
  }

  // ── modules ────────────────────────────────────────────────────────────────────────────────

  /** The module of a file, parsing and indexing it once. */
  module(file: SourceFile, program?: Program): JsModule | undefined {
    const key = file.absolute ?? `\u0000${file.path}`;
    const known = this.modules.get(key);
    if (known) return known;
    const parsed = program ?? this.parse(file);
    if (!parsed) return undefined;
    const mod: JsModule = { file, index: indexProgram(parsed) };
    this.modules.set(key, mod);
    this.byProgram.set(parsed, mod);
    return mod;
  }

  /** The module's top level, interpreted once; its final state holds the module's bindings. */
  moduleRun(mod: JsModule): JsRun | undefined {
    if (mod.run) return mod.run;
    if (mod.failed) return undefined;
    const heap = new Heap(this.project.frozen);
    const run = new JsRun(mod.index.program, mod, undefined, undefined, heap);
    mod.run = run;
    const moduleSite = this.siteIn(mod.file, mod.index.program);
    const exportsId = heap.alloc({ ...newObject(moduleSite), open: 'CommonJS exports' });
    const moduleObject = newObject(moduleSite);
    mod.moduleObject = heap.alloc({
      ...moduleObject,
      props: new Map([['exports', { value: ref(moduleSite, exportsId), site: moduleSite }]]),
    });
    this.isolated(
      run,
      () => this.body(mod.index.program.body, mod.index.root),
      (error) => {
        mod.failed = error;
      },
    );
    return mod.failed ? undefined : run;
  }

  /**
   * A function analysed on its own, with unknown parameters: the function that registers tools or
   * builds JSON-RPC responses. Its free variables come from the enclosing function's own run.
   * `asFramework`: the function is a route's callback, run as its framework calls it, so the
   * functions it hands out of the project (`req.on('end', () => send(res, id, result))`) run too.
   */
  rootRun(fnNode: FunctionLike | Program, mod: JsModule, asFramework = false): JsRun | undefined {
    if (fnNode.type === 'Program') return this.moduleRun(mod);
    const known = this.rootRuns.get(fnNode);
    if (known) return known;
    const parent = mod.index.parentOf.get(fnNode) ?? mod.index.program;
    const closure = this.rootRun(parent, mod);
    if (!closure) return undefined;
    const run = new JsRun(fnNode, mod, closure, this.selfFor(fnNode, mod), new Heap(this.project.frozen));
    this.rootRuns.set(fnNode, run);
    const work = () => {
      this.bindParams(fnNode, undefined);
      this.functionBody(fnNode);
    };
    this.isolated(
      run,
      () => (asFramework ? this.asFrameworkCalls(work) : work()),
      () => undefined,
    );
    return run;
  }

  /**
   * Interprets a handler (or any function value) with the given arguments, as the framework calls
   * it: its returns are recorded per return statement on the returned run.
   */
  runFunction(value: FunctionValue, args?: readonly Value[]): JsRun {
    const node = value.node as FunctionLike;
    const closure = value.closure as JsRun;
    const run = new JsRun(node, closure.module, closure, value.self, new Heap(this.project.frozen));
    this.asFrameworkCalls(() =>
      this.within(run, () => {
        this.bindParams(node, args);
        this.functionBody(node);
        this.finish(run);
      }),
    );
    run.state?.heap.freeze();
    return run;
  }

  private siteIn(file: SourceFile, node: Node): Site {
    return { file, start: offsetOf(node), end: endOf(node) };
  }

  protected site(node: Node): Site {
    return this.siteIn(this.current.module.file, node);
  }

  protected runSite(run: JsRun): Site {
    return this.siteIn(run.module.file, run.fn);
  }

  // ── variables ──────────────────────────────────────────────────────────────────────────────

  private runOf(binding: Binding): JsRun | undefined {
    const owner = binding.scope.functionScope().owner;
    for (let run: JsRun | undefined = this.current; run; run = run.closure) {
      if (run.fn === owner) return run;
    }
    return undefined;
  }

  private lookup(binding: Binding, at: Site): Value {
    if (binding.import) return this.importValue(binding, at);
    const run = this.runOf(binding);
    if (!run) {
      const owner = binding.scope.functionScope().owner;
      const mod = owner.type === 'Program' ? this.byProgram.get(owner) : undefined;
      if (mod) {
        const moduleRun = this.moduleRun(mod);
        const value = moduleRun?.state?.vars.get(binding);
        if (value) return this.laterValue(binding, value, at);
      }
      return unknown(at, `"${binding.name}" is known only when its function runs`);
    }
    const value = run.state?.vars.get(binding);
    if (value) return run.done && run !== this.current ? this.laterValue(binding, value, at) : value;
    if (binding.kind === 'class' && binding.node) return this.classValue(binding.node as Class, at, run);
    if (run.done || run !== this.current) {
      return unknown(at, `"${binding.name}" is set where the analysis cannot follow`);
    }
    return undef(at);
  }

  /**
   * A variable of a finished run, read later by one of its closures (a handler registered in it).
   * If another function changes it (`cache[k] = v` in one handler, read in another), it may hold
   * anything by then: its objects are open to this reader, a reassigned one may be any value.
   */
  private laterValue(binding: Binding, value: Value, at: Site): Value {
    if (binding.changedElsewhere === 'value') {
      return join(value, unknown(at, `"${binding.name}", which another function reassigns at run time`));
    }
    if (binding.changedElsewhere === 'members') {
      escapeTo(this.heap, [value], `"${binding.name}" is changed by another function at run time`, (id) =>
        this.classes.has(id),
      );
    }
    return value;
  }

  private assignVar(binding: Binding, value: Value): void {
    const run = this.runOf(binding);
    if (!run?.state) return;
    if (run === this.current) run.state.vars.set(binding, value);
    else {
      // A closure changing an outer variable: the outer function may read either value later.
      const old = run.state.vars.get(binding);
      run.state.vars.set(binding, old ? join(old, value) : value);
    }
  }

  private identifier(name: string, scope: Scope, at: Site): Value {
    const binding = scope.resolve(name);
    if (binding) return this.lookup(binding, at);
    switch (name) {
      case 'undefined':
        return undef(at);
      // JSON writes both as null: known, they are judged as such (`{ r: NaN }` under `z.number()`).
      case 'NaN':
        return num(at, Number.NaN);
      case 'Infinity':
        return num(at, Number.POSITIVE_INFINITY);
      case 'module': {
        const id = this.current.module.moduleObject;
        return id === undefined ? unknown(at, 'the module object') : ref(at, id);
      }
      case 'exports': {
        const id = this.current.module.moduleObject;
        const moduleState = id === undefined ? undefined : this.heap.get(id);
        return moduleState?.props.get('exports')?.value ?? unknown(at, 'the module exports');
      }
      default:
        return unknown(at, `the global "${name}"`);
    }
  }

  // ── imports and exports ──────────────────────────────────────────────────────────────────────

  private importValue(binding: Binding, at: Site): Value {
    const { source, name } = binding.import as { source: string; name: string };
    const target = this.importedModule(this.current.module, source);
    if (!target) {
      if (ZOD_PACKAGES.has(source) && (name === 'z' || name === '*' || name === 'default'))
        return [
          {
            k: 'unknown',
            site: at,
            reason: `"${binding.name}" comes from the package ${source}`,
            zod: ZOD_NAMESPACE,
          },
        ];
      return unknown(
        at,
        source.startsWith('.')
          ? `"${binding.name}" is imported from ${source}, which cannot be read`
          : `"${binding.name}" comes from the package ${source}`,
      );
    }
    if (name === '*') return this.namespace(target, at);
    return this.exportValue(target, name, at, new Set());
  }

  private importedModule(from: JsModule, source: string): JsModule | undefined {
    const origin = from.file.absolute;
    if (!origin) return undefined;
    const path = resolveJsImport(this.project, origin, source);
    const file = path ? this.project.load(path) : undefined;
    return file ? this.module(file) : undefined;
  }

  private namespace(mod: JsModule, at: Site): Value {
    const props = new Map<string, Member>();
    for (const name of this.exportNames(mod))
      props.set(name, { value: this.exportValue(mod, name, at, new Set()), site: at });
    return ref(at, this.heap.alloc({ ...newObject(at), props }));
  }

  private exportNames(mod: JsModule): string[] {
    const names: string[] = [];
    for (const statement of mod.index.program.body) {
      if (statement.type === 'ExportDefaultDeclaration') names.push('default');
      if (statement.type !== 'ExportNamedDeclaration') continue;
      for (const s of statement.specifiers)
        names.push(s.exported.type === 'Identifier' ? s.exported.name : String(s.exported.value));
      const d = statement.declaration;
      if (d?.type === 'VariableDeclaration') {
        for (const decl of d.declarations) if (decl.id.type === 'Identifier') names.push(decl.id.name);
      } else if (d && 'id' in d && d.id?.type === 'Identifier') names.push(d.id.name);
    }
    return names;
  }

  private exportValue(mod: JsModule, name: string, at: Site, seen: Set<JsModule>): Value {
    if (seen.has(mod)) return unknown(at, `"${name}" is re-exported in a cycle`);
    seen.add(mod);
    const run = this.moduleRun(mod);
    if (!run) return unknown(at, `"${name}": ${mod.failed ?? 'the module could not be analysed'}`);
    const finalVar = (local: string): Value | undefined => {
      const binding = mod.index.root.bindings.get(local);
      if (!binding) return undefined;
      if (binding.import) {
        const target = this.importedModule(mod, binding.import.source);
        if (!target) return unknown(at, `"${local}" comes from ${binding.import.source}`);
        return binding.import.name === '*'
          ? this.namespace(target, at)
          : this.exportValue(target, binding.import.name, at, seen);
      }
      const value = run.state?.vars.get(binding);
      if (value) return this.laterValue(binding, value, at);
      return binding.kind === 'class' && binding.node
        ? this.classValue(binding.node as Class, at, run)
        : undefined;
    };
    for (const statement of mod.index.program.body) {
      if (statement.type === 'ExportDefaultDeclaration' && name === 'default')
        return mod.defaultExport ?? unknown(at, 'the default export');
      if (statement.type === 'ExportNamedDeclaration') {
        for (const s of statement.specifiers) {
          const exported = s.exported.type === 'Identifier' ? s.exported.name : String(s.exported.value);
          if (exported !== name) continue;
          const local = s.local.type === 'Identifier' ? s.local.name : String(s.local.value);
          if (statement.source) {
            const target = this.importedModule(mod, String(statement.source.value));
            return target
              ? this.exportValue(target, local, at, seen)
              : unknown(at, `"${name}" comes from ${statement.source.value}`);
          }
          return finalVar(local) ?? unknown(at, `the export "${name}"`);
        }
        const d = statement.declaration;
        const declares =
          d?.type === 'VariableDeclaration'
            ? d.declarations.some((decl) => decl.id.type === 'Identifier' && decl.id.name === name)
            : d !== null && d !== undefined && 'id' in d && d.id?.type === 'Identifier' && d.id.name === name;
        if (declares) return finalVar(name) ?? unknown(at, `the export "${name}"`);
      }
    }
    for (const statement of mod.index.program.body) {
      if (statement.type === 'ExportAllDeclaration' && !statement.exported) {
        const target = this.importedModule(mod, String(statement.source.value));
        if (target && this.exportNames(target).includes(name))
          return this.exportValue(target, name, at, seen);
      }
    }
    // CommonJS: `module.exports = …` / `exports.name = …`.
    const moduleId = mod.moduleObject;
    const heap = run.state?.heap ?? new Heap(this.project.frozen);
    const exportsValue = moduleId === undefined ? undefined : heap.get(moduleId)?.props.get('exports')?.value;
    if (exportsValue) {
      if (name === 'default') return exportsValue;
      return this.readMember(exportsValue, name, at, heap);
    }
    return unknown(at, `"${name}" is not exported by ${mod.file.path}`);
  }

  // ── functions, classes and `this` ────────────────────────────────────────────────────────────

  private functionValue(node: FunctionLike, name: string): Value {
    const self = node.type === 'ArrowFunctionExpression' ? this.current.self : undefined;
    return fn(this.site(node), { node, closure: this.current, name, ...(self ? { self } : {}) });
  }

  /** `this` for a method analysed on its own: an instance whose methods are known, fields not. */
  private selfFor(fnNode: FunctionLike, mod: JsModule): Value | undefined {
    const cls = mod.index.classOf.get(fnNode);
    if (!cls) return undefined;
    const known = this.instances.get(cls);
    if (known) return known;
    const at = this.siteIn(mod.file, cls);
    const id = this.project.frozen.nextId();
    const value = ref(at, id);
    this.instances.set(cls, value);
    const closure = this.rootRun(mod.index.parentOf.get(fnNode) ?? mod.index.program, mod) ?? this.current;
    const props = new Map<string, Member>();
    for (const element of cls.body.body) {
      if (element.type !== 'MethodDefinition' || element.static || element.kind !== 'method') continue;
      const key = staticKey(element.key, element.computed);
      if (key)
        props.set(key, { value: fn(at, { node: element.value, closure, self: value, name: key }), site: at });
    }
    this.project.frozen.set(id, { ...newObject(at, cls.id?.name), props, open: 'fields set at run time' });
    return value;
  }

  /**
   * The value of a class declared in `closure` (by default the run evaluating the declaration; a class
   * read from another module is that module's run): its methods' closure, wherever it is constructed.
   */
  private classValue(cls: Class, at: Site, closure: JsRun = this.current): Value {
    const id = this.heap.alloc(newObject(at));
    this.classes.set(id, { node: cls, closure });
    const props = new Map<string, Member>();
    for (const element of cls.body.body) {
      if (element.type !== 'MethodDefinition' || !element.static || element.kind !== 'method') continue;
      const key = staticKey(element.key, element.computed);
      if (key)
        props.set(key, {
          value: fn(at, { node: element.value, closure, self: ref(at, id), name: key }),
          site: at,
        });
    }
    this.heap.set(id, {
      ...newObject(at, `class ${cls.id?.name ?? ''}`.trim()),
      props,
      open: 'static members set at run time',
    });
    return ref(at, id);
  }

  /**
   * `new C(…)`. Its methods and constructor run in the scope C was declared in, which for a class
   * imported from another module is not the caller's: analysed in the caller's, their sites pointed into
   * the caller's file and their variables read as globals.
   */
  private construct({ node: cls, closure }: ClassInfo, args: readonly Value[], at: Site): Value {
    const id = this.heap.alloc(newObject(at));
    const self = ref(at, id);
    const props = new Map<string, Member>();
    let init: FunctionLike | undefined;
    for (const element of cls.body.body) {
      if (element.type === 'MethodDefinition' && !element.static) {
        const key = staticKey(element.key, element.computed);
        if (element.kind === 'constructor') init = element.value;
        else if (key && element.kind === 'method')
          props.set(key, {
            value: fn(at, { node: element.value, closure, self, name: key }),
            site: at,
          });
      }
    }
    this.heap.set(id, {
      ...newObject(at, cls.id?.name),
      props,
      ...(cls.superClass ? { open: 'members of the superclass' } : {}),
    });
    for (const element of cls.body.body) {
      if (element.type === 'PropertyDefinition' && !element.static && element.value) {
        const key = staticKey(element.key, element.computed);
        const foreign = closure.module !== this.current.module;
        // A field initializer of a class from another module is an expression of that module: it is not
        // evaluated here, where its offsets and names would be read against this module's source.
        const value = isFunction(element.value)
          ? fn(this.siteIn(closure.module.file, element.value), {
              node: element.value,
              closure,
              self,
              name: key ?? 'field',
            })
          : foreign
            ? unknown(
                at,
                `the field "${key ?? '(computed)'}" that ${cls.id?.name ?? 'the class'} sets in ${closure.module.file.path}`,
              )
            : this.ev(
                element.value,
                this.current.module.index.scopeOf.get(cls) ?? this.current.module.index.root,
              );
        if (key) this.writeMember(self, key, value, foreign ? at : this.site(element));
      }
    }
    if (init)
      this.call(fn(at, { node: init, closure, self, name: 'constructor' }), args, self, at, 'constructor');
    return self;
  }

  /** Binds parameters to arguments; `args` undefined: the framework supplies them (unknown). */
  private bindParams(node: FunctionLike, args: readonly Value[] | undefined): void {
    const scope = this.current.module.index.scopeOf.get(node);
    if (!scope) return;
    node.params.forEach((param: ParamPattern, i: number) => {
      if (param.type === 'RestElement') {
        const at = this.site(param);
        const id = args
          ? this.heap.alloc({ ...newArray(at), items: args.slice(i).map((value) => ({ value, site: at })) })
          : this.heap.alloc({ ...newArray(at), open: `the arguments of ${sourceText(at)}` });
        this.bindPattern(param.argument, ref(at, id), scope);
        return;
      }
      const pattern = param.type === 'TSParameterProperty' ? param.parameter : param;
      const value = args ? (args[i] ?? undef(this.site(pattern))) : this.parameterValue(pattern);
      this.bindPattern(pattern, value, scope);
    });
  }

  /**
   * An argument the caller (the framework) supplies: unknown, named after the parameter; `any` to
   * the compiler when the parameter is declared so (`async (request: any): Promise<CallToolResult>`).
   */
  private parameterValue(pattern: Node): Value {
    const name = pattern.type === 'Identifier' ? pattern.name : sourceText(this.site(pattern));
    const value = unknown(this.site(pattern), `the parameter "${name}"`);
    const declared = (pattern as { typeAnnotation?: { typeAnnotation?: Node } | null }).typeAnnotation;
    return declared?.typeAnnotation?.type === 'TSAnyKeyword' ? untyped(value) : value;
  }

  /** Interprets a function's body in the current run (parameters already bound). */
  private functionBody(node: FunctionLike): void {
    const body = node.body;
    if (!body) return;
    if (node.generator) {
      this.recordReturn(body, unknown(this.site(node), 'a generator'));
      return;
    }
    if (body.type === 'BlockStatement') {
      const scope = this.current.module.index.scopeOf.get(body) ?? this.current.module.index.root;
      this.body(body.body, scope);
    } else {
      const scope = this.current.module.index.scopeOf.get(node) ?? this.current.module.index.root;
      this.recordReturn(body, this.ev(body, scope));
    }
  }

  /**
   * Calls a function value: a new run with the arguments bound, sharing the caller's heap. The
   * result joins every return (and `undefined` when the end is reachable).
   */
  private call(
    callee: Value,
    args: readonly Value[],
    self: Value | undefined,
    at: Site,
    text: string,
    node?: Node,
  ): Value {
    let result: Value = NOTHING;
    for (const v of callee) {
      if (!this.current.state) break;
      result = join(result, this.callVariant(v, args, self, at, text, node));
    }
    return result.length > 0 ? result : undef(at);
  }

  private callVariant(
    v: Variant,
    args: readonly Value[],
    self: Value | undefined,
    at: Site,
    text: string,
    node?: Node,
  ): Value {
    if (v.k === 'ref') {
      const cls = this.classes.get(v.id);
      if (cls) return this.construct(cls, args, at);
    }
    if (v.k === 'unknown') {
      const made = this.libraryString(text.slice(text.lastIndexOf('.') + 1), args, at);
      if (made) return made;
    }
    if (v.k !== 'fn') {
      this.noteOutflow(at, args);
      this.escapeCall(node, args, at, text);
      return unknown(at, `the result of ${text}(), which is not part of the scanned project`);
    }
    const fnNode = v.fn.node as FunctionLike;
    if (!isFunction(fnNode as Node)) return unknown(at, `the result of ${text}()`);
    if (this.active.includes(fnNode)) return unknown(at, `a recursive call to ${v.fn.name}()`);
    if (this.active.length > MAX_CALL_DEPTH) return unknown(at, 'calls nested too deeply to follow');
    this.callees.add(fnNode);
    const closure = v.fn.closure as JsRun;
    const run = new JsRun(fnNode, closure.module, closure, v.fn.self ?? self, this.heap);
    this.within(run, () => {
      this.bindParams(fnNode, args);
      this.functionBody(fnNode);
      this.finish(run);
    });
    let value: Value = NOTHING;
    for (const r of run.returns.values()) value = join(value, r.value);
    // Falling off the end next to explicit returns is often a path that cannot happen (an
    // exhaustive if/else-if chain): a soft undefined. With no return at all, it is certain.
    if (run.fellThrough) value = join(value, run.returns.size > 0 ? maybeUndef(at) : undef(at));
    if (run.state) this.state.heap = run.state.heap;
    if (!fnNode.async || fnNode.generator)
      return this.declare(value, (fnNode as { returnType?: Node | null }).returnType, closure.module.file);
    // An async function gives a Promise of what it returns (a returned Promise is followed), proven by
    // its declared `Promise<…>` where the analysis cannot see.
    const resolved = this.declare(
      awaited(this.heap, value),
      (fnNode as { returnType?: Node | null }).returnType,
      closure.module.file,
    );
    return this.promise(resolved, at);
  }

  /** A Promise resolved to `value`, made at `at`. */
  private promise(value: Value, at: Site): Value {
    return ref(at, this.heap.alloc({ ...newObject(at), promised: value }));
  }

  /**
   * Unknown variants of `value` are proven by a declared TypeScript type, when it is an MCP type. A
   * value given a type (`const w: Weather = await res.json()`, `x as T`) is of that type to the
   * compiler from there on, `any` no more; one declared `any` (`x as any`) passes every type.
   * `narrows` false: the type is only checked (`satisfies`), the value keeps its own.
   */
  private declare(
    value: Value,
    annotation: Node | null | undefined,
    file: SourceFile,
    narrows = true,
  ): Value {
    if (!annotation) return value;
    const type = annotation.type === 'TSTypeAnnotation' ? annotation.typeAnnotation : annotation;
    if (type.type === 'TSAnyKeyword') return narrows ? untyped(value) : value;
    if (!narrows && value.some((v) => v.k === 'unknown' && v.untyped)) return value;
    const typed =
      narrows && type.type !== 'TSUnknownKeyword'
        ? value.map((v) => (v.k === 'unknown' && v.untyped ? { ...v, untyped: undefined } : v))
        : value;
    return provenIn(this.heap, typed, file.text.slice(offsetOf(annotation), endOf(annotation)));
  }

  // ── objects ─────────────────────────────────────────────────────────────────────────────────

  readMember(object: Value, key: string | undefined, at: Site, heap = this.heap): Value {
    return readMember(heap, object, key, at, undef(at));
  }

  private writeMember(object: Value, key: string | undefined, value: Value, at: Site): void {
    writeMember(this.heap, object, key, value, at);
  }

  /**
   * Values passed where the analysis cannot follow (`call`, code outside the project): the
   * functions among them may be called there, any number of times, so their effects (a block pushed
   * onto a list they close over) are joined in; the objects may be changed there (classes stay as
   * they are). Only while a handler runs (followsCallbacks); a tool registration or a route made
   * there is analysed on its own.
   */
  private escapeCall(
    call: Node | undefined,
    values: readonly Value[],
    at: Site,
    text: string,
    objects = true,
  ): void {
    const later =
      !this.followsCallbacks ||
      (call &&
        (this.watchedCalls.has(call) ||
          (call.type === 'CallExpression' && (routeName(call) || registersHandler(call)))));
    for (const value of later ? [] : values) {
      const functions = value.filter((v) => v.k === 'fn');
      if (functions.length === 0 || !this.current.state) continue;
      const count = Math.max(...functions.map((f) => (f.fn.node as FunctionLike).params?.length ?? 0));
      const given = Array.from({ length: count }, () =>
        unknown(at, `an argument ${text}() passes to its callback`),
      );
      this.callRepeatedly(functions, () => given, at);
    }
    if (objects && this.current.state)
      this.escape(values, `passed to ${text}(), which the analysis cannot follow`);
  }

  /** Objects passed where the analysis cannot follow may be changed there (classes stay as they are). */
  private escape(values: readonly Value[], reason: string): void {
    escapeTo(this.heap, values, reason, (id) => this.classes.has(id));
  }

  private objects(value: Value): { id: number; state: ObjState }[] {
    return objectsOf(this.heap, value);
  }

  private objectLiteral(node: ObjectExpression, scope: Scope): Value {
    const at = this.site(node);
    const props = new Map<string, Member>();
    let open: string | undefined;
    for (const p of node.properties) {
      if (p.type === 'SpreadElement') {
        const spread = this.ev(p.argument, scope);
        for (const v of spread) if (v.k === 'ref' && this.allocatedByWatched(v.id)) this.spreadIds.add(v.id);
        open = spreadInto(props, spread, this.heap, this.site(p)) ?? open;
        continue;
      }
      let key = staticKey(p.key, p.computed);
      if (key === undefined && p.computed) key = constantString(this.ev(p.key as Expression, scope));
      if (key === undefined || p.kind !== 'init') {
        open = `a member with a computed name (${sourceText(this.site(p.key))})`;
        continue;
      }
      const value = isFunction(p.value) ? this.functionValue(p.value, key) : this.ev(p.value, scope);
      props.delete(key);
      props.set(key, { value, site: this.site(p.value) });
    }
    return ref(at, this.allocate(node, { ...newObject(at), props, ...(open ? { open } : {}) }));
  }

  private arrayLiteral(node: ArrayExpression, scope: Scope): Value {
    const at = this.site(node);
    const items: Member[] = [];
    let rest: Value | undefined;
    let open: string | undefined;
    for (const element of node.elements) {
      if (element === null) {
        items.push({ value: undef(at), site: at });
      } else if (element.type === 'SpreadElement') {
        const spread = this.ev(element.argument, scope);
        const arrays = this.objects(spread).filter((o) => o.state.kind === 'array');
        const single = spread.length === 1 && arrays.length === 1 ? arrays[0]?.state : undefined;
        if (single && !rest) {
          items.push(...single.items);
          if (single.rest) rest = single.rest;
          if (single.open) open = single.open;
        } else {
          for (const { state } of arrays) {
            for (const m of state.items) rest = rest ? join(rest, m.value) : m.value;
            if (state.rest) rest = rest ? join(rest, state.rest) : state.rest;
            if (state.open) open = state.open;
          }
          if (spread.some((v) => v.k !== 'ref' && !isNullish(v)))
            open = `items spread from ${sourceText(this.site(element.argument))}`;
        }
      } else {
        const value = this.ev(element, scope);
        if (rest) rest = join(rest, value);
        else items.push({ value, site: this.site(element) });
      }
    }
    return ref(
      at,
      this.allocate(node, { ...newArray(at), items, ...(rest ? { rest } : {}), ...(open ? { open } : {}) }),
    );
  }

  // ── statements ───────────────────────────────────────────────────────────────────────────────

  /** A list of statements in one scope, with function declarations hoisted. */
  private body(statements: readonly Node[], scope: Scope): void {
    for (const statement of statements) {
      if (statement.type === 'FunctionDeclaration' && statement.id) this.hoist(statement, scope);
      if (
        (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration') &&
        statement.declaration?.type === 'FunctionDeclaration' &&
        statement.declaration.id
      ) {
        this.hoist(statement.declaration, scope);
      }
    }
    for (const statement of statements) {
      if (!this.current.state) return;
      this.exec(statement, scope);
    }
  }

  private hoist(node: FunctionLike & { id: { name: string } | null }, scope: Scope): void {
    const name = node.id?.name;
    const binding = name ? scope.bindings.get(name) : undefined;
    if (binding && this.current.state)
      this.current.state.vars.set(binding, this.functionValue(node, name ?? 'function'));
  }

  private exec(node: Node, scope: Scope): void {
    if (!this.current.state) return;
    this.project.budget.tick();
    switch (node.type) {
      case 'ExpressionStatement':
        this.ev(node.expression, scope);
        return;
      case 'VariableDeclaration':
        for (const d of node.declarations) {
          let value = d.init ? this.ev(d.init, scope) : undef(this.site(d));
          const annotation = (d.id as { typeAnnotation?: Node | null }).typeAnnotation;
          value = this.declare(value, annotation, this.current.module.file);
          if (this.current.state) this.bindPattern(d.id, value, scope);
        }
        return;
      case 'ReturnStatement':
        this.recordReturn(node, node.argument ? this.ev(node.argument, scope) : undef(this.site(node)));
        return;
      case 'ThrowStatement':
        this.ev(node.argument, scope);
        this.throwHere();
        return;
      case 'BlockStatement':
        this.body(node.body, this.current.module.index.scopeOf.get(node) ?? scope);
        return;
      case 'IfStatement':
        this.ifStatement(node.test, node.consequent, node.alternate, scope, node);
        return;
      case 'SwitchStatement':
        this.switchStatement(node, this.current.module.index.scopeOf.get(node) ?? scope);
        return;
      case 'ForStatement': {
        const inner = this.current.module.index.scopeOf.get(node) ?? scope;
        if (node.init) {
          if (node.init.type === 'VariableDeclaration') this.exec(node.init, inner);
          else this.ev(node.init, inner);
        }
        this.loop(
          node,
          // `for (;;)` ends only by break, return or throw.
          () => (node.test ? this.ev(node.test, inner).some(mayBeFalsy) : false),
          () => {
            this.exec(node.body, inner);
          },
          () => {
            if (node.update) this.ev(node.update, inner);
          },
        );
        return;
      }
      case 'ForOfStatement':
      case 'ForInStatement': {
        const inner = this.current.module.index.scopeOf.get(node) ?? scope;
        const iterable = this.ev(node.right, scope);
        const bind = (item: Value) => {
          const left = node.left;
          if (left.type === 'VariableDeclaration') {
            const declarator = left.declarations[0];
            if (declarator) this.bindPattern(declarator.id, item, inner);
          } else this.assign(left, item, inner);
        };
        const body = () => this.exec(node.body, inner);
        if (node.type === 'ForOfStatement' && this.unrolled(node, iterable, bind, body)) return;
        const at = this.site(node.right);
        // The items are read at each pass: what the body adds to the array it iterates is visited too.
        this.loop(
          node,
          () => {
            bind(node.type === 'ForInStatement' ? str(at) : this.itemOf(iterable, at));
            return true;
          },
          body,
          () => undefined,
        );
        return;
      }
      case 'WhileStatement':
        this.loop(
          node,
          () => this.ev(node.test, scope).some(mayBeFalsy),
          () => this.exec(node.body, scope),
          () => undefined,
        );
        return;
      case 'DoWhileStatement':
        this.exec(node.body, scope);
        this.loop(
          node,
          () => this.ev(node.test, scope).some(mayBeFalsy),
          () => this.exec(node.body, scope),
          () => undefined,
        );
        return;
      case 'LabeledStatement': {
        if (/(For|While|DoWhile|ForIn|ForOf)Statement$/.test(node.body.type))
          this.current.pendingLabel = node.label.name;
        const jump: Jump = { loop: false, label: node.label.name, breaks: [], continues: [] };
        this.current.jumps.push(jump);
        try {
          this.exec(node.body, scope);
        } finally {
          this.current.jumps.pop();
        }
        this.current.state = joinAllStates([this.current.state, ...jump.breaks], this.site(node));
        return;
      }
      case 'BreakStatement':
      case 'ContinueStatement': {
        const label = node.label?.name;
        const jump = [...this.current.jumps]
          .reverse()
          .find((j) =>
            label
              ? j.label === label
              : node.type === 'ContinueStatement'
                ? j.loop
                : j.loop || j.label === '\u0000switch',
          );
        if (jump && this.current.state)
          (node.type === 'BreakStatement' ? jump.breaks : jump.continues).push(this.current.state);
        this.current.state = undefined;
        return;
      }
      case 'TryStatement':
        this.tryStatement(node, scope);
        return;
      case 'ClassDeclaration':
        if (node.id) {
          const binding = scope.resolve(node.id.name);
          if (binding) this.assignVar(binding, this.classValue(node, this.site(node)));
        }
        return;
      case 'TSEnumDeclaration': {
        // `declare enum` has no run-time object.
        const binding = node.declare ? undefined : scope.resolve(node.id.name);
        if (binding) this.assignVar(binding, this.enumValue(node, scope));
        return;
      }
      case 'ExportNamedDeclaration':
        if (node.declaration) this.exec(node.declaration, scope);
        return;
      case 'ExportDefaultDeclaration': {
        const d = node.declaration;
        let value: Value;
        if (isFunction(d as Node)) {
          const f = d as FunctionLike;
          const name = f.type === 'FunctionDeclaration' && f.id ? f.id.name : 'default';
          const binding =
            f.type === 'FunctionDeclaration' && f.id ? scope.bindings.get(f.id.name) : undefined;
          value = (binding && this.current.state?.vars.get(binding)) ?? this.functionValue(f, name);
        } else if (d.type === 'ClassDeclaration' || d.type === 'ClassExpression') {
          value = this.classValue(d, this.site(d));
          if (d.id) {
            const binding = scope.resolve(d.id.name);
            if (binding) this.assignVar(binding, value);
          }
        } else value = this.ev(d as Expression, scope);
        this.current.module.defaultExport = value;
        return;
      }
      case 'WithStatement':
        this.ev(node.object, scope);
        this.exec(node.body, scope);
        return;
      default:
        return;
    }
  }

  private guardOf(test: Node, holds: boolean): Guard {
    return { text: sourceText(this.site(test)), holds, site: this.site(test) };
  }

  private ifStatement(
    test: Expression,
    consequent: Node,
    alternate: Node | null,
    scope: Scope,
    node: Node,
  ): void {
    const condition = this.ev(test, scope);
    const truthy = condition.some(mayBeTruthy);
    const falsy = condition.some(mayBeFalsy);
    if (!this.current.state) return;
    if (truthy && !falsy) {
      this.exec(consequent, scope);
      return;
    }
    if (falsy && !truthy) {
      if (alternate) this.exec(alternate, scope);
      return;
    }
    this.fork(
      this.site(node),
      { whenTrue: this.guardOf(test, true), whenFalse: this.guardOf(test, false) },
      () => {
        this.refine(test, scope, true);
        this.exec(consequent, scope);
      },
      () => {
        this.refine(test, scope, false);
        if (alternate) this.exec(alternate, scope);
      },
    );
  }

  /**
   * Narrows variables in a branch by its condition: after `if (!result.ok) return …`, `result` is
   * only what has a truthy `ok`; after `if (typeof x === 'string')`, `x` is a string. Without this,
   * a value from the other branch would be judged where it cannot occur.
   */
  private refine(test: Expression, scope: Scope, holds: boolean): void {
    if (!this.current.state) return;
    const bare = unwrap(test);
    switch (bare.type) {
      case 'UnaryExpression':
        if (bare.operator === '!') this.refine(bare.argument, scope, !holds);
        return;
      case 'LogicalExpression':
        if ((bare.operator === '&&' && holds) || (bare.operator === '||' && !holds)) {
          this.refine(bare.left, scope, holds);
          this.refine(bare.right, scope, holds);
        }
        return;
      case 'Identifier':
        this.narrow(bare, scope, (v) => (holds ? mayBeTruthy(v) : mayBeFalsy(v)));
        return;
      case 'MemberExpression': {
        const key = memberName(bare);
        if (key !== undefined)
          this.narrowMember(bare.object, key, scope, (m) => (holds ? mayBeTruthy(m) : mayBeFalsy(m)));
        return;
      }
      case 'CallExpression': {
        const callee = unwrap(bare.callee);
        const [first] = bare.arguments;
        if (
          first &&
          first.type !== 'SpreadElement' &&
          callee.type === 'MemberExpression' &&
          memberName(callee) === 'isArray'
        ) {
          this.narrow(
            first,
            scope,
            (v) => isArrayVariant(this.heap, v) === holds || v.k === 'unknown',
            holds ? sourceText(this.site(bare)) : undefined,
          );
        }
        // `mimeType.startsWith("image/") ? { type: "image", mimeType } : …`
        const method = callee.type === 'MemberExpression' ? memberName(callee) : undefined;
        if (
          callee.type === 'MemberExpression' &&
          (method === 'startsWith' || method === 'endsWith') &&
          first?.type === 'Literal' &&
          typeof first.value === 'string'
        ) {
          const affix = first.value;
          const end = method === 'startsWith' ? 'start' : 'end';
          this.narrow(callee.object, scope, (v) => mayHaveAffix(v, end, affix, holds));
        }
        return;
      }
      case 'BinaryExpression': {
        const op = bare.operator;
        if (op !== '===' && op !== '==' && op !== '!==' && op !== '!=') return;
        const equal = (op === '===' || op === '==') === holds;
        const loose = op === '==' || op === '!=';
        const left = unwrap(bare.left as Expression);
        const right = unwrap(bare.right);
        const [subject, literal] = isLiteral(right)
          ? [left, right]
          : isLiteral(left)
            ? [right, left]
            : [undefined, undefined];
        if (!subject || !literal) return;
        if (
          subject.type === 'UnaryExpression' &&
          subject.operator === 'typeof' &&
          literal.type === 'Literal' &&
          typeof literal.value === 'string'
        ) {
          const kind = literal.value;
          const passes = (v: Variant) =>
            v.k === 'unknown' || v.k === 'fn' || (typeOf(this.heap, v) === kind) === equal;
          const argument = unwrap(subject.argument);
          // `typeof args.city === "string"`: the objects whose member cannot pass are not on this path.
          const key = argument.type === 'MemberExpression' ? memberName(argument) : undefined;
          if (argument.type === 'MemberExpression' && key !== undefined) {
            if (equal && (kind === 'string' || kind === 'boolean'))
              this.typeMember(argument.object, key, scope, kind, sourceText(this.site(bare)), passes);
            else this.narrowMember(argument.object, key, scope, passes);
            return;
          }
          this.narrow(
            subject.argument,
            scope,
            passes,
            equal ? sourceText(this.site(bare)) : undefined,
            equal && (kind === 'string' || kind === 'boolean') ? kind : undefined,
          );
          return;
        }
        const constant = literalValue(literal);
        const test = (v: Variant) => (equal ? mayEqual(v, constant, loose) : mayDiffer(v, constant, loose));
        if (subject.type === 'MemberExpression') {
          const key = memberName(subject);
          if (key !== undefined) this.narrowMember(subject.object, key, scope, test);
        } else this.narrow(subject, scope, test);
        return;
      }
      default:
        return;
    }
  }

  /**
   * Keeps the variants of a local variable that pass `keep` (never all of them away). `test`: a type
   * test the variable passed, which its unknown variants remember (value.ts, `tested`); `kind`: the
   * type that test gives them on this path.
   */
  private narrow(
    node: Expression,
    scope: Scope,
    keep: (v: Variant) => boolean,
    test?: string,
    kind?: 'string' | 'boolean',
  ): void {
    const bare = unwrap(node);
    if (bare.type !== 'Identifier') return;
    const binding = scope.resolve(bare.name);
    if (!binding || binding.import || this.runOf(binding) !== this.current) return;
    const value = this.current.state?.vars.get(binding);
    if (!value) return;
    const filtered = value.filter(keep);
    const marked = test === undefined ? filtered : tested(filtered, test);
    const kept = kind === undefined ? marked : ofKind(marked, kind);
    if (kept.length > 0 && (kept.length < value.length || test !== undefined))
      this.current.state?.vars.set(binding, kept);
    // No value the variable may have passes the test, and all of them are known: the branch is dead.
    else if (kept.length === 0 && value.every((v) => v.k !== 'unknown' && !(v.k === 'undef' && v.soft))) {
      this.current.state = undefined;
    }
  }

  /** After `typeof x.key === kind` held: `x`'s member is of that kind on this path (withTypedMember). */
  private typeMember(
    object: Expression,
    key: string,
    scope: Scope,
    kind: 'string' | 'boolean',
    test: string,
    passes: (v: Variant) => boolean,
  ): void {
    const bare = unwrap(object);
    if (bare.type !== 'Identifier' || !this.current.state) return;
    const binding = scope.resolve(bare.name);
    if (!binding || binding.import || this.runOf(binding) !== this.current) return;
    const value = this.current.state.vars.get(binding);
    if (!value) return;
    const typed = this.withTypedMember(
      value,
      key,
      kind,
      test,
      passes,
      this.site(bare),
      `${bare.name}.${key}`,
    );
    if (typed.length > 0) this.current.state.vars.set(binding, typed);
  }

  /** Keeps the objects a variable may be whose member `key` passes `keep`. */
  private narrowMember(object: Expression, key: string, scope: Scope, keep: (v: Variant) => boolean): void {
    this.narrow(object, scope, (v) => {
      if (v.k !== 'ref') return true;
      const state = this.heap.get(v.id);
      if (state?.kind !== 'object') return true;
      const member = state.props.get(key);
      if (!member) return state.open !== undefined || keep({ k: 'undef', site: state.site });
      return member.value.some(keep);
    });
  }

  private switchStatement(node: Node & { type: 'SwitchStatement' }, scope: Scope): void {
    const discriminant = this.ev(node.discriminant, scope);
    const entry = this.current.state;
    if (!entry) return;
    const jump: Jump = { loop: false, label: '\u0000switch', breaks: [], continues: [] };
    this.current.jumps.push(jump);
    let fallthrough: State<Binding> | undefined;
    let hasDefault = false;
    /** What each case's test evaluated to. */
    const tests: Value[] = [];
    /** Where control leaves the switch, each with the case it went through. */
    const exits: Exit<Binding>[] = [];
    try {
      for (const c of node.cases) {
        if (!c.test) hasDefault = true;
        const guard: Guard | undefined = c.test
          ? {
              text: `${sourceText(this.site(node.discriminant))} is ${sourceText(this.site(c.test))}`,
              holds: true,
              site: this.site(c.test),
            }
          : undefined;
        this.current.state = joinStates(fallthrough, cloneState(entry), this.site(c));
        if (c.test) tests.push(this.ev(c.test, scope));
        const breaks = jump.breaks.length;
        for (const statement of c.consequent) {
          if (!this.current.state) break;
          this.exec(statement, scope);
        }
        for (const state of jump.breaks.splice(breaks)) exits.push({ state, ...(guard ? { guard } : {}) });
        fallthrough = this.current.state;
        if (fallthrough && c === node.cases.at(-1))
          exits.push({ state: fallthrough, ...(guard ? { guard } : {}) });
      }
    } finally {
      this.current.jumps.pop();
    }
    if (!hasDefault && !matchesACase(discriminant, tests)) {
      const known = discriminant.every((v) => v.k !== 'unknown' && !(v.k === 'str' && v.value === undefined));
      exits.push({ state: known ? entry : unsetAsSoft(entry, exits) });
    }
    this.current.state = this.joinExits(exits, this.site(node));
  }

  /**
   * The items of `iterable` one by one, when it is an array the analysis knows whole and short (a table
   * of tools written in the source); else `undefined`.
   */
  private knownItems(iterable: Value): { id: number; items: Value[] } | undefined {
    const [only] = iterable;
    if (iterable.length !== 1 || only?.k !== 'ref') return undefined;
    const state = this.heap.get(only.id);
    if (state?.kind !== 'array' || state.rest || state.open) return undefined;
    const count = state.items.length;
    if (count === 0 || count > MAX_UNROLLED || this.unrolledRuns * count > MAX_UNROLLED_RUNS)
      return undefined;
    return { id: only.id, items: state.items.map((m) => m.value) };
  }

  /** How many times the loops being run once per item (around this point) run their bodies, in all. */
  private unrolledRuns = 1;

  /**
   * A `for…of` over an array known item by item (knownItems), run once per item, in order: each item
   * is then judged with what the body does with it, not with every other item's values too (a
   * registration in the loop gets its own tool's name and handler). Returns false, with nothing
   * changed, for any other iterable, and when the body changes the array it iterates (then the items
   * it would visit are not the ones read here), so that the loop runs as any loop does.
   */
  private unrolled(node: Node, iterable: Value, bind: (item: Value) => void, body: () => void): boolean {
    const entry = this.current.state;
    const known = entry ? this.knownItems(iterable) : undefined;
    if (!entry || !known) return false;
    const before = this.heap.get(known.id);
    const label = this.current.pendingLabel;
    this.current.pendingLabel = undefined;
    this.current.state = cloneState(entry);
    const jump: Jump = { loop: true, ...(label ? { label } : {}), breaks: [], continues: [] };
    const at = this.site(node);
    this.current.jumps.push(jump);
    const outer = this.unrolledRuns;
    this.unrolledRuns = outer * known.items.length;
    let changed = false;
    try {
      for (const item of known.items) {
        if (!this.current.state) break;
        bind(item);
        jump.continues.length = 0;
        body();
        this.current.state = joinAllStates([this.current.state, ...jump.continues], at);
        if (this.current.state && this.heap.get(known.id) !== before) {
          changed = true;
          break;
        }
      }
    } finally {
      this.current.jumps.pop();
      this.unrolledRuns = outer;
    }
    if (changed) {
      this.current.state = entry;
      this.current.pendingLabel = label;
      return false;
    }
    this.current.state = joinAllStates([this.current.state, ...jump.breaks], at);
    return true;
  }

  /**
   * A loop: the body twice (enough for values built across iterations to show), then joined. `head`
   * runs the test and says whether it may fail: `while (true)` is left only by break, return or throw.
   */
  private loop(node: Node, head: () => boolean, body: () => void, update: () => void): void {
    const label = this.current.pendingLabel;
    this.current.pendingLabel = undefined;
    const jump: Jump = { loop: true, ...(label ? { label } : {}), breaks: [], continues: [] };
    const at = this.site(node);
    /** Where the loop test fails: after the head, before the body. */
    const ends: State<Binding>[] = [];
    this.current.jumps.push(jump);
    let passes: (State<Binding> | undefined)[];
    try {
      passes = this.iterations(at, () => {
        const mayEnd = head();
        if (!this.current.state) return [];
        const afterHead = this.current.state;
        if (mayEnd) ends.push(cloneState(afterHead));
        this.current.state = cloneState(afterHead);
        jump.continues.length = 0;
        body();
        this.current.state = joinAllStates([this.current.state, ...jump.continues], at);
        if (this.current.state) update();
        return [];
      });
    } finally {
      this.current.jumps.pop();
    }
    // The states before and after each pass stand for the test failing at later passes too; a loop
    // whose test never fails is left by its breaks alone.
    this.current.state = joinAllStates([...(ends.length > 0 ? passes : []), ...ends, ...jump.breaks], at);
  }

  private tryStatement(node: Node & { type: 'TryStatement' }, scope: Scope): void {
    const entry = this.current.state;
    if (!entry) return;
    const throws: State<Binding>[] = [];
    this.current.tries.push(throws);
    this.current.state = cloneState(entry);
    try {
      this.exec(node.block, scope);
    } finally {
      this.current.tries.pop();
    }
    const afterTry = this.current.state;
    let afterCatch: State<Binding> | undefined;
    if (node.handler) {
      // Anything in the try block may throw: the catch block starts from what any point could see.
      this.current.state = joinAllStates(
        [cloneState(entry), afterTry && cloneState(afterTry), ...throws],
        this.site(node.handler),
      );
      const inner = this.current.module.index.scopeOf.get(node.handler) ?? scope;
      if (node.handler.param && this.current.state) {
        this.bindPattern(
          node.handler.param,
          unknown(this.site(node.handler.param), 'the caught error'),
          inner,
        );
      }
      this.body(node.handler.body.body, inner);
      afterCatch = this.current.state;
    }
    this.current.state = node.handler ? joinStates(afterTry, afterCatch, this.site(node)) : afterTry;
    if (node.finalizer) {
      if (!this.current.state) {
        // Every path left the try (returned or threw); the finally block still runs, then control leaves.
        this.current.state = cloneState(entry);
        this.exec(node.finalizer, scope);
        this.current.state = undefined;
      } else this.exec(node.finalizer, scope);
    }
  }

  // ── patterns and assignment ──────────────────────────────────────────────────────────────────

  private bindPattern(pattern: Node, value: Value, scope: Scope): void {
    switch (pattern.type) {
      case 'Identifier': {
        const binding = scope.resolve(pattern.name);
        if (binding) this.assignVar(binding, value);
        return;
      }
      case 'AssignmentPattern': {
        // The default applies only to undefined: an unknown of a known JSON type (a required string
        // argument) never takes it.
        const hasUndefined = value.some(
          (v) => v.k === 'undef' || (v.k === 'unknown' && v.kind === undefined),
        );
        const defined = value.filter((v) => v.k !== 'undef');
        const fallback = hasUndefined ? this.ev(pattern.right as Expression, scope) : NOTHING;
        this.bindPattern(pattern.left, join(defined, fallback), scope);
        return;
      }
      case 'ObjectPattern': {
        const used = new Set<string>();
        for (const p of pattern.properties) {
          if (p.type === 'RestElement') {
            this.bindPattern(p.argument, this.restOf(value, used, this.site(p)), scope);
            continue;
          }
          let key = staticKey(p.key, p.computed);
          if (key === undefined && p.computed) key = constantString(this.ev(p.key as Expression, scope));
          if (key !== undefined) used.add(key);
          this.bindPattern(p.value, this.readMember(value, key, this.site(p.value)), scope);
        }
        return;
      }
      case 'ArrayPattern':
        pattern.elements.forEach((element: Node | null, i: number) => {
          if (!element) return;
          if (element.type === 'RestElement') {
            this.bindPattern(
              element.argument,
              this.arrayOf(this.itemOf(value, this.site(element)), this.site(element)),
              scope,
            );
          } else this.bindPattern(element, this.readMember(value, String(i), this.site(element)), scope);
        });
        return;
      case 'RestElement':
        this.bindPattern(pattern.argument, value, scope);
        return;
      case 'TSParameterProperty':
        this.bindPattern(pattern.parameter, value, scope);
        return;
      case 'MemberExpression':
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
        this.assign(pattern as Expression, value, scope);
        return;
    }
  }

  private restOf(value: Value, used: Set<string>, at: Site): Value {
    const props = new Map<string, Member>();
    let open: string | undefined;
    for (const { state } of this.objects(value)) {
      for (const [key, member] of state.props) if (!used.has(key)) props.set(key, member);
      open = state.open ?? open;
    }
    if (value.some((v) => v.k === 'unknown')) open = `the rest of ${sourceText(at)}`;
    return ref(at, this.heap.alloc({ ...newObject(at), props, ...(open ? { open } : {}) }));
  }

  /** A new array of any number of `item`s; `derived`: see heap.ts. */
  private arrayOf(item: Value, at: Site, derived?: string): Value {
    return ref(at, this.heap.alloc({ ...newArray(at), rest: item, ...(derived ? { derived } : {}) }));
  }

  private itemOf(iterable: Value, at: Site): Value {
    return itemOf(this.heap, iterable, at);
  }

  private assign(target: Node, value: Value, scope: Scope): void {
    const bare =
      target.type === 'ObjectPattern' || target.type === 'ArrayPattern'
        ? target
        : unwrap(target as Expression);
    switch (bare.type) {
      case 'Identifier': {
        const binding = scope.resolve(bare.name);
        if (binding) this.assignVar(binding, value);
        return;
      }
      case 'MemberExpression': {
        const object = this.ev(bare.object, scope);
        const key = this.memberKey(bare, scope);
        this.writeMember(object, key, value, this.site(bare));
        return;
      }
      case 'ObjectPattern':
      case 'ArrayPattern':
        this.bindPattern(bare, value, scope);
        return;
    }
  }

  private memberKey(node: Node & { type: 'MemberExpression' }, scope: Scope): string | undefined {
    const keys = this.memberKeys(node, scope);
    return keys?.length === 1 ? keys[0] : undefined;
  }

  /** The names `node` may read (see constantKeys); `undefined` when any member may be meant. */
  private memberKeys(node: Node & { type: 'MemberExpression' }, scope: Scope): string[] | undefined {
    const name = memberName(node);
    if (name !== undefined) return [name];
    if (!node.computed) return undefined;
    return constantKeys(this.ev(node.property as Expression, scope));
  }

  // ── expressions ──────────────────────────────────────────────────────────────────────────────

  ev(node: Expression, scope: Scope): Value {
    if (++this.nesting > MAX_NESTING) {
      this.nesting--;
      throw new BudgetExceeded('expressions nested too deeply');
    }
    try {
      this.project.budget.tick();
      return this.evaluate(node, scope);
    } finally {
      this.nesting--;
    }
  }

  private evaluate(node: Expression, scope: Scope): Value {
    const at = this.site(node);
    switch (node.type) {
      case 'Literal': {
        const value: unknown = node.value;
        if (typeof value === 'string') return str(at, value);
        if (typeof value === 'number') return num(at, value);
        if (typeof value === 'boolean') return bool(at, value);
        if (value === null && !('regex' in node && node.regex) && !('bigint' in node && node.bigint))
          return nul(at);
        return 'bigint' in node && node.bigint ? num(at) : unknown(at, 'a regular expression');
      }
      case 'TemplateLiteral': {
        let text = '';
        let constant = true;
        let nonEmpty = false;
        // Constant text, and `null` for each number known only at run time, to tell whether the
        // string is a URI whatever they are; `other` once a part is anything else.
        const parts: (string | null)[] = [];
        let other: Value | undefined;
        node.quasis.forEach((q, i) => {
          const cooked = q.value.cooked ?? '';
          text += cooked;
          parts.push(cooked);
          if (cooked !== '') nonEmpty = true;
          const expression = node.expressions[i];
          if (!expression) return;
          const part = this.ev(expression, scope);
          const [only] = part;
          if (
            part.length === 1 &&
            only &&
            (only.k === 'str' || only.k === 'num' || only.k === 'bool') &&
            only.value !== undefined
          ) {
            text += String(only.value);
            parts.push(String(only.value));
            if (String(only.value) !== '') nonEmpty = true;
          } else {
            constant = false;
            if (isNumeric(part)) parts.push(null);
            else other = part;
          }
        });
        if (constant) return str(at, text);
        // `${url}` alone is the URL's href.
        const whole = node.expressions.length === 1 && text === '' && other ? yieldsOf(other) : undefined;
        return someString(at, nonEmpty, other ? whole : assembledFormat(parts));
      }
      case 'Identifier':
        return this.identifier(node.name, scope, at);
      case 'ThisExpression':
        return this.current.self ?? unknown(at, '"this"');
      case 'ObjectExpression':
        return this.objectLiteral(node, scope);
      case 'ArrayExpression':
        return this.arrayLiteral(node, scope);
      case 'ArrowFunctionExpression':
      case 'FunctionExpression':
        return this.functionValue(
          node,
          node.type === 'FunctionExpression' && node.id ? node.id.name : 'anonymous function',
        );
      case 'ClassExpression':
        return this.classValue(node, at);
      case 'ChainExpression': {
        const outer = this.chainShortCircuits;
        this.chainShortCircuits = NOTHING;
        const value = this.ev(node.expression, scope);
        const short = this.chainShortCircuits;
        this.chainShortCircuits = outer;
        return join(value, short);
      }
      case 'ParenthesizedExpression':
      case 'TSNonNullExpression':
      case 'TSInstantiationExpression':
        return this.ev(node.expression as Expression, scope);
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSTypeAssertion': {
        const value = this.ev(node.expression, scope);
        // `x satisfies T` leaves x of its own type, `any` included.
        const narrows = node.type !== 'TSSatisfiesExpression';
        return this.declare(value, node.typeAnnotation, this.current.module.file, narrows);
      }
      case 'AwaitExpression': {
        // Evaluated first: a call replaces the heap with the one it ends with.
        const value = this.ev(node.argument, scope);
        return awaited(this.heap, value);
      }
      case 'SequenceExpression': {
        let last: Value = undef(at);
        for (const e of node.expressions) last = this.ev(e, scope);
        return last;
      }
      case 'AssignmentExpression':
        return this.assignment(node, scope);
      case 'UpdateExpression': {
        const target = unwrap(node.argument as Expression);
        const value = num(at);
        if (target.type === 'Identifier' || target.type === 'MemberExpression')
          this.assign(target, value, scope);
        return value;
      }
      case 'ConditionalExpression':
        return this.conditional(node.test, node.consequent, node.alternate, scope, at);
      case 'LogicalExpression':
        return this.logical(node.operator, node.left, node.right, scope, at);
      case 'UnaryExpression':
        return this.unary(node, scope, at);
      case 'BinaryExpression':
        return this.binary(node.operator, node.left as Expression, node.right, scope, at);
      case 'MemberExpression': {
        const object = this.optionalLink(node.optional, this.ev(node.object, scope));
        const keys = this.memberKeys(node, scope);
        const key = keys?.length === 1 ? keys[0] : undefined;
        if (key === 'href' && yieldsOf(object) === 'uri') return someString(at, true, 'uri');
        // `Schema.shape`: registerTool takes a zod object's shape for the object itself.
        if (key === 'shape' && zodSchemaOf(object)?.schema.type === 'object') return object;
        const value =
          keys && keys.length > 1
            ? joinAll(keys.map((k) => this.readMember(object, k, at)))
            : this.readMember(object, key, at);
        return value;
      }
      case 'CallExpression':
      case 'NewExpression':
        return this.callExpression(node, scope, at);
      case 'TaggedTemplateExpression':
        for (const e of node.quasi.expressions) this.ev(e, scope);
        return unknown(at, `the result of the tagged template ${sourceText(this.site(node.tag))}`);
      case 'YieldExpression':
        if (node.argument) this.ev(node.argument, scope);
        return unknown(at, 'the value sent into a generator');
      default:
        return unknown(at, `${sourceText(at)} is known only at run time`);
    }
  }

  private assignment(node: Expression & { type: 'AssignmentExpression' }, scope: Scope): Value {
    const at = this.site(node);
    const op = node.operator;
    if (op === '=') {
      const value = this.ev(node.right, scope);
      if (this.current.state) this.assign(node.left, value, scope);
      return value;
    }
    const current = this.ev(node.left as Expression, scope);
    let value: Value;
    if (op === '||=' || op === '&&=' || op === '??=') {
      value = this.logical(
        op.slice(0, 2) as '||' | '&&' | '??',
        node.left as Expression,
        node.right,
        scope,
        at,
        current,
      );
    } else value = this.combine(op.slice(0, -1), current, this.ev(node.right, scope), at);
    if (this.current.state) this.assign(node.left, value, scope);
    return value;
  }

  private conditional(
    test: Expression,
    consequent: Expression,
    alternate: Expression,
    scope: Scope,
    at: Site,
  ): Value {
    const condition = this.ev(test, scope);
    const truthy = condition.some(mayBeTruthy);
    const falsy = condition.some(mayBeFalsy);
    if (truthy && !falsy) return this.ev(consequent, scope);
    if (falsy && !truthy) return this.ev(alternate, scope);
    const ga = this.guardOf(test, true);
    const gb = this.guardOf(test, false);
    const [a, b] = this.fork(
      at,
      { whenTrue: ga, whenFalse: gb },
      () => {
        this.refine(test, scope, true);
        return this.ifReachable(() => this.ev(consequent, scope));
      },
      () => {
        this.refine(test, scope, false);
        return this.ifReachable(() => this.ev(alternate, scope));
      },
    );
    return join(a, b, ga, gb);
  }

  private logical(
    op: '&&' | '||' | '??',
    left: Expression,
    right: Expression,
    scope: Scope,
    at: Site,
    known?: Value,
  ): Value {
    const a = known ?? this.ev(left, scope);
    const keep = a.filter((v) =>
      op === '&&' ? mayBeFalsy(v) : op === '||' ? mayBeTruthy(v) : !isNullish(v),
    );
    const needsRight = a.some((v) =>
      op === '&&' ? mayBeTruthy(v) : op === '||' ? mayBeFalsy(v) : isNullish(v) || v.k === 'unknown',
    );
    if (!needsRight) return a;
    const kept =
      op === '&&'
        ? keep.map((v) =>
            v.k === 'str' && v.value === undefined
              ? { ...v, value: '' }
              : v.k === 'unknown'
                ? { ...v, falsy: true as const }
                : v,
          )
        : keep;
    const guardRight = this.guardOf(left, op === '&&');
    if (kept.length === 0) return this.ev(right, scope);
    const base = this.state;
    this.current.state = cloneState(base);
    if (op !== '??') this.refine(left, scope, op === '&&');
    const b = this.ifReachable(() => this.ev(right, scope));
    this.current.state = joinStates(base, this.current.state, at);
    return join(kept, b, undefined, guardRight);
  }

  private unary(node: Expression & { type: 'UnaryExpression' }, scope: Scope, at: Site): Value {
    const argument = node.argument;
    switch (node.operator) {
      case 'delete': {
        const target = unwrap(argument);
        if (target.type === 'MemberExpression') {
          const object = this.ev(target.object, scope);
          const key = this.memberKey(target, scope);
          this.writeMember(object, key, undef(at), at);
        }
        return bool(at);
      }
      case 'typeof':
        this.ev(argument, scope);
        return str(at);
      case 'void':
        this.ev(argument, scope);
        return undef(at);
      case '!': {
        const value = this.ev(argument, scope);
        if (value.every((v) => !mayBeTruthy(v))) return bool(at, true);
        if (value.every((v) => !mayBeFalsy(v))) return bool(at, false);
        return bool(at);
      }
      default: {
        const value = this.ev(argument, scope);
        const [only] = value;
        if (value.length === 1 && only?.k === 'num' && only.value !== undefined) {
          if (node.operator === '-') return num(at, -only.value);
          if (node.operator === '+') return num(at, only.value);
        }
        return num(at);
      }
    }
  }

  private binary(op: string, left: Expression, right: Expression, scope: Scope, at: Site): Value {
    const a = this.ev(left, scope);
    const b = this.ev(right, scope);
    return this.combine(op, a, b, at);
  }

  private combine(op: string, a: Value, b: Value, at: Site): Value {
    if (['==', '!=', '===', '!==', '<', '>', '<=', '>=', 'in', 'instanceof'].includes(op)) return bool(at);
    const [x] = a;
    const [y] = b;
    // Constant numbers fold (`items[items.length - 1]` reads one known item).
    if (a.length === 1 && b.length === 1 && x?.k === 'num' && y?.k === 'num') {
      const folded = foldNumbers(op, x.value, y.value);
      if (folded !== undefined) return num(at, folded);
    }
    if (op !== '+') return num(at);
    if (
      a.length === 1 &&
      b.length === 1 &&
      x &&
      y &&
      (x.k === 'str' || x.k === 'num') &&
      (y.k === 'str' || y.k === 'num') &&
      x.value !== undefined &&
      y.value !== undefined &&
      (x.k === 'str' || y.k === 'str')
    ) {
      return str(at, String(x.value) + String(y.value));
    }
    const stringy = (v: Value) => v.length > 0 && v.every((w) => kindOfVariant(w) === 'string');
    if (stringy(a) || stringy(b)) {
      const nonEmpty = [...a, ...b].some(
        (v) => v.k === 'str' && ((v.value !== undefined && v.value !== '') || v.nonEmpty === true),
      );
      return someString(at, nonEmpty);
    }
    // Numbers only (an argument the inputSchema makes a number, Number(x)): their sum is a number.
    const numeric = (v: Value) => v.length > 0 && v.every((w) => kindOfVariant(w) === 'number');
    if (numeric(a) && numeric(b)) return num(at);
    return unknown(at, `${sourceText(at)} is known only at run time`);
  }

  // ── calls ───────────────────────────────────────────────────────────────────────────────────

  private args(nodes: readonly Node[], scope: Scope): Value[] {
    const out: Value[] = [];
    for (const a of nodes) {
      if (a.type === 'SpreadElement') {
        const spread = this.ev(a.argument, scope);
        out.push(this.itemOf(spread, this.site(a)));
      } else out.push(this.ev(a as Expression, scope));
    }
    return out;
  }

  private callExpression(node: CallExpression | NewExpression, scope: Scope, at: Site): Value {
    const callee = unwrap(node.callee);
    const text = sourceText(this.site(callee));
    let result: Value;
    if (callee.type === 'MemberExpression' && node.type === 'CallExpression') {
      const receiver = this.optionalLink(callee.optional, this.ev(callee.object, scope));
      const name = this.memberKey(callee, scope);
      const args = this.args(node.arguments, scope);
      const object = unwrap(callee.object);
      const receiverName =
        object.type === 'Identifier' && !scope.resolve(object.name) ? object.name : undefined;
      // Recorded before the call, which may hand the arguments to code that changes them.
      this.recordCall(node, args);
      result = this.method(receiver, receiverName, name, args, node, scope, at, text);
    } else if (callee.type === 'Identifier' && !scope.resolve(callee.name)) {
      const args = this.args(node.arguments, scope);
      this.recordCall(node, args);
      result = this.globalCall(callee.name, args, node, at);
    } else {
      const target = this.optionalLink(
        node.type === 'CallExpression' && node.optional,
        this.ev(callee, scope),
      );
      const args = this.args(node.arguments, scope);
      this.recordCall(node, args);
      result = this.call(target, args, undefined, at, text, node);
    }
    return result;
  }

  /**
   * The object of a link of an optional chain: where the link is optional (`?.`), its nullish values
   * end the chain (which then gives `undefined`) and the link goes on with the others.
   */
  private optionalLink(optional: boolean, object: Value): Value {
    if (!optional || !object.some(isNullish)) return object;
    for (const v of object)
      if (isNullish(v)) {
        const short = v.k === 'undef' && v.soft ? maybeUndef(v.site) : undef(v.site);
        this.chainShortCircuits = join(this.chainShortCircuits, short);
      }
    return object.filter((v) => !isNullish(v));
  }

  /**
   * The object an `enum` declares: each member its initializer's value, or the number after the one
   * before it (from 0); a number's member maps back to the member's name, as TypeScript emits it.
   */
  private enumValue(node: TSEnumDeclaration, scope: Scope): Value {
    const at = this.site(node);
    const props = new Map<string, Member>();
    let open: string | undefined;
    let next: number | undefined = 0;
    for (const member of node.body.members) {
      const site = this.site(member);
      const name =
        member.id.type === 'Identifier'
          ? member.id.name
          : member.id.type === 'Literal'
            ? String(member.id.value)
            : undefined;
      let value: Value;
      if (member.initializer) {
        value = this.ev(member.initializer, scope);
        const [only] = value;
        next =
          value.length === 1 && only?.k === 'num' && only.value !== undefined ? only.value + 1 : undefined;
      } else {
        value = num(site, next);
        if (next !== undefined) next++;
      }
      if (name === undefined) {
        open = `a member of ${sourceText(at)} with a computed name`;
        continue;
      }
      props.set(name, { value, site });
      const [only] = value;
      if (value.length === 1 && only?.k === 'num' && only.value !== undefined)
        props.set(String(only.value), { value: str(site, name), site });
    }
    return ref(at, this.heap.alloc({ ...newObject(at), props, ...(open ? { open } : {}) }));
  }

  private recordCall(node: Node, args: readonly Value[]): void {
    if (!this.watchedCalls.has(node) || !this.current.state) return;
    // A snapshot for the record; the call goes on with a copy of its own.
    const heap = this.heap.clone();
    this.state.heap = this.heap.clone();
    const call: RecordedCall = { args, heap, tool: this.handlerTool };
    this.recorded.set(node, joinRecords(this.recorded.get(node), call));
    const name = args[0] ? constantString(args[0]) : undefined;
    const byName = this.recordedByName.get(node);
    if (name === undefined || byName === null) {
      this.recordedByName.set(node, null);
      return;
    }
    const records = byName ?? new Map<string, RecordedCall>();
    records.set(name, joinRecords(records.get(name), call));
    this.recordedByName.set(node, records);
  }

  /**
   * Strings of a known format from Node's own functions, called by name on a value from outside the
   * project (`readFileSync(p, 'base64')`, `fs.promises.readFile(p, { encoding: 'base64' })`), and
   * `pathToFileURL(p)`, a URL. Judged by name: a project function of that name is followed instead.
   */
  private libraryString(name: string, args: readonly Value[], at: Site): Value | undefined {
    if (name === 'pathToFileURL') return yielding(at, `the URL of ${sourceText(at)}`, 'uri');
    if (name !== 'readFile' && name !== 'readFileSync') return undefined;
    const [, second] = args;
    const [options] = second ?? [];
    const member =
      options?.k === 'ref' && second?.length === 1
        ? this.heap.get(options.id)?.props.get('encoding')
        : undefined;
    // Without an encoding, a Buffer; with one, a string (base64 is a string of that format).
    const encoding = second
      ? (constantString(second) ?? (member ? constantString(member.value) : undefined))
      : undefined;
    if (encoding === 'base64') return someString(at, false, 'base64');
    return encoding !== undefined && TEXT_ENCODINGS.has(encoding.toLowerCase())
      ? someString(at, false)
      : undefined;
  }

  private globalCall(
    name: string,
    args: readonly Value[],
    node: CallExpression | NewExpression,
    at: Site,
  ): Value {
    const [first] = args;
    switch (name) {
      case 'String': {
        const [only] = first ?? [];
        if (
          first?.length === 1 &&
          only &&
          (only.k === 'str' || only.k === 'num' || only.k === 'bool') &&
          only.value !== undefined
        )
          return str(at, String(only.value));
        if (first && yieldsOf(first) === 'uri') return someString(at, true, 'uri');
        return someString(at, first?.every((v) => !isNullish(v) && v.k !== 'str') === true);
      }
      case 'structuredClone':
        return first ?? undef(at);
      case 'btoa':
        return someString(at, false, 'base64');
      case 'require': {
        const source = first ? constantString(first) : undefined;
        const target = source ? this.importedModule(this.current.module, source) : undefined;
        if (!target) return unknown(at, source ? `the module ${source}` : 'a module loaded at run time');
        return this.exportValue(target, 'default', at, new Set());
      }
      case 'Symbol':
        return unknown(at, 'a symbol');
    }
    const kind = GLOBAL_KINDS.get(name);
    if (kind) return unknown(at, `the result of ${name}()`, kind);
    if (node.type === 'NewExpression') {
      // The constructor throws unless its input parses as an absolute URL.
      if (name === 'URL') return yielding(at, 'a new URL', 'uri');
      // An empty Map: what `set` stores in it is what `get` may give (see mapMethod).
      if (name === 'Map' && args.length === 0)
        return ref(at, this.heap.alloc({ ...newObject(at, 'Map'), open: 'the entries of a Map' }));
      // `new Map([["a", toolA], …])`: a table of the entries' values, as `set` fills one.
      const entries = name === 'Map' && args.length === 1 && first ? this.mapEntries(first) : undefined;
      if (entries)
        return ref(
          at,
          this.heap.alloc({ ...newObject(at, 'Map'), open: 'the entries of a Map', rest: entries }),
        );
      // A constructor may call the functions it is given (a Promise's executor, at once).
      this.escapeCall(node, args, at, `new ${name}`, false);
      return unknown(
        at,
        `a new ${name}`,
        name === 'Array'
          ? 'array'
          : name === 'Map' || name === 'Set' || name === 'Error' || name === 'Date' || name === 'URL'
            ? undefined
            : undefined,
      );
    }
    this.noteOutflow(at, args);
    this.escapeCall(node, args, at, name);
    return unknown(at, `the result of ${name}(), which is not part of the scanned project`);
  }

  private method(
    receiver: Value,
    receiverName: string | undefined,
    name: string | undefined,
    args: readonly Value[],
    node: CallExpression,
    _scope: Scope,
    at: Site,
    text: string,
  ): Value {
    if (receiverName && name) {
      const handled = this.staticCall(receiverName, name, args, at);
      if (handled) return handled;
    }
    let out: Value = NOTHING;
    // `tools.get(name).run(…)`: a receiver that is a project object or one stored unseen; the unknown
    // one is no library object, and its result says why it is unknown.
    const mixed = receiver.length > 1 && receiver.some((v) => v.k === 'ref' || v.k === 'fn');
    for (const v of receiver) {
      if (!this.current.state) break;
      const result = this.methodOn(v, receiver, name, args, node, at, text);
      out = join(out, mixed && v.k === 'unknown' ? this.unseenReceiver(result, v.reason, text) : result);
    }
    return out.length > 0 ? out : undef(at);
  }

  private unseenReceiver(result: Value, reason: string, text: string): Value {
    const library = `the result of ${text}(), which is not part of the scanned project`;
    return result.map((r) =>
      r.k === 'unknown' && r.reason === library
        ? { ...r, reason: `the result of ${text}(), its receiver being ${reason}` }
        : r,
    );
  }

  /**
   * `then`, `catch` and `finally` of a Promise resolved to `resolved`: a Promise again, of what the
   * callback returns (`then`), or of the value or the handler's (`catch`).
   */
  private promiseMethod(
    resolved: Value,
    name: string | undefined,
    args: readonly Value[],
    at: Site,
    text: string,
  ): Value | undefined {
    const [first] = args;
    switch (name) {
      case 'then': {
        if (!first) return this.promise(resolved, at);
        const returned = this.call(first, [resolved], undefined, at, text);
        return this.promise(awaited(this.heap, returned), at);
      }
      case 'catch': {
        if (!first) return this.promise(resolved, at);
        const returned = this.call(
          first,
          [unknown(at, `the error ${sourceText(at)} catches`)],
          undefined,
          at,
          text,
        );
        return this.promise(join(resolved, awaited(this.heap, returned)), at);
      }
      case 'finally':
        if (first) this.call(first, [], undefined, at, text);
        return this.promise(resolved, at);
      default:
        return undefined;
    }
  }

  /**
   * `Promise.all(items)`: a Promise of the array of what each item resolves to (`items.map(async …)`
   * gives Promises); `Promise.race` and `Promise.any`, of what one of them resolves to.
   */
  private promiseOfItems(items: Value | undefined, name: string, at: Site): Value {
    if (!items) return this.promise(name === 'all' ? this.arrayOf(NOTHING, at) : undef(at), at);
    const lists = this.objects(items).filter(({ state }) => state.kind === 'array');
    if (lists.length === 0 || lists.length < items.length)
      return this.promise(unknown(at, `what ${sourceText(at)} resolves to`), at);
    if (name !== 'all') {
      const item = this.itemOf(items, at);
      return this.promise(awaited(this.heap, item), at);
    }
    let out: Value = NOTHING;
    for (const { state } of lists) {
      const resolved = {
        ...newArray(at),
        items: state.items.map((m) => ({ value: awaited(this.heap, m.value), site: m.site })),
        ...(state.rest ? { rest: awaited(this.heap, state.rest) } : {}),
        ...(state.open ? { open: state.open } : {}),
        ...(state.derived ? { derived: state.derived } : {}),
      };
      out = join(out, ref(at, this.heap.alloc(resolved)));
    }
    return this.promise(out, at);
  }

  private staticCall(receiver: string, name: string, args: readonly Value[], at: Site): Value | undefined {
    const [first, second] = args;
    const key = `${receiver}.${name}`;
    switch (key) {
      case 'JSON.stringify': {
        if (!first) return undef(at);
        // `undefined` and a function have no JSON: JSON.stringify gives `undefined` for them.
        const none: Value = first.flatMap((v) =>
          v.k === 'undef' ? [{ ...v, site: at }] : v.k === 'fn' ? undef(at) : [],
        );
        const some = first.filter((v) => v.k !== 'undef' && v.k !== 'fn');
        // A replacer may change anything: then only the type is certain.
        const text = second?.some((v) => !isNullish(v)) ? someString(at, false) : json(at, some);
        return some.length === 0 ? none : join(text, none);
      }
      case 'Promise.resolve':
        return this.promise(first ? awaited(this.heap, first) : undef(at), at);
      case 'Promise.all':
      case 'Promise.race':
      case 'Promise.any':
        return this.promiseOfItems(first, name, at);
      case 'Promise.allSettled':
        return this.promise(unknown(at, `the outcomes ${sourceText(at)} lists`, 'array'), at);
      case 'Object.assign':
        if (!first) return undef(at);
        for (const source of args.slice(1)) assignFrom(this.heap, first, source, at);
        return first;
      case 'Object.freeze':
      case 'Object.seal':
        return first ?? undef(at);
      case 'Object.defineProperty':
      case 'Object.defineProperties':
        // The descriptor decides the member's value, getter and whether JSON lists it.
        if (first) this.escape([first], `a member defined by ${key}()`);
        return first ?? undef(at);
      case 'Object.entries':
      case 'Object.keys':
      case 'Object.values': {
        const members = first ? this.ownMembers(first) : undefined;
        if (!members) break;
        const items = members.map(([key, member]): Member => {
          if (name === 'keys') return { value: str(at, key), site: member.site };
          if (name === 'values') return member;
          const pair = [str(at, key), member.value].map((value) => ({ value, site: member.site }));
          return { value: ref(at, this.heap.alloc({ ...newArray(at), items: pair })), site: member.site };
        });
        return ref(at, this.heap.alloc({ ...newArray(at), items }));
      }
      case 'Array.from':
        if (!first) return this.arrayOf(NOTHING, at);
        if (second) return this.arrayOf(this.iterate(second, this.itemOf(first, at), at, first), at);
        return this.arrayOf(this.itemOf(first, at), at);
      case 'Array.of':
        return ref(
          at,
          this.heap.alloc({ ...newArray(at), items: args.map((value) => ({ value, site: at })) }),
        );
    }
    if (receiver === 'Math') return num(at);
    if (receiver === 'console') return undef(at);
    const kind = STATIC_KINDS.get(key);
    // JSON.parse returns `any`: whatever JSON the text holds, an object or not.
    if (key === 'JSON.parse') return untyped(unknown(at, `the result of ${key}()`));
    if (kind) return unknown(at, `the result of ${key}()`, kind);
    if (PURE_RECEIVERS.has(receiver)) return unknown(at, `the result of ${key}()`);
    return undefined;
  }

  /**
   * The own members of an object the analysis knows whole (a table of handlers written in the source),
   * in the order `Object.entries` lists them: integer keys ascending, then the others as they were
   * set. `undefined` when members it cannot list may exist.
   */
  private ownMembers(value: Value): [string, Member][] | undefined {
    const [only] = value;
    if (value.length !== 1 || only?.k !== 'ref') return undefined;
    const state = this.heap.get(only.id);
    if (state?.kind !== 'object' || state.open || state.model) return undefined;
    const members = [...state.props];
    const index = (key: string) => (/^(0|[1-9]\d{0,8})$/.test(key) ? Number(key) : Number.POSITIVE_INFINITY);
    return members.sort(([a], [b]) => index(a) - index(b) || 0);
  }

  /**
   * A Map built with `new Map()`: `set` adds its value to what the Map may hold (`rest`), and `get`
   * gives one of those values (a registry of tools: `tools.set(t.name, t)`, `tools.get(name).run()`),
   * or one stored where the analysis did not see it, so never a value proven whole.
   */
  /** The values of a Map's entries given as a list of `[key, value]` lists the analysis sees whole. */
  private mapEntries(list: Value): Value | undefined {
    const lists = this.objects(list);
    if (lists.length === 0 || lists.length < list.length) return undefined;
    let values: Value = NOTHING;
    for (const { state } of lists) {
      if (state.kind !== 'array' || state.open) return undefined;
      // `[["a", toolA], …]`, or `list.map((t) => [t.name, t])`, whose entries are its `rest`.
      const entries = state.rest
        ? [...state.items.map((m) => m.value), state.rest]
        : state.items.map((m) => m.value);
      for (const entry of entries) {
        const pairs = this.objects(entry);
        if (pairs.length === 0 || pairs.length < entry.length) return undefined;
        for (const pair of pairs) {
          const value = pair.state.kind === 'array' && !pair.state.rest ? pair.state.items[1] : undefined;
          if (!value) return undefined;
          values = join(values, value.value);
        }
      }
    }
    return values;
  }

  private mapMethod(
    v: Variant & { k: 'ref' },
    state: ObjState,
    name: string,
    args: readonly Value[],
    at: Site,
    text: string,
  ): Value | undefined {
    const held = join(
      state.rest ?? NOTHING,
      unknown(at, `a value ${text}() gives that the analysis did not see stored`),
    );
    switch (name) {
      case 'set':
        this.heap.set(v.id, { ...state, rest: join(state.rest ?? NOTHING, args[1] ?? undef(at)) });
        return [v];
      case 'get':
        return held;
      case 'values':
        return this.arrayOf(held, at);
      default:
        return undefined;
    }
  }

  private methodOn(
    v: Variant,
    receiver: Value,
    name: string | undefined,
    args: readonly Value[],
    node: CallExpression,
    at: Site,
    text: string,
  ): Value {
    const [first, second] = args;
    if (v.k === 'fn') {
      if (name === 'call') return this.call([v], args.slice(1), first, at, text);
      if (name === 'apply') return this.call([v], second ? [this.itemOf(second, at)] : [], first, at, text);
      if (name === 'bind') return [{ ...v, fn: { ...v.fn, ...(first ? { self: first } : {}) } }];
      return unknown(at, `the result of ${text}()`);
    }
    if (v.k === 'ref') {
      const state = this.heap.get(v.id);
      if (!state) return unknown(at, `the result of ${text}()`);
      const member = name !== undefined ? state.props.get(name) : undefined;
      if (member?.value.some((m) => m.k === 'fn')) return this.call(member.value, args, [v], at, text);
      if (state.kind === 'array' && name) {
        const handled = this.arrayMethod(v, state, name, args, at, receiver);
        if (handled) return handled;
      }
      if (state.model === 'Map' && name) {
        const handled = this.mapMethod(v, state, name, args, at, text);
        if (handled) return handled;
      }
      if (state.promised) {
        const handled = this.promiseMethod(state.promised, name, args, at, text);
        if (handled) return handled;
      }
      if (name === 'then' && first) return this.call(first, [[v]], undefined, at, text);
      if (name === 'toString' || name === 'toJSON') return someString(at, false);
    }
    if ((v.k === 'str' || v.k === 'json') && name) {
      if (name === 'split') return this.arrayOf(str(at), at);
      if (name === 'length') return num(at);
      const kind = METHOD_KINDS.get(name);
      if (kind === 'string' || name === 'slice' || name === 'concat' || name === 'at')
        return someString(at, false);
      if (kind) return unknown(at, `the result of ${text}()`, kind);
      return someString(at, false);
    }
    if (v.k === 'num' || v.k === 'bool')
      return name && METHOD_KINDS.get(name)
        ? unknown(at, `the result of ${text}()`, METHOD_KINDS.get(name))
        : unknown(at, `the result of ${text}()`);
    if (v.k === 'unknown' && name) {
      const schema = zodCall(this.heap, v, name, args, at);
      if (schema) return schema;
      const made =
        v.yields === 'uri' && (name === 'toString' || name === 'toJSON')
          ? someString(at, true, 'uri')
          : // `buf.toString('base64')`: a Buffer's (a string's toString takes no encoding).
            name === 'toString' && first && constantString(first) === 'base64'
            ? someString(at, false, 'base64')
            : this.libraryString(name, args, at);
      if (made) return made;
    }
    if (v.k === 'unknown' && name && ITERATING.has(name) && first?.some((f) => f.k === 'fn')) {
      // `rows.map(row => ({ … }))` over rows known only at run time: the callback still shows what each item is.
      return this.arrayMethodOnUnknown(name, args, at, receiver, v.tested);
    }
    if (name === 'then' && first)
      return this.call(first, [unknown(at, `the value ${sourceText(at)} resolves to`)], undefined, at, text);
    if (name === 'catch' || name === 'finally') return [v];
    // `res.json(envelope)`, `c.json(envelope)`: what leaves for the client.
    this.noteOutflow(at, args);
    // `map.set(key, value)` changes the map alone; `Reflect.set(o, key, value)`, `_.set(o, path, value)` change o.
    const pure = name && PURE_METHODS.has(name) && !(name === 'set' && args.length > 2);
    if (!pure) this.escapeCall(node, args, at, text);
    const kind = name ? METHOD_KINDS.get(name) : undefined;
    void node;
    const made = unknown(at, `the result of ${text}(), which is not part of the scanned project`, kind);
    // `await res.json()` is `any` to TypeScript (Response.json and Body.json return Promise<any>),
    // and so is what a method of an `any` value returns.
    const result =
      v.k === 'unknown' && (v.untyped || (name === 'json' && args.length === 0)) ? untyped(made) : made;
    // `node.trim()` where `typeof node === "string"`: a string only because the input is one.
    return v.k === 'unknown' && v.tested !== undefined ? tested(result, v.tested) : result;
  }

  /**
   * Calls a callback as a loop body would run it: twice, on the item value, with the effects of each
   * call joined (an item may be pushed once, many times, or never).
   */
  private iterate(callback: Value, item: Value, at: Site, array: Value, accumulator?: Value): Value {
    return this.callRepeatedly(
      callback,
      (acc) => (acc ? [acc, item, num(at), array] : [item, num(at), array]),
      at,
      accumulator,
    );
  }

  /**
   * Calls a callback as code that may call it any number of times does: twice, with the effects of
   * each call joined to not calling it. `args` gives each call's arguments from the accumulator.
   */
  private callRepeatedly(
    callback: Value,
    args: (acc: Value | undefined) => Value[],
    at: Site,
    accumulator?: Value,
  ): Value {
    let acc = accumulator;
    const result = this.repeatedly(at, () => {
      const value = this.call(callback, args(acc), undefined, at, 'callback');
      if (acc) acc = join(acc, value);
      return value;
    });
    return acc ? join(acc, result) : result;
  }

  /**
   * `array.forEach(callback)` on an array known item by item (knownItems): the callback called on each
   * item in order, as `unrolled` runs a loop. False, with nothing changed, for any other array, or when
   * a call changes the array.
   */
  private eachKnownItem(callback: Value, at: Site, array: Value): boolean {
    const entry = this.current.state;
    const known = entry ? this.knownItems(array) : undefined;
    if (!entry || !known) return false;
    const before = this.heap.get(known.id);
    this.current.state = cloneState(entry);
    const outer = this.unrolledRuns;
    this.unrolledRuns = outer * known.items.length;
    try {
      for (let i = 0; i < known.items.length && this.current.state; i++) {
        this.call(callback, [known.items[i] as Value, num(at, i), array], undefined, at, 'callback');
        if (this.current.state && this.heap.get(known.id) !== before) {
          this.current.state = entry;
          return false;
        }
      }
    } finally {
      this.unrolledRuns = outer;
    }
    return true;
  }

  private arrayMethod(
    v: Variant & { k: 'ref' },
    state: ObjState,
    name: string,
    args: readonly Value[],
    at: Site,
    receiver: Value,
  ): Value | undefined {
    const [first, second] = args;
    const item = () => this.itemOf([v], at);
    // Every item known, and the receiver surely this array: a removal can be followed item by item.
    const exact = !state.rest && !state.open && receiver.length === 1;
    switch (name) {
      case 'push':
      case 'unshift':
        appendItems(this.heap, receiver, args, at, name === 'unshift', v.id);
        return num(at);
      case 'pop':
      case 'shift': {
        if (!exact) return join(item(), undef(at));
        const items = [...state.items];
        const taken = name === 'pop' ? items.pop() : items.shift();
        this.heap.set(v.id, { ...state, items });
        return taken ? taken.value : undef(at);
      }
      case 'at': {
        const index = constantInteger(first);
        if (index === undefined) return join(item(), undef(at));
        return this.readMember([v], String(index), at);
      }
      case 'slice': {
        const start = first ? constantInteger(first) : 0;
        const end = second ? constantInteger(second) : state.items.length;
        if (!exact || start === undefined || end === undefined) return this.arrayOf(item(), at);
        return ref(at, this.heap.alloc({ ...newArray(at), items: state.items.slice(start, end) }));
      }
      case 'splice': {
        const start = constantInteger(first);
        const count = second ? constantInteger(second) : state.items.length;
        if (!exact || start === undefined || count === undefined) {
          this.heap.set(v.id, { ...state, open: `items changed by ${sourceText(at)}` });
          return this.arrayOf(item(), at);
        }
        const items = [...state.items];
        const added = args.slice(2).map((value) => ({ value, site: at }));
        const removed = items.splice(start, count, ...added);
        this.heap.set(v.id, { ...state, items });
        return ref(at, this.heap.alloc({ ...newArray(at), items: removed }));
      }
      case 'find':
      case 'findLast':
        if (first?.some((f) => f.k === 'fn') && name.startsWith('find')) this.iterate(first, item(), at, [v]);
        return join(item(), undef(at));
      case 'map':
        return first ? this.arrayOf(this.iterate(first, item(), at, [v]), at) : undefined;
      case 'flatMap': {
        if (!first) return undefined;
        // Called before the heap is read: the callback's run replaces it with the one it ends with.
        const mapped = this.iterate(first, item(), at, [v]);
        return this.arrayOf(flatten(this.heap, mapped, at), at);
      }
      case 'forEach':
        if (first && !this.eachKnownItem(first, at, [v])) this.iterate(first, item(), at, [v]);
        return undef(at);
      case 'filter':
        if (first) this.iterate(first, item(), at, [v]);
        return this.arrayOf(item(), at);
      case 'reduce':
      case 'reduceRight':
        return first ? this.iterate(first, item(), at, [v], second ?? item()) : undefined;
      case 'some':
      case 'every':
        if (first) this.iterate(first, item(), at, [v]);
        return bool(at);
      case 'reverse':
      case 'sort':
      case 'toSorted':
      case 'toReversed':
      case 'flat':
        return this.arrayOf(name === 'flat' ? flatten(this.heap, item(), at) : item(), at);
      case 'concat': {
        let all = item();
        for (const a of args) all = join(all, a.some((x) => x.k === 'ref') ? flatten(this.heap, a, at) : a);
        return this.arrayOf(all, at);
      }
      case 'join':
        return someString(at, false);
      case 'includes':
        return bool(at);
      case 'indexOf':
      case 'findIndex':
        return num(at);
      default:
        return undefined;
    }
  }

  /**
   * `test`: the branch test that says the receiver is an array (`Array.isArray(node)`); what the
   * method builds is then an array only because the input is one (heap.ts, `derived`).
   */
  private arrayMethodOnUnknown(
    name: string,
    args: readonly Value[],
    at: Site,
    receiver: Value,
    test: string | undefined,
  ): Value {
    const [callback, initial] = args;
    if (!callback) return unknown(at, `the result of ${sourceText(at)}`);
    const item = unknown(at, `an item of ${sourceText(at)}`);
    const value = this.iterate(
      callback,
      item,
      at,
      receiver,
      name.startsWith('reduce') ? (initial ?? item) : undefined,
    );
    switch (name) {
      case 'map':
        return this.arrayOf(value, at, test);
      case 'flatMap':
        return this.arrayOf(flatten(this.heap, value, at), at, test);
      case 'filter':
        return this.arrayOf(item, at, test);
      case 'forEach':
        return undef(at);
      case 'find':
      case 'findLast':
        return join(item, undef(at));
      case 'some':
      case 'every':
        return bool(at);
      default:
        return value;
    }
  }
}

/** `x op y` for two constant numbers (NaN and the infinities included, which JSON writes as null). */
function foldNumbers(op: string, x: number | undefined, y: number | undefined): number | undefined {
  if (x === undefined || y === undefined) return undefined;
  switch (op) {
    case '+':
      return x + y;
    case '-':
      return x - y;
    case '*':
      return x * y;
    case '/':
      return x / y;
    case '%':
      return x % y;
    default:
      return undefined;
  }
}

/** A constant integer argument (`at(-1)`, `slice(1)`), else `undefined`. */
function constantInteger(value: Value | undefined): number | undefined {
  const [only] = value ?? [];
  return value?.length === 1 && only?.k === 'num' && Number.isInteger(only.value) ? only.value : undefined;
}

function isLiteral(node: Expression): boolean {
  if (node.type === 'Literal') return !('regex' in node && node.regex);
  if (node.type === 'UnaryExpression') return node.operator === 'void';
  return node.type === 'Identifier' && node.name === 'undefined';
}

/**
 * The state where no case of a `switch` without `default` matched an input known only at run time:
 * a variable still unset there that a case sets is *maybe* undefined, not certainly. Such a switch
 * is most often exhaustive over the values its input may take (an enum the tool's inputSchema
 * validates), which the source alone does not show; so an unset variable there is judged as
 * unknown, never as a certain defect (as falling off the end of a function beside its returns is).
 */
function unsetAsSoft(entry: State<Binding>, exits: readonly Exit<Binding>[]): State<Binding> {
  let out: State<Binding> | undefined;
  for (const [binding, value] of entry.vars.entries()) {
    if (!value.every((v) => v.k === 'undef' && !v.soft)) continue;
    if (!exits.some((exit) => exit.state.vars.get(binding) !== value)) continue;
    out ??= cloneState(entry);
    out.vars.set(
      binding,
      value.map((v) => ({ ...v, soft: true })),
    );
  }
  return out ?? entry;
}

function literalValue(node: Expression): string | number | boolean | null | undefined {
  if (node.type === 'Identifier' || node.type === 'UnaryExpression') return undefined;
  const value: unknown = node.type === 'Literal' ? node.value : undefined;
  return typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    value === null
    ? value
    : undefined;
}

function constantOf(v: Variant): { known: boolean; value: unknown } {
  switch (v.k) {
    case 'str':
    case 'num':
    case 'bool':
      return v.value === undefined ? { known: false, value: undefined } : { known: true, value: v.value };
    case 'null':
      return { known: true, value: null };
    case 'undef':
      return { known: true, value: undefined };
    case 'ref':
    case 'fn':
      return { known: true, value: v };
    default:
      return { known: false, value: undefined };
  }
}

/** Whether a variant may equal a literal (`===`, or `==` where null and undefined are equal). */
function mayEqual(v: Variant, literal: unknown, loose: boolean): boolean {
  const { known, value } = constantOf(v);
  if (!known) return v.k === 'unknown' || typeof literal === typeOfVariant(v);
  if (loose && (literal === null || literal === undefined)) return value === null || value === undefined;
  return value === literal;
}

function mayDiffer(v: Variant, literal: unknown, loose: boolean): boolean {
  const { known, value } = constantOf(v);
  if (!known) return true;
  if (loose && (literal === null || literal === undefined)) return value !== null && value !== undefined;
  return value !== literal;
}

/** `typeof` for the JSON types; anything else reads as an object. */
function typeOfVariant(v: Variant): string {
  const kind = kindOfVariant(v);
  return kind === 'string' || kind === 'number' || kind === 'boolean' ? kind : 'object';
}

/** `typeof` of a variant, as JavaScript answers it. */
function typeOf(heap: Heap, v: Variant): string {
  if (v.k === 'undef') return 'undefined';
  if (v.k === 'fn') return 'function';
  if (v.k === 'ref') return heap.get(v.id) ? 'object' : 'object';
  if (v.k === 'unknown')
    return v.kind === 'string' || v.kind === 'number' || v.kind === 'boolean' ? v.kind : 'object';
  return typeOfVariant(v);
}

function isArrayVariant(heap: Heap, v: Variant): boolean {
  return v.k === 'ref' && heap.get(v.id)?.kind === 'array';
}

/**
 * Whether every value the discriminant may have equals some case's constant (`===`), so that a switch
 * without default always runs a case: over an enum argument, for one.
 */
function matchesACase(discriminant: Value, tests: readonly Value[]): boolean {
  const constants = tests.flatMap((test) => {
    const [only] = test;
    return test.length === 1 &&
      only &&
      (only.k === 'str' || only.k === 'num' || only.k === 'bool') &&
      only.value !== undefined
      ? [only.value]
      : [];
  });
  return (
    discriminant.length > 0 &&
    discriminant.every(
      (v) =>
        (v.k === 'str' || v.k === 'num' || v.k === 'bool') &&
        v.value !== undefined &&
        constants.some((c) => c === v.value),
    )
  );
}
