/**
 * Static evaluation of Python expressions (tree-sitter nodes) into partial JSON, the counterpart of
 * js/evaluate.ts: dict and list literals, strings, numbers, `True/False/None`, names assigned once,
 * same-file helpers, and the MCP SDK's pydantic models (`TextContent(type="text", …)`), whose
 * keyword arguments become members (snake_case aliases mapped to the wire names).
 */

import type { Node } from 'web-tree-sitter';
import { isOpaque, isOpen, Opaque } from '../../core/opaque.js';
import type { Outcome } from '../analyze.js';
import {
  commonKind,
  containerAt,
  type JsonKind,
  kindOf,
  MODEL,
  markOpen,
  serialized,
  TypedOpaque,
  ValuePositions,
} from '../values.js';

/** Pydantic models from `mcp.types` whose fields are the wire format. */
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
]);

/** FastMCP helpers converted by the framework (`Image(path=…)` → an image block with a mimeType). */
const FRAMEWORK_HELPERS = new Set(['Image', 'Audio', 'File']);

/** The Python SDK accepts both the wire names and snake_case field names. */
const ALIASES: Record<string, string> = {
  mime_type: 'mimeType',
  is_error: 'isError',
  structured_content: 'structuredContent',
  last_modified: 'lastModified',
};

const CALL_KINDS = new Map<string, JsonKind>([
  ['str', 'string'],
  ['repr', 'string'],
  ['json.dumps', 'string'],
  ['format', 'string'],
  ['join', 'string'],
  ['decode', 'string'],
  ['model_dump_json', 'string'],
  ['int', 'number'],
  ['float', 'number'],
  ['len', 'number'],
  ['bool', 'boolean'],
  ['list', 'array'],
  ['sorted', 'array'],
  ['model_dump', 'object'],
]);

const MAX_DEPTH = 8;
const MAX_SOURCE = 80;

export interface PyBinding {
  readonly name: string;
  /** Where it is declared: its value is evaluated there. */
  readonly scope: PyScope;
  /** Right-hand sides of `name = …`; anything but exactly one makes the value unknown. */
  readonly values: Node[];
  fn?: Node;
  /** A parameter, loop variable, import or pattern target: never statically known. */
  unknown: boolean;
  readonly mutations: PyMutation[];
}

export type PyMutation =
  | { readonly op: 'set'; readonly path: readonly string[]; readonly value: Node; readonly target: Node }
  | { readonly op: 'push'; readonly path: readonly string[]; readonly item: Node }
  | { readonly op: 'open'; readonly path: readonly string[] };

export class PyScope {
  readonly bindings = new Map<string, PyBinding>();
  constructor(readonly parent: PyScope | undefined) {}

  binding(name: string): PyBinding {
    let binding = this.bindings.get(name);
    if (!binding) {
      binding = { name, scope: this, values: [], unknown: false, mutations: [] };
      this.bindings.set(name, binding);
    }
    return binding;
  }

  resolve(name: string): PyBinding | undefined {
    for (let scope: PyScope | undefined = this; scope; scope = scope.parent) {
      const binding = scope.bindings.get(name);
      if (binding) return binding;
    }
    return undefined;
  }
}

function stringValue(node: Node): string | TypedOpaque | Opaque {
  const start = node.children[0]?.text ?? '';
  if (/[bB]/.test(start)) return new Opaque(node.text);
  let out = '';
  for (const child of node.children) {
    if (!child) continue;
    if (child.type === 'interpolation') return new TypedOpaque(node.text, 'string');
    if (child.type === 'string_content') out += child.text;
    if (child.type === 'escape_sequence') out += decodeEscape(child.text);
  }
  return out;
}

function decodeEscape(sequence: string): string {
  const simple: Record<string, string> = {
    n: '\n',
    t: '\t',
    r: '\r',
    '\\': '\\',
    "'": "'",
    '"': '"',
    '0': '\0',
  };
  const c = sequence.slice(1);
  if (c in simple) return simple[c] ?? '';
  if (/^(x|u|U)[0-9a-fA-F]+$/.test(c)) return String.fromCodePoint(Number.parseInt(c.slice(1), 16));
  return sequence;
}

/** `a.b.c` → 'a.b.c'; the last segment names a method or model. */
export function dottedName(node: Node | null): string | undefined {
  if (!node) return undefined;
  if (node.type === 'identifier') return node.text;
  if (node.type === 'attribute') {
    const object = dottedName(node.childForFieldName('object'));
    const attribute = node.childForFieldName('attribute')?.text;
    return attribute ? (object ? `${object}.${attribute}` : `.${attribute}`) : undefined;
  }
  return undefined;
}

function lastSegment(name: string | undefined): string | undefined {
  return name?.slice(name.lastIndexOf('.') + 1);
}

/** `x["a"]["b"]`, `x.a` → { root: 'x', path: ['a','b'] }; undefined when a key is not a literal. */
export function targetPath(node: Node): { root: string; path: string[]; dynamic: boolean } | undefined {
  const path: string[] = [];
  let dynamic = false;
  let current: Node | null = node;
  while (current && (current.type === 'subscript' || current.type === 'attribute')) {
    if (current.type === 'subscript') {
      const key = current.childForFieldName('subscript');
      const value = key?.type === 'string' ? stringValue(key) : undefined;
      if (typeof value === 'string') path.unshift(value);
      else {
        dynamic = true;
        path.length = 0;
      }
      current = current.childForFieldName('value');
    } else {
      path.unshift(current.childForFieldName('attribute')?.text ?? '');
      current = current.childForFieldName('object');
    }
  }
  return current?.type === 'identifier' ? { root: current.text, path, dynamic } : undefined;
}

export class PyEvaluator {
  readonly positions = new ValuePositions<number>();
  private readonly active = new Set<PyBinding | number>();

  constructor(
    /** The scope of each function_definition, by node id. */
    private readonly scopes: ReadonlyMap<number, PyScope>,
  ) {}

  text(node: Node): string {
    const text = node.text.replace(/\s+/g, ' ');
    return text.length > MAX_SOURCE ? `${text.slice(0, MAX_SOURCE - 1)}…` : text;
  }

  scopeOf(fn: Node): PyScope | undefined {
    return this.scopes.get(fn.id);
  }

  /** Return statements of a function, excluding nested functions, lambdas and classes. */
  returnsOf(fn: Node): Node[] {
    const body = fn.childForFieldName('body');
    const found: Node[] = [];
    const walk = (node: Node): void => {
      for (const child of node.namedChildren) {
        if (!child) continue;
        if (
          child.type === 'function_definition' ||
          child.type === 'class_definition' ||
          child.type === 'lambda'
        ) {
          continue;
        }
        if (child.type === 'decorated_definition') continue;
        if (child.type === 'return_statement') found.push(child);
        else walk(child);
      }
    };
    if (body) walk(body);
    return found;
  }

  /** Values a returned expression may produce: both arms of `a if c else b`, both sides of `or`, helper returns. */
  outcomes(node: Node, scope: PyScope, depth = 0): Outcome<number>[] {
    if (depth > MAX_DEPTH) return [{ value: new Opaque(this.text(node)), at: node.startIndex }];
    switch (node.type) {
      case 'parenthesized_expression':
      case 'await': {
        const inner = node.namedChildren[0];
        if (inner) return this.outcomes(inner, scope, depth);
        break;
      }
      case 'conditional_expression': {
        const [body, , alternative] = node.namedChildren;
        if (body && alternative) {
          return [...this.outcomes(body, scope, depth), ...this.outcomes(alternative, scope, depth)];
        }
        break;
      }
      case 'boolean_operator': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left && right && node.childForFieldName('operator')?.text === 'or') {
          return [...this.outcomes(left, scope, depth), ...this.outcomes(right, scope, depth)];
        }
        break;
      }
      case 'call': {
        const helper = this.helper(node, scope);
        if (helper !== undefined && !this.active.has(helper.id)) {
          return this.inHelper(helper, node, scope, () => this.helperOutcomes(helper, depth));
        }
        break;
      }
    }
    return [{ value: this.evaluate(node, scope, depth), at: node.startIndex }];
  }

  private helperOutcomes(fn: Node, depth: number): Outcome<number>[] {
    const scope = this.scopeOf(fn);
    if (!scope) return [];
    return this.returnsOf(fn).flatMap((r) => {
      const value = r.namedChildren[0];
      return value ? this.outcomes(value, scope, depth + 1) : [{ value: null, at: r.startIndex }];
    });
  }

  /** While a helper call is evaluated: its parameters bound to the caller's arguments. */
  private readonly argumentsOf = new Map<PyBinding, { node: Node; scope: PyScope }>();

  /** Runs `run` with the helper marked active and its parameters bound to the call's arguments. */
  private inHelper<T>(fn: Node, call: Node, scope: PyScope, run: () => T): T {
    const fnScope = this.scopeOf(fn);
    const params = (fn.childForFieldName('parameters')?.namedChildren ?? []).map((p) =>
      p?.type === 'identifier' ? p.text : (p?.childForFieldName('name') ?? p?.namedChildren[0])?.text,
    );
    const bound: PyBinding[] = [];
    const bind = (name: string | undefined, node: Node | null | undefined) => {
      const binding = name ? fnScope?.bindings.get(name) : undefined;
      if (!binding || !node || this.argumentsOf.has(binding)) return;
      this.argumentsOf.set(binding, { node, scope });
      bound.push(binding);
    };
    let position = 0;
    for (const arg of call.childForFieldName('arguments')?.namedChildren ?? []) {
      if (!arg || arg.type === 'comment') continue;
      if (arg.type === 'keyword_argument')
        bind(arg.childForFieldName('name')?.text, arg.childForFieldName('value'));
      else if (arg.type !== 'list_splat' && arg.type !== 'dictionary_splat') bind(params[position++], arg);
    }
    // Parameters the call leaves out take their default value.
    for (const param of fn.childForFieldName('parameters')?.namedChildren ?? []) {
      const value = param?.childForFieldName('value');
      if (value && fnScope?.parent) {
        const name = param?.childForFieldName('name')?.text;
        const binding = name ? fnScope.bindings.get(name) : undefined;
        if (binding && !this.argumentsOf.has(binding)) {
          this.argumentsOf.set(binding, { node: value, scope: fnScope.parent });
          bound.push(binding);
        }
      }
    }
    try {
      return this.withActive(fn.id, run);
    } finally {
      for (const binding of bound) this.argumentsOf.delete(binding);
    }
  }

  private withActive<T>(key: PyBinding | number, run: () => T): T {
    this.active.add(key);
    try {
      return run();
    } finally {
      this.active.delete(key);
    }
  }

  /** The same-file function a call invokes (`helper(x)`), if any. */
  private helper(call: Node, scope: PyScope): Node | undefined {
    const fn = call.childForFieldName('function');
    return fn?.type === 'identifier' ? scope.resolve(fn.text)?.fn : undefined;
  }

  evaluate(node: Node, scope: PyScope, depth = 0): unknown {
    if (depth > MAX_DEPTH) return new Opaque(this.text(node));
    switch (node.type) {
      case 'string':
        return stringValue(node);
      case 'concatenated_string': {
        const parts = node.namedChildren.map((c) => (c ? stringValue(c) : ''));
        return parts.every((p) => typeof p === 'string')
          ? parts.join('')
          : new TypedOpaque(this.text(node), 'string');
      }
      case 'integer':
      case 'float': {
        const n = Number(node.text.replace(/_/g, ''));
        return Number.isFinite(n) ? n : new TypedOpaque(this.text(node), 'number');
      }
      case 'true':
        return true;
      case 'false':
        return false;
      case 'none':
        return null;
      case 'parenthesized_expression':
      case 'await': {
        const inner = node.namedChildren[0];
        return inner ? this.evaluate(inner, scope, depth) : new Opaque(this.text(node));
      }
      case 'dictionary':
        return this.dictionary(node, scope, depth);
      case 'list':
      case 'tuple':
      // `return content, structured` has no parentheses: tree-sitter calls that tuple an expression_list.
      case 'expression_list':
        return this.sequence(node, scope, depth);
      case 'identifier':
        return this.identifier(node, scope, depth);
      case 'list_comprehension':
        return new TypedOpaque(this.text(node), 'array');
      case 'dictionary_comprehension':
        return new TypedOpaque(this.text(node), 'object');
      case 'not_operator':
      case 'comparison_operator':
        return new TypedOpaque(this.text(node), 'boolean');
      case 'conditional_expression': {
        const [body, , alternative] = node.namedChildren;
        return this.either(node, [body, alternative], scope, depth);
      }
      case 'boolean_operator':
        return this.either(
          node,
          [node.childForFieldName('left'), node.childForFieldName('right')],
          scope,
          depth,
        );
      case 'binary_operator': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        const op = node.childForFieldName('operator')?.text;
        if (!left || !right) break;
        const a = this.evaluate(left, scope, depth + 1);
        const b = this.evaluate(right, scope, depth + 1);
        if (op === '+' && typeof a === 'string' && typeof b === 'string') return a + b;
        if (op === '%' && kindOf(a) === 'string') return new TypedOpaque(this.text(node), 'string');
        if (kindOf(a) === kindOf(b) && (kindOf(a) === 'string' || kindOf(a) === 'number')) {
          return new TypedOpaque(this.text(node), kindOf(a) as JsonKind);
        }
        break;
      }
      case 'unary_operator': {
        const operand = node.childForFieldName('argument');
        const value = operand ? this.evaluate(operand, scope, depth + 1) : undefined;
        if (typeof value === 'number') return node.text.startsWith('-') ? -value : value;
        return new TypedOpaque(this.text(node), 'number');
      }
      case 'subscript': {
        const value = node.childForFieldName('value');
        const key = node.childForFieldName('subscript');
        const object = value ? this.evaluate(value, scope, depth + 1) : undefined;
        const k = key?.type === 'string' ? stringValue(key) : undefined;
        if (typeof k === 'string' && typeof object === 'object' && object !== null && !isOpaque(object)) {
          if (Object.hasOwn(object, k)) return (object as Record<string, unknown>)[k];
        }
        break;
      }
      case 'call':
        return this.call(node, scope, depth);
    }
    return new Opaque(this.text(node));
  }

  private either(node: Node, branches: (Node | null | undefined)[], scope: PyScope, depth: number): unknown {
    return commonKind(
      branches.map((b) => (b ? this.evaluate(b, scope, depth + 1) : new Opaque(this.text(node)))),
      this.text(node),
    );
  }

  private dictionary(node: Node, scope: PyScope, depth: number): Record<string, unknown> {
    const object = this.positions.container<Record<string, unknown>>({}, node.startIndex);
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'pair') {
        const keyNode = child.childForFieldName('key');
        const valueNode = child.childForFieldName('value');
        const key = keyNode?.type === 'string' ? stringValue(keyNode) : undefined;
        if (typeof key !== 'string' || !valueNode) {
          markOpen(object);
          continue;
        }
        this.set(object, key, this.evaluate(valueNode, scope, depth + 1), valueNode.startIndex);
      } else if (child.type === 'dictionary_splat') {
        const inner = child.namedChildren[0];
        const spread = inner ? this.evaluate(inner, scope, depth + 1) : undefined;
        if (kindOf(spread) === 'object' && !isOpaque(spread)) {
          for (const [k, v] of Object.entries(spread as object)) this.set(object, k, v, child.startIndex);
          if (isOpen(spread)) markOpen(object);
        } else markOpen(object);
      } else if (child.type !== 'comment') {
        markOpen(object);
      }
    }
    return object;
  }

  private set(object: Record<string, unknown>, key: string, value: unknown, at: number): void {
    object[key] = value;
    this.positions.member(object, key, at);
  }

  private sequence(node: Node, scope: PyScope, depth: number): unknown[] {
    const array = this.positions.container<unknown[]>([], node.startIndex);
    if (node.type !== 'list') (array as unknown as { [MODEL]: string })[MODEL] = 'tuple';
    for (const child of node.namedChildren) {
      if (!child || child.type === 'comment') continue;
      if (child.type === 'list_splat') {
        const inner = child.namedChildren[0];
        const spread = inner ? this.evaluate(inner, scope, depth + 1) : undefined;
        if (Array.isArray(spread)) for (const item of spread) this.push(array, item, child.startIndex);
        else markOpen(array);
        continue;
      }
      this.push(array, this.evaluate(child, scope, depth + 1), child.startIndex);
    }
    return array;
  }

  private push(array: unknown[], value: unknown, at: number): void {
    this.positions.member(array, array.length, at);
    array.push(value);
  }

  private identifier(node: Node, scope: PyScope, depth: number): unknown {
    const binding = scope.resolve(node.text);
    if (!binding) return new Opaque(node.text);
    return this.bindingValue(binding, node, depth);
  }

  /** A variable's value: its single assignment plus the subscript assignments and appends the file makes. */
  bindingValue(binding: PyBinding, node: Node, depth = 0): unknown {
    const argument = this.argumentsOf.get(binding);
    if (argument && binding.values.length === 0 && binding.mutations.length === 0) {
      this.argumentsOf.delete(binding);
      try {
        return this.evaluate(argument.node, argument.scope, depth + 1);
      } finally {
        this.argumentsOf.set(binding, argument);
      }
    }
    const [only] = binding.values;
    if (binding.unknown || binding.fn || binding.values.length !== 1 || !only || this.active.has(binding)) {
      return new Opaque(this.text(node));
    }
    return this.withActive(binding, () => {
      const value = this.evaluate(only, binding.scope, depth + 1);
      for (const mutation of binding.mutations) this.apply(value, mutation, binding, depth);
      return value;
    });
  }

  private apply(value: unknown, mutation: PyMutation, binding: PyBinding, depth: number): void {
    const container = containerAt(value, mutation.op === 'set' ? mutation.path.slice(0, -1) : mutation.path);
    if (!container) return;
    const scope = binding.scope;
    switch (mutation.op) {
      case 'open':
        markOpen(container);
        return;
      case 'push':
        if (Array.isArray(container)) {
          this.push(container, this.evaluate(mutation.item, scope, depth + 1), mutation.item.startIndex);
        }
        return;
      case 'set': {
        if (Array.isArray(container)) {
          markOpen(container);
          return;
        }
        const key = mutation.path.at(-1) ?? '';
        this.set(
          container as Record<string, unknown>,
          key,
          this.evaluate(mutation.value, scope, depth + 1),
          mutation.target.startIndex,
        );
      }
    }
  }

  private call(node: Node, scope: PyScope, depth: number): unknown {
    const fnNode = node.childForFieldName('function');
    const name = dottedName(fnNode);
    const last = lastSegment(name);
    const args = node.childForFieldName('arguments');
    if (last && (MODELS.has(last) || last === 'dict')) return this.model(last, args, scope, depth, node);
    if (last && FRAMEWORK_HELPERS.has(last)) {
      return Object.assign(new Opaque(this.text(node)), { [MODEL]: last });
    }
    const positional = args?.namedChildren.filter((a) => a && a.type !== 'comment') ?? [];
    const [first] = positional;
    if ((name === 'json.dumps' || name === 'dumps') && first && first.type !== 'keyword_argument') {
      return serialized(this.evaluate(first, scope, depth + 1), this.text(node));
    }
    const helper = this.helper(node, scope);
    if (helper && !this.active.has(helper.id)) {
      const returns = this.inHelper(helper, node, scope, () => this.helperOutcomes(helper, depth));
      if (returns.length === 1) return returns[0]?.value;
      return commonKind(
        returns.map((r) => r.value),
        this.text(node),
      );
    }
    const kind = (name && CALL_KINDS.get(name)) || (last && CALL_KINDS.get(last));
    return kind ? new TypedOpaque(this.text(node), kind) : new Opaque(this.text(node));
  }

  /** `TextContent(type="text", text=…)`, `dict(a=1)`: keyword arguments become members. */
  private model(name: string, args: Node | null, scope: PyScope, depth: number, node: Node): unknown {
    const object = this.positions.container<Record<string, unknown>>({}, node.startIndex);
    if (name !== 'dict') (object as { [MODEL]?: string })[MODEL] = name;
    for (const arg of args?.namedChildren ?? []) {
      if (!arg || arg.type === 'comment') continue;
      if (arg.type === 'keyword_argument') {
        const key = arg.childForFieldName('name')?.text;
        const value = arg.childForFieldName('value');
        if (!key || !value) continue;
        this.set(object, ALIASES[key] ?? key, this.evaluate(value, scope, depth + 1), value.startIndex);
      } else {
        markOpen(object);
      }
    }
    return object;
  }
}
