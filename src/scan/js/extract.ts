/**
 * Finds tool handlers in a TS/JS module and has the interpreter compute what each return produces:
 * - SDK v1/v2 `McpServer`: `server.tool(name, …, cb)`, `server.registerTool(name, config, cb)`, and
 *   `server.experimental.tasks.registerToolTask(name, config, { createTask, getTaskResult })` (task
 *   results stored with `taskStore.storeTaskResult(id, status, result)` count as its returns);
 * - low-level `server.setRequestHandler(CallToolRequestSchema | 'tools/call', cb)`, with returns
 *   attributed to the tool named by the enclosing `switch (name)` case or `if (name === '…')`;
 * - FastMCP for TypeScript: `server.addTool({ name, execute })`;
 * - JSON-RPC envelope literals (`{ jsonrpc: '2.0', … }`) anywhere: checked as messages, and when one
 *   carries a tools/call result, that result is a return of the function building it (a gateway).
 * Registrations are found by their shape; their arguments are evaluated by the interpreter in the
 * function that makes them, so handlers passed by name, imported, or built by a helper are followed.
 */

import type { CallExpression, Expression, Node, ObjectExpression, Program } from 'oxc-parser';
import { isObject } from '../../core/json.js';
import { isOpen } from '../../core/opaque.js';
import { Budget } from '../abstract/budget.js';
import { concretize, sourceText } from '../abstract/concretize.js';
import { declaredType, provenBy } from '../abstract/declared.js';
import { Heap } from '../abstract/heap.js';
import { inputValue } from '../abstract/input-value.js';
import { awaited } from '../abstract/objects.js';
import {
  constantStrings,
  type FunctionValue,
  join,
  NOTHING,
  type Site,
  unknown,
  type Value,
  type Variant,
} from '../abstract/value.js';

type UnknownVariant = Extract<Variant, { k: 'unknown' }>;

import type { Extracted, HandlerSite, ReturnSite, StandaloneDocument } from '../analyze.js';
import {
  budgetReason,
  type Departure,
  gatewayEnvelope,
  httpErrorStatus,
  isolated,
  unresolvedHandler,
} from '../extraction.js';
import type { Framework } from '../frameworks.js';
import { type ListedSchemas, noteListedSchema, withSchemas } from '../listed-schemas.js';
import type { Project } from '../project.js';
import { ValuePositions } from '../values.js';
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
import type { JsInterpreter, JsModule, JsRun } from './interpret.js';
import { registersRoute, routeName } from './routes.js';
import type { ScopedCall } from './scope.js';
import { inputSchemaOf, outputSchemaOf, shapeSchema } from './zod.js';

export const LOW_LEVEL_LABEL = '(tools/call handler)';

type Kind = 'tool' | 'registerTool' | 'lowLevel' | 'listTools' | 'addTool' | 'task' | 'taskResult';

/** Registrations whose first argument is the tool's name. */
const NAMED_KINDS: ReadonlySet<Kind> = new Set(['tool', 'registerTool', 'task']);

interface Candidate {
  readonly call: CallExpression;
  readonly kind: Kind;
  readonly owner: FunctionLike | Program;
}

function isRequestSchema(node: Node, schema: string, method: string): boolean {
  const bare = unwrap(node as Expression);
  if (bare.type === 'Identifier') return bare.name === schema;
  if (bare.type === 'Literal') return bare.value === method;
  return memberName(bare) === schema;
}

function isCallToolSchema(node: Node): boolean {
  return isRequestSchema(node, 'CallToolRequestSchema', 'tools/call');
}

/** The registration a call looks like, by its shape alone. */
function candidateKind(call: CallExpression): Kind | undefined {
  const callee = unwrap(call.callee);
  if (callee.type !== 'MemberExpression') return undefined;
  const method = memberName(callee);
  const args = call.arguments;
  if (args.some((a) => a.type === 'SpreadElement')) return undefined;
  switch (method) {
    case 'tool':
      return args.length >= 2 ? 'tool' : undefined;
    case 'registerTool':
      return args.length >= 2 ? 'registerTool' : undefined;
    case 'setRequestHandler':
      if (args.length < 2 || !args[0]) return undefined;
      if (isCallToolSchema(args[0])) return 'lowLevel';
      return isRequestSchema(args[0], 'ListToolsRequestSchema', 'tools/list') ? 'listTools' : undefined;
    case 'addTool':
      return args.length >= 1 ? 'addTool' : undefined;
    case 'registerToolTask':
      return args.length >= 3 ? 'task' : undefined;
    case 'storeTaskResult':
      return args.length >= 3 ? 'taskResult' : undefined;
    default:
      return undefined;
  }
}

function site(mod: JsModule, node: Node): Site {
  return { file: mod.file, start: offsetOf(node), end: endOf(node) };
}

/** The last character of a function, its closing brace: where a body that ends without `return` ends. */
function closingSite(mod: JsModule, node: Node): Site {
  const end = endOf(node);
  return { file: mod.file, start: Math.max(offsetOf(node), end - 1), end };
}

/** Functions among a value's variants, and whether something else (unknown) is there too. */
/**
 * The functions among a value's variants, and the first variant the analysis does not know: a function
 * it stands for is one nobody judged. Nullish and other known variants are no handler at all
 * (registering one throws).
 */
function functionsOf(value: Value): { fns: FunctionValue[]; unknown?: UnknownVariant } {
  const fns: FunctionValue[] = [];
  let unknownPart: UnknownVariant | undefined;
  for (const v of value) {
    if (v.k === 'fn') fns.push(v.fn);
    else if (v.k === 'unknown') unknownPart ??= v;
  }
  return { fns, ...(unknownPart ? { unknown: unknownPart } : {}) };
}

function toolName(value: Value | undefined, fallback: string): string {
  const names = value ? constantStrings(value) : undefined;
  return names && names.length > 0 ? [...new Set(names)].join(' / ') : fallback;
}

/**
 * The arguments the framework calls a handler with when its tool has an inputSchema: the arguments as
 * the schema validated them, then the request context (unknown). Allocated where every run sees them.
 */
function validatedArguments(
  mod: JsModule,
  node: FunctionLike,
  inputSchema: Record<string, unknown>,
  project: Project,
): Value[] {
  const [param] = node.params;
  const at = site(mod, (param ?? node) as Node);
  const heap = new Heap(project.frozen);
  const args = inputValue(heap, inputSchema, at, param?.type === 'Identifier' ? param.name : 'args');
  heap.freeze();
  return [args, unknown(at, 'the request context the framework passes')];
}

/**
 * What registerTool's config says of the tool's outputSchema: the schema as the model has it, or why
 * no structuredContent can be shown to match it (a schema the model does not know, or a config that
 * may hold one the analysis cannot see).
 */
function registeredOutputSchema(record: { args: readonly Value[]; heap: Heap }): {
  outputSchema?: Record<string, unknown>;
  outputSchemaUnproven?: string;
} {
  const declared = member(record, 1, 'outputSchema');
  if (declared === undefined) {
    const seen = (record.args[1] ?? []).every((v) => {
      const state = v.k === 'ref' ? record.heap.get(v.id) : undefined;
      return state?.kind === 'object' && !state.open;
    });
    return seen
      ? {}
      : {
          outputSchemaUnproven: "the tool's config is not known statically, and may declare an outputSchema",
        };
  }
  const outputSchema = outputSchemaOf(record.heap, declared);
  return outputSchema
    ? { outputSchema }
    : { outputSchemaUnproven: "the tool's outputSchema is not known statically" };
}

/**
 * A member every value of an object argument certainly has: `registerTool(name, { inputSchema }, cb)`.
 * Undefined when any of them may lack it (an object of unknown origin, or one with a spread in it).
 */
function strictMember(
  record: { args: readonly Value[]; heap: Heap },
  index: number,
  key: string,
): Value | undefined {
  const values = record.args[index] ?? [];
  let out: Value = NOTHING;
  for (const v of values) {
    const state = v.k === 'ref' ? record.heap.get(v.id) : undefined;
    const m = state?.kind === 'object' && !state.open ? state.props.get(key) : undefined;
    if (!m) return undefined;
    out = join(out, m.value);
  }
  return out.length > 0 ? out : undefined;
}

/**
 * The schema of `server.tool()`'s arguments, where the SDK finds one: after the name and an optional
 * description, a shape of zod schemas followed by more arguments (annotations, then the callback).
 */
function paramsSchemaOf(record: { args: readonly Value[]; heap: Heap }): Record<string, unknown> | undefined {
  const { args } = record;
  const described = args[1] !== undefined && args[1].length > 0 && args[1].every((v) => v.k === 'str');
  const index = described ? 2 : 1;
  if (index >= args.length - 1) return undefined;
  const schema = shapeSchema(record.heap, args[index]);
  return schema && inputSchemaOf(record.heap, args[index]) ? schema : undefined;
}

/** Members of an object argument (`addTool({ name, execute })`, a task handler object). */
function member(
  record: { args: readonly Value[]; heap: Heap },
  index: number,
  key: string,
): Value | undefined {
  let out: Value = NOTHING;
  for (const v of record.args[index] ?? []) {
    if (v.k !== 'ref') continue;
    const state = record.heap.get(v.id);
    const m = state?.props.get(key);
    if (m) out = join(out, m.value);
  }
  return out.length > 0 ? out : undefined;
}

/** `switch (request.params.name)`, `if (name === 'x')`: the dispatch tests of low-level handlers. */
function mentionsName(text: string): boolean {
  return /name/i.test(text);
}

function textOf(mod: JsModule, node: Node): string {
  return mod.file.text.slice(offsetOf(node), endOf(node));
}

function testedToolName(mod: JsModule, test: Expression): string | undefined {
  const bare = unwrap(test);
  if (bare.type !== 'BinaryExpression' || (bare.operator !== '===' && bare.operator !== '=='))
    return undefined;
  const left = unwrap(bare.left as Expression);
  const right = unwrap(bare.right);
  if (right.type === 'Literal' && typeof right.value === 'string' && mentionsName(textOf(mod, left)))
    return right.value;
  if (left.type === 'Literal' && typeof left.value === 'string' && mentionsName(textOf(mod, right)))
    return left.value;
  return undefined;
}

/**
 * The tool each return statement of a dispatching handler serves (by its enclosing case), and each
 * `storeTaskResult` call, which may sit in a function the handler starts.
 */
function dispatchTools(mod: JsModule, fn: FunctionLike): Map<Node, string> {
  const tools = new Map<Node, string>();
  const body = fn.body;
  if (body?.type !== 'BlockStatement') return tools;
  const walk = (node: Node, tool: string | undefined, nested: boolean): void => {
    if (node.type === 'ClassDeclaration' || node.type === 'ClassExpression') return;
    if (isFunction(node)) {
      forEachChild(node, (child) => walk(child, tool, true));
      return;
    }
    switch (node.type) {
      case 'ReturnStatement':
        if (tool && !nested) tools.set(node, tool);
        break;
      case 'CallExpression':
        if (tool && memberName(node.callee) === 'storeTaskResult') tools.set(node, tool);
        break;
      case 'SwitchStatement': {
        if (!mentionsName(textOf(mod, node.discriminant))) break;
        let pending: string[] = [];
        for (const c of node.cases) {
          if (c.test?.type === 'Literal' && typeof c.test.value === 'string') pending.push(c.test.value);
          const caseTool = pending.length > 0 ? pending.join('/') : tool;
          for (const statement of c.consequent) walk(statement, caseTool, nested);
          if (c.consequent.length > 0) pending = [];
        }
        return;
      }
      case 'IfStatement': {
        const tested = testedToolName(mod, node.test);
        if (tested === undefined) break;
        walk(node.consequent, tested, nested);
        if (node.alternate) walk(node.alternate, tool, nested);
        return;
      }
    }
    forEachChild(node, (child) => walk(child, tool, nested));
  };
  for (const statement of body.body) walk(statement, undefined, false);
  return tools;
}

/**
 * `return await extra.taskStore.getTaskResult(id)`: the result the task stored, which is judged
 * where it is stored (`storeTaskResult`), not as an unknown value here.
 */
function storedTaskResult(value: Value): boolean {
  return (
    value.length > 0 && value.every((v) => v.k === 'unknown' && /\.getTaskResult\(/.test(sourceText(v.site)))
  );
}

/** A route registration of a scanned module (`app.post('/mcp', onRpc)`), with where it is made. */
export interface RouteCall {
  readonly mod: JsModule;
  readonly call: CallExpression;
  readonly owner: FunctionLike | Program;
}

export class JsExtractor {
  /** `storeTaskResult` calls inside a low-level handler, by the tool their branch serves. */
  private readonly sinkTools = new Map<Node, string>();
  /** The route registrations of every scanned module, and how many of them have run. */
  private readonly routes: RouteCall[] = [];
  private routesRun = 0;

  constructor(
    private readonly project: Project,
    private readonly interp: JsInterpreter,
  ) {}

  /** Notes the route registrations of a scanned module (their callbacks run before envelopes are judged). */
  addRoutes(mod: JsModule): void {
    for (const { call, owner } of mod.index.calls as readonly ScopedCall[])
      if (registersRoute(call)) this.routes.push({ mod, call, owner });
  }

  /** Handlers, and standalone documents (envelopes), of one scanned module. */
  extract(
    mod: JsModule,
    candidates: readonly Candidate[],
    envelopes: readonly { node: ObjectExpression; owner: FunctionLike | Program; derived?: true }[],
  ): Extracted {
    const handlers: HandlerSite[] = [];
    const documents: StandaloneDocument[] = [];
    for (const c of candidates) {
      if (c.kind === 'taskResult' || c.kind === 'listTools') continue;
      this.ensureEvaluated(mod, c.owner, c.call);
      const record = this.interp.recorded.get(c.call);
      const at = site(mod, c.call);
      if (!record) {
        handlers.push(
          this.unreached(
            c.kind === 'lowLevel' ? LOW_LEVEL_LABEL : '(unnamed tool)',
            at,
            'the registration is never reached',
          ),
        );
        continue;
      }
      // A registration run once per tool of a table (a loop over it): each name with its own handler.
      const byName = NAMED_KINDS.has(c.kind) ? this.interp.recordedByName.get(c.call) : undefined;
      if (byName && byName.size > 1) {
        for (const named of byName.values()) handlers.push(...this.handlersOf(mod, c, named, at));
      } else handlers.push(...this.handlersOf(mod, c, record, at));
    }
    // A task's result is what its handler stores (`taskStore.storeTaskResult(id, status, result)`):
    // a return of the tool whose handler stored it, or a result document when no handler did.
    for (const c of candidates) {
      if (c.kind !== 'taskResult') continue;
      const record = this.interp.recorded.get(c.call);
      const value = record?.args[2];
      if (!record || !value) continue;
      const at = site(mod, c.call);
      const tool = this.sinkTools.get(c.call) ?? record.tool;
      if (tool === undefined) {
        documents.push({ kind: 'result', value, heap: record.heap, site: at });
        continue;
      }
      const ret: ReturnSite = { site: at, value, heap: record.heap };
      const existing = handlers.find((h) => h.tool === tool && h.framework === 'mcp-sdk');
      if (existing) (existing.returns as ReturnSite[]).push(ret);
      else handlers.push({ tool, framework: 'mcp-sdk', site: at, returns: [ret] });
    }
    documents.push(...this.envelopes(mod, envelopes, handlers));
    return { handlers: this.withListedSchemas(mod, candidates, handlers), documents };
  }

  /**
   * A low-level server lists its tools in its tools/list handler: a tool listed there with an
   * outputSchema the source fixes gets it (clients validate structuredContent against what tools/list
   * said). A name listed with two different schemas, or a schema not fully known, gives none.
   */
  private withListedSchemas(
    mod: JsModule,
    candidates: readonly Candidate[],
    handlers: HandlerSite[],
  ): HandlerSite[] {
    const listed: ListedSchemas = new Map();
    for (const c of candidates) {
      if (c.kind !== 'listTools') continue;
      this.ensureEvaluated(mod, c.owner, c.call);
      const { fns } = functionsOf(this.interp.recorded.get(c.call)?.args.at(-1) ?? []);
      for (const fnValue of fns) {
        let run: JsRun;
        try {
          run = this.project.withBudget(new Budget(), () => this.interp.runFunction(fnValue));
        } catch (error) {
          // Over budget: the list gives no schema. Anything else is a bug, reported as for a handler.
          budgetReason(error);
          continue;
        }
        for (const { value, heap } of run.returns.values()) {
          for (const doc of concretize(value, heap, new ValuePositions()).docs) {
            const tools = isObject(doc) ? doc.tools : undefined;
            if (Array.isArray(tools) && !isOpen(tools))
              for (const tool of tools) noteListedSchema(listed, tool);
          }
        }
      }
    }
    return withSchemas(handlers, listed);
  }

  /** The registration's function has been interpreted (so its arguments were recorded). */
  private ensureEvaluated(mod: JsModule, owner: FunctionLike | Program, call: CallExpression): void {
    if (this.interp.recorded.has(call)) return;
    this.isolated(() => this.interp.moduleRun(mod));
    if (this.interp.recorded.has(call) || owner.type === 'Program') return;
    // Outermost first: a registration inside a callback (`tools.forEach(t => server.tool(…))`) is
    // best evaluated while the enclosing function runs the callback with real items.
    const chain: FunctionLike[] = [];
    for (
      let f: FunctionLike | Program | undefined = owner;
      f && f.type !== 'Program';
      f = mod.index.parentOf.get(f)
    )
      chain.unshift(f);
    for (const f of chain) {
      this.isolated(() => this.interp.rootRun(f, mod));
      if (this.interp.recorded.has(call)) return;
    }
  }

  private isolated(work: () => unknown): void {
    isolated(this.project, work);
  }

  private unreached(tool: string, at: Site, reason: string): HandlerSite {
    return unresolvedHandler(this.project, tool, 'mcp-sdk', at, reason);
  }

  private handlersOf(
    mod: JsModule,
    c: Candidate,
    record: { args: readonly Value[]; heap: Heap },
    at: Site,
  ): HandlerSite[] {
    const [first] = record.args;
    switch (c.kind) {
      case 'tool':
      case 'registerTool': {
        const handlers = this.analyze(
          mod,
          toolName(first, sourceText(site(mod, c.call.arguments[0] as Node))),
          'mcp-sdk',
          at,
          record.args.at(-1),
          false,
          undefined,
          c.kind === 'registerTool'
            ? inputSchemaOf(record.heap, strictMember(record, 1, 'inputSchema'))
            : paramsSchemaOf(record),
        );
        // McpServer validates structuredContent against the outputSchema before sending it.
        const schema = c.kind === 'registerTool' ? registeredOutputSchema(record) : {};
        return schema.outputSchema || schema.outputSchemaUnproven
          ? handlers.map((h) => ({ ...h, ...schema, serverChecksOutput: true }))
          : handlers;
      }
      case 'lowLevel':
        return this.analyze(mod, LOW_LEVEL_LABEL, 'mcp-sdk', at, record.args.at(-1), true);
      case 'addTool': {
        const name = member(record, 0, 'name');
        const execute = member(record, 0, 'execute');
        if (!execute)
          return [
            this.unreached(
              toolName(name, '(unnamed tool)'),
              at,
              'the tool definition is not known statically',
            ),
          ];
        return this.analyze(
          mod,
          toolName(name, '(unnamed tool)'),
          'fastmcp-ts',
          at,
          execute,
          false,
          undefined,
          inputSchemaOf(record.heap, strictMember(record, 0, 'parameters')),
        );
      }
      case 'task': {
        const tool = toolName(first, sourceText(site(mod, c.call.arguments[0] as Node)));
        const create = member(record, 2, 'createTask');
        const result = member(record, 2, 'getTaskResult');
        const out: HandlerSite[] = [];
        if (create) out.push(...this.analyze(mod, tool, 'mcp-sdk', at, create, false));
        if (result) out.push(...this.analyze(mod, tool, 'mcp-sdk', at, result, false, storedTaskResult));
        if (out.length === 0) return [this.unreached(tool, at, 'the task handler is not known statically')];
        return merge(out);
      }
      default:
        return [];
    }
  }

  /** Interprets each function a handler value may be, and collects its returns per tool. */
  private analyze(
    _mod: JsModule,
    tool: string,
    framework: Framework,
    at: Site,
    handler: Value | undefined,
    dispatch: boolean,
    skip?: (value: Value) => boolean,
    inputSchema?: Record<string, unknown>,
  ): HandlerSite[] {
    const { fns, unknown: unknownPart } = functionsOf(handler ?? []);
    if (fns.length === 0) {
      const source = handler?.[0] ? sourceText(handler[0].site) : 'the handler';
      return [this.unreached(tool, at, `the handler \`${source}\` is not known statically`)];
    }
    const byTool = new Map<string, ReturnSite[]>();
    const add = (name: string, ret: ReturnSite) => byTool.set(name, [...(byTool.get(name) ?? []), ret]);
    // Some of the functions it may be are known, others not (a table too long to follow item by item):
    // those are judged, and the rest is a return nobody proved.
    if (unknownPart) {
      const why = `the handler may also be ${sourceText(unknownPart.site)}, which is not known statically (${unknownPart.reason})`;
      add(tool, { site: at, value: NOTHING, heap: new Heap(this.project.frozen), unresolved: why });
    }
    for (const fnValue of fns) {
      const node = fnValue.node as FunctionLike;
      const fnModule = (fnValue.closure as JsRun).module;
      const tools = dispatch ? dispatchTools(fnModule, node) : new Map<Node, string>();
      for (const [call, name] of tools) if (call.type === 'CallExpression') this.sinkTools.set(call, name);
      let run: JsRun | undefined;
      this.interp.handlerTool = tool;
      try {
        const args = inputSchema && validatedArguments(fnModule, node, inputSchema, this.project);
        run = this.project.withBudget(new Budget(), () => this.interp.runFunction(fnValue, args));
      } catch (error) {
        const reason = budgetReason(error);
        add(tool, {
          site: site(fnModule, node),
          value: NOTHING,
          heap: new Heap(this.project.frozen),
          unresolved: reason,
        });
        continue;
      } finally {
        this.interp.handlerTool = undefined;
      }
      if (node.generator) {
        add(tool, {
          site: site(fnModule, node),
          value: NOTHING,
          heap: new Heap(this.project.frozen),
          unresolved: 'a generator handler',
        });
        continue;
      }
      const returnType = (fnValue.node as { returnType?: Node | null }).returnType;
      const declaredText = returnType ? textOf(fnModule, returnType) : undefined;
      const covered = declaredType(declaredText)?.proves;
      // Where the end of the body is reachable, the handler resolves to undefined there, as after a
      // bare `return;` (the client gets a response without a result). Not under a declared result
      // type, which TypeScript holds every path to: there an apparent way out is the analysis's.
      if (run.fellThrough && !(covered && run.returns.size > 0)) {
        const end = run.returns.size === 0 ? site(fnModule, node) : closingSite(fnModule, node);
        add(tool, { site: end, value: [{ k: 'undef', site: end }], heap: new Heap(this.project.frozen) });
      }
      for (const [statement, returned] of run.returns) {
        // The SDK awaits what the handler gives: a returned Promise stands for what it resolves to.
        const { heap } = returned;
        const value = awaited(heap, returned.value);
        if (skip?.(value)) continue;
        const node = statement as Node;
        add(tools.get(node) ?? tool, {
          site: site(fnModule, node),
          value: provenBy(value, declaredText),
          heap,
          ...(covered ? { declared: covered } : {}),
        });
      }
    }
    return [...byTool].map(([name, returns]) => ({ tool: name, framework, site: at, returns }));
  }

  /** Envelope literals: their final values (after later member assignments) as messages. */
  private envelopes(
    mod: JsModule,
    literals: readonly { node: ObjectExpression; owner: FunctionLike | Program; derived?: true }[],
    handlers: HandlerSite[],
  ): StandaloneDocument[] {
    const documents: StandaloneDocument[] = [];
    if (literals.length === 0) return documents;
    this.runRoutes();
    const heap = new Heap(this.project.frozen);
    for (const { node, owner, derived } of literals) {
      if (isRequest(mod, node)) continue;
      if (!this.interp.allocations.has(node)) {
        this.isolated(() =>
          owner.type === 'Program' ? this.interp.moduleRun(mod) : this.interp.rootRun(owner, mod),
        );
      }
      const ids = this.interp.allocations.get(node);
      const at = site(mod, node);
      if (!ids || ids.size === 0) continue;
      const states = [...ids].map((id) => heap.get(id));
      // `{ ...base, result }` is a response where the spread brought `jsonrpc`; `base` itself, a part
      // of responses that answers nothing, is none.
      if (derived && !states.every((s) => s?.props.has('jsonrpc'))) continue;
      const answers = states.some((s) => s?.props.has('result') || s?.props.has('error'));
      if (!derived && !answers && [...ids].every((id) => this.interp.spreadIds.has(id))) continue;
      gatewayEnvelope(
        this.project,
        {
          ids,
          at,
          owner: ownerName(mod, owner),
          ownerSite: site(mod, owner),
          httpStatus: httpErrorStatus(mod.file.text, offsetOf(node), endOf(node)),
        },
        (ids) => this.departuresOf(ids),
        handlers,
        documents,
      );
    }
    return documents;
  }

  /**
   * Route callbacks run first, as their framework calls them, those of every scanned module: a
   * helper that builds the envelope (`res.json(respond(id, result))`), in this file or another, then
   * shows the results each route hands it, and where the envelope leaves; so does one called from a
   * function the route hands on (`req.on('end', () => reply(res, id, result))`). A callback passed
   * by name (`app.post('/mcp', onRpc)`) is found by evaluating the registration. Each runs once.
   */
  private runRoutes(): void {
    for (; this.routesRun < this.routes.length; this.routesRun++) {
      const { mod, call, owner } = this.routes[this.routesRun] as RouteCall;
      this.ensureEvaluated(mod, owner, call);
      const record = this.interp.recorded.get(call);
      if (!record) {
        for (const argument of call.arguments)
          if (isFunction(argument as Node))
            this.isolated(() => this.interp.rootRun(argument as FunctionLike, mod, true));
        continue;
      }
      for (const argument of record.args)
        for (const fn of functionsOf(argument).fns) this.isolated(() => this.interp.runFunction(fn));
    }
  }

  /** Where the objects `ids` leave functions no project code calls (route callbacks, handlers). */
  private departuresOf(ids: ReadonlySet<number>): Departure[] {
    const out: Departure[] = [];
    for (const outflow of this.interp.outflowsOf(ids)) {
      const { fn, module } = outflow.run;
      if (this.interp.callees.has(fn)) continue;
      out.push({ ...outflow, owner: ownerName(module, fn), ownerSite: site(module, fn) });
    }
    return out;
  }
}

function merge(sites: HandlerSite[]): HandlerSite[] {
  const byTool = new Map<string, HandlerSite>();
  for (const s of sites) {
    const known = byTool.get(s.tool);
    byTool.set(s.tool, known ? { ...known, returns: [...known.returns, ...s.returns] } : s);
  }
  return [...byTool.values()];
}

/** HTTP frameworks' route methods (Express, Hono, Fastify, Koa routers): `app.post('/mcp', …)`. */
/**
 * What a gateway is called in the verdict: its function's name, else the route it is registered
 * for (`POST /mcp`), else the server it handles (`createServer handler`), looking out through the
 * functions it is nested in (`req.on('end', () => …)` inside the request handler).
 */
function ownerName(mod: JsModule, owner: FunctionLike | Program): string {
  if (owner.type === 'Program') return '(module)';
  if ((owner.type === 'FunctionDeclaration' || owner.type === 'FunctionExpression') && owner.id)
    return owner.id.name;
  for (
    let f: FunctionLike | Program | undefined = owner;
    f && f.type !== 'Program';
    f = mod.index.parentOf.get(f)
  ) {
    const fn = f;
    const registration = mod.index.calls.find(({ call }) => call.arguments.some((a) => a === fn));
    const name = registration && routeName(registration.call);
    if (name) return name;
  }
  return '(JSON-RPC handler)';
}

/** Calls that send a request: a client's `post`/`send`/`request`, `fetch`, `axios.post`. */
const REQUEST_METHODS = new Set(['post', 'put', 'patch', 'request', 'send', 'call']);
const CLIENT_RECEIVER = /client|session|http|request|axios|agent|api\b|supertest/i;

/** `x` itself, or `x` inside `JSON.stringify(x)` or `{ body: x }` / `{ json: x }`. */
function carries(argument: Node, node: Node): boolean {
  const bare = unwrap(argument as Expression);
  if (bare === node) return true;
  if (bare.type === 'CallExpression' && memberName(bare.callee) === 'stringify') {
    const [first] = bare.arguments;
    return first !== undefined && carries(first, node);
  }
  if (bare.type === 'ObjectExpression') {
    return bare.properties.some(
      (p) =>
        p.type === 'Property' &&
        ['body', 'json', 'data'].includes(staticKey(p.key, p.computed) ?? '') &&
        carries(p.value, node),
    );
  }
  return false;
}

/**
 * An object that is a request, not a response: it has `method`, or it is passed to a client's
 * `post`/`send`/`request` or to `fetch` (a test posting `{ jsonrpc, id }` to a server).
 */
function isRequest(mod: JsModule, node: ObjectExpression): boolean {
  const keys = node.properties.map((p) => (p.type === 'Property' ? staticKey(p.key, p.computed) : undefined));
  if (keys.includes('method')) return true;
  // A response sent on a socket named for the peer it serves (`client.send(…)` in a WebSocket server).
  const answers = keys.includes('result') || keys.includes('error');
  const start = offsetOf(node);
  for (const { call } of mod.index.calls) {
    if (offsetOf(call) > start || endOf(call) < endOf(node)) continue;
    const callee = unwrap(call.callee);
    const sends =
      callee.type === 'Identifier'
        ? callee.name === 'fetch' || callee.name === 'request'
        : callee.type === 'MemberExpression' &&
          REQUEST_METHODS.has(memberName(callee) ?? '') &&
          !(answers && memberName(callee) === 'send') &&
          CLIENT_RECEIVER.test(textOf(mod, callee.object));
    if (sends && call.arguments.some((a) => carries(a, node))) return true;
  }
  return false;
}

export function candidates(mod: JsModule): Candidate[] {
  const out: Candidate[] = [];
  for (const { call, owner } of mod.index.calls as readonly ScopedCall[]) {
    const kind = candidateKind(call);
    if (kind) out.push({ call, kind, owner });
  }
  return out;
}
