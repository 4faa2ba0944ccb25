/**
 * `toolResult(value, { protocolVersion })`: any handler return value → a conformant CallToolResult.
 *
 * | value                                   | result                                                         |
 * |-----------------------------------------|----------------------------------------------------------------|
 * | `undefined`                             | empty content                                                  |
 * | string                                  | one text block                                                 |
 * | Error, or `{ error: … }` (error truthy) | `isError: true` and a readable text block                      |
 * | Uint8Array / Buffer / ArrayBuffer       | image, audio or embedded blob, by the sniffed type             |
 * | a content block, or an array of them    | that content                                                   |
 * | a CallToolResult (even a broken one)    | validated and repaired (`repair()`)                            |
 * | 2026-07-28: an InputRequiredResult      | validated and repaired; the outputSchema does not apply        |
 * | plain object                            | structuredContent + a JSON text mirror                         |
 * | array, number, boolean, null            | 2026-07-28: structuredContent as is; 2025-06-18 and 2025-11-25: |
 * |                                         | `{ "result": value }` (the SDK v2 convention); + text mirror    |
 *
 * Before 2025-06-18 there is no structuredContent, so structured values become JSON text only, unless
 * an outputSchema applies (see structuredResult). In 2026-07-28 every result carries
 * `resultType: "complete"`.
 *
 * With an outputSchema (given, or the tool's), a non-error result whose structuredContent is missing
 * or does not match throws OutputSchemaMismatchError: that is a bug in the tool, which repair could only
 * paper over by turning the result into an error.
 */

import { appendAll } from '../core/append.js';
import { isObject, type JsonObject } from '../core/json.js';
import { jsonStringUnits } from '../core/json-size.js';
import { payloadFactsOfBytes } from '../core/payload.js';
import { createOutputSchemaCompiler, type OutputSchemaCompiler, type SchemaError } from '../core/schema.js';
import { canonicalMimeType } from '../core/sniff.js';
import { MAX_STRING_LENGTH } from '../core/unwritable.js';
import { describesResultWrapper } from '../rules/support/call-tool-result.js';
import {
  BLOCK_TYPES,
  type BlockType,
  checkProtocolVersionOption,
  DEFAULT_PROTOCOL_VERSION,
  features,
  isProtocolVersion,
  type ProtocolVersion,
} from '../spec/versions.js';
import { isQuietBuiltText } from '../validate/engine.js';
import { errorResult, errorText } from './builders.js';
import { encodeBase64, isBytes, mediaTypeOfBytes } from './bytes.js';
import { checkedOptions } from './options.js';
import { cloneJson, safeJson, stringifyJson, toWire } from './repair/clone.js';
import type { Fix, KnownPayload } from './repair/engine.js';
import { repair, repairBuilt } from './repair/index.js';
import { RESULT_KEYS, withProtocolMembers } from './repair/members.js';
import type { CallToolResult, DefaultProtocolVersion } from './types.js';

export interface ToolResultOptions<V extends ProtocolVersion = ProtocolVersion> {
  /** The negotiated protocol version; default: DEFAULT_PROTOCOL_VERSION (2025-11-25). */
  readonly protocolVersion?: V;
  /** The tool's outputSchema: structuredContent must validate against it, else toolResult throws. */
  readonly outputSchema?: unknown;
  /** The tool definition; its outputSchema is used when `outputSchema` is not given. */
  readonly tool?: unknown;
}

/** structuredContent does not match the tool's outputSchema: a bug in the tool, so it is thrown. */
export class OutputSchemaMismatchError extends Error {
  override readonly name = 'OutputSchemaMismatchError';
  /** JSON Pointer into structuredContent of the first failing value. */
  readonly pointer: string;
  /** JSON Pointer into the schema of the first failing keyword, e.g. `#/properties/n/type`. */
  readonly schemaPath: string;
  constructor(readonly errors: readonly SchemaError[]) {
    const first = errors[0] ?? { instancePath: '', schemaPath: '#', message: 'is invalid' };
    super(
      `structuredContent does not match the outputSchema: ${first.instancePath || '/'} ${first.message} (schema ${first.schemaPath})`,
    );
    this.pointer = first.instancePath;
    this.schemaPath = first.schemaPath;
  }
}

/** An object whose members are all CallToolResult members (a domain object with a `content` field is not). */
export function looksLikeCallToolResult(value: unknown): value is JsonObject {
  if (!isObject(value)) return false;
  const keys = Object.keys(value);
  return (
    keys.length > 0 &&
    keys.every((k) => RESULT_KEYS.has(k)) &&
    (Object.hasOwn(value, 'content') ||
      Object.hasOwn(value, 'toolResult') ||
      Object.hasOwn(value, 'structuredContent'))
  );
}

const INPUT_REQUIRED_KEYS = new Set(['resultType', 'inputRequests', 'requestState', '_meta']);

/**
 * A 2026-07-28 InputRequiredResult (`resultType: "input_required"` with `inputRequests` or
 * `requestState`): the tool asks the client for input before it can finish, so it is a result, not data.
 */
function looksLikeInputRequired(value: unknown): value is JsonObject {
  return (
    isObject(value) &&
    value.resultType === 'input_required' &&
    Object.keys(value).every((k) => INPUT_REQUIRED_KEYS.has(k))
  );
}

/** A well-formed content block of a known type (a domain object that merely has a `type` is not). */
export function isContentBlock(value: unknown): value is JsonObject {
  if (!isObject(value) || !BLOCK_TYPES.includes(value.type as BlockType)) return false;
  switch (value.type as BlockType) {
    case 'text':
      return typeof value.text === 'string';
    case 'image':
    case 'audio':
      return typeof value.data === 'string' && typeof value.mimeType === 'string';
    case 'resource_link':
      return typeof value.uri === 'string' && typeof value.name === 'string';
    case 'resource':
      return isObject(value.resource) && typeof value.resource.uri === 'string';
  }
}

/** `{ error: … }` with a truthy error: the common hand-rolled error payload. */
function isErrorPayload(value: unknown): value is JsonObject & { error: unknown } {
  return isObject(value) && Object.hasOwn(value, 'error') && Boolean(value.error);
}

function errorPayloadText(payload: JsonObject & { error: unknown }): string {
  const { error } = payload;
  const message =
    isObject(error) && typeof error.message === 'string'
      ? error.message
      : typeof error === 'string'
        ? error
        : safeJson(error);
  // An empty message reads as nothing at all: the payload's JSON says what there is.
  if (!message) return safeJson(payload);
  return Object.keys(payload).length > 1 || (isObject(error) && Object.keys(error).length > 1)
    ? `${message}\n${safeJson(payload)}`
    : message;
}

/**
 * The outputSchema given to toolResult() does not compile, or cannot be read (a revoked proxy): a bug
 * in the tool definition, so it is thrown.
 */
export class OutputSchemaInvalidError extends TypeError {
  override readonly name = 'OutputSchemaInvalidError';
}

let schemas: OutputSchemaCompiler | undefined;

/**
 * The compiled schema. One that throws when read (a revoked proxy, a getter that throws) does not
 * compile either: the compiler's own error was answered as a failure of toolResult itself.
 */
function compileSchema(
  schema: unknown,
  version: ProtocolVersion,
): ReturnType<OutputSchemaCompiler['compile']> {
  schemas ??= createOutputSchemaCompiler();
  try {
    return schemas.compile(schema, version);
  } catch (error) {
    throw new OutputSchemaInvalidError(`toolResult(): the outputSchema cannot be read (${errorText(error)})`);
  }
}

function checkOutputSchema(schema: unknown, value: unknown, version: ProtocolVersion): void {
  const compiled = compileSchema(schema, version);
  if (!compiled.ok)
    throw new OutputSchemaInvalidError(
      `toolResult(): the outputSchema does not compile: ${compiled.message}`,
    );
  // A recursive schema over a value nested deeper than the validator's stack is an error too.
  const errors = compiled.validate(value);
  if (errors.length > 0) throw new OutputSchemaMismatchError(errors);
}

/**
 * A finished, non-error result of a tool with an outputSchema must carry structuredContent that matches
 * it (SDK v1 clients reject the call otherwise). Versions before 2025-06-18 have neither: there a result
 * without structuredContent passes, and one with it (see structuredResult) is held to the schema.
 */
function checkResultAgainstSchema(result: JsonObject, schema: unknown, version: ProtocolVersion): void {
  const { structuredContent, resultTypeRequired } = features(version);
  if (result.isError === true) return;
  if (structuredContent === 'none' && result.structuredContent === undefined) return;
  if (resultTypeRequired && result.resultType !== 'complete') return;
  if (result.structuredContent === undefined) {
    throw new OutputSchemaMismatchError([
      { instancePath: '', schemaPath: '#', message: 'is missing, but the tool declares an outputSchema' },
    ]);
  }
  checkOutputSchema(schema, result.structuredContent, version);
}

/** The value the developer's outputSchema describes: the raw value, unless the schema is the wrapper. */
function schemaSubject(schema: unknown, result: JsonObject, raw: unknown, wrapped: boolean): unknown {
  // Before 2025-06-18 there is no structuredContent; the schema still states the tool's contract.
  if (result.structuredContent === undefined) return raw;
  if (!wrapped) return result.structuredContent;
  return describesResultWrapper(schema) ? result.structuredContent : raw;
}

function withResultType(result: JsonObject, version: ProtocolVersion): JsonObject {
  if (features(version).resultTypeRequired) result.resultType = 'complete';
  return result;
}

/**
 * `value instanceof type`, or false where asking throws: a Proxy's getPrototypeOf trap may, and
 * JSON.stringify never asks, so such a value is shaped as the object it is. (Asked directly, a handler's
 * proxy answered "The tool result could not be shaped", and one it threw made shaped() reject.)
 */
export function isInstance(value: unknown, type: abstract new (...args: never[]) => unknown): boolean {
  try {
    return value instanceof type;
  } catch {
    return false;
  }
}

/**
 * The bytes of a Uint8Array or ArrayBuffer, or undefined when its buffer is detached (transferred to a
 * worker, or by structuredClone): its memory is gone, and encoding it threw "Cannot perform Construct on
 * a detached ArrayBuffer", answered as a failure of toolResult itself. A view of a detached buffer reads
 * as empty; making a view of its buffer tells the two apart.
 */
function readableBytes(value: Uint8Array | ArrayBuffer): Uint8Array | undefined {
  try {
    const bytes = isBytes(value) ? value : new Uint8Array(value);
    if (bytes.byteLength === 0) new Uint8Array(bytes.buffer);
    return bytes;
  } catch {
    return undefined;
  }
}

/** Whether `await` would wait for `value` (reading `then` may throw, as awaiting it would). */
function isThenable(value: unknown): boolean {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * The result carrying `bytes`, and what is known of its payload: the facts the validation would find by
 * decoding the base64 again are found from the bytes (payloadFactsOfBytes), so it does not decode it.
 */
async function bytesResult(
  bytes: Uint8Array,
  version: ProtocolVersion,
): Promise<{ result: JsonObject; known: KnownPayload }> {
  const data = encodeBase64(bytes);
  const facts = payloadFactsOfBytes(bytes);
  const mimeType = await mediaTypeOfBytes(bytes);
  const family = mimeType ? canonicalMimeType(mimeType).split('/')[0] : undefined;
  if (
    mimeType &&
    (family === 'image' || (family === 'audio' && features(version).blockTypes.includes('audio')))
  ) {
    const block = { type: family, data, mimeType };
    return { result: { content: [block] }, known: { holder: block, key: 'data', facts } };
  }
  const resource: JsonObject = { uri: 'urn:mcp-shape:blob:0', blob: data };
  resource.mimeType = mimeType ?? 'application/octet-stream';
  return {
    result: { content: [{ type: 'resource', resource }] },
    known: { holder: resource, key: 'blob', facts },
  };
}

/**
 * In 2026-07-28, where structuredContent may be any JSON value: whether the outputSchema describes the
 * `{ "result": value }` wrapper (the SDK v2 convention) that `json`, no object, does not match alone.
 * Then it is wrapped, as repair wraps such a structuredContent for that schema: sent as is, the client
 * would refuse it, and toolResult threw for a value it wraps and passes in 2025-06-18.
 */
function wantsResultWrapper(schema: unknown, json: unknown, version: ProtocolVersion): boolean {
  try {
    if (schema === undefined || !describesResultWrapper(schema)) return false;
  } catch {
    return false; // a schema that cannot be read: the check that follows throws for it
  }
  const compiled = compileSchema(schema, version);
  // A schema that does not compile is thrown by the check that follows.
  return compiled.ok && compiled.validate(json).length > 0;
}

/**
 * The result, and the JSON text of its structuredContent: the validation reuses the mirror as is.
 * `json` is plain JSON (toWire's value), taken as it is, not copied: toWire already copied anything
 * that was not.
 *
 * A tool with an outputSchema gets structuredContent before 2025-06-18 too, as in 2025-06-18: the
 * official SDK servers (v1 McpServer, v2 validateToolOutput) refuse a success without it whatever the
 * version negotiated, and answered a 2025-03-26 client an error (-32602 "has an output schema but no
 * structured content") in place of the data. Those versions' Result allows the extra member.
 */
function structuredResult(
  json: unknown,
  version: ProtocolVersion,
  outputSchema: unknown,
): { result: JsonObject; wrapped: boolean; knownJson?: ReadonlyMap<object, string> } {
  const declared = features(version).structuredContent;
  const mode = declared === 'none' && outputSchema !== undefined ? 'object' : declared;
  if (mode === 'none')
    return { result: { content: [{ type: 'text', text: stringifyJson(json) }] }, wrapped: false };
  const wrapped = !isObject(json) && (mode === 'object' || wantsResultWrapper(outputSchema, json, version));
  const structured = wrapped ? { result: json } : json;
  // Plain JSON: the native writer without safeJson's replacer, which made it several times slower.
  const text = stringifyJson(structured);
  const result = { content: [{ type: 'text', text }], structuredContent: structured };
  return isObject(structured) || Array.isArray(structured)
    ? { result, wrapped, knownJson: new Map([[structured, text]]) }
    : { result, wrapped };
}

/**
 * Not an async function: the quick answer for plain text is a promise already resolved, which spares
 * the async function's own promise (a third of toolResult's time on a short text). As in an async
 * function, anything thrown becomes a rejection.
 */
export function toolResult<V extends ProtocolVersion = DefaultProtocolVersion>(
  value: unknown,
  options: ToolResultOptions<V> = {},
): Promise<CallToolResult<V>> {
  try {
    options = checkedOptions(options, 'toolResult()');
    const quick = quickTextResult(value, options);
    if (quick !== undefined) return Promise.resolve(quick as CallToolResult<V>);
    return shapeValue(value, options).then((shaped) => shaped.result as CallToolResult<V>);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * What shapeValue makes of a string when no outputSchema applies and the text result needs no repair
 * (no rule can report on it), made without its chain of awaits, which cost ten times the validation of
 * such a result. `undefined`: take the full path. A test holds the two together.
 */
/**
 * plainTextResult, or undefined where it throws: a text of the longest string V8 makes fails to be
 * measured, and rejected toolResult with V8's RangeError; the full path says what it is.
 */
function quickTextResult(value: unknown, options: ToolResultOptions): JsonObject | undefined {
  try {
    return plainTextResult(value, options);
  } catch {
    return undefined;
  }
}

/**
 * Whether a tool option is one without an outputSchema; false when reading it throws, so that a text
 * takes the full path and is answered as any other value is (the quick path rejected with V8's error).
 */
function isToolWithoutSchema(tool: unknown): boolean {
  try {
    return isObject(tool) && tool.outputSchema === undefined;
  } catch {
    return false;
  }
}

function plainTextResult(value: unknown, options: ToolResultOptions): JsonObject | undefined {
  if (typeof value !== 'string' || options.outputSchema !== undefined) return undefined;
  if (options.tool !== undefined && !isToolWithoutSchema(options.tool)) return undefined;
  const version = options.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
  // An unknown version takes the full path, whose first step (shapeValue) rejects it.
  // The result is built here, so its members are known: only its text decides (isQuietBuiltText).
  if (!isProtocolVersion(version) || !isQuietBuiltText(value, version)) return undefined;
  // A text that leaves no room for the result around it is too large to send (the full path says so).
  if (value.length > MAX_STRING_LENGTH - 64) return undefined;
  return withResultType({ content: [{ type: 'text', text: value }] }, version);
}

/**
 * What toolResult() answers when shaping itself failed: an error result the model can read. Only a bug
 * in mcp-shape gets here; a handler's value, however hostile, is shaped.
 */
/** Members of a block (and of its resource) that hold its strings. */
const STRING_MEMBERS = ['text', 'data', 'uri', 'name', 'blob'] as const;

/**
 * Whether the strings of the result's blocks alone are longer than the longest string there is, so
 * that no transport can write its JSON (a text of that length, two texts of half of it): such a result
 * was returned, and JSON.stringify threw where the SDK sent it. Counting lengths writes nothing.
 */
function contentTooLong(result: unknown): boolean {
  const content = isObject(result) ? result.content : undefined;
  if (!Array.isArray(content)) return false;
  // Lengths without escapes first; a character is written as at most six (`\u001f`), so only past a
  // sixth of the longest string can escapes (2^28 quotes are written as 2^29 characters) decide it.
  const unescaped = contentLength(content, (text) => text.length);
  if (unescaped > MAX_STRING_LENGTH) return true;
  return unescaped > MAX_STRING_LENGTH / 6 && contentLength(content, jsonStringUnits) > MAX_STRING_LENGTH;
}

/** A lower bound of the JSON text's length of a result with this content, its strings counted by `length`. */
function contentLength(content: readonly unknown[], length: (text: string) => number): number {
  // `{"content":[]}`, and `{"type":"text","text":""}` per block, the shortest there is: a lower bound.
  let total = 14;
  for (const block of content) {
    total += 25;
    for (const holder of [block, isObject(block) ? block.resource : undefined]) {
      if (!isObject(holder)) continue;
      for (const key of STRING_MEMBERS) {
        const member = holder[key];
        if (typeof member === 'string') total += length(member);
      }
    }
  }
  return total;
}

/** The answer for a value whose JSON text would be longer than the longest string V8 makes. */
function tooLarge(version: ProtocolVersion): JsonObject {
  const text = `The tool result is too large to send: its JSON text would be longer than the longest string JavaScript can hold (${MAX_STRING_LENGTH} characters).`;
  return withResultType({ content: [{ type: 'text', text }], isError: true }, version);
}

function shapingFailed(error: unknown, version: ProtocolVersion): JsonObject {
  let detail: string;
  try {
    detail = error instanceof Error ? error.message : String(error);
  } catch {
    detail = 'unknown error';
  }
  // V8's words for a string past the longest it makes: the value's JSON text (its mirror, or the
  // result's) would be that long, and no transport could send it. Said so, not in V8's words.
  if (isInstance(error, RangeError) && detail === 'Invalid string length') return tooLarge(version);
  return withResultType(
    { content: [{ type: 'text', text: `The tool result could not be shaped (${detail}).` }], isError: true },
    version,
  );
}

/** errorResult(), which reads the error's name and message: getters a handler wrote may throw. */
function safeErrorResult(error: Error, version: ProtocolVersion): JsonObject {
  try {
    return errorResult(error, { protocolVersion: version }) as JsonObject;
  } catch {
    return errorResult('The tool failed.', { protocolVersion: version }) as JsonObject;
  }
}

/** toolResult() plus the repairs it made to a result the value already was (for shaped's `onFixes`). */
export async function shapeValue<V extends ProtocolVersion = DefaultProtocolVersion>(
  value: unknown,
  options: ToolResultOptions<V> = {},
): Promise<{ result: CallToolResult<V>; fixes: readonly Fix[] }> {
  checkProtocolVersionOption(options);
  const version = options.protocolVersion ?? DEFAULT_PROTOCOL_VERSION;
  try {
    const shaped = await shapeResolved(value, options, version);
    if (!contentTooLong(shaped.result)) return shaped;
    return { result: tooLarge(version) as CallToolResult<V>, fixes: shaped.fixes };
  } catch (error) {
    // Documented throws: the tool's output breaks its outputSchema, or the schema itself is broken.
    if (isInstance(error, OutputSchemaMismatchError) || isInstance(error, OutputSchemaInvalidError))
      throw error;
    return { result: shapingFailed(error, version) as CallToolResult<V>, fixes: [] };
  }
}

async function shapeResolved<V extends ProtocolVersion>(
  value: unknown,
  options: ToolResultOptions<V>,
  version: ProtocolVersion,
): Promise<{ result: CallToolResult<V>; fixes: readonly Fix[] }> {
  const tool = isObject(options.tool) ? options.tool : undefined;
  const outputSchema = options.outputSchema ?? tool?.outputSchema;
  let resolved: unknown;
  try {
    // Most handlers return a value, not a promise: awaiting it anyway would cost a turn of the
    // microtask queue, more than shaping a short text takes.
    resolved = isThenable(value) ? await value : value;
  } catch (error) {
    // A rejected promise is the handler failing: an error result, as if it had returned the Error.
    resolved = isInstance(error, Error) ? error : new Error(safeJson(error));
  }
  if (isInstance(resolved, Error))
    return { result: safeErrorResult(resolved as Error, version) as CallToolResult<V>, fixes: [] };

  let result: JsonObject;
  let knownJson: ReadonlyMap<object, string> | undefined;
  let knownPayloads: KnownPayload[] | undefined;
  let fixes: Fix[] = [];
  // Whether everything in `result` was made here. Values the handler returned as plain JSON are used
  // as they are, not copied (a copy of a megabyte structuredContent cost more than validating it);
  // a repair then copies the result before it changes anything, so the handler's values stay as given.
  let owned = true;
  if (resolved === undefined) {
    result = { content: [] };
  } else if (typeof resolved === 'string') {
    result = { content: [{ type: 'text', text: resolved }] };
  } else if (isInstance(resolved, Uint8Array) || isInstance(resolved, ArrayBuffer)) {
    const bytes = readableBytes(resolved as Uint8Array | ArrayBuffer);
    if (bytes === undefined) {
      const text =
        'The tool returned bytes whose ArrayBuffer is detached (transferred), so they could not be read.';
      return {
        result: withResultType(
          { content: [{ type: 'text', text }], isError: true },
          version,
        ) as CallToolResult<V>,
        fixes: [],
      };
    }
    const made = await bytesResult(bytes, version);
    result = made.result;
    knownPayloads = [made.known];
  } else {
    // From here on the value is judged as it would be sent: class instances, getters, toJSON, cycles
    // and BigInts become the plain JSON the wire would carry (or could not, which is noted).
    // A class instance's protocol members on its prototype are read as the SDK reads them (members.ts).
    const onWire = toWire(withProtocolMembers(resolved));
    const wire = onWire.value ?? null;
    fixes = onWire.fixes;
    owned = wire !== resolved;
    if (
      looksLikeCallToolResult(wire) ||
      (features(version).resultTypeRequired && looksLikeInputRequired(wire))
    ) {
      // A result the handler built itself: only repair, so a conformant one comes back untouched. The
      // outputSchema is checked, never repaired: repair would turn a mismatch into an error result, and
      // a developer should hear about the bug instead.
      // Its top level is copied first, and the copy judged and answered: the promise toolResult returns
      // reads the `then` of what it resolves with, and the handler's own object may throw there (a
      // Proxy), which would reject the promise. The members stay the handler's; no promise reads them.
      // Too long to write is said before repair, which would make the validator's unsendable result
      // into an error result of its own words.
      if (contentTooLong(wire)) return { result: tooLarge(version) as CallToolResult<V>, fixes };
      const top = owned ? wire : { ...(wire as JsonObject) };
      const repaired = await repair(top, { protocolVersion: version });
      appendAll(fixes, repaired.fixes);
      if (outputSchema === undefined) return { result: repaired.result as CallToolResult<V>, fixes };
      checkResultAgainstSchema(repaired.result, outputSchema, version);
      // Error results are not the tool's output, but SDK v1 clients check their structuredContent anyway
      // (client-compat §4 row 24): repair against the schema moves a non-conforming one into text.
      const checked = await repair(repaired.result, {
        protocolVersion: version,
        tool: { ...tool, outputSchema },
      });
      return { result: checked.result as CallToolResult<V>, fixes: [...fixes, ...checked.fixes] };
    }
    if (isContentBlock(wire)) {
      result = { content: [wire] };
    } else if (Array.isArray(wire) && wire.length > 0 && wire.every(isContentBlock)) {
      result = { content: owned ? wire : wire.slice() };
    } else if (isErrorPayload(wire)) {
      owned = true;
      result = { content: [{ type: 'text', text: errorPayloadText(wire) }], isError: true };
    } else {
      const structured = structuredResult(wire, version, outputSchema);
      result = structured.result;
      knownJson = structured.knownJson;
      if (outputSchema !== undefined) {
        const subject = schemaSubject(outputSchema, result, cloneJson(wire), structured.wrapped);
        checkOutputSchema(outputSchema, subject, version);
      }
    }
  }
  if (contentTooLong(result)) return { result: tooLarge(version) as CallToolResult<V>, fixes };
  // Blocks the version lacks, sizes and the like are the validator's business: repair settles them, in
  // place where everything in the result was made here. What it changes is told (shaped's onFixes), as
  // for a result the handler built: those were the handler's blocks too, repaired without a word.
  const { result: conformant, fixes: repairs } = await repairBuilt(
    withResultType(result, version),
    { protocolVersion: version },
    { owned, knownJson, knownPayloads },
  );
  appendAll(fixes, repairs);
  if (outputSchema !== undefined) checkResultAgainstSchema(conformant as JsonObject, outputSchema, version);
  return { result: conformant as CallToolResult<V>, fixes };
}
