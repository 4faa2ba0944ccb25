/**
 * One walk over a program that records what the interpreter needs: lexical scopes with their
 * bindings (so every name resolves to one declaration, as the language does), the calls that may
 * register tool handlers, and JSON-RPC envelope literals. Values are not computed here: the
 * interpreter (interpret.ts) follows them flow-sensitively.
 */

import type {
  BindingPattern,
  CallExpression,
  Class,
  ImportDeclaration,
  Node,
  ObjectExpression,
  ParamPattern,
  Program,
} from 'oxc-parser';
import { type FunctionLike, forEachChild, isFunction, staticKey } from './ast.js';

export type BindingKind = 'const' | 'let' | 'var' | 'function' | 'param' | 'import' | 'class' | 'catch';

export interface ImportRef {
  readonly source: string;
  /** The exported name, `default`, or `*` for a namespace import. */
  readonly name: string;
}

export interface Binding {
  readonly name: string;
  readonly kind: BindingKind;
  readonly scope: Scope;
  readonly import?: ImportRef;
  /** The class declaration, for `class` bindings. */
  readonly node?: Node;
  /**
   * Changed by another function than the one declaring it: reassigned (`value`) or its object
   * changed (`members`: `cache[k] = v`, `items.push(x)`), at a time the analysis cannot place.
   */
  changedElsewhere?: 'value' | 'members';
}

/** Methods that change the array, map or set they are called on. */
const MUTATORS = new Set([
  'push',
  'unshift',
  'splice',
  'pop',
  'shift',
  'sort',
  'reverse',
  'fill',
  'copyWithin',
  'set',
  'delete',
  'clear',
  'add',
]);

export class Scope {
  readonly bindings = new Map<string, Binding>();
  constructor(
    readonly parent: Scope | undefined,
    /** The function or program whose run holds this scope's variables. */
    readonly owner: FunctionLike | Program,
    /** Function scopes receive `var` declarations. */
    readonly isFunction: boolean,
  ) {}

  resolve(name: string): Binding | undefined {
    for (let scope: Scope | undefined = this; scope; scope = scope.parent) {
      const binding = scope.bindings.get(name);
      if (binding) return binding;
    }
    return undefined;
  }

  functionScope(): Scope {
    let scope: Scope = this;
    while (!scope.isFunction && scope.parent) scope = scope.parent;
    return scope;
  }
}

export interface ScopedCall {
  readonly call: CallExpression;
  readonly scope: Scope;
  /** The innermost function (or the program) the call is in. */
  readonly owner: FunctionLike | Program;
}

export interface EnvelopeLiteral {
  readonly node: ObjectExpression;
  readonly scope: Scope;
  readonly owner: FunctionLike | Program;
  /**
   * No `jsonrpc` key of its own, but a `result` or `error` beside a spread, which may bring it
   * (`{ ...base, result }`): an envelope only where the spread object has `jsonrpc`.
   */
  readonly derived?: true;
}

export interface ProgramIndex {
  readonly program: Program;
  readonly root: Scope;
  /** The scope each function, block, loop, switch and catch clause opens. */
  readonly scopeOf: Map<Node, Scope>;
  /** The function each function node is nested in (the program for top-level ones). */
  readonly parentOf: Map<FunctionLike, FunctionLike | Program>;
  /** The class each method (and arrow-valued field) belongs to, for `this`. */
  readonly classOf: Map<FunctionLike, Class>;
  readonly calls: readonly ScopedCall[];
  readonly envelopes: readonly EnvelopeLiteral[];
}

function hasJsonrpcKey(node: ObjectExpression): boolean {
  return node.properties.some((p) => p.type === 'Property' && staticKey(p.key, p.computed) === 'jsonrpc');
}

/** `{ ...base, result }`: a response whose `jsonrpc` may come from the spread. */
function mayDeriveEnvelope(node: ObjectExpression): boolean {
  return (
    node.properties.some((p) => p.type === 'SpreadElement') &&
    node.properties.some(
      (p) => p.type === 'Property' && ['result', 'error'].includes(staticKey(p.key, p.computed) ?? ''),
    )
  );
}

export function indexProgram(program: Program): ProgramIndex {
  const root = new Scope(undefined, program, true);
  const scopeOf = new Map<Node, Scope>([[program, root]]);
  const parentOf = new Map<FunctionLike, FunctionLike | Program>();
  const classOf = new Map<FunctionLike, Class>();
  const calls: ScopedCall[] = [];
  const envelopes: EnvelopeLiteral[] = [];

  const writes: { name: string; scope: Scope; owner: FunctionLike | Program; what: 'value' | 'members' }[] =
    [];

  /** `x = …` and `x.y = …`, `x[k] = …`: the variable written, and whether its value or its members. */
  function write(target: Node, scope: Scope, owner: FunctionLike | Program): void {
    let node = target;
    let what: 'value' | 'members' = 'value';
    while (
      node.type === 'MemberExpression' ||
      node.type === 'TSNonNullExpression' ||
      node.type === 'ParenthesizedExpression'
    ) {
      if (node.type === 'MemberExpression') what = 'members';
      node =
        (node as { object?: Node; expression?: Node }).object ?? (node as { expression: Node }).expression;
    }
    if (node.type === 'Identifier') writes.push({ name: node.name, scope, owner, what });
    else if (node.type === 'ObjectPattern' || node.type === 'ArrayPattern') {
      forEachChild(node, (child) => write(child, scope, owner));
    } else if (node.type === 'Property' || node.type === 'AssignmentPattern' || node.type === 'RestElement') {
      const inner =
        (node as { value?: Node; left?: Node; argument?: Node }).value ??
        (node as { left?: Node }).left ??
        (node as { argument?: Node }).argument;
      if (inner) write(inner, scope, owner);
    }
  }

  function declare(scope: Scope, name: string, kind: BindingKind, extra: Partial<Binding> = {}): void {
    const target = kind === 'var' ? scope.functionScope() : scope;
    // A `var` or function declared twice is one variable; keep the first declaration.
    if (target.bindings.has(name) && (kind === 'var' || kind === 'function')) return;
    target.bindings.set(name, { name, kind, scope: target, ...extra });
  }

  function declarePattern(scope: Scope, pattern: BindingPattern | ParamPattern, kind: BindingKind): void {
    switch (pattern.type) {
      case 'Identifier':
        declare(scope, pattern.name, kind);
        break;
      case 'ObjectPattern':
        for (const p of pattern.properties)
          declarePattern(scope, p.type === 'RestElement' ? p.argument : p.value, kind);
        break;
      case 'ArrayPattern':
        for (const e of pattern.elements)
          if (e) declarePattern(scope, e.type === 'RestElement' ? e.argument : e, kind);
        break;
      case 'AssignmentPattern':
        declarePattern(scope, pattern.left, kind);
        break;
      case 'RestElement':
        declarePattern(scope, pattern.argument, kind);
        break;
      case 'TSParameterProperty':
        declarePattern(scope, pattern.parameter, kind);
        break;
    }
  }

  function imports(scope: Scope, node: ImportDeclaration): void {
    if (node.importKind === 'type') return;
    const source = String(node.source.value);
    for (const s of node.specifiers) {
      const name =
        s.type === 'ImportDefaultSpecifier'
          ? 'default'
          : s.type === 'ImportNamespaceSpecifier'
            ? '*'
            : s.imported.type === 'Identifier'
              ? s.imported.name
              : String(s.imported.value);
      declare(scope, s.local.name, 'import', { import: { source, name } });
    }
  }

  // Iterative over an explicit stack: a deeply nested file must not overflow the call stack here.
  const stack: { node: Node; scope: Scope; owner: FunctionLike | Program }[] = [];
  const push = (node: Node, scope: Scope, owner: FunctionLike | Program) =>
    stack.push({ node, scope, owner });

  function visit(node: Node, scope: Scope, owner: FunctionLike | Program): void {
    switch (node.type) {
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        if (node.type === 'FunctionDeclaration' && node.id) declare(scope, node.id.name, 'function');
        parentOf.set(node, owner);
        const inner = new Scope(scope, node, true);
        scopeOf.set(node, inner);
        if (node.type === 'FunctionExpression' && node.id) declare(inner, node.id.name, 'function');
        for (const param of node.params) declarePattern(inner, param, 'param');
        const body = node.body;
        if (!body) return;
        if (body.type === 'BlockStatement') {
          scopeOf.set(body, inner);
          for (let i = body.body.length - 1; i >= 0; i--) push(body.body[i] as Node, inner, node);
        } else push(body, inner, node);
        return;
      }
      case 'BlockStatement':
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
      case 'SwitchStatement':
      case 'StaticBlock': {
        const inner = new Scope(scope, owner, false);
        scopeOf.set(node, inner);
        pushChildren(node, inner, owner);
        return;
      }
      case 'CatchClause': {
        const inner = new Scope(scope, owner, false);
        scopeOf.set(node, inner);
        scopeOf.set(node.body, inner);
        if (node.param) declarePattern(inner, node.param, 'catch');
        for (let i = node.body.body.length - 1; i >= 0; i--) push(node.body.body[i] as Node, inner, owner);
        return;
      }
      case 'VariableDeclaration': {
        const kind = node.kind === 'var' ? 'var' : node.kind === 'let' ? 'let' : 'const';
        for (const d of node.declarations) declarePattern(scope, d.id, kind);
        break;
      }
      case 'ClassDeclaration':
      case 'ClassExpression':
        scopeOf.set(node, scope);
        if (node.type === 'ClassDeclaration' && node.id) declare(scope, node.id.name, 'class', { node });
        for (const element of node.body.body) {
          if (element.type === 'MethodDefinition' || element.type === 'TSAbstractMethodDefinition') {
            classOf.set(element.value, node);
          } else if (element.type === 'PropertyDefinition' && element.value && isFunction(element.value)) {
            classOf.set(element.value, node);
          }
        }
        break;
      case 'TSEnumDeclaration':
        if (!node.declare) declare(scope, node.id.name, 'const');
        break;
      case 'ImportDeclaration':
        imports(scope, node);
        return;
      case 'CallExpression': {
        calls.push({ call: node, scope, owner });
        const callee = node.callee;
        if (callee.type === 'MemberExpression') {
          const method = staticKey(callee.property, callee.computed);
          const [first] = node.arguments;
          if (method && MUTATORS.has(method)) write(callee, scope, owner);
          else if (
            method === 'assign' &&
            callee.object.type === 'Identifier' &&
            callee.object.name === 'Object' &&
            first
          ) {
            write(
              { type: 'MemberExpression', object: first, property: first, computed: true } as unknown as Node,
              scope,
              owner,
            );
          }
        }
        break;
      }
      case 'AssignmentExpression':
        write(node.left, scope, owner);
        break;
      case 'UpdateExpression':
        write(node.argument, scope, owner);
        break;
      case 'UnaryExpression':
        if (node.operator === 'delete') write(node.argument, scope, owner);
        break;
      case 'ObjectExpression':
        if (hasJsonrpcKey(node)) envelopes.push({ node, scope, owner });
        else if (mayDeriveEnvelope(node)) envelopes.push({ node, scope, owner, derived: true });
        break;
    }
    pushChildren(node, scope, owner);
  }

  function pushChildren(node: Node, scope: Scope, owner: FunctionLike | Program): void {
    const children: Node[] = [];
    forEachChild(node, (child) => children.push(child));
    for (let i = children.length - 1; i >= 0; i--) push(children[i] as Node, scope, owner);
  }

  for (let i = program.body.length - 1; i >= 0; i--) push(program.body[i] as Node, root, program);
  for (let item = stack.pop(); item; item = stack.pop()) visit(item.node, item.scope, item.owner);
  for (const w of writes) {
    const binding = w.scope.resolve(w.name);
    if (!binding || binding.scope.functionScope().owner === w.owner) continue;
    if (w.what === 'value' || binding.changedElsewhere === undefined) binding.changedElsewhere = w.what;
  }
  // Calls and envelopes in source order (the stack visits them in order already; keep it explicit).
  return { program, root, scopeOf, parentOf, classOf, calls, envelopes };
}

export function isFunctionNode(node: unknown): node is FunctionLike {
  return isFunction(node as Node);
}
