/**
 * Static evaluation of JavaScript/TypeScript expressions into partial JSON (see core/opaque.ts):
 * literals become values, what the source does not fix becomes an `Opaque` leaf (typed when the
 * expression's JSON type is certain), and objects or arrays with spreads are marked open. Every
 * container is recorded in a `ValuePositions` table so findings map back to source offsets.
 */

import type { CallExpression, Expression, Node, ObjectExpression } from 'oxc-parser';
import { isOpaque, isOpen, Opaque } from '../../core/opaque.js';
import type { Outcome } from '../analyze.js';
import {
  commonKind,
  containerAt,
  type JsonKind,
  kindOf,
  markOpen,
  serialized,
  TypedOpaque,
  ValuePositions,
} from '../values.js';
import {
  endOf,
  type FunctionLike,
  forEachChild,
  isFunction,
  memberName,
  offsetOf,
  staticKey,
  unwrap,
} from './ast.js';
import type { Binding, Mutation, ProgramIndex, Scope } from './scope.js';

/** A function value: dropped from objects, like JSON.stringify does. */
const FUNCTION: unique symbol = Symbol('function');

/** How deep helper calls and variable references are followed before giving up. */
const MAX_DEPTH = 8;
const MAX_SOURCE = 80;

/** Methods whose result type is certain whatever the receiver: `x.toString()`, `rows.map(…)`. */
const METHOD_KINDS = new Map<string, JsonKind>(
  Object.entries({
    toString: 'string',
    toFixed: 'string',
    toISOString: 'string',
    toUpperCase: 'string',
    toLowerCase: 'string',
    trim: 'string',
    join: 'string',
    padStart: 'string',
    padEnd: 'string',
    replace: 'string',
    replaceAll: 'string',
    map: 'array',
    filter: 'array',
    flatMap: 'array',
    flat: 'array',
    sort: 'array',
    toSorted: 'array',
    split: 'array',
  }) as [string, JsonKind][],
);

/** Global calls with a certain result type: `String(x)`, `JSON.stringify(x)`, `Object.keys(x)`. */
const CALL_KINDS = new Map<string, JsonKind>(
  Object.entries({
    String: 'string',
    Number: 'number',
    Boolean: 'boolean',
    'JSON.stringify': 'string',
    'Object.keys': 'array',
    'Object.values': 'array',
    'Object.entries': 'array',
    'Array.from': 'array',
    'Array.of': 'array',
    'Object.fromEntries': 'object',
  }) as [string, JsonKind][],
);

export class JsEvaluator {
  readonly positions = new ValuePositions<number>();
  private readonly active = new Set<Binding | FunctionLike>();
  /** While a helper call is evaluated: its parameters bound to the caller's argument expressions. */
  private readonly argumentsOf = new Map<Binding, { expression: Expression; scope: Scope }>();

  constructor(
    private readonly source: string,
    private readonly index: ProgramIndex,
  ) {}

  text(node: Node): string {
    const text = this.source.slice(offsetOf(node), endOf(node)).replace(/\s+/g, ' ');
    return text.length > MAX_SOURCE ? `${text.slice(0, MAX_SOURCE - 1)}…` : text;
  }

  scopeOf(node: Node): Scope | undefined {
    return this.index.scopeOf.get(node);
  }

  /** The function an expression refers to: a literal function or a name bound to one. */
  resolveFunction(node: Expression, scope: Scope): FunctionLike | undefined {
    const bare = unwrap(node);
    if (isFunction(bare)) return bare;
    if (bare.type === 'Identifier') return scope.resolve(bare.name)?.fn;
    return undefined;
  }

  /** The object literal an expression refers to (`addTool({ … })` or `addTool(tool)`). */
  resolveObject(node: Expression, scope: Scope): { node: ObjectExpression; scope: Scope } | undefined {
    const bare = unwrap(node);
    if (bare.type === 'ObjectExpression') return { node: bare, scope };
    if (bare.type !== 'Identifier') return undefined;
    const binding = scope.resolve(bare.name);
    const init = binding?.init ? unwrap(binding.init) : undefined;
    return init?.type === 'ObjectExpression' && binding ? { node: init, scope: binding.scope } : undefined;
  }

  /**
   * Every value a returned expression may produce: both branches of a conditional, both sides of
   * `??`/`||`, and each return of a same-file helper it calls.
   */
  outcomes(node: Expression, scope: Scope, depth = 0): Outcome<number>[] {
    const bare = unwrap(node);
    if (depth > MAX_DEPTH) return [{ value: new Opaque(this.text(bare)), at: offsetOf(bare) }];
    switch (bare.type) {
      case 'AwaitExpression':
        return this.outcomes(bare.argument, scope, depth);
      case 'ConditionalExpression':
        return [
          ...this.outcomes(bare.consequent, scope, depth),
          ...this.outcomes(bare.alternate, scope, depth),
        ];
      case 'LogicalExpression':
        return bare.operator === '&&'
          ? this.outcomes(bare.right, scope, depth)
          : [...this.outcomes(bare.left, scope, depth), ...this.outcomes(bare.right, scope, depth)];
      case 'SequenceExpression': {
        const last = bare.expressions.at(-1);
        return last ? this.outcomes(last, scope, depth) : [];
      }
      case 'Identifier': {
        const binding = scope.resolve(bare.name);
        const init = binding?.init ? unwrap(binding.init) : undefined;
        const branching =
          init &&
          (init.type === 'ConditionalExpression' ||
            init.type === 'LogicalExpression' ||
            init.type === 'AwaitExpression' ||
            init.type === 'CallExpression');
        if (binding && init && branching && binding.kind === 'const' && binding.mutations.length === 0) {
          if (this.active.has(binding)) break;
          this.active.add(binding);
          try {
            return this.outcomes(init, binding.scope, depth + 1);
          } finally {
            this.active.delete(binding);
          }
        }
        break;
      }
      case 'CallExpression': {
        if (isPromiseResolve(bare) && bare.arguments[0] && bare.arguments[0].type !== 'SpreadElement') {
          return this.outcomes(bare.arguments[0], scope, depth);
        }
        const helper = this.resolveFunction(bare.callee, scope);
        if (helper && !this.active.has(helper)) {
          return this.inHelper(helper, bare, scope, () =>
            this.returnsOf(helper).flatMap((r) => this.outcomes(r.expression, r.scope, depth + 1)),
          );
        }
        break;
      }
    }
    return [{ value: this.evaluate(bare, scope, depth), at: offsetOf(bare) }];
  }

  /**
   * Runs `evaluate` with `helper` marked active (no recursion) and its simple parameters bound to the
   * call's arguments, so `wrap(block('…'))` evaluates through both helpers.
   */
  private inHelper<T>(helper: FunctionLike, call: CallExpression, scope: Scope, evaluate: () => T): T {
    const helperScope = this.scopeOf(helper);
    const bound: Binding[] = [];
    helper.params.forEach((param, i) => {
      const argument = call.arguments[i];
      if (param.type !== 'Identifier' || !argument || argument.type === 'SpreadElement') return;
      const binding = helperScope?.bindings.get(param.name);
      if (!binding || this.argumentsOf.has(binding)) return;
      this.argumentsOf.set(binding, { expression: argument, scope });
      bound.push(binding);
    });
    this.active.add(helper);
    try {
      return evaluate();
    } finally {
      this.active.delete(helper);
      for (const binding of bound) this.argumentsOf.delete(binding);
    }
  }

  /** The expressions a function returns, each with its scope (nested functions excluded). */
  returnsOf(fn: FunctionLike): { expression: Expression; scope: Scope; statement: Node }[] {
    const scope = this.scopeOf(fn);
    const body = fn.body;
    if (!scope || !body) return [];
    if (body.type !== 'BlockStatement') return [{ expression: body, scope, statement: body }];
    const found: { expression: Expression; scope: Scope; statement: Node }[] = [];
    const walk = (node: Node, current: Scope): void => {
      if (isFunction(node) || node.type === 'ClassDeclaration' || node.type === 'ClassExpression') return;
      const inner = this.scopeOf(node) ?? current;
      if (node.type === 'ReturnStatement') {
        if (node.argument) found.push({ expression: node.argument, scope: inner, statement: node });
        return;
      }
      forEachChild(node, (child) => walk(child, inner));
    };
    for (const statement of body.body) walk(statement, scope);
    return found;
  }

  evaluate(node: Expression, scope: Scope, depth = 0): unknown {
    const bare = unwrap(node);
    if (depth > MAX_DEPTH) return new Opaque(this.text(bare));
    switch (bare.type) {
      case 'Literal': {
        const v: unknown = bare.value;
        return v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
          ? v
          : new Opaque(this.text(bare));
      }
      case 'TemplateLiteral':
        return bare.expressions.length === 0
          ? (bare.quasis[0]?.value.cooked ?? '')
          : new TypedOpaque(this.text(bare), 'string');
      case 'ObjectExpression':
        return this.object(bare, scope, depth);
      case 'ArrayExpression': {
        const array = this.positions.container<unknown[]>([], offsetOf(bare));
        for (const element of bare.elements) {
          if (element === null) {
            array.push(null);
          } else if (element.type === 'SpreadElement') {
            const spread = this.evaluate(element.argument, scope, depth + 1);
            if (Array.isArray(spread)) {
              for (const item of spread) this.push(array, item, offsetOf(element));
            } else markOpen(array);
          } else {
            this.push(array, this.evaluate(element, scope, depth + 1), offsetOf(element));
          }
        }
        return array;
      }
      case 'Identifier':
        return this.identifier(bare.name, bare, scope, depth);
      case 'AwaitExpression':
        return this.evaluate(bare.argument, scope, depth);
      case 'SequenceExpression': {
        const last = bare.expressions.at(-1);
        return last ? this.evaluate(last, scope, depth) : undefined;
      }
      case 'AssignmentExpression':
        return bare.operator === '=' ? this.evaluate(bare.right, scope, depth) : new Opaque(this.text(bare));
      case 'ConditionalExpression':
        return this.either(bare, [bare.consequent, bare.alternate], scope, depth);
      case 'LogicalExpression':
        return this.either(bare, [bare.left, bare.right], scope, depth);
      case 'UnaryExpression':
        return this.unary(bare.operator, bare.argument, bare, scope, depth);
      case 'BinaryExpression':
        return this.binary(bare.operator, bare.left as Expression, bare.right, bare, scope, depth);
      case 'MemberExpression': {
        const name = memberName(bare);
        const object = this.evaluate(bare.object, scope, depth + 1);
        if (name !== undefined && typeof object === 'object' && object !== null && !isOpaque(object)) {
          if (Object.hasOwn(object, name)) return (object as Record<string, unknown>)[name];
          if (name === 'length' && Array.isArray(object)) return new TypedOpaque(this.text(bare), 'number');
        }
        return new Opaque(this.text(bare));
      }
      case 'CallExpression':
        return this.call(bare, scope, depth);
      case 'ArrowFunctionExpression':
      case 'FunctionExpression':
        return FUNCTION;
      default:
        return new Opaque(this.text(bare));
    }
  }

  private push(array: unknown[], value: unknown, at: number): void {
    if (value === FUNCTION || value === undefined) value = null;
    this.positions.member(array, array.length, at);
    array.push(value);
  }

  private object(node: ObjectExpression, scope: Scope, depth: number): Record<string, unknown> {
    const object = this.positions.container<Record<string, unknown>>({}, offsetOf(node));
    for (const property of node.properties) {
      if (property.type === 'SpreadElement') {
        const spread = this.evaluate(property.argument, scope, depth + 1);
        if (typeof spread === 'object' && spread !== null && !Array.isArray(spread) && !isOpaque(spread)) {
          for (const [key, value] of Object.entries(spread)) this.set(object, key, value, offsetOf(property));
          if (isOpen(spread)) markOpen(object);
        } else if (spread !== null && spread !== undefined) markOpen(object);
        continue;
      }
      const key = staticKey(property.key, property.computed);
      if (key === undefined || property.kind !== 'init') {
        markOpen(object);
        continue;
      }
      if (property.method) continue;
      this.set(object, key, this.evaluate(property.value, scope, depth + 1), offsetOf(property.value));
    }
    return object;
  }

  /** Sets a member as JSON would: `undefined` and functions leave the key out. */
  private set(object: Record<string, unknown>, key: string, value: unknown, at: number): void {
    if (value === undefined || value === FUNCTION) {
      delete object[key];
      return;
    }
    object[key] = value;
    this.positions.member(object, key, at);
  }

  private identifier(name: string, node: Node, scope: Scope, depth: number): unknown {
    const binding = scope.resolve(name);
    if (!binding) return name === 'undefined' ? undefined : new Opaque(name);
    return this.bindingValue(binding, node, depth);
  }

  /** A variable's value: its initializer with every mutation the file applies to it. */
  bindingValue(binding: Binding, node: Node, depth = 0): unknown {
    if (binding.fn) return FUNCTION;
    const argument = this.argumentsOf.get(binding);
    if (argument && !binding.reassigned && binding.mutations.length === 0) {
      // Evaluated without the binding so the argument's own names resolve in the caller's scope.
      this.argumentsOf.delete(binding);
      try {
        return this.evaluate(argument.expression, argument.scope, depth + 1);
      } finally {
        this.argumentsOf.set(binding, argument);
      }
    }
    if (!binding.init || binding.reassigned || this.active.has(binding)) return new Opaque(this.text(node));
    this.active.add(binding);
    try {
      const value = this.evaluate(binding.init, binding.scope, depth + 1);
      for (const mutation of binding.mutations) this.apply(value, mutation, depth);
      return value;
    } finally {
      this.active.delete(binding);
    }
  }

  private apply(value: unknown, mutation: Mutation, depth: number): void {
    const container = containerAt(value, mutation.op === 'set' ? mutation.path.slice(0, -1) : mutation.path);
    if (!container) return;
    switch (mutation.op) {
      case 'open':
        markOpen(container);
        return;
      case 'push':
        if (!Array.isArray(container)) return;
        for (const item of mutation.items) {
          this.push(container, this.evaluate(item, mutation.scope, depth + 1), offsetOf(item));
        }
        return;
      case 'set': {
        const key = mutation.path.at(-1) as string;
        const assigned = this.evaluate(mutation.value, mutation.scope, depth + 1);
        if (Array.isArray(container)) {
          markOpen(container);
          return;
        }
        this.set(container as Record<string, unknown>, key, assigned, offsetOf(mutation.target));
      }
    }
  }

  /** `a ? b : c`, `a ?? b`: unknown which, but the JSON type is certain when both sides agree. */
  private either(node: Node, branches: Expression[], scope: Scope, depth: number): unknown {
    return commonKind(
      branches.map((b) => this.evaluate(b, scope, depth + 1)),
      this.text(node),
    );
  }

  private unary(operator: string, argument: Expression, node: Node, scope: Scope, depth: number): unknown {
    switch (operator) {
      case '!':
      case 'delete':
        return new TypedOpaque(this.text(node), 'boolean');
      case 'typeof':
        return new TypedOpaque(this.text(node), 'string');
      case 'void':
        return undefined;
      case '-':
      case '+': {
        const value = this.evaluate(argument, scope, depth + 1);
        if (typeof value === 'number') return operator === '-' ? -value : value;
        return new TypedOpaque(this.text(node), 'number');
      }
      default:
        return new TypedOpaque(this.text(node), 'number');
    }
  }

  private binary(
    operator: string,
    left: Expression,
    right: Expression,
    node: Node,
    scope: Scope,
    depth: number,
  ): unknown {
    if (['==', '!=', '===', '!==', '<', '>', '<=', '>=', 'in', 'instanceof'].includes(operator)) {
      return new TypedOpaque(this.text(node), 'boolean');
    }
    if (operator !== '+') return new TypedOpaque(this.text(node), 'number');
    const a = this.evaluate(left, scope, depth + 1);
    const b = this.evaluate(right, scope, depth + 1);
    if (typeof a === 'string' && typeof b === 'string') return a + b;
    if (kindOf(a) === 'string' || kindOf(b) === 'string') return new TypedOpaque(this.text(node), 'string');
    if (kindOf(a) === 'number' && kindOf(b) === 'number') return new TypedOpaque(this.text(node), 'number');
    return new Opaque(this.text(node));
  }

  private call(node: CallExpression, scope: Scope, depth: number): unknown {
    if (isPromiseResolve(node)) {
      const [first] = node.arguments;
      return first && first.type !== 'SpreadElement' ? this.evaluate(first, scope, depth) : undefined;
    }
    const helper = this.resolveFunction(node.callee, scope);
    if (helper && !this.active.has(helper)) {
      const returns = this.inHelper(helper, node, scope, () =>
        this.returnsOf(helper).flatMap((r) => this.outcomes(r.expression, r.scope, depth + 1)),
      );
      // One return: its value. Several: only their common JSON type is certain.
      if (returns.length === 1) return returns[0]?.value;
      return commonKind(
        returns.map((r) => r.value),
        this.text(node),
      );
    }
    const callee = calleeName(node);
    if (callee === 'JSON.stringify') {
      const json = this.stringify(node, scope, depth);
      if (json !== undefined) return json;
    }
    const method = callee?.includes('.') ? callee.slice(callee.lastIndexOf('.') + 1) : undefined;
    const known = (callee && CALL_KINDS.get(callee)) || (method && METHOD_KINDS.get(method));
    return known ? new TypedOpaque(this.text(node), known) : new Opaque(this.text(node));
  }

  /**
   * `JSON.stringify(x)` and `JSON.stringify(x, null, 2)`: the JSON of `x` (see `serialized`). A
   * replacer may change anything, so with one the text is only known to be a string (undefined here).
   */
  private stringify(node: CallExpression, scope: Scope, depth: number): unknown {
    const [value, replacer, indent, ...rest] = node.arguments;
    if (!value || rest.length > 0 || node.arguments.some((a) => a.type === 'SpreadElement')) return undefined;
    const replace = replacer ? this.evaluate(replacer as Expression, scope, depth + 1) : undefined;
    if (replace !== null && replace !== undefined) return undefined;
    const spacing = indent ? this.evaluate(indent as Expression, scope, depth + 1) : undefined;
    return serialized(
      this.evaluate(value as Expression, scope, depth + 1),
      this.text(node),
      typeof spacing === 'number' || typeof spacing === 'string' ? spacing : undefined,
    );
  }
}

/** `String`, `JSON.stringify`, `.map` (receiver unknown) for a call's callee. */
function calleeName(node: CallExpression): string | undefined {
  const callee = unwrap(node.callee);
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type !== 'MemberExpression') return undefined;
  const name = memberName(callee);
  if (name === undefined) return undefined;
  const object = unwrap(callee.object);
  return object.type === 'Identifier' ? `${object.name}.${name}` : `.${name}`;
}

function isPromiseResolve(node: CallExpression): boolean {
  return calleeName(node) === 'Promise.resolve';
}
