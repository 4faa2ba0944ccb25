/**
 * Finds Python tool handlers and hand-built MCP payloads, and has the interpreter compute what each
 * return produces:
 * - FastMCP `@mcp.tool()` / `@mcp.tool` / `mcp.add_tool(fn)` / `mcp.tool(…)(fn)` (the Python SDK's
 *   `mcp.server.fastmcp` and the standalone `fastmcp` package), with FastMCP's conversion of return values;
 * - the low-level `@server.call_tool()` handler, its returns split by `if name == "…"` / `match name`,
 *   with the low-level server's conversion (a dict becomes structuredContent);
 * - hand-rolled JSON-RPC gateways (FastAPI, Flask, Starlette, plain): `{"jsonrpc": "2.0", …}`
 *   envelopes anywhere, checked as messages after every later change (`payload["requestId"] = …`);
 *   when one carries a tools/call result, that result is a return of the function building it.
 *   Result dicts (`{"content": [...]}`) and content blocks built outside handlers are checked too.
 */

import { appendAll } from '../../core/append.js';
import { isObject, type JsonObject } from '../../core/json.js';
import { isOpen } from '../../core/opaque.js';
import { Budget } from '../abstract/budget.js';
import { concretize } from '../abstract/concretize.js';
import { declaredType, provenBy } from '../abstract/declared.js';
import { Heap, type ObjState } from '../abstract/heap.js';
import { inputValue } from '../abstract/input-value.js';
import {
  constantStrings,
  type FunctionValue,
  join,
  NOTHING,
  ref,
  type Site,
  str,
  type Value,
} from '../abstract/value.js';
import type { Extracted, HandlerSite, ReturnSite, StandaloneDocument } from '../analyze.js';
import {
  budgetReason,
  type Departure,
  gatewayEnvelope,
  httpErrorStatus,
  isolated,
  unresolvedHandler,
} from '../extraction.js';
import type { Framework, WrapOptions } from '../frameworks.js';
import { type ListedSchemas, noteListedSchema, withSchemas } from '../listed-schemas.js';
import type { Project } from '../project.js';
import { parseAnnotation, type ReturnAnnotation } from '../pydantic-lax.js';
import { isFullyKnown, ValuePositions } from '../values.js';
import type { PyInterpreter, PyModule, PyRun } from './interpret.js';
import { type ClassLocator, moduleClasses, routeResponseModel } from './models.js';
import { field, fields, type PyNode, pushChildren } from './parser.js';
import { stringContent } from './strings.js';

export const PY_LOW_LEVEL_LABEL = '(call_tool handler)';

/** Keys that make a dict with a `type` key a content block rather than, say, a JSON Schema. */
const BLOCK_KEYS = ['text', 'data', 'mimeType', 'uri', 'resource'];

interface Registration {
  readonly framework: Framework;
  /** The `def` node, or the `add_tool(…)` call whose first argument is the function. */
  readonly node: PyNode;
  readonly tool: string | undefined;
  readonly call?: PyNode;
  /** FastMCP `structured_output=False`: no output model, so the return value is not validated. */
  readonly unstructured?: boolean;
  /** Low-level `@server.call_tool()`: the server checks the arguments against the listed inputSchema. */
  readonly validatesInput?: boolean;
  /** `FastMCP(…, tools=[…])`: tools the constructor registers, which the scan does not follow. */
  readonly constructed?: boolean;
}

/** `structured_output=False` among a FastMCP registration's keywords. */
function unstructured(mod: PyModule, call: PyNode | undefined): { unstructured?: true } {
  const value = keyword(mod, call, 'structured_output');
  return value && text(mod, value) === 'False' ? { unstructured: true } : {};
}

export interface Discovery {
  readonly registrations: readonly Registration[];
  /** Dict literals (and `dict(…)` calls) that may be envelopes, results or blocks. */
  readonly payloads: readonly PyNode[];
  readonly functions: readonly PyNode[];
  /** `@server.list_tools()` functions: where a low-level server says each tool's outputSchema. */
  readonly toolLists: readonly PyNode[];
}

function text(mod: PyModule, node: PyNode): string {
  return mod.tree.source.slice(node.start, node.end);
}

function stringLiteral(mod: PyModule, node: PyNode | undefined): string | undefined {
  if (node?.type !== 'string') return undefined;
  const { source } = mod.tree;
  // A raw string: an `r` in the prefix before the opening quote (at most two letters).
  let raw = false;
  for (let i = node.start; i < Math.min(node.start + 3, node.end); i++) {
    const c = source[i];
    if (c === '"' || c === "'") break;
    if (c === 'r' || c === 'R') raw = true;
  }
  let out = '';
  const { children } = node;
  for (let i = 0; i < children.length; i++) {
    const child = children[i] as PyNode;
    if (child.type === 'interpolation') return undefined;
    if (child.type !== 'string_content') continue;
    const content = stringContent(source, child, raw);
    if (content === undefined) return undefined;
    out += content;
  }
  return out;
}

/** The dotted name of a decorator's callee: `mcp.tool`, `server.call_tool`. */
function decoratorName(
  mod: PyModule,
  decorator: PyNode,
): { name: string; call: PyNode | undefined } | undefined {
  const [expression] = decorator.children;
  if (!expression) return undefined;
  const callee = expression.type === 'call' ? field(expression, 'function') : expression;
  if (!callee || (callee.type !== 'attribute' && callee.type !== 'identifier')) return undefined;
  return { name: text(mod, callee), call: expression.type === 'call' ? expression : undefined };
}

function keyword(mod: PyModule, call: PyNode | undefined, name: string): PyNode | undefined {
  // `@mcp.tool` without parentheses (FastMCP 2) has no call and so no keywords.
  if (!call) return undefined;
  for (const a of field(call, 'arguments')?.children ?? []) {
    if (a.type === 'keyword_argument' && text(mod, field(a, 'name') ?? a) === name) return field(a, 'value');
  }
  return undefined;
}

/**
 * Whether a low-level `@server.call_tool(…)` checks each call's arguments against the inputSchema its
 * `list_tools` gives the tool (python-sdk `Server.call_tool(validate_input=True)`, the default since
 * mcp 1.10; arguments that fail get an "Input validation error" result, and the handler never runs).
 * Only the literal `True`, or no such keyword, counts.
 */
function validatesInput(mod: PyModule, call: PyNode): { validatesInput?: true } {
  const value = keyword(mod, call, 'validate_input');
  return value === undefined || text(mod, value) === 'True' ? { validatesInput: true } : {};
}

/** One pass over the tree: handlers, payload literals and functions. */
export function discover(mod: PyModule): Discovery {
  const registrations: Registration[] = [];
  const payloads: PyNode[] = [];
  const functions: PyNode[] = [];
  const toolLists: PyNode[] = [];
  const stack: PyNode[] = [mod.tree.root];
  for (let node = stack.pop(); node; node = stack.pop()) {
    switch (node.type) {
      case 'decorated_definition': {
        const definition = field(node, 'definition');
        if (definition?.type !== 'function_definition') break;
        for (const decorator of node.children.filter((c) => c.type === 'decorator')) {
          const named = decoratorName(mod, decorator);
          const method = named?.name.slice(named.name.lastIndexOf('.') + 1);
          if (!named?.name.includes('.')) continue;
          if (method === 'call_tool')
            registrations.push({
              framework: 'mcp-python-lowlevel',
              node: definition,
              tool: undefined,
              ...(named.call ? validatesInput(mod, named.call) : {}),
            });
          else if (method === 'list_tools') toolLists.push(definition);
          else if (method === 'tool') {
            registrations.push({
              framework: 'fastmcp-python',
              node: definition,
              tool: stringLiteral(mod, keyword(mod, named.call, 'name')),
              ...unstructured(mod, named.call),
            });
          }
        }
        break;
      }
      case 'function_definition':
        functions.push(node);
        break;
      case 'call': {
        const callee = field(node, 'function');
        const method = callee?.type === 'attribute' ? field(callee, 'attribute') : undefined;
        if (method && text(mod, method) === 'add_tool') registrations.push(fastmcpCall(mod, node, node));
        // `FastMCP("name", tools=[…])`: tools given to the constructor, not followed here, so not proven.
        if (callee && /(?:^|\.)FastMCP$/.test(text(mod, callee)) && keyword(mod, node, 'tools'))
          registrations.push({ framework: 'fastmcp-python', node, tool: undefined, constructed: true });
        const called = calledRegistration(mod, node);
        if (called) registrations.push(called);
        if (callee?.type === 'identifier' && text(mod, callee) === 'dict' && keyword(mod, node, 'jsonrpc'))
          payloads.push(node);
        // `RpcResponse(id=…, result=…)`: a response model's instance (see the interpreter's responseModel).
        else if (callee && (keyword(mod, node, 'result') || keyword(mod, node, 'error'))) payloads.push(node);
        break;
      }
      case 'dictionary':
        if (
          node.children.some((pair) => pair.type === 'pair' && isPayloadKey(mod, field(pair, 'key'))) ||
          mayDeriveEnvelope(mod, node) ||
          sentByResponseModel(mod, node)
        )
          payloads.push(node);
        break;
    }
    for (let i = node.children.length - 1; i >= 0; i--) stack.push(node.children[i] as PyNode);
  }
  return { registrations, payloads, functions, toolLists };
}

/**
 * A registration decorator called by hand rather than written above a `def`: `mcp.tool(name=…)(fn)` and
 * `server.call_tool()(handler)`, as a loop over a table of tools writes it, and FastMCP 2's direct
 * `mcp.tool(fn, name=…)`. The function is the call's first argument, as for `add_tool`.
 */
function calledRegistration(mod: PyModule, node: PyNode): Registration | undefined {
  const callee = field(node, 'function');
  if (callee?.type === 'call') {
    const method = calledMethod(mod, callee);
    if (method === 'tool') return fastmcpCall(mod, node, callee);
    if (method === 'call_tool')
      return {
        framework: 'mcp-python-lowlevel',
        node,
        tool: undefined,
        call: node,
        ...validatesInput(mod, callee),
      };
    return undefined;
  }
  // `@mcp.tool("name")` is a decorator, and `mcp.tool(name="x")` the inner call of the form above.
  if (calledMethod(mod, node) !== 'tool' || node.parent?.type === 'decorator' || node.parent?.type === 'call')
    return undefined;
  const [first] = field(node, 'arguments')?.children ?? [];
  if (!first || first.type === 'keyword_argument' || first.type === 'string') return undefined;
  return fastmcpCall(mod, node, node);
}

/** A FastMCP registration by the call `node`, its function the first argument; `options` has the keywords. */
function fastmcpCall(mod: PyModule, node: PyNode, options: PyNode): Registration {
  return {
    framework: 'fastmcp-python',
    node,
    tool: stringLiteral(mod, keyword(mod, options, 'name')),
    call: node,
    ...unstructured(mod, options),
  };
}

/** The method a call calls: `tool` of `mcp.tool(…)`. */
function calledMethod(mod: PyModule, call: PyNode): string | undefined {
  const callee = field(call, 'function');
  const method = callee?.type === 'attribute' ? field(callee, 'attribute') : undefined;
  return method ? text(mod, method) : undefined;
}

function isPayloadKey(mod: PyModule, key: PyNode | undefined): boolean {
  const name = stringLiteral(mod, key);
  return name === 'jsonrpc' || name === 'content' || name === 'type';
}

/** `return {"id": …, "result": …}` in a FastAPI route whose response model gives `jsonrpc`. */
function sentByResponseModel(mod: PyModule, node: PyNode): boolean {
  if (node.parent?.type !== 'return_statement') return false;
  const answers = node.children.some(
    (pair) =>
      pair.type === 'pair' && ['result', 'error'].includes(stringLiteral(mod, field(pair, 'key')) ?? ''),
  );
  const route = answers ? enclosingDef(node) : undefined;
  return route !== undefined && routeResponseModel(mod.tree.source, route) !== undefined;
}

/** `{**base, "result": result}`: a response whose `jsonrpc` may come from the splat. */
function mayDeriveEnvelope(mod: PyModule, node: PyNode): boolean {
  return (
    node.children.some((c) => c.type === 'dictionary_splat') &&
    node.children.some(
      (pair) =>
        pair.type === 'pair' && ['result', 'error'].includes(stringLiteral(mod, field(pair, 'key')) ?? ''),
    )
  );
}

/** `if name == "x":` in low-level handlers. */
function testedName(mod: PyModule, condition: PyNode | undefined): string | undefined {
  if (condition?.type !== 'comparison_operator') return undefined;
  const [left, right] = condition.children;
  if (!left || !right || !/==/.test(mod.tree.source.slice(left.end, right.start))) return undefined;
  if (/name/i.test(text(mod, left))) return stringLiteral(mod, right);
  if (/name/i.test(text(mod, right))) return stringLiteral(mod, left);
  return undefined;
}

/** The tool each return statement of a low-level handler serves, by its `if`/`match` branch. */
function dispatchTools(mod: PyModule, fn: PyNode): Map<PyNode, string> {
  const tools = new Map<PyNode, string>();
  const visit = (node: PyNode, tool: string | undefined): void => {
    switch (node.type) {
      case 'function_definition':
      case 'decorated_definition':
      case 'class_definition':
      case 'lambda':
        return;
      case 'return_statement':
        if (tool) tools.set(node, tool);
        return;
      case 'if_statement':
      case 'elif_clause': {
        const tested = testedName(mod, field(node, 'condition'));
        const consequence = field(node, 'consequence');
        if (tested === undefined || !consequence) break;
        visit(consequence, tested);
        for (const alt of fields(node, 'alternative')) visit(alt, tool);
        return;
      }
      case 'match_statement': {
        const subject = field(node, 'subject');
        if (!subject || !/name/i.test(text(mod, subject))) break;
        for (const clause of field(node, 'body')?.children ?? []) {
          if (clause.type !== 'case_clause') continue;
          const pattern = clause.children.find((c) => c.type === 'case_pattern');
          const literal = pattern?.children.find((c) => c.type === 'string');
          const body = field(clause, 'consequence') ?? clause.children.find((c) => c.type === 'block');
          if (body) visit(body, stringLiteral(mod, literal) ?? tool);
        }
        return;
      }
    }
    for (const child of node.children) visit(child, tool);
  };
  const body = field(fn, 'body');
  if (body) visit(body, undefined);
  return tools;
}

/** `def f(...) -> dict[str, Any]`: FastMCP also sends the dict as structuredContent. */
function returnsStrDict(mod: PyModule, fn: PyNode): boolean {
  const annotation = field(fn, 'return_type');
  const type = annotation ? text(mod, annotation).replace(/\s+/g, '') : '';
  return /^(dict|Dict|typing\.Dict)\[str,/.test(type);
}

/** `def f(...) -> int` (`list[str]`, `dict[str, float]`, …): what FastMCP checks the value against. */
function returnAnnotation(mod: PyModule, fn: PyNode, locate: ClassLocator): ReturnAnnotation | undefined {
  const annotation = field(fn, 'return_type');
  const written = annotation ? text(mod, annotation).trim() : '';
  const type = parseAnnotation(written, moduleClasses(mod, locate));
  return type && { text: written, type };
}

/** Typing constructs pydantic validates by rules the scan does not model (pydantic-lax.ts reads the rest). */
const UNREAD_CONSTRUCTS =
  /^(?:typing\.)?(?:Literal|Annotated|Union|tuple|Tuple|set|Set|frozenset|FrozenSet|Sequence|Mapping|Iterable)\[/;

/** The return annotation, when it is such a construct. */
function unreadConstruct(mod: PyModule, fn: PyNode): string | undefined {
  const annotation = field(fn, 'return_type');
  const written = annotation ? text(mod, annotation).trim() : '';
  return UNREAD_CONSTRUCTS.test(written) ? written : undefined;
}

const CONTENT_MODEL = /^(?:[\w.]+\.)?(TextContent|ImageContent|AudioContent|EmbeddedResource|ResourceLink)$/;

/**
 * `-> TextContent`, `-> list[TextContent | ImageContent]`: the SDK's content models, which FastMCP
 * builds an output model from and validates each return against (a dict of another type fails).
 */
function contentModels(mod: PyModule, fn: PyNode): { names: Set<string>; list: boolean } | undefined {
  const annotation = field(fn, 'return_type');
  const written = annotation ? text(mod, annotation).replace(/\s+/g, '') : '';
  const list = /^(?:typing\.)?(?:list|List)\[(.*)\]$/.exec(written);
  const names = new Set<string>();
  for (const part of (list ? (list[1] as string) : written).split('|')) {
    const name = CONTENT_MODEL.exec(part)?.[1];
    if (!name) return undefined;
    names.add(name);
  }
  return { names, list: list !== null };
}

/** Every value `value` may be is an instance of one of `names` (or a list of such, for `list`). */
function instancesOf(value: Value, heap: Heap, names: ReadonlySet<string>, list: boolean): boolean {
  return (
    value.length > 0 &&
    value.every((v) => {
      const state = v.k === 'ref' ? heap.get(v.id) : undefined;
      if (!state || state.open) return false;
      if (!list) return state.kind === 'object' && state.model !== undefined && names.has(state.model);
      if (state.kind !== 'array') return false;
      const items = state.items.map((m) => m.value);
      if (state.rest) items.push(state.rest);
      return items.every((item) => instancesOf(item, heap, names, false));
    })
  );
}

/** The return annotation names the SDK's `CallToolResult` (`-> CallToolResult`, `-> types.CallToolResult`). */
function returnsCallToolResult(mod: PyModule, fn: PyNode): boolean {
  const annotation = field(fn, 'return_type');
  return annotation !== undefined && /^(?:[\w.]+\.)?CallToolResult$/.test(text(mod, annotation).trim());
}

/** The module imports the standalone `fastmcp` package (`from fastmcp import FastMCP`), not the SDK's. */
function importsStandaloneFastmcp(mod: PyModule): boolean {
  return /^[ \t]*(?:from[ \t]+fastmcp(?:\.[\w.]+)?[ \t]+import\b|import[ \t]+fastmcp\b)/m.test(
    mod.tree.source,
  );
}

function functionName(mod: PyModule, fn: PyNode): string {
  const name = field(fn, 'name');
  return name ? text(mod, name) : '(anonymous)';
}

function enclosingDef(node: PyNode): PyNode | undefined {
  for (let p = node.parent; p; p = p.parent) if (p.type === 'function_definition') return p;
  return undefined;
}

export class PyExtractor {
  constructor(
    private readonly project: Project,
    private readonly interp: PyInterpreter,
  ) {}

  private site(mod: PyModule, node: PyNode): Site {
    return { file: mod.file, start: node.start, end: node.end };
  }

  private isolated(work: () => unknown): void {
    isolated(this.project, work);
  }

  extract(mod: PyModule, found: Discovery): Extracted {
    const handlers: HandlerSite[] = [];
    const handlerDefs = new Set<PyNode>();
    this.isolated(() => this.interp.moduleRun(mod));
    const listing = this.listing(mod, found.toolLists);
    for (const registration of found.registrations) {
      const at = this.site(mod, registration.node);
      let fnValues: FunctionValue[] = [];
      if (registration.constructed) {
        handlers.push(
          this.unreached(
            '(tools given to FastMCP)',
            registration.framework,
            at,
            'the tools given to the FastMCP constructor (`tools=[…]`) are not followed',
          ),
        );
        continue;
      }
      if (registration.call) {
        const owner = enclosingDef(registration.call);
        if (owner) this.isolated(() => this.interp.rootRun(owner, mod));
        const record = this.interp.recorded.get(registration.call);
        fnValues = (record?.args[0] ?? []).flatMap((v) => (v.k === 'fn' ? [v.fn] : []));
        // Some of the functions it may be are known, others not: the rest is a return nobody proved.
        const unknownPart = (record?.args[0] ?? []).find((v) => v.k === 'unknown');
        const unknownReason = unknownPart?.k === 'unknown' ? unknownPart.reason : undefined;
        if (unknownReason !== undefined && fnValues.length > 0) {
          handlers.push(
            this.unreached(
              registration.tool ?? '(unnamed tool)',
              registration.framework,
              at,
              `the tool function may also be one the analysis does not know (${unknownReason})`,
            ),
          );
        }
        if (fnValues.length === 0) {
          handlers.push(
            this.unreached(
              registration.tool ?? '(unnamed tool)',
              registration.framework,
              at,
              'the tool function is not known statically',
            ),
          );
          continue;
        }
      } else {
        let value: FunctionValue | undefined;
        this.isolated(() => {
          value = this.interp.functionValue(registration.node, mod);
        });
        if (!value) {
          handlers.push(
            this.unreached(
              registration.tool ?? functionName(mod, registration.node),
              registration.framework,
              at,
              'the function it is defined in could not be analysed',
            ),
          );
          continue;
        }
        fnValues = [value];
      }
      for (const fnValue of fnValues) {
        const node = fnValue.node as PyNode;
        handlerDefs.add(node);
        appendAll(handlers, this.analyze(mod, registration, fnValue, at, listing.inputs));
      }
    }
    const documents = this.payloads(mod, found, handlerDefs, handlers);
    return { handlers: withSchemas(handlers, listing.outputs, true), documents };
  }

  /**
   * What a low-level server's `list_tools` says of each tool, read from the documents its returns may
   * be. Its server (python-sdk `Server.call_tool`) checks each call against the listed tool:
   * - structuredContent against the outputSchema ("Output validation error" as an error result), so a
   *   tool listed with a schema the source fixes gets it; two different schemas for one name give none;
   * - the arguments against the inputSchema (unless `validate_input=False`): `inputs` holds the schema
   *   of each tool that every possible listing names, always with that one schema. A tool a listing may
   *   leave out is called unchecked, so it gets none; so does every tool when a listing holds items the
   *   analysis cannot count (a comprehension, a spread) or may be no list at all. Every listing of the
   *   module counts, so a second server's `list_tools` can only take schemas away.
   */
  private listing(
    mod: PyModule,
    lists: readonly PyNode[],
  ): { outputs: ListedSchemas; inputs: ReadonlyMap<string, Record<string, unknown>> } {
    const outputs: ListedSchemas = new Map();
    const listings: unknown[][] = [];
    let countable = true;
    for (const definition of lists) {
      let fnValue: FunctionValue | undefined;
      this.isolated(() => {
        fnValue = this.interp.functionValue(definition, mod);
      });
      if (!fnValue) {
        countable = false;
        continue;
      }
      const fn = fnValue;
      let run: PyRun;
      try {
        run = this.project.withBudget(new Budget(), () => this.interp.runFunction(fn, false));
      } catch (error) {
        // Over budget: the list gives no schema. Anything else is a bug, reported as for a handler.
        budgetReason(error);
        countable = false;
        continue;
      }
      if (run.fellThrough || run.returns.size === 0) countable = false;
      for (const { value, heap } of run.returns.values()) {
        if (!isCountedList(value, heap)) countable = false;
        const { docs, incomplete } = concretize(value, heap, new ValuePositions());
        if (incomplete) countable = false;
        for (const doc of docs) {
          if (!Array.isArray(doc) || isOpen(doc)) {
            countable = false;
            continue;
          }
          for (const tool of doc) noteListedSchema(outputs, tool);
          listings.push(doc);
        }
      }
    }
    return { outputs, inputs: countable ? schemasInEveryListing(listings) : new Map() };
  }

  private unreached(tool: string, framework: Framework, at: Site, reason: string): HandlerSite {
    return unresolvedHandler(this.project, tool, framework, at, reason);
  }

  private analyze(
    _mod: PyModule,
    registration: Registration,
    fnValue: FunctionValue,
    at: Site,
    inputs: ReadonlyMap<string, Record<string, unknown>>,
  ): HandlerSite[] {
    const node = fnValue.node as PyNode;
    const fnModule = (fnValue.closure as PyRun).module;
    const fallback =
      registration.framework === 'mcp-python-lowlevel'
        ? PY_LOW_LEVEL_LABEL
        : (registration.tool ?? fnValue.wraps ?? functionName(fnModule, node));
    const tools =
      registration.framework === 'mcp-python-lowlevel'
        ? dispatchTools(fnModule, node)
        : new Map<PyNode, string>();
    const standalone =
      registration.framework === 'fastmcp-python' &&
      (importsStandaloneFastmcp(_mod) || importsStandaloneFastmcp(fnModule));
    const wrapping: { -readonly [K in keyof WrapOptions]: WrapOptions[K] } = {
      ...(returnsStrDict(fnModule, node) ? { structuredDict: true } : {}),
      ...(standalone ? { standalone } : {}),
      ...(returnsCallToolResult(fnModule, node) ? { declaresCallToolResult: true } : {}),
    };
    const checked =
      registration.framework === 'fastmcp-python' && !registration.unstructured
        ? returnAnnotation(fnModule, node, (name, scope) => this.interp.classBoundTo(name, scope))
        : undefined;
    if (checked) wrapping.annotation = checked;
    // A typing construct FastMCP builds an output model from, and checks each return against, that the
    // scan does not read (`Literal["low", "high"]`, `Annotated[int, Field(ge=0)]`): not proven either way.
    const derives = registration.framework === 'fastmcp-python' && !registration.unstructured && !checked;
    const validates = derives && !standalone;
    // The standalone fastmcp derives an outputSchema from such a construct too, which clients check.
    const unread = derives ? unreadConstruct(fnModule, node) : undefined;
    const models = validates ? contentModels(fnModule, node) : undefined;
    const wrap = Object.keys(wrapping).length > 0 ? wrapping : undefined;
    const annotation = field(node, 'return_type');
    const byTool = new Map<string, ReturnSite[]>();
    const add = (name: string, ret: ReturnSite) => byTool.set(name, [...(byTool.get(name) ?? []), ret]);
    let run: PyRun | undefined;
    this.interp.handlerTool = fallback;
    try {
      const validated = registration.framework === 'fastmcp-python';
      run = this.project.withBudget(new Budget(), () => this.interp.runFunction(fnValue, validated));
    } catch (error) {
      const reason = budgetReason(error);
      add(fallback, {
        site: this.site(fnModule, node),
        value: NOTHING,
        heap: new Heap(this.project.frozen),
        unresolved: reason,
      });
    } finally {
      this.interp.handlerTool = undefined;
    }
    if (run) {
      const declaredText = annotation ? text(fnModule, annotation) : undefined;
      const withDeclared = (value: Value): Value => provenBy(value, declaredText);
      // FastMCP converts what the function returns, so its annotation says nothing of what is sent.
      const declared =
        registration.framework === 'fastmcp-python' ? undefined : declaredType(declaredText)?.proves;
      // The end of the body is reachable: the function returns None there, as after a bare `return`.
      // Past a low-level dispatch on the tool's name, that end answers the names no branch handles, and
      // the SDK's low-level server answers None with an error result ("Unexpected return type from
      // tool: NoneType"): a valid answer to a call of no tool, so not reported.
      const unknownToolEnd = registration.framework === 'mcp-python-lowlevel' && tools.size > 0;
      if (run.fellThrough && !unknownToolEnd) {
        // Placed at the body's last statement, whose way out it is.
        const last = run.returns.size === 0 ? undefined : field(node, 'body')?.children.at(-1);
        const end = this.site(fnModule, last ?? node);
        add(fallback, { site: end, value: [{ k: 'null', site: end }], heap: new Heap(this.project.frozen) });
      }
      const checked = registration.validatesInput ? this.runsPerTool(fnValue, tools, inputs) : new Map();
      for (const [returned, generic] of run.returns) {
        const statement = returned as PyNode;
        const tool = tools.get(statement);
        // The run for the tool's own checked arguments; a return it never reached keeps the generic one.
        const { value, heap } = (tool && checked.get(tool)?.returns.get(statement)) ?? generic;
        const unproven = unread
          ? `${standalone ? 'clients check the return against the outputSchema fastmcp derives from' : 'FastMCP checks the return against'} \`${unread}\`, a type the scan does not read`
          : models && !instancesOf(value, heap, models.names, models.list)
            ? `FastMCP checks the return against \`${text(fnModule, annotation as PyNode)}\`; only ${[...models.names].join(' or ')} instances are shown to pass it`
            : undefined;
        add(tool ?? fallback, {
          site: this.site(fnModule, statement),
          value: withDeclared(value),
          heap,
          ...(declared ? { declared } : {}),
          ...(unproven ? { unresolved: unproven } : {}),
        });
      }
    }
    return [...byTool].map(([tool, returns]) => ({
      tool,
      framework: registration.framework,
      site: at,
      returns,
      ...(wrap ? { wrap } : {}),
    }));
  }

  /**
   * The low-level handler run once for each tool its dispatch names that has a checked inputSchema,
   * called as the server calls it for that tool: `name` is the tool's name, `arguments` what the
   * schema lets through (src/scan/abstract/input-value.ts). A run over its budget is left out.
   */
  private runsPerTool(
    fnValue: FunctionValue,
    tools: ReadonlyMap<PyNode, string>,
    inputs: ReadonlyMap<string, Record<string, unknown>>,
  ): Map<string, PyRun> {
    const runs = new Map<string, PyRun>();
    const node = fnValue.node as PyNode;
    const fnModule = (fnValue.closure as PyRun).module;
    const params = field(node, 'parameters')?.children ?? [];
    const id = params[1] && parameterName(params[1]);
    const argumentsName = id ? text(fnModule, id) : 'arguments';
    for (const tool of new Set(tools.values())) {
      const schema = inputs.get(tool);
      if (!schema) continue;
      const at = this.site(fnModule, params[1] ?? node);
      const heap = new Heap(this.project.frozen);
      const args = inputValue(heap, schema, at, argumentsName);
      heap.freeze();
      const called = {
        positional: [str(this.site(fnModule, params[0] ?? node), tool), args],
        keywords: new Map(),
      };
      try {
        runs.set(
          tool,
          this.project.withBudget(new Budget(), () => this.interp.runFunction(fnValue, false, called)),
        );
      } catch (error) {
        budgetReason(error);
      }
    }
    return runs;
  }

  /** Envelopes, results and blocks built outside handlers, each at its final value. */
  private payloads(
    mod: PyModule,
    found: Discovery,
    handlerDefs: ReadonlySet<PyNode>,
    handlers: HandlerSite[],
  ): StandaloneDocument[] {
    if (found.payloads.length === 0) return [];
    // Every function builds its payloads with parameters unknown; functions calling others (a route
    // calling its result helper) show the values that actually flow.
    for (const fn of found.functions)
      if (!handlerDefs.has(fn)) this.isolated(() => this.interp.rootRun(fn, mod));
    const documents: StandaloneDocument[] = [];
    const claimed = new Set<PyNode>();
    const heap = new Heap(this.project.frozen);
    for (const node of found.payloads) {
      if (claimed.has(node)) continue;
      const owner = enclosingDef(node);
      const ids = this.interp.allocations.get(node);
      if (!ids || ids.size === 0) continue;
      const at = this.site(mod, node);
      let value: Value = [...ids].map((id) => ref(at, id)[0] as Value[number]);
      let states = [...ids].map((id) => heap.get(id)).filter((s): s is ObjState => s !== undefined);
      const ownerName = owner ? functionName(mod, owner) : '(module)';
      // `{**base, "result": …}` is a response where the splat brought `jsonrpc`; `base` itself, a part
      // of responses that answers nothing, is none.
      if (mayDeriveEnvelope(mod, node) && !states.every((s) => s.props.has('jsonrpc'))) continue;
      const answers = states.some((s) => s.props.has('result') || s.props.has('error'));
      // A response model's instance is the response FastAPI sends, with `jsonrpc` or (excluded unset) without.
      const envelope =
        states.some((s) => s.props.has('jsonrpc')) ||
        [...ids].some((id) => this.interp.modelResponses.has(id));
      if (envelope && !answers && [...ids].every((id) => this.interp.spreadIds.has(id))) continue;
      if (envelope) {
        if (isRequest(mod, node, states)) continue;
        claim(node, claimed);
        gatewayEnvelope(
          this.project,
          {
            ids,
            at,
            owner: ownerName,
            ownerSite: owner ? this.site(mod, owner) : at,
            httpStatus: httpErrorStatus(mod.tree.source, node.start, node.end),
          },
          (envelopeIds) => this.departuresOf(envelopeIds),
          handlers,
          documents,
        );
        continue;
      }
      // Payloads in handlers are judged as what the handler returns; so are those a helper built
      // while a handler ran (FastMCP sends a dict it gets as JSON text, not as the block it looks like).
      if (!owner || handlerDefs.has(owner)) continue;
      const own = [...ids].filter((id) => !this.interp.handlerIds.has(id));
      if (own.length < ids.size) {
        if (own.length === 0) continue;
        value = own.map((id) => ref(at, id)[0] as Value[number]);
        states = own.map((id) => heap.get(id)).filter((s): s is ObjState => s !== undefined);
      }
      if (states.some((s) => s.props.has('content'))) {
        claim(node, claimed);
        documents.push({ kind: 'result', value, heap, site: at, owner: ownerName });
      } else if (states.some(isBlock)) {
        documents.push({ kind: 'block', value, heap, site: at, owner: ownerName });
      }
    }
    return documents;
  }

  /** Where the objects `ids` leave functions no project code calls (routes, handlers). */
  private departuresOf(ids: ReadonlySet<number>): Departure[] {
    const out: Departure[] = [];
    for (const outflow of this.interp.outflowsOf(ids)) {
      const { fn, module } = outflow.run;
      if (this.interp.callees.has(fn)) continue;
      const named = fn.type === 'function_definition';
      out.push({
        ...outflow,
        owner: named ? functionName(module, fn) : '(module)',
        ownerSite: this.site(module, fn),
      });
    }
    return out;
  }
}

function isBlock(state: ObjState): boolean {
  const type = state.props.get('type')?.value;
  return (
    type !== undefined && constantStrings(type) !== undefined && BLOCK_KEYS.some((k) => state.props.has(k))
  );
}

/** Dicts nested in a claimed payload are judged as part of it. */
function claim(node: PyNode, claimed: Set<PyNode>): void {
  const stack = [node];
  for (let n = stack.pop(); n; n = stack.pop()) {
    claimed.add(n);
    pushChildren(stack, n);
  }
}

/** Calls that send a request: a client's `post`/`send`/`request`, `requests.post`, `httpx.post`. */
export const REQUEST_METHODS = new Set(['post', 'put', 'patch', 'request', 'send', 'stream', 'call']);
export const CLIENT_RECEIVER = /client|session|http|requests|axios|agent|api\b|fetch/i;

/**
 * An object that is a request, not a response: it has `method`, or it is passed to a client's
 * `post`/`send`/`request` (`client.post("/mcp", json={"jsonrpc": "2.0", "id": 12})` in a test).
 */
function isRequest(mod: PyModule, node: PyNode, states: readonly ObjState[]): boolean {
  if (states.some((s) => s.props.has('method'))) return true;
  let argument: PyNode = node;
  if (argument.parent?.type === 'keyword_argument') argument = argument.parent;
  const call = argument.parent?.type === 'argument_list' ? argument.parent.parent : undefined;
  const callee = call?.type === 'call' ? field(call, 'function') : undefined;
  if (callee?.type !== 'attribute') return false;
  const method = field(callee, 'attribute');
  const receiver = field(callee, 'object');
  return (
    method !== undefined &&
    receiver !== undefined &&
    REQUEST_METHODS.has(text(mod, method)) &&
    CLIENT_RECEIVER.test(text(mod, receiver))
  );
}

export { join };

/** The identifier a parameter binds (`arguments`, `arguments: dict`, `arguments=None`). */
function parameterName(parameter: PyNode): PyNode | undefined {
  return parameter.type === 'identifier'
    ? parameter
    : (field(parameter, 'name') ?? parameter.children.find((c) => c.type === 'identifier'));
}

/** Every value is a list whose items the analysis can count: no comprehension, loop or spread built it. */
function isCountedList(value: Value, heap: Heap): boolean {
  return value.every((variant) => {
    const state = variant.k === 'ref' ? heap.get(variant.id) : undefined;
    return state?.kind === 'array' && !state.open && (state.rest === undefined || state.rest.length === 0);
  });
}

/** The inputSchema of each tool that every listing names, with one fully known schema throughout. */
function schemasInEveryListing(listings: readonly unknown[][]): Map<string, Record<string, unknown>> {
  const inputs = new Map<string, Record<string, unknown>>();
  for (const candidate of listings[0] ?? []) {
    if (!isObject(candidate) || typeof candidate.name !== 'string') continue;
    const { name } = candidate;
    const schemas = listings.map((listing) =>
      listing
        .filter((tool) => isObject(tool) && tool.name === name)
        .map((tool) => (tool as JsonObject).inputSchema),
    );
    const [schema] = schemas[0] ?? [];
    if (!isObject(schema) || !isFullyKnown(schema)) continue;
    const same = (other: unknown) => JSON.stringify(other) === JSON.stringify(schema);
    if (schemas.every((found) => found.length > 0 && found.every(same))) inputs.set(name, schema);
  }
  return inputs;
}
