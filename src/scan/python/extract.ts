/**
 * Finds Python tool handlers and hand-rolled MCP payloads:
 * - FastMCP `@mcp.tool()` / `@mcp.tool` / `mcp.add_tool(fn)` (Python SDK and the `fastmcp` package);
 * - the low-level `@server.call_tool()` handler, its returns split by `if name == "…"` / `match name`;
 * - gateways: any other function that builds `{"content": [...]}` results, content blocks
 *   (`{"type": "text", "text": …}`) or JSON-RPC envelopes (`{"jsonrpc": "2.0", …}`), including
 *   members added later (`payload["requestId"] = …`).
 */

import type { Node, Tree } from 'web-tree-sitter';
import type { Extracted, HandlerSite, ReturnSite, StandaloneDocument } from '../analyze.js';
import type { Framework } from '../frameworks.js';
import { dottedName, PyEvaluator, PyScope, targetPath } from './evaluate.js';

const LOW_LEVEL_LABEL = '(call_tool handler)';

/** Keys that make a dict with a `type` key a content block rather than, say, a JSON Schema. */
const BLOCK_KEYS = ['text', 'data', 'mimeType', 'uri', 'resource'];

interface Index {
  readonly scopes: Map<number, PyScope>;
  readonly module: PyScope;
  readonly functions: Node[];
  /** `mcp.add_tool(fn)` registrations: function names. */
  readonly addedTools: Set<string>;
}

function indexTree(root: Node): Index {
  const module = new PyScope(undefined);
  const scopes = new Map<number, PyScope>();
  const functions: Node[] = [];
  const addedTools = new Set<string>();

  const declareTargets = (target: Node | null, scope: PyScope): void => {
    if (!target) return;
    if (target.type === 'identifier') scope.binding(target.text).unknown = true;
    else for (const child of target.namedChildren) declareTargets(child, scope);
  };

  const visit = (node: Node, scope: PyScope): void => {
    switch (node.type) {
      case 'function_definition': {
        const name = node.childForFieldName('name')?.text;
        if (name) scope.binding(name).fn = node;
        const inner = new PyScope(scope);
        scopes.set(node.id, inner);
        functions.push(node);
        for (const param of node.childForFieldName('parameters')?.namedChildren ?? []) {
          const target =
            param?.type === 'identifier'
              ? param
              : (param?.childForFieldName('name') ?? param?.namedChildren[0]);
          declareTargets(target ?? null, inner);
        }
        const body = node.childForFieldName('body');
        if (body) visit(body, inner);
        return;
      }
      case 'class_definition': {
        const body = node.childForFieldName('body');
        if (body) visit(body, new PyScope(scope));
        return;
      }
      case 'lambda':
        return;
      case 'assignment': {
        const left = node.childForFieldName('left');
        const right = node.childForFieldName('right');
        if (left?.type === 'identifier') {
          if (right) scope.binding(left.text).values.push(right);
        } else if (left && (left.type === 'subscript' || left.type === 'attribute') && right) {
          const target = targetPath(left);
          const binding = target ? scope.resolve(target.root) : undefined;
          if (target && binding) {
            binding.mutations.push(
              target.dynamic || target.path.length === 0
                ? { op: 'open', path: target.path }
                : { op: 'set', path: target.path, value: right, target: left },
            );
          }
        } else declareTargets(left, scope);
        break;
      }
      case 'augmented_assignment': {
        const left = node.childForFieldName('left');
        if (left?.type === 'identifier') scope.binding(left.text).unknown = true;
        break;
      }
      case 'for_statement':
      case 'for_in_clause':
        declareTargets(node.childForFieldName('left'), scope);
        break;
      case 'as_pattern_target':
      case 'import_statement':
      case 'import_from_statement':
        for (const name of node.descendantsOfType(['identifier']))
          if (name) scope.binding(name.text).unknown = true;
        return;
      case 'call':
        callMutation(node, scope, addedTools);
        break;
    }
    for (const child of node.namedChildren) if (child) visit(child, scope);
  };
  visit(root, module);
  return { scopes, module, functions, addedTools };
}

/** `x.append(v)`, `x["content"].extend(…)`, `x.update(…)`, and `mcp.add_tool(fn)`. */
function callMutation(node: Node, scope: PyScope, addedTools: Set<string>): void {
  const fn = node.childForFieldName('function');
  if (fn?.type !== 'attribute') return;
  const method = fn.childForFieldName('attribute')?.text;
  const args =
    node.childForFieldName('arguments')?.namedChildren.filter((a) => a && a.type !== 'comment') ?? [];
  if (method === 'add_tool' && args[0]?.type === 'identifier') {
    addedTools.add(args[0].text);
    return;
  }
  const receiver = fn.childForFieldName('object');
  const target = receiver
    ? (targetPath(receiver) ??
      (receiver.type === 'identifier' ? { root: receiver.text, path: [], dynamic: false } : undefined))
    : undefined;
  if (!target || target.dynamic) return;
  const binding = scope.resolve(target.root);
  if (!binding) return;
  const [item] = args;
  if (method === 'append' && item && args.length === 1 && item.type !== 'keyword_argument') {
    binding.mutations.push({ op: 'push', path: target.path, item });
  } else if (method && ['extend', 'insert', 'update', 'setdefault'].includes(method)) {
    binding.mutations.push({ op: 'open', path: target.path });
  }
}

interface Decoration {
  readonly framework: Framework;
  readonly tool: string | undefined;
}

/** `@mcp.tool()`, `@mcp.tool(name="x")`, `@mcp.tool`, `@server.call_tool()`. */
function decoration(decorator: Node): Decoration | undefined {
  const expression = decorator.namedChildren[0];
  if (!expression) return undefined;
  const callee = expression.type === 'call' ? expression.childForFieldName('function') : expression;
  const name = dottedName(callee);
  const method = name?.slice(name.lastIndexOf('.') + 1);
  if (method === 'call_tool') return { framework: 'mcp-python-lowlevel', tool: undefined };
  if (method !== 'tool' || !name?.includes('.')) return undefined;
  let tool: string | undefined;
  if (expression.type === 'call') {
    for (const arg of expression.childForFieldName('arguments')?.namedChildren ?? []) {
      if (arg?.type === 'keyword_argument' && arg.childForFieldName('name')?.text === 'name') {
        const value = arg.childForFieldName('value');
        tool = value?.type === 'string' ? value.text.replace(/^[a-zA-Z]*["']+|["']+$/g, '') : undefined;
      }
    }
  }
  return { framework: 'fastmcp-python', tool };
}

function decorations(fn: Node): Node[] {
  const parent = fn.parent;
  return parent?.type === 'decorated_definition'
    ? parent.namedChildren.filter((c): c is Node => c?.type === 'decorator')
    : [];
}

/** `def f(...) -> dict[str, Any]`: FastMCP also sends the dict as structuredContent. */
function returnsStrDict(fn: Node): boolean {
  const annotation = fn.childForFieldName('return_type')?.text.replace(/\s+/g, '') ?? '';
  return /^(dict|Dict|typing\.Dict)\[str,/.test(annotation);
}

function stringLiteral(node: Node | null): string | undefined {
  if (node?.type !== 'string') return undefined;
  const content = node.namedChildren.filter((c) => c?.type === 'string_content');
  return node.namedChildren.some((c) => c?.type === 'interpolation')
    ? undefined
    : content.map((c) => c?.text).join('');
}

/** `if name == "x":` and `match name: case "x":` in low-level handlers. */
function testedName(condition: Node | null): string | undefined {
  if (condition?.type !== 'comparison_operator') return undefined;
  const [left, right] = condition.namedChildren;
  if (!left || !right || !/==/.test(condition.text)) return undefined;
  if (/name/i.test(left.text)) return stringLiteral(right);
  if (/name/i.test(right.text)) return stringLiteral(left);
  return undefined;
}

interface FoundReturn {
  readonly tool: string | undefined;
  readonly statement: Node;
}

function dispatchReturns(fn: Node): FoundReturn[] {
  const found: FoundReturn[] = [];
  const visit = (node: Node, tool: string | undefined): void => {
    switch (node.type) {
      case 'function_definition':
      case 'decorated_definition':
      case 'class_definition':
      case 'lambda':
        return;
      case 'return_statement':
        found.push({ tool, statement: node });
        return;
      case 'if_statement':
      case 'elif_clause': {
        const tested = testedName(node.childForFieldName('condition'));
        const consequence = node.childForFieldName('consequence');
        if (tested === undefined || !consequence) break;
        visit(consequence, tested);
        for (const alt of node.childrenForFieldName('alternative')) if (alt) visit(alt, tool);
        return;
      }
      case 'match_statement': {
        if (!/name/i.test(node.childForFieldName('subject')?.text ?? '')) break;
        for (const clause of node.descendantsOfType('case_clause')) {
          if (!clause) continue;
          const pattern = clause.namedChildren.find((c) => c?.type === 'case_pattern');
          const literal = pattern?.descendantsOfType('string')[0] ?? null;
          const body = clause.childForFieldName('consequence');
          if (body) visit(body, stringLiteral(literal) ?? tool);
        }
        return;
      }
    }
    for (const child of node.namedChildren) if (child) visit(child, tool);
  };
  const body = fn.childForFieldName('body');
  if (body) visit(body, undefined);
  return found;
}

function isEnvelope(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.hasOwn(value, 'jsonrpc');
}

function isResult(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Array.isArray((value as { content?: unknown }).content)
  );
}

function isBlock(value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  return typeof record.type === 'string' && BLOCK_KEYS.some((k) => Object.hasOwn(record, k));
}

export function extractPython(tree: Tree): Extracted<number> {
  const index = indexTree(tree.rootNode);
  const ev = new PyEvaluator(index.scopes);
  const handlers: HandlerSite<number>[] = [];
  const documents: StandaloneDocument<number>[] = [];

  for (const fn of index.functions) {
    const scope = ev.scopeOf(fn);
    if (!scope) continue;
    const name = fn.childForFieldName('name')?.text ?? '(anonymous)';
    const decorated = decorations(fn)
      .map(decoration)
      .find((d) => d !== undefined);
    const registered: Decoration | undefined =
      decorated ??
      (index.addedTools.has(name) ? { framework: 'fastmcp-python', tool: undefined } : undefined);
    if (registered) {
      const byTool = new Map<string, ReturnSite<number>[]>();
      const found =
        registered.framework === 'mcp-python-lowlevel'
          ? dispatchReturns(fn)
          : ev.returnsOf(fn).map((statement) => ({ tool: undefined, statement }));
      const fallback =
        registered.framework === 'mcp-python-lowlevel' ? LOW_LEVEL_LABEL : (registered.tool ?? name);
      for (const r of found) {
        const value = r.statement.namedChildren[0];
        const outcomes = value ? ev.outcomes(value, scope) : [{ value: null, at: r.statement.startIndex }];
        const tool = r.tool ?? fallback;
        byTool.set(tool, [...(byTool.get(tool) ?? []), { at: r.statement.startIndex, outcomes }]);
      }
      for (const [tool, returns] of byTool) {
        handlers.push({
          tool,
          framework: registered.framework,
          at: fn.startIndex,
          returns,
          ...(returnsStrDict(fn) ? { wrap: { structuredDict: true } } : {}),
        });
      }
      continue;
    }
    gateway(fn, name, scope, ev, handlers, documents);
  }
  return { handlers, documents, positions: ev.positions };
}

/**
 * A function that is not a registered handler but builds MCP payloads itself. Its results count as
 * tool returns (framework `gateway`: sent as built); its envelopes and lone blocks are checked too.
 */
function gateway(
  fn: Node,
  name: string,
  scope: PyScope,
  ev: PyEvaluator,
  handlers: HandlerSite<number>[],
  documents: StandaloneDocument<number>[],
): void {
  const dicts = ownDictionaries(fn);
  if (dicts.length === 0) return;
  const returns: ReturnSite<number>[] = [];
  const claimed = new Set<number>();
  for (const dict of dicts) {
    if (claimed.has(dict.id)) continue;
    const assigned =
      dict.parent?.type === 'assignment' && dict.parent.childForFieldName('left')?.type === 'identifier';
    const binding = assigned ? scope.resolve(dict.parent?.childForFieldName('left')?.text ?? '') : undefined;
    const value = binding ? ev.bindingValue(binding, dict) : ev.evaluate(dict, scope);
    if (isEnvelope(value)) {
      documents.push({ kind: 'message', value, at: dict.startIndex, owner: name });
      // A tools/call response built here: its result is one of the gateway's tool returns.
      const result = (value as { result?: unknown }).result;
      if (isResult(result))
        returns.push({ at: dict.startIndex, outcomes: [{ value: result, at: dict.startIndex }] });
      for (const inner of dict.descendantsOfType('dictionary')) if (inner) claimed.add(inner.id);
    } else if (isResult(value)) {
      returns.push({ at: dict.startIndex, outcomes: [{ value, at: dict.startIndex }] });
      for (const inner of dict.descendantsOfType('dictionary')) if (inner) claimed.add(inner.id);
    } else if (isBlock(value)) {
      documents.push({ kind: 'block', value, at: dict.startIndex, owner: name });
    }
  }
  if (returns.length > 0) handlers.push({ tool: name, framework: 'gateway', at: fn.startIndex, returns });
}

/** Dict literals in a function body, outermost first, excluding nested functions. */
function ownDictionaries(fn: Node): Node[] {
  const found: Node[] = [];
  const walk = (node: Node): void => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (['function_definition', 'decorated_definition', 'class_definition', 'lambda'].includes(child.type))
        continue;
      if (child.type === 'dictionary') found.push(child);
      walk(child);
    }
  };
  const body = fn.childForFieldName('body');
  if (body) walk(body);
  return found;
}
