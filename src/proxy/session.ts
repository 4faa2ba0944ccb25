/**
 * What the proxy knows about one client–server conversation, and what it does to each frame. Pure: the
 * transports (stdio.ts, http.ts) hand it frame texts and write what it returns.
 *
 * Client frames pass through untouched; they only teach the session which requests are pending, the
 * negotiated protocol version and, from tools/list answers, the tools' outputSchemas.
 *
 * Each server frame is judged envelope first and gets exactly one outcome:
 * - `drop`: not JSON, or JSON that is no JSON-RPC message (`null`, `42`, `[]`, `{}`), which would only
 *   break the client. The transport logs it.
 * - `forward` with the frame's own text: nothing to repair, or repair could not make the message
 *   acceptable (an error it cannot fix, its work budget ran out, an internal error). `reason` says why in
 *   the latter cases, and the transport logs it.
 * - `forward` with new text: the repaired message, and its fixes.
 * It never throws: a frame that makes anything here fail is forwarded unchanged with the failure as reason.
 */

import { inClientOrder } from '../core/client-tools.js';
import { isObject, type JsonObject, jsonTypeOf } from '../core/json.js';
import { convertedId } from '../core/request-id.js';
import { stringifyJson } from '../library/repair/clone.js';
import type { Fix } from '../library/repair/engine.js';
import { type RepairMessageOptions, repairParsedMessageSync } from '../library/repair/index.js';
import { negotiatedVersion, requestedVersion } from '../spec/negotiation.js';
import type { ProtocolVersion } from '../spec/versions.js';
import { idTexts, needsOwnText, numberIdTexts } from './id-text.js';
import {
  type MarkedNumbers,
  markNumbers,
  type PathSegment,
  type RepairedPair,
  type SourceNumber,
  sourceNumbers,
  stringifyMarked,
  trackedCopy,
} from './number-text.js';
import { NOT_JSON, parseFrame } from './parse.js';

/**
 * Validation passes one message's repair may take. Ordinary repairs take a handful; the cap stops a
 * message that keeps the repair loop busy (the issue's `method` + `result` stall took minutes) from
 * stalling every message behind it.
 */
export const REPAIR_BUDGET = 256;

/** The request a server message answers, as the log names it. */
export interface Answering {
  readonly method: string;
  readonly tool?: string;
}

export type ServerOutcome =
  | {
      readonly kind: 'forward';
      /**
       * The text to send, without newline: the frame itself unless `fixes` is non-empty. A repaired
       * message's text is built when first asked for.
       */
      readonly text: string;
      /**
       * The repaired message, when `fixes` is non-empty: a transport may write it in pieces (write.ts)
       * rather than ask for `text`, which builds it whole.
       */
      readonly repaired?: unknown;
      /** The frame parsed (the server's original), for recordings. */
      readonly message: unknown;
      /**
       * A batch split: the messages to send one by one, each a line or an event of its own, in place
       * of the frame (`text` then holds them one per line).
       */
      readonly split?: readonly unknown[];
      /**
       * A split's messages as texts, one each, built when first asked for (`text` joins them). Numbers
       * the repair left in place are written as the server wrote them (number-text.ts).
       */
      readonly splitTexts?: readonly string[];
      /**
       * When a repaired message has numbers JSON.stringify would write otherwise (1e400, -0, 1.0, digits
       * past a double's): `repaired`, or `split`, with marks in their places, and the texts the marks
       * stand for (write.ts writes it so; number-text.ts).
       */
      readonly numbers?: MarkedNumbers;
      readonly fixes: readonly Fix[];
      /** Why a message with problems was forwarded unchanged. */
      readonly reason?: string;
      readonly answering?: Answering;
      readonly protocolVersion: ProtocolVersion;
    }
  | {
      readonly kind: 'drop';
      readonly reason: string;
      /** The frame parsed, when it was JSON at all. */
      readonly message?: unknown;
      readonly protocolVersion: ProtocolVersion;
    };

/** What a transport can tell about a server frame beyond its text. */
export interface ServerFrameHints {
  /** The text holds no control character (frames.ts knows it from the bytes). */
  readonly controlFree?: boolean | undefined;
  /**
   * The transport can send a batch's members as messages of their own (stdio lines, SSE events); an
   * HTTP JSON body holds one message, so there only a batch of one is unwrapped.
   */
  readonly canSplit?: boolean | undefined;
}

export interface SessionOptions {
  /** Used until the conversation says which version it speaks. */
  readonly protocolVersion: ProtocolVersion;
  /** Keep `protocolVersion` whatever the conversation negotiates (`--protocol`). */
  readonly fixedVersion?: boolean;
  /** Validation passes per message; default REPAIR_BUDGET. */
  readonly budget?: number;
}

const BYTE_ORDER_MARK = 0xfeff;

const MARK_DROPPED: Fix = {
  rule: 'frame-not-json',
  pointer: '',
  description: 'byte order mark (U+FEFF) before the message dropped',
};

/**
 * A map key for a request id: ids are strings or integers; anything else is never matched. A number
 * and its text (3 and "3") have different keys: a server's answer with the other type is matched by
 * the session, which gives it the client's id back.
 */
export function idKey(id: unknown): string | undefined {
  if (typeof id === 'string') return `s${id}`;
  if (typeof id === 'number') return `n${id}`;
  return undefined;
}

function errorText(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'unknown error';
  }
}

export class ProxySession {
  private readonly pending = new Map<string, PendingRequest>();
  /**
   * Ids the client used again while a request with the id was pending (a client that reuses ids, two
   * clients on one HTTP session), with how many answers are still due under each: which request an
   * answer with the id is for cannot be told, so it is judged without one (by its shape), rather than
   * as an answer to whichever came last (a tools/call result was given `"tools": []`).
   */
  private readonly reused = new Map<string, number>();
  private readonly tools = new Map<string, JsonObject>();
  /** The tools' definitions as repair takes them, rebuilt only when a tools/list answer teaches new ones. */
  private toolList: JsonObject[] = [];
  private version: ProtocolVersion;
  private readonly fixedVersion: boolean;
  private readonly budget: number;

  constructor(options: SessionOptions) {
    this.version = options.protocolVersion;
    this.fixedVersion = options.fixedVersion ?? false;
    this.budget = options.budget ?? REPAIR_BUDGET;
  }

  get protocolVersion(): ProtocolVersion {
    return this.version;
  }

  /** Takes the version a transport states (HTTP's MCP-Protocol-Version header), unless it is fixed. */
  declareVersion(version: ProtocolVersion): void {
    this.use(version);
  }

  /**
   * A server message too long to judge was passed on unchanged (frames.ts); `ids` are the requests it
   * answers (passed-answers.ts). They are answered: the server's exit, or a stream that breaks off, must
   * not answer them a second time.
   */
  passedUnjudged(ids: readonly unknown[]): void {
    for (const id of ids) {
      const key = idKey(id);
      if (key !== undefined && this.pending.has(key)) this.settle(key);
    }
  }

  /**
   * Whether a client request with this id was answered, on whatever stream: it is no longer pending
   * (or was cancelled). An id the session cannot key (null, an object) never is.
   */
  answeredAlready(id: unknown): boolean {
    const key = idKey(id);
    return key !== undefined && !this.pending.has(key);
  }

  /** Ids of the client requests the server has not answered yet. */
  pendingIds(): unknown[] {
    return [...this.pending.values()].map(({ request }) => request.id);
  }

  /** The same ids as JSON texts, each as the client wrote it (id-text.ts). */
  pendingIdTexts(): string[] {
    return [...this.pending.values()].map(({ idText }) => idText);
  }

  /**
   * Learns from a client frame, which the caller forwards unchanged. Returns the frame parsed (or
   * NOT_JSON), for recordings.
   */
  fromClient(text: string): unknown {
    const message = parseFrame(text);
    const texts = idTexts(text, message);
    for (const [place, item] of (Array.isArray(message) ? message : [message]).entries()) {
      if (isObject(item)) this.observeClient(item, texts[place] ?? 'null');
    }
    return message;
  }

  private observeClient(message: JsonObject, idText: string): void {
    const method = message.method;
    if (typeof method !== 'string') return;
    const declared = requestedVersion(message);
    if (declared) this.use(declared);
    const key = idKey(message.id);
    if (key !== undefined) {
      if (this.pending.has(key)) this.reused.set(key, (this.reused.get(key) ?? 1) + 1);
      this.pending.set(key, { request: message, idText, answering: describe(method, message.params) });
    } else if (message.method === 'notifications/cancelled' && isObject(message.params)) {
      // A cancelled request may never be answered; the server's exit must not answer it either.
      const cancelled = idKey(message.params.requestId);
      if (cancelled !== undefined && this.pending.has(cancelled)) this.settle(cancelled);
    }
  }

  /**
   * The outcome for one server frame, at once: validation and repair are synchronous, so a frame costs
   * no promise. Never throws.
   */
  fromServer(text: string, frame: ServerFrameHints = {}): ServerOutcome {
    let message: unknown;
    try {
      message = parseFrame(text, frame.controlFree);
      // A byte order mark before a message: dropped, or the client's JSON.parse drops the message
      // (a server writing one before its initialize result never completed a handshake).
      const marked = message === NOT_JSON && text.charCodeAt(0) === BYTE_ORDER_MARK;
      if (marked) message = parseFrame(text.slice(1), frame.controlFree);
      if (message === NOT_JSON) {
        return this.drop(text.trim() === '' ? 'an empty line' : 'not JSON');
      }
      const invalid = notJsonRpc(message);
      if (invalid) return this.drop(`JSON but not a JSON-RPC message: ${invalid}`, message);
      const before: readonly Fix[] = marked ? [MARK_DROPPED] : [];
      let written: Map<number, string> | undefined;
      const idText = (place: number) => {
        written ??= numberIdTexts(text);
        return written.get(place);
      };
      // notJsonRpc let through only message objects and batches of them.
      return Array.isArray(message)
        ? this.batch(text, message as JsonObject[], before, frame.canSplit === true, idText)
        : this.single(text, message as JsonObject, before, idText);
    } catch (error) {
      return this.unchanged(text, message, `left unchanged: the proxy failed on it (${errorText(error)})`);
    }
  }

  private drop(reason: string, message?: unknown): ServerOutcome {
    return {
      kind: 'drop',
      reason,
      ...(message === undefined ? {} : { message }),
      protocolVersion: this.version,
    };
  }

  private unchanged(text: string, message: unknown, reason?: string, answering?: Answering): ServerOutcome {
    return {
      kind: 'forward',
      text,
      message,
      fixes: [],
      ...(reason ? { reason } : {}),
      ...(answering ? { answering } : {}),
      protocolVersion: this.version,
    };
  }

  /** `before`: fixes to the frame itself (a byte order mark dropped), made before the message's own. */
  private single(text: string, message: JsonObject, before: readonly Fix[], idText: IdTextAt): ServerOutcome {
    const outcome = this.repairOne(message, () => idText(0));
    const fixes = [...before, ...outcome.fixes];
    // A repair that could not finish has no fixes of its own.
    if (fixes.length === 0) {
      // An untouched message goes out as the bytes it came in as.
      return this.unchanged(text, message, outcome.reason, outcome.answering);
    }
    // A message that repair left unchanged still goes out without the mark.
    const pair = { value: outcome.message, original: message, prefix: [], again: outcome.again };
    return this.repaired(text, [pair], fixes, 'one', {
      answering: outcome.answering,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
    });
  }

  /**
   * A batch: each member is repaired on its own, and sent as a message of its own where the transport
   * can (`canSplit`), else unwrapped when it is a batch of one. The official SDK clients drop any array
   * (their message schema has none, in every version, 2025-03-26 too: envelope-batch), so a batch sent
   * on as it came, repaired or not, answers none of its calls; its members one by one are the same
   * messages, each valid on its own. A batch of several in an HTTP JSON body, which holds one message,
   * goes on as a batch, and the log says so.
   */
  private batch(
    text: string,
    members: JsonObject[],
    before: readonly Fix[],
    canSplit: boolean,
    idText: IdTextAt,
  ): ServerOutcome {
    const outcomes: RepairOutcome[] = [];
    for (const [place, member] of members.entries())
      outcomes.push(this.repairOne(member, () => idText(place)));
    // A member whose repair could not finish has no fixes, and its message is the member as sent.
    const fixes = [...before, ...outcomes.flatMap((o) => o.fixes)];
    const reason = outcomes.find((o) => o.reason !== undefined)?.reason;
    // Each member with what it was made from, where the frame had it.
    const pairs = outcomes.map((o, place) => ({
      value: o.message,
      original: members[place],
      prefix: [place],
      again: o.again,
    }));
    if (members.length === 0 || (!canSplit && members.length > 1)) {
      // In an HTTP JSON body the TypeScript SDK clients read a batch, the Python SDK client does not.
      const left =
        members.length === 0
          ? 'left as a batch: it is empty, and the official SDK clients drop a batch (envelope-batch)'
          : 'left as a batch: an HTTP JSON body holds one message; the TypeScript SDK clients read a batch there, the Python SDK client drops it (envelope-batch)';
      const why = reason ? `${reason}; ${left}` : left;
      return fixes.length === 0
        ? this.unchanged(text, members, why)
        : this.repaired(text, pairs, fixes, 'batch', { reason: why, message: members });
    }
    const split: Fix = {
      rule: 'envelope-batch',
      pointer: '',
      description:
        members.length === 1
          ? 'sent the message of a batch of one as itself: the official SDK clients drop a batch'
          : `sent the ${members.length} messages of the batch one by one: the official SDK clients drop a batch`,
    };
    if (members.length === 1)
      return this.repaired(text, pairs, [...fixes, split], 'one', { reason, message: members });
    return this.repaired(text, pairs, [...fixes, split], 'split', { reason, message: members });
  }

  /**
   * A repaired message's outcome; its text is built on first use, if the transport asks for it. `pairs`
   * are the repaired messages, each with what it was made from, sent as `one` message (there is one pair),
   * as a `batch` of them, or `split`, one by one.
   */
  private repaired(
    text: string,
    given: readonly AgainPair[],
    fixes: readonly Fix[],
    sent: 'one' | 'batch' | 'split',
    about: {
      readonly reason?: string | undefined;
      readonly answering?: Answering | undefined;
      /** The frame parsed, when it was a batch (a single message is its pair's original). */
      readonly message?: unknown;
    },
  ): ServerOutcome {
    const found = markedNumbers(text, given, this.budget);
    const pairs = found?.pairs ?? given;
    const values = pairs.map((pair) => pair.value);
    const texts = found?.texts ?? [];
    const marked = found?.marked ?? values;
    const messages = sent === 'split' ? marked : [sent === 'batch' ? marked : marked[0]];
    let written: string[] | undefined;
    const messageTexts = () => {
      written ??= messages.map((value) => stringifyMarked(value, texts));
      return written;
    };
    let joined: string | undefined;
    return {
      kind: 'forward',
      get text() {
        joined ??= messageTexts().join('\n');
        return joined;
      },
      // A getter in the literal itself: spread from another object, it would be called at once.
      get splitTexts() {
        return sent === 'split' ? messageTexts() : undefined;
      },
      ...(sent === 'split' ? { split: values } : {}),
      repaired: sent === 'one' ? values[0] : values,
      ...(found ? { numbers: { marked: sent === 'one' ? marked[0] : marked, texts } } : {}),
      message: about.message ?? pairs[0]?.original,
      fixes,
      ...(about.reason ? { reason: about.reason } : {}),
      ...(about.answering ? { answering: about.answering } : {}),
      protocolVersion: this.version,
    };
  }

  /** `idText`: the message's id as the server wrote it, when it is a number. */
  private repairOne(received: JsonObject, idText: () => string | undefined): RepairOutcome {
    if (needsOwnText(received.id)) {
      // Judged here: repair copies the message as JSON.stringify would send it, which writes 1e400
      // (Infinity) as null, and the log said the server sent "id": null.
      const match = Object.hasOwn(received, 'method') ? undefined : this.answered(received.id);
      return {
        message: received,
        fixes: [],
        reason: `left unchanged: no repair for envelope-id-invalid at /id: "id" is ${idText() ?? String(received.id)}, a number that is no safe integer; request ids must be a string or an integer`,
        answering: match?.pending.answering,
      };
    }
    const stray = strayMethod(received, (key) => this.pending.has(key));
    const sent = stray?.response ?? received;
    // A response (no method) answers the pending request with its id.
    const match = Object.hasOwn(sent, 'method') ? undefined : this.answered(sent.id);
    // An answer under a reused id: which request it answers is not known.
    const pending = match?.reused ? undefined : match?.pending;
    // An id the server changed the type of is given back as the client sent it: the official SDK
    // clients convert it themselves, but a client that compares ids as JSON-RPC says would drop it.
    const idFixes: Fix[] = match?.converted
      ? [
          {
            rule: 'audit-response-id-converted',
            pointer: '/id',
            description: `id ${stringifyJson(sent.id)} given back as ${stringifyJson(match.pending.request.id)}, the id of the request it answers`,
          },
        ]
      : [];
    if (stray) idFixes.unshift(stray.fix);
    const message = match?.converted ? { ...sent, id: match.pending.request.id } : sent;
    const request = pending?.request;
    const answering = pending?.answering;
    const negotiated = negotiatedVersion(request, message.result);
    if (negotiated) this.use(negotiated);
    // Not repaired in place: `message` is what the server sent, and recordings keep it.
    const context = { protocolVersion: this.version, request, tools: this.toolList };
    const run = repairParsedMessageSync(message, context, { budget: this.budget });
    if (run.abandoned !== undefined) {
      return { message: received, fixes: [], reason: `left unchanged: ${run.abandoned}`, answering };
    }
    const errors = run.remaining.filter((f) => f.severity === 'error');
    const first = errors[0];
    if (first) {
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
      return {
        message: received,
        fixes: [],
        reason: `left unchanged: no repair for ${first.rule} at ${first.pointer || '(root)'}: ${first.message}${more}`,
        answering,
      };
    }
    if (request?.method === 'tools/list') this.learnTools(run.message as JsonObject);
    const again = { message, context, fixes: run.fixes };
    return { message: run.message, fixes: [...idFixes, ...run.fixes], answering, again };
  }

  /**
   * The pending request a response answers, taken off the pending list: the one with its id, or else
   * the one whose id it names with the other type. `"3"` for `3` is matched as the official SDK clients
   * match it (src/core/request-id.ts); `3` for `"3"` too, which those clients never see (they send
   * number ids), so that a client with string ids gets its own id back as well.
   */
  private answered(
    id: unknown,
  ): { pending: PendingRequest; converted: boolean; reused: boolean } | undefined {
    const key = idKey(id);
    if (key === undefined) return undefined;
    let pending = this.pending.get(key);
    let found = key;
    let converted = false;
    if (!pending) {
      const other =
        typeof id === 'string'
          ? idKey(convertedId(id))
          : typeof id === 'number'
            ? idKey(String(id))
            : undefined;
      pending = other === undefined ? undefined : this.pending.get(other);
      if (!pending || other === undefined) return undefined;
      found = other;
      converted = true;
    }
    const reused = this.reused.has(found);
    this.settle(found);
    return { pending, converted, reused };
  }

  /**
   * One request under `key` is answered (or cancelled). Under a reused id the one left stays
   * unknown: the id stays in `reused` until the last answer due.
   */
  private settle(key: string): void {
    const due = this.reused.get(key);
    if (due !== undefined && due > 1) {
      this.reused.set(key, due - 1);
      return;
    }
    this.reused.delete(key);
    this.pending.delete(key);
  }

  /**
   * A tools/list answer that repair left without errors: an error answer, or a result whose tools are
   * objects with a name each (the tool rules hold it to that).
   */
  private learnTools(response: JsonObject): void {
    if (!isObject(response.result)) return;
    // A tool listed twice: the definition whose outputSchema the official clients check wins.
    for (const tool of inClientOrder(response.result.tools as JsonObject[]))
      this.tools.set(tool.name as string, tool);
    this.toolList = [...this.tools.values()];
  }

  private use(version: ProtocolVersion): void {
    if (!this.fixedVersion) this.version = version;
  }
}

/** The id of the message at a place in a frame (see numberIdTexts) as written, when it is a number. */
type IdTextAt = (place: number) => string | undefined;

/** A client request the server has not answered yet. */
interface PendingRequest {
  readonly request: JsonObject;
  /** Its id as the client wrote it. */
  readonly idText: string;
  readonly answering: Answering;
}

/** How a message was repaired, so that it can be repaired again the same way on a tracked copy. */
interface Again {
  /** What the repair was given. */
  readonly message: JsonObject;
  readonly context: RepairMessageOptions;
  readonly fixes: readonly Fix[];
}

/** A repaired pair, with how its message was repaired when it was. */
type AgainPair = RepairedPair & { readonly again?: Again | undefined };

/**
 * The messages of `pairs` with marks for the numbers to be written as the server wrote them, when there
 * are any: undefined when there are none. A message with such numbers is repaired again, the same way,
 * on a copy whose containers are known (trackedCopy), so that its numbers are found wherever the repair
 * left them: `pairs` are then those repairs. Only a repaired message whose frame has a number that
 * JSON.stringify would write otherwise pays for it.
 */
function markedNumbers(
  text: string,
  given: readonly AgainPair[],
  budget: number,
): { marked: unknown[]; texts: string[]; pairs: readonly RepairedPair[] } | undefined {
  const numbers = sourceNumbers(text);
  if (numbers.length === 0) return undefined;
  // Each member of a batch is given its own numbers: all of them for each would cost members × numbers.
  const byMember = new Map<PathSegment | undefined, SourceNumber[]>();
  for (const number of numbers) {
    const head = number.path[0];
    const held = byMember.get(head);
    if (held) held.push(number);
    else byMember.set(head, [number]);
  }
  const numbersOf = (pair: RepairedPair) =>
    pair.prefix.length === 0 ? numbers : (byMember.get(pair.prefix[0]) ?? []);
  const pairs = given.map((pair) =>
    pair.again?.fixes.length && numbersOf(pair).length > 0 ? tracked(pair, budget) : pair,
  );
  const texts: string[] = [];
  const marked = pairs.map((pair) => markNumbers(pair, numbersOf(pair), texts) ?? pair.value);
  return texts.length === 0 ? undefined : { marked, texts, pairs };
}

/**
 * The pair's message repaired again in place of a tracked copy of what the repair was given: the same
 * repair (it depends on nothing else), whose containers are those of the copy wherever it put them. The
 * pair as it was when the second repair does not make the same fixes.
 */
function tracked(pair: AgainPair, budget: number): RepairedPair {
  const again = pair.again as Again;
  const { copy, copies } = trackedCopy(again.message);
  const run = repairParsedMessageSync(copy, again.context, { budget, owned: true });
  const same =
    run.abandoned === undefined &&
    run.fixes.length === again.fixes.length &&
    run.fixes.every(
      (fix, i) => fix.description === again.fixes[i]?.description && fix.pointer === again.fixes[i]?.pointer,
    );
  return same ? { value: run.message, original: pair.original, prefix: pair.prefix, copies } : pair;
}

interface RepairOutcome {
  /** The repaired message, or the message as sent when there are no fixes. */
  readonly message: unknown;
  /** Empty when `reason` is set. */
  readonly fixes: readonly Fix[];
  /** Why a message with problems is left unchanged. */
  readonly reason?: string;
  readonly answering?: Answering | undefined;
  /** How the message was repaired, when it was by repairParsedMessageSync. */
  readonly again?: Again;
}

/**
 * Why a parsed frame is no JSON-RPC message at all, or undefined when it is one (or a batch of them).
 * An object counts when it has any of `method`, `id`, `result` and `error`: one with a broken envelope
 * is still a message, which the envelope rules repair or the client judges.
 */
function notJsonRpc(message: unknown): string | undefined {
  if (Array.isArray(message)) {
    if (message.length === 0) return 'an empty array';
    return message.every(isMessageObject) ? undefined : 'an array that is not a batch of messages';
  }
  if (!isObject(message)) return message === null ? 'null' : `a bare ${jsonTypeOf(message)}`;
  return isMessageObject(message) ? undefined : 'an object with none of method, id, result and error';
}

function isMessageObject(value: unknown): boolean {
  return isObject(value) && ['method', 'id', 'result', 'error'].some((key) => Object.hasOwn(value, key));
}

/**
 * A server message with `method` beside `result` or `error`, whose id is that of a request the client
 * is waiting on: the answer to it, `method` (and `params`) being the stray members. Read as a request,
 * as its `method` would have it, the answer is lost and the client's call waits until it times out.
 */
function strayMethod(
  message: JsonObject,
  isPending: (key: string) => boolean,
): { response: JsonObject; fix: Fix } | undefined {
  if (!Object.hasOwn(message, 'method')) return undefined;
  if (!Object.hasOwn(message, 'result') && !Object.hasOwn(message, 'error')) return undefined;
  const key = idKey(message.id);
  if (key === undefined || !isPending(key)) return undefined;
  const { method, params: _params, ...response } = message;
  const fix: Fix = {
    rule: 'envelope-result-and-error',
    pointer: '/method',
    description: `removed "method" (${stringifyJson(method)}) from the answer to pending request ${stringifyJson(message.id)}`,
    lossy: true,
  };
  return { response, fix };
}

/** How the log names a client request: its method, and for a tools/call the tool. */
function describe(method: string, params: unknown): Answering {
  const tool =
    method === 'tools/call' && isObject(params) && typeof params.name === 'string' ? params.name : undefined;
  return tool ? { method, tool } : { method };
}
