/**
 * One walk over a program that records what the evaluator needs: lexical scopes with their
 * bindings, the mutations applied to each binding (`result.isError = true`, `content.push(…)`,
 * `payload["requestId"] = …`), the calls that may register tool handlers, and JSON-RPC envelope
 * literals. Name resolution is lexical and file-local, which is all a static scan can trust.
 */

import type {
  AssignmentTarget,
  BindingPattern,
  CallExpression,
  Expression,
  Node,
  ObjectExpression,
  ParamPattern,
  Program,
  VariableDeclarator,
} from 'oxc-parser';
import { type FunctionLike, forEachChild, isFunction, memberName, staticKey, unwrap } from './ast.js';

export type BindingKind = 'const' | 'let' | 'var' | 'function' | 'param' | 'import' | 'class' | 'pattern';

/** A change to (part of) a binding's value somewhere in the file. */
export type Mutation =
  | {
      readonly op: 'set';
      readonly path: readonly string[];
      readonly value: Expression;
      readonly target: Node;
      readonly scope: Scope;
    }
  | {
      readonly op: 'push';
      readonly path: readonly string[];
      readonly items: readonly Expression[];
      readonly scope: Scope;
    }
  /** Something the evaluator cannot follow changed members at `path` (a computed key, Object.assign). */
  | { readonly op: 'open'; readonly path: readonly string[] };

export interface Binding {
  readonly name: string;
  readonly kind: BindingKind;
  readonly scope: Scope;
  /** The initializer of a simple `const x = …` / `let x = …`. */
  readonly init?: Expression;
  /** The function itself, for function declarations and `const f = () => …`. */
  readonly fn?: FunctionLike;
  readonly mutations: Mutation[];
  /** Assigned again after its declaration (`x = …`, `x++`). */
  reassigned: boolean;
}

export class Scope {
  readonly bindings = new Map<string, Binding>();
  constructor(
    readonly parent: Scope | undefined,
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
}

export interface EnvelopeLiteral {
  readonly node: ObjectExpression;
  readonly scope: Scope;
  /** Set when the literal initializes a variable: evaluate the binding, so later mutations count. */
  readonly binding?: Binding;
}

export interface ProgramIndex {
  readonly root: Scope;
  /** The scope each function and block opens. */
  readonly scopeOf: Map<Node, Scope>;
  readonly calls: readonly ScopedCall[];
  readonly envelopes: readonly EnvelopeLiteral[];
}

interface PendingMutation {
  readonly name: string;
  readonly scope: Scope;
  readonly mutation: Mutation;
}

const MUTATING_ARRAY_METHODS = new Set(['splice', 'fill', 'copyWithin']);

function hasJsonrpcKey(node: ObjectExpression): boolean {
  return node.properties.some((p) => p.type === 'Property' && staticKey(p.key, p.computed) === 'jsonrpc');
}

/** `a.b['c']` → { root: 'a', path: ['b','c'] }; `undefined` when a step is not static. */
function memberPath(target: Expression): { root: string; path: string[]; dynamic: boolean } | undefined {
  const path: string[] = [];
  let dynamic = false;
  let node = unwrap(target);
  while (node.type === 'MemberExpression') {
    const name = memberName(node);
    if (name === undefined) {
      dynamic = true;
      path.length = 0;
    } else path.unshift(name);
    node = unwrap(node.object);
  }
  return node.type === 'Identifier' ? { root: node.name, path, dynamic } : undefined;
}

export function indexProgram(program: Program): ProgramIndex {
  const root = new Scope(undefined, true);
  const scopeOf = new Map<Node, Scope>([[program, root]]);
  const calls: ScopedCall[] = [];
  const envelopes: EnvelopeLiteral[] = [];
  const pending: PendingMutation[] = [];
  const reassigned: { name: string; scope: Scope }[] = [];

  function declare(scope: Scope, name: string, kind: BindingKind, extra: Partial<Binding> = {}): Binding {
    const target = kind === 'var' ? scope.functionScope() : scope;
    const binding: Binding = { name, kind, scope: target, mutations: [], reassigned: false, ...extra };
    target.bindings.set(name, binding);
    return binding;
  }

  function declarePattern(scope: Scope, pattern: BindingPattern | ParamPattern, kind: BindingKind): void {
    switch (pattern.type) {
      case 'Identifier':
        declare(scope, pattern.name, kind);
        break;
      case 'ObjectPattern':
        for (const p of pattern.properties)
          declarePattern(scope, p.type === 'RestElement' ? p.argument : p.value, 'pattern');
        break;
      case 'ArrayPattern':
        for (const e of pattern.elements)
          if (e) declarePattern(scope, e.type === 'RestElement' ? e.argument : e, 'pattern');
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

  function declarator(scope: Scope, kind: 'const' | 'let' | 'var', d: VariableDeclarator): void {
    if (d.id.type !== 'Identifier') {
      declarePattern(scope, d.id, 'pattern');
      return;
    }
    const init = d.init ?? undefined;
    const bare = init ? unwrap(init) : undefined;
    const binding = declare(scope, d.id.name, kind, {
      ...(init ? { init } : {}),
      ...(bare && isFunction(bare) ? { fn: bare } : {}),
    });
    if (bare?.type === 'ObjectExpression' && hasJsonrpcKey(bare))
      envelopes.push({ node: bare, scope, binding });
  }

  function assignment(scope: Scope, left: AssignmentTarget, right: Expression): void {
    const bare = unwrap(left as Expression);
    if (bare.type === 'Identifier') {
      reassigned.push({ name: bare.name, scope });
      return;
    }
    if (bare.type !== 'MemberExpression') return;
    const target = memberPath(bare);
    if (!target) return;
    if (target.dynamic || target.path.length === 0) {
      pending.push({ name: target.root, scope, mutation: { op: 'open', path: target.path.slice(0, -1) } });
      return;
    }
    pending.push({
      name: target.root,
      scope,
      mutation: { op: 'set', path: target.path, value: right, target: bare, scope },
    });
  }

  function call(scope: Scope, node: CallExpression): void {
    calls.push({ call: node, scope });
    const callee = unwrap(node.callee);
    if (callee.type !== 'MemberExpression') return;
    const method = memberName(callee);
    const args = node.arguments;
    // Object.assign(target, …) changes members nobody can list statically.
    if (method === 'assign' && callee.object.type === 'Identifier' && callee.object.name === 'Object') {
      const first = args[0];
      const target = first && first.type !== 'SpreadElement' ? memberPath(first) : undefined;
      if (target) pending.push({ name: target.root, scope, mutation: { op: 'open', path: target.path } });
      return;
    }
    const target = memberPath(callee.object);
    if (!target || target.dynamic) return;
    if (method === 'push' || method === 'unshift') {
      const items = args.filter((a): a is Expression => a.type !== 'SpreadElement');
      const mutation: Mutation =
        items.length === args.length
          ? { op: 'push', path: target.path, items, scope }
          : { op: 'open', path: target.path };
      pending.push({ name: target.root, scope, mutation });
    } else if (method && MUTATING_ARRAY_METHODS.has(method)) {
      pending.push({ name: target.root, scope, mutation: { op: 'open', path: target.path } });
    }
  }

  function visit(node: Node, scope: Scope): void {
    switch (node.type) {
      case 'FunctionDeclaration':
      case 'FunctionExpression':
      case 'ArrowFunctionExpression': {
        if (node.type === 'FunctionDeclaration' && node.id)
          declare(scope, node.id.name, 'function', { fn: node });
        const inner = new Scope(scope, true);
        scopeOf.set(node, inner);
        if (node.type === 'FunctionExpression' && node.id)
          declare(inner, node.id.name, 'function', { fn: node });
        for (const param of node.params) declarePattern(inner, param, 'param');
        const body = node.body;
        if (!body) return;
        if (body.type === 'BlockStatement') {
          scopeOf.set(body, inner);
          for (const statement of body.body) visit(statement, inner);
        } else visit(body, inner);
        return;
      }
      case 'BlockStatement':
      case 'ForStatement':
      case 'ForInStatement':
      case 'ForOfStatement':
      case 'SwitchStatement':
      case 'StaticBlock': {
        const inner = new Scope(scope, false);
        scopeOf.set(node, inner);
        forEachChild(node, (child) => visit(child, inner));
        return;
      }
      case 'CatchClause': {
        const inner = new Scope(scope, false);
        scopeOf.set(node, inner);
        scopeOf.set(node.body, inner);
        if (node.param) declarePattern(inner, node.param, 'param');
        for (const statement of node.body.body) visit(statement, inner);
        return;
      }
      case 'VariableDeclaration': {
        const kind = node.kind === 'var' ? 'var' : node.kind === 'let' ? 'let' : 'const';
        for (const d of node.declarations) declarator(scope, kind, d);
        break;
      }
      case 'ClassDeclaration':
        if (node.id) declare(scope, node.id.name, 'class');
        break;
      case 'ImportDeclaration':
        for (const s of node.specifiers) declare(scope, s.local.name, 'import');
        return;
      case 'AssignmentExpression':
        assignment(scope, node.left, node.right);
        break;
      case 'UpdateExpression': {
        const target = unwrap(node.argument as Expression);
        if (target.type === 'Identifier') reassigned.push({ name: target.name, scope });
        break;
      }
      case 'CallExpression':
        call(scope, node);
        break;
      case 'ObjectExpression':
        if (hasJsonrpcKey(node) && !envelopes.some((e) => e.node === node)) envelopes.push({ node, scope });
        break;
    }
    forEachChild(node, (child) => visit(child, scope));
  }

  for (const statement of program.body) visit(statement, root);
  for (const p of pending) p.scope.resolve(p.name)?.mutations.push(p.mutation);
  for (const r of reassigned) {
    const binding = r.scope.resolve(r.name);
    if (binding) binding.reassigned = true;
  }
  return { root, scopeOf, calls, envelopes };
}
