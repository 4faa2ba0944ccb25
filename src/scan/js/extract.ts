/**
 * Finds tool handlers in an ESTree program and evaluates what each return statement produces:
 * - SDK v1/v2 `McpServer`: `server.tool(name, …, cb)` and `server.registerTool(name, config, cb)`;
 * - low-level `server.setRequestHandler(CallToolRequestSchema | 'tools/call', cb)`, with returns
 *   attributed to the tool named by the enclosing `switch (name)` case or `if (name === '…')`;
 * - FastMCP for TypeScript: `server.addTool({ name, execute })`;
 * - JSON-RPC envelope literals (`{ jsonrpc: '2.0', … }`) anywhere, with later member assignments.
 */

import type { CallExpression, Expression, Node, Program } from 'oxc-parser';
import type { Extracted, HandlerSite, ReturnSite, StandaloneDocument } from '../analyze.js';
import type { Framework } from '../frameworks.js';
import {
  type FunctionLike,
  forEachChild,
  isFunction,
  memberName,
  offsetOf,
  staticKey,
  unwrap,
} from './ast.js';
import { JsEvaluator } from './evaluate.js';
import { indexProgram, type Scope } from './scope.js';

const LOW_LEVEL_LABEL = '(tools/call handler)';

interface Registration {
  readonly tool: string;
  readonly framework: Framework;
  readonly handler: Expression | undefined;
  readonly at: number;
  /** Low-level handlers serve many tools: split their returns by the tool name they test. */
  readonly dispatch: boolean;
}

function isCallToolSchema(node: Expression): boolean {
  const bare = unwrap(node);
  if (bare.type === 'Identifier') return bare.name === 'CallToolRequestSchema';
  if (bare.type === 'Literal') return bare.value === 'tools/call';
  return memberName(bare) === 'CallToolRequestSchema';
}

function plainArguments(call: CallExpression): Expression[] | undefined {
  const args: Expression[] = [];
  for (const a of call.arguments) {
    if (a.type === 'SpreadElement') return undefined;
    args.push(a);
  }
  return args;
}

/** A function, or a reference the scanner cannot follow (an import, `this.handle`, a wrapper call). */
function couldBeHandler(ev: JsEvaluator, node: Expression, scope: Scope): boolean {
  if (ev.resolveFunction(node, scope)) return true;
  const bare = unwrap(node);
  return bare.type === 'Identifier' || bare.type === 'MemberExpression' || bare.type === 'CallExpression';
}

function toolName(ev: JsEvaluator, node: Expression | undefined, scope: Scope): string {
  if (!node) return '(unnamed tool)';
  const value = ev.evaluate(node, scope);
  return typeof value === 'string' ? value : ev.text(node);
}

function registration(ev: JsEvaluator, call: CallExpression, scope: Scope): Registration | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== 'MemberExpression') return undefined;
  const method = memberName(callee);
  const args = plainArguments(call);
  if (!args || args.length === 0) return undefined;
  const at = offsetOf(call);
  switch (method) {
    case 'tool':
    case 'registerTool': {
      if (args.length < 2) return undefined;
      const handler = args.at(-1);
      const name = args[0];
      if (!handler || !name || !couldBeHandler(ev, handler, scope)) return undefined;
      return { tool: toolName(ev, name, scope), framework: 'mcp-sdk', handler, at, dispatch: false };
    }
    case 'setRequestHandler': {
      const [schema] = args;
      if (!schema || !isCallToolSchema(schema) || args.length < 2) return undefined;
      return { tool: LOW_LEVEL_LABEL, framework: 'mcp-sdk', handler: args.at(-1), at, dispatch: true };
    }
    case 'addTool': {
      const [first] = args;
      const definition = first ? ev.resolveObject(first, scope) : undefined;
      if (!definition) return undefined;
      let handler: Expression | undefined;
      let name: Expression | undefined;
      for (const p of definition.node.properties) {
        if (p.type !== 'Property') continue;
        const key = staticKey(p.key, p.computed);
        if (key === 'execute') handler = p.value;
        if (key === 'name') name = p.value;
      }
      if (!handler) return undefined;
      return {
        tool: toolName(ev, name, definition.scope),
        framework: 'fastmcp-ts',
        handler,
        at,
        dispatch: false,
      };
    }
    default:
      return undefined;
  }
}

/** `switch (request.params.name)`, `if (name === 'x')`: the dispatch tests of low-level handlers. */
function mentionsName(ev: JsEvaluator, node: Node): boolean {
  return /name/i.test(ev.text(node));
}

function testedToolName(ev: JsEvaluator, test: Expression): string | undefined {
  const bare = unwrap(test);
  if (bare.type !== 'BinaryExpression' || (bare.operator !== '===' && bare.operator !== '=='))
    return undefined;
  const left = unwrap(bare.left as Expression);
  const right = unwrap(bare.right);
  if (right.type === 'Literal' && typeof right.value === 'string' && mentionsName(ev, left))
    return right.value;
  if (left.type === 'Literal' && typeof left.value === 'string' && mentionsName(ev, right)) return left.value;
  return undefined;
}

interface FoundReturn {
  readonly tool: string | undefined;
  readonly site: ReturnSite<number>;
}

/** Return statements of a handler (not of nested functions), tagged with the tool they serve. */
function handlerReturns(ev: JsEvaluator, fn: FunctionLike, dispatch: boolean): FoundReturn[] {
  const scope = ev.scopeOf(fn);
  const body = fn.body;
  if (!scope || !body) return [];
  if (body.type !== 'BlockStatement') {
    return [{ tool: undefined, site: { at: offsetOf(body), outcomes: ev.outcomes(body, scope) } }];
  }
  const found: FoundReturn[] = [];
  const walk = (node: Node, current: Scope, tool: string | undefined): void => {
    if (isFunction(node) || node.type === 'ClassDeclaration' || node.type === 'ClassExpression') return;
    const inner = ev.scopeOf(node) ?? current;
    switch (node.type) {
      case 'ReturnStatement':
        if (node.argument) {
          found.push({ tool, site: { at: offsetOf(node), outcomes: ev.outcomes(node.argument, inner) } });
        }
        return;
      case 'SwitchStatement': {
        if (!dispatch || !mentionsName(ev, node.discriminant)) break;
        let pending: string[] = [];
        for (const c of node.cases) {
          if (c.test?.type === 'Literal' && typeof c.test.value === 'string') pending.push(c.test.value);
          const caseTool = pending.length > 0 ? pending.join('/') : tool;
          for (const statement of c.consequent) walk(statement, inner, caseTool);
          if (c.consequent.length > 0) pending = [];
        }
        return;
      }
      case 'IfStatement': {
        const tested = dispatch ? testedToolName(ev, node.test) : undefined;
        if (tested === undefined) break;
        walk(node.consequent, inner, tested);
        if (node.alternate) walk(node.alternate, inner, tool);
        return;
      }
    }
    forEachChild(node, (child) => walk(child, inner, tool));
  };
  for (const statement of body.body) walk(statement, scope, undefined);
  return found;
}

/** The function body has a `throw` of its own (the SDK turns it into an isError result). */
function throws(fn: FunctionLike): boolean {
  let found = false;
  const walk = (node: Node): void => {
    if (found || isFunction(node)) return;
    if (node.type === 'ThrowStatement') found = true;
    else forEachChild(node, walk);
  };
  if (fn.body) forEachChild(fn.body, walk);
  return found;
}

function handlerSites(ev: JsEvaluator, reg: Registration, scope: Scope): HandlerSite<number>[] {
  const fn = reg.handler ? ev.resolveFunction(reg.handler, scope) : undefined;
  if (!fn) {
    // A handler we cannot follow (`this.handle.bind(this)`, a wrapper from another module) still counts.
    return [
      { tool: reg.tool, framework: reg.framework, at: reg.at, returns: [{ at: reg.at, outcomes: [] }] },
    ];
  }
  const found = handlerReturns(ev, fn, reg.dispatch);
  if (found.length === 0 && !fn.generator && !throws(fn)) {
    // A handler that neither returns nor throws resolves to undefined.
    found.push({
      tool: undefined,
      site: { at: offsetOf(fn), outcomes: [{ value: undefined, at: offsetOf(fn) }] },
    });
  }
  const byTool = new Map<string, ReturnSite<number>[]>();
  for (const r of found) {
    const tool = r.tool ?? reg.tool;
    byTool.set(tool, [...(byTool.get(tool) ?? []), r.site]);
  }
  return [...byTool].map(([tool, returns]) => ({ tool, framework: reg.framework, at: reg.at, returns }));
}

export function extractJs(program: Program, source: string): Extracted<number> {
  const index = indexProgram(program);
  const ev = new JsEvaluator(source, index);
  const handlers: HandlerSite<number>[] = [];
  for (const { call, scope } of index.calls) {
    const reg = registration(ev, call, scope);
    if (reg) handlers.push(...handlerSites(ev, reg, scope));
  }
  const documents: StandaloneDocument<number>[] = index.envelopes.map((e) => ({
    kind: 'message',
    value: e.binding ? ev.bindingValue(e.binding, e.node) : ev.evaluate(e.node, e.scope),
    at: offsetOf(e.node),
  }));
  return { handlers, documents, positions: ev.positions };
}
