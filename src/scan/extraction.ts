/**
 * What the TS/JS and Python extractors share: analysing one function under its own budget, the
 * handler entry for a return the analysis cannot reach, and hand-rolled JSON-RPC gateways (envelope
 * literals judged as messages; the tools/call results they carry counted as the gateway's returns;
 * transport-level error responses recognised by the HTTP status they are sent with).
 */

import { Budget, BudgetExceeded } from './abstract/budget.js';
import { Heap, type ObjState } from './abstract/heap.js';
import { join, NOTHING, ref, type Site, type Value } from './abstract/value.js';
import type { HandlerSite, ReturnSite, StandaloneDocument } from './analyze.js';
import type { Framework } from './frameworks.js';
import type { Project } from './project.js';

/** Runs `work` under a fresh budget; a pathological function leaves its values unknown, no more. */
export function isolated(project: Project, work: () => unknown): void {
  project.withBudget(new Budget(), () => {
    try {
      work();
    } catch (error) {
      if (!(error instanceof BudgetExceeded) && !(error instanceof RangeError)) throw error;
    }
  });
}

/** A handler whose returns could not be analysed, as one unresolved return with the reason. */
export function unresolvedHandler(
  project: Project,
  tool: string,
  framework: Framework,
  at: Site,
  reason: string,
): HandlerSite {
  return {
    tool,
    framework,
    site: at,
    returns: [{ site: at, value: NOTHING, heap: new Heap(project.frozen), unresolved: reason }],
  };
}

/** The reason an analysis stopped: a budget, or (a RangeError) nesting deeper than the stack. */
export function budgetReason(error: unknown): string {
  if (error instanceof BudgetExceeded) return error.message;
  if (error instanceof RangeError) return 'analysis budget: nesting';
  throw error;
}

/** The `result` members of envelopes that answer tools/call (they look like a CallToolResult). */
export function toolsCallResults(envelopes: Value, heap: Heap): Value {
  let out: Value = NOTHING;
  for (const v of envelopes) {
    if (v.k !== 'ref') continue;
    const result = heap.get(v.id)?.props.get('result')?.value;
    for (const r of result ?? []) {
      if (r.k !== 'ref') continue;
      const state = heap.get(r.id);
      if (
        state?.kind === 'object' &&
        ['content', 'structuredContent', 'toolResult', 'isError'].some((k) => state.props.has(k))
      )
        out = join(out, [r]);
    }
  }
  return out;
}

/**
 * Whether envelope objects are responses to judge: not requests or notifications (`method`), and
 * not objects whose members come from a spread the analysis cannot see (`{ jsonrpc, ...message }`),
 * which may be anything.
 */
export function isResponse(states: readonly (ObjState | undefined)[]): boolean {
  const known = states.filter((s): s is ObjState => s !== undefined);
  if (known.length === 0 || known.some((s) => s.props.has('method'))) return false;
  if (known.every(describesMessage)) return false;
  return known.some((s) => s.props.has('result') || s.props.has('error') || !s.open);
}

/**
 * An object whose `jsonrpc` is certainly an object or a function describes messages (a zod schema
 * built in a bundle, `objectType({ jsonrpc: literalType("2.0"), id })`): it is not one.
 */
function describesMessage(state: ObjState): boolean {
  const jsonrpc = state.props.get('jsonrpc');
  return (
    jsonrpc !== undefined &&
    jsonrpc.value.length > 0 &&
    jsonrpc.value.every((v) => v.k === 'ref' || v.k === 'fn')
  );
}

/**
 * The HTTP status (400 or more) a response literal is sent with, when the source around it fixes
 * one: `res.status(404).json({…})`, `res.writeHead(405, …)` just before, `c.json({…}, 500)`,
 * `new Response(JSON.stringify({…}), { status: 401 })`, `JSONResponse({…}, status_code=500)`,
 * Flask's `return jsonify({…}), 400`; 0 when the source sets a status it does not fix (`{ status }`).
 */
export function httpErrorStatus(text: string, start: number, end: number): number | undefined {
  const before = text.slice(Math.max(0, start - 300), start);
  const after = text.slice(end, end + 120);
  const patterns: [string, RegExp][] = [
    [before, /(?:status|sendStatus|writeHead|status_code)\s*[(=:]\s*([45]\d\d)\b[^;\n]*$/],
    [before, /(?:statusCode|status_code|status)\s*=\s*([45]\d\d)\s*;?\s*\n[^\n]*$/],
    [after, /^\s*\)?\s*,\s*(?:\{\s*status\s*:\s*)?([45]\d\d)\b/],
    [after, /^\s*\)?\s*,\s*status(?:_code)?\s*=\s*([45]\d\d)\b/],
  ];
  for (const [where, pattern] of patterns) {
    const match = pattern.exec(where);
    if (match?.[1]) return Number(match[1]);
  }
  // `Response.json({…}, { status })`, `res.status(code).json({…})`: a status chosen at run time.
  const statement = before.slice(before.lastIndexOf(';') + 1);
  if (
    /\.status\(|\bwriteHead\(|status_code\s*=|HTTPException|\bstatus\s*[,}:]/.test(
      statement + after.slice(0, 60),
    )
  )
    return 0;
  return undefined;
}

/**
 * Where an envelope leaves for the client (the interpreters' outflows: a return of a function no
 * project code calls, or a call out of the project such as `res.json(…)`), with the objects it
 * carries there and the function it leaves from.
 */
export interface Departure {
  readonly site: Site;
  readonly value: Value;
  readonly heap: Heap;
  readonly owner: string;
  readonly ownerSite: Site;
}

/**
 * An envelope literal's objects, judged as a message, and as a gateway return when it answers
 * tools/call. The return is where the envelope leaves (`return respond(id, result)` in the route
 * when a helper builds it), judged as it is there; the literal itself when no departure is seen.
 */
export function gatewayEnvelope(
  project: Project,
  envelope: {
    readonly ids: ReadonlySet<number>;
    readonly at: Site;
    readonly owner: string;
    readonly ownerSite: Site;
    readonly httpStatus: number | undefined;
  },
  departuresOf: (ids: ReadonlySet<number>) => readonly Departure[],
  handlers: HandlerSite[],
  documents: StandaloneDocument[],
): void {
  const heap = new Heap(project.frozen);
  const { at, owner, httpStatus } = envelope;
  if (!isResponse([...envelope.ids].map((id) => heap.get(id)))) return;
  const status = httpStatus !== undefined ? { httpStatus } : {};
  const value: Value = [...envelope.ids].map((id) => ref(at, id)[0] as Value[number]);
  documents.push({ kind: 'message', value, heap, site: at, owner, ...status });
  const carrying = departuresOf(envelope.ids);
  const exits =
    carrying.length > 0 ? carrying : [{ site: at, value, heap, owner, ownerSite: envelope.ownerSite }];
  for (const exit of exits) {
    const carried = exit.value.filter((v) => v.k === 'ref' && envelope.ids.has(v.id));
    const results = toolsCallResults(carried, exit.heap);
    if (results.length === 0) continue;
    const message: StandaloneDocument = {
      kind: 'message',
      value: carried,
      heap: exit.heap,
      site: exit.site,
      owner: exit.owner,
      ...status,
    };
    addGatewayReturn(handlers, exit, { site: exit.site, value: results, heap: exit.heap, envelope: message });
  }
}

/** A gateway's return; two envelope literals leaving through one return are one return. */
function addGatewayReturn(handlers: HandlerSite[], exit: Departure, ret: ReturnSite): void {
  const handler = handlers.find((h) => h.framework === 'gateway' && h.tool === exit.owner);
  if (!handler) {
    handlers.push({ tool: exit.owner, framework: 'gateway', site: exit.ownerSite, returns: [ret] });
    return;
  }
  const returns = handler.returns as ReturnSite[];
  const i = returns.findIndex((r) => r.site.file === ret.site.file && r.site.start === ret.site.start);
  const same = returns[i];
  if (!same?.envelope || !ret.envelope) {
    returns.push(ret);
    return;
  }
  returns[i] = {
    ...same,
    value: join(same.value, ret.value),
    envelope: { ...same.envelope, value: join(same.envelope.value, ret.envelope.value) },
  };
}
