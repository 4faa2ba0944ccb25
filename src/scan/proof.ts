/**
 * What "typed" means for the verdict: the result a client receives is proven to carry a content
 * array whose every block has a type the protocol version allows and the members that type needs,
 * each of the right JSON type. The rule engine says what is wrong; this says whether what is right
 * was shown, so a value the analysis cannot see is "unresolved" (with why), never "typed". A
 * declared type (TypeScript's, or a Python annotation) proves an unknown value: "typed by declaration".
 */

import { isObject } from '../core/json.js';
import { isOpaque, isOpen, Opaque } from '../core/opaque.js';
import { createOutputSchemaCompiler, type OutputSchemaCompiler } from '../core/schema.js';
import { features, type ProtocolVersion } from '../spec/versions.js';
import type { Declared, JsonKind, StringFormat } from './abstract/value.js';
import { ownLoss, schemaLoss } from './schema-loss.js';
import { isFullyKnown, modelName, openReason, UnknownValue } from './values.js';

export type Proof =
  | { readonly proven: true; readonly byDeclaration: boolean }
  | { readonly proven: false; readonly reason: string };

const PROVEN: Proof = { proven: true, byDeclaration: false };
const BY_DECLARATION: Proof = { proven: true, byDeclaration: true };

/**
 * What the handler's source declares for the value it returns (`Promise<CallToolResult>`,
 * `-> list[TextContent]`): the compiler (or the type checker) holds every member of what it declares
 * to its type, so a member the analysis cannot see inside a declared result or block is proven by it.
 */
export type DeclaredScope = Declared['proves'] | undefined;

/**
 * What a member needs to be proven: a JSON type (an unknown value of that type is enough: the rules
 * on it only check its type), `json` for any JSON value (an unknown one only when its JSON type is
 * known), or `known` when a rule checks its contents (annotations' roles and priority), so only a
 * value the source fixes entirely is proof.
 */
type Need = JsonKind | 'json' | 'known';

/**
 * The members each block type needs: a string or an object, or a string whose text an error rule
 * checks (`data` must be base64, a link's `uri` an absolute URI), which only a literal or a string
 * made to be one (`StringFormat`) proves. A mimeType's text is only checked by warnings.
 */
const REQUIRED: Record<string, readonly (readonly [string, 'string' | 'object' | StringFormat])[]> = {
  text: [['text', 'string']],
  image: [
    ['data', 'base64'],
    ['mimeType', 'string'],
  ],
  audio: [
    ['data', 'base64'],
    ['mimeType', 'string'],
  ],
  resource_link: [
    ['uri', 'uri'],
    ['name', 'string'],
  ],
  resource: [['resource', 'object']],
};

/** Optional members a rule checks when they are present: every block's, then each type's own. */
const OPTIONAL_ANY_BLOCK: readonly (readonly [string, Need])[] = [
  ['annotations', 'known'],
  ['_meta', 'object'],
];
const OPTIONAL: Record<string, readonly (readonly [string, Need])[]> = {
  resource_link: [
    ['title', 'string'],
    ['description', 'string'],
    ['mimeType', 'string'],
    ['size', 'number'],
    ['icons', 'known'],
  ],
};

/** `\`args.payload\` at server.ts:12 (args.payload is known only at run time)`. */
function describe(value: UnknownValue): string {
  const at = value.site
    ? ` at ${value.site.file.path}:${value.site.file.lines.position(value.site.start).line}`
    : '';
  // What TypeScript types `any` is not proven by a declared type: say why, where one may be.
  const typescript = value.site !== undefined && /\.[cm]?tsx?$/.test(value.site.file.path);
  const reason =
    value.untyped && typescript
      ? `${value.reason}; TypeScript types it any, which no declared type checks`
      : value.reason;
  return value.source && value.source !== value.reason
    ? `${code(value.source)}${at} (${reason})`
    : `${reason}${at}`;
}

/** Source text as Markdown code: a template literal's own backticks get a longer fence. */
function code(source: string): string {
  return source.includes('`') ? `\`\` ${source} \`\`` : `\`${source}\``;
}

function notProven(reason: string): Proof {
  return { proven: false, reason };
}

/** Whether `value` is shown to be of `kind`: a literal, or an unknown of that type. */
function hasKind(value: unknown, kind: JsonKind): boolean | UnknownValue {
  if (value instanceof UnknownValue) return value.kind === kind || value;
  if (isOpaque(value)) return false;
  switch (kind) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    default:
      return typeof value === kind;
  }
}

const FORMAT_NAMES: Record<StringFormat, string> = { base64: 'base64', uri: 'an absolute URI' };

/**
 * Whether `value` is shown to be a string of `format`: a literal string (the rules judge its text),
 * or an unknown string made to be one.
 */
function hasFormat(value: unknown, format: StringFormat): boolean | UnknownValue {
  if (value instanceof UnknownValue) return (value.kind === 'string' && value.format === format) || value;
  return typeof value === 'string';
}

/** `\`x\` at server.ts:4 (a string known only at run time), not shown to be base64`. */
function describeFormat(value: UnknownValue, format: StringFormat): string {
  return value.kind === 'string'
    ? `${describe(value)}, not shown to be ${FORMAT_NAMES[format]}`
    : describe(value);
}

/** Whether `value` is shown to be a JSON value: a literal, or an unknown whose JSON type is known. */
function hasAnyKind(value: unknown): boolean | UnknownValue {
  if (value instanceof UnknownValue) return value.kind !== undefined || value;
  return !isOpaque(value);
}

/** The first value inside `value` the source does not fix, for the reason. */
function firstUnknown(value: unknown, seen = new Set<object>()): UnknownValue | undefined {
  if (value instanceof UnknownValue) return value;
  if (typeof value !== 'object' || value === null || seen.has(value)) return undefined;
  seen.add(value);
  for (const child of Object.values(value)) {
    const found = firstUnknown(child, seen);
    if (found) return found;
  }
  return undefined;
}

/**
 * Whether a declaration that covers `value` proves it: not a value TypeScript types `any`, which the
 * compiler lets through any declared type (`text: data.temp`, `data` from `await res.json()`).
 */
function coveredBy(declared: boolean, value: unknown): boolean {
  return declared && !(value instanceof UnknownValue && value.untyped === true);
}

function both(a: Proof, b: Proof): Proof {
  if (!a.proven) return a;
  if (!b.proven) return b;
  return a.byDeclaration || b.byDeclaration ? BY_DECLARATION : PROVEN;
}

/**
 * An optional member a rule checks: absent, or of what it needs. `what` names it in the reason
 * (`isError`, `"_meta" of content[0]`). A value of the wrong type the source does fix is left to
 * the rules, which report it.
 */
function proveMember(
  holder: Record<string, unknown>,
  member: string,
  need: Need,
  what: string,
  declared: boolean,
): Proof {
  if (!Object.hasOwn(holder, member)) return PROVEN;
  const value = holder[member];
  // Absent or not, an optional member is fine (what it is when present, another document shows).
  if (value === undefined || (value instanceof UnknownValue && value.maybeMissing)) return PROVEN;
  if (need === 'known') {
    if (isFullyKnown(value)) return PROVEN;
    const unknown = firstUnknown(value);
    if (coveredBy(declared, unknown)) return BY_DECLARATION;
    if (unknown) return notProven(`${what} ${unknown === value ? 'is' : 'holds'} ${describe(unknown)}`);
    return notProven(
      `${what} may hold members the analysis cannot see (${openReason(value) ?? 'built at run time'})`,
    );
  }
  const shown = need === 'json' ? hasAnyKind(value) : hasKind(value, need);
  if (shown === true) return PROVEN;
  if (coveredBy(declared, shown)) return BY_DECLARATION;
  if (shown instanceof UnknownValue) return notProven(`${what} is ${describe(shown)}`);
  if (value instanceof Opaque) return notProven(`${what} is \`${value.source}\`, not known statically`);
  return PROVEN;
}

/** A container that may hold members the analysis cannot list (an unknown spread), with why. */
function openProof(value: object, what: string, members: string, declared: boolean): Proof {
  if (!isOpen(value)) return PROVEN;
  if (declared) return BY_DECLARATION;
  const why = openReason(value);
  return notProven(
    `${what} may have members the analysis cannot see${why ? ` (${why})` : ''}, which may set or override ${members}`,
  );
}

/**
 * Proves one block of `content`. `declared`: a declared type covers the block (a `TextContent[]`,
 * or a `CallToolResult` that holds it), so the compiler holds what the analysis cannot see to it.
 */
export function proveBlock(block: unknown, version: ProtocolVersion, where: string, declared = false): Proof {
  if (block instanceof UnknownValue) {
    if (coveredBy(declared, block) || block.declared?.proves === 'block') return BY_DECLARATION;
    return notProven(`${where} is ${describe(block)}`);
  }
  if (!isObject(block) || isOpaque(block)) return notProven(`${where} is not an object`);
  const type = block.type;
  if (type instanceof UnknownValue) {
    if (coveredBy(declared, type)) return BY_DECLARATION;
    return notProven(`the type of ${where} is ${describe(type)}`);
  }
  if (typeof type !== 'string' || !(features(version).blockTypes as readonly string[]).includes(type)) {
    return notProven(`${where} has no type this protocol version allows`);
  }
  let proof = PROVEN;
  for (const [member, kind] of REQUIRED[type] ?? []) {
    if (!Object.hasOwn(block, member)) {
      if (declared) return BY_DECLARATION;
      return notProven(
        isOpen(block)
          ? `${where} may get "${member}" from a value known only at run time${openReason(block) ? ` (${openReason(block)})` : ''}`
          : `${where} has no "${member}"`,
      );
    }
    const shown =
      kind === 'string' || kind === 'object' ? hasKind(block[member], kind) : hasFormat(block[member], kind);
    if (shown instanceof UnknownValue) {
      if (coveredBy(declared, shown)) {
        proof = both(proof, BY_DECLARATION);
        continue;
      }
      const what = kind === 'string' || kind === 'object' ? describe(shown) : describeFormat(shown, kind);
      return notProven(`"${member}" of ${where} is ${what}`);
    }
    if (!shown) return notProven(`"${member}" of ${where} is not a ${kind === 'object' ? kind : 'string'}`);
    if (type === 'resource' && member === 'resource')
      proof = both(proof, proveResource(block.resource, where, declared));
  }
  for (const [member, need] of [...OPTIONAL_ANY_BLOCK, ...(OPTIONAL[type] ?? [])]) {
    proof = both(proof, proveMember(block, member, need, `"${member}" of ${where}`, declared));
  }
  return both(proof, openProof(block, where, 'its type or any member', declared));
}

function proveResource(resource: unknown, where: string, declared: boolean): Proof {
  if (!isObject(resource) || isOpaque(resource))
    return notProven(`the resource of ${where} is not an object`);
  const uri = hasFormat(resource.uri, 'uri');
  if (uri !== true && !(uri instanceof UnknownValue && coveredBy(declared, uri))) {
    return notProven(
      uri instanceof UnknownValue
        ? `"uri" of the resource of ${where} is ${describeFormat(uri, 'uri')}`
        : `the resource of ${where} has no string "uri"`,
    );
  }
  const text = Object.hasOwn(resource, 'text') ? hasKind(resource.text, 'string') : false;
  const blob = Object.hasOwn(resource, 'blob') ? hasFormat(resource.blob, 'base64') : false;
  const shown =
    text === true ||
    blob === true ||
    (text instanceof UnknownValue && coveredBy(declared, text)) ||
    (blob instanceof UnknownValue && coveredBy(declared, blob));
  if (!shown) {
    return notProven(
      blob instanceof UnknownValue && text === false
        ? `"blob" of the resource of ${where} is ${describeFormat(blob, 'base64')}`
        : `the resource of ${where} has no string "text" or "blob"`,
    );
  }
  const proof = both(
    proveMember(resource, 'mimeType', 'string', `"mimeType" of the resource of ${where}`, declared),
    proveMember(resource, '_meta', 'object', `"_meta" of the resource of ${where}`, declared),
  );
  return both(proof, openProof(resource, `the resource of ${where}`, 'its uri, text or blob', declared));
}

/** The members of a result other than content that a rule checks, and what each needs. */
function resultMembers(version: ProtocolVersion): readonly (readonly [string, Need])[] {
  const members: [string, Need][] = [
    ['isError', 'boolean'],
    ['_meta', 'object'],
  ];
  // Before 2026-07-28 structuredContent is an object (SDK v1 clients parse it as one in every
  // version); from then on any JSON value.
  if (features(version).structuredContent !== 'any') members.push(['structuredContent', 'object']);
  else members.push(['structuredContent', 'json']);
  if (features(version).resultTypeRequired) members.push(['resultType', 'known']);
  return members;
}

/**
 * Proves a CallToolResult as the client receives it (after the framework's wrapping): its content
 * array and every block in it, and every other member a rule checks (structuredContent, isError,
 * _meta, resultType). A member the analysis cannot see is not proven unless `declared` (the type
 * the handler declares for what it returns) covers it.
 */
export function proveResult(
  result: unknown,
  version: ProtocolVersion,
  declared?: DeclaredScope,
  /** The tool has an outputSchema: structuredContent must be there unless isError is true. */
  needsStructured = false,
  /**
   * The declaration is a Python annotation, which nothing checks at run time: it proves what the
   * analysis cannot see and the instances of models (pydantic checked those when they were built),
   * never the members of a dict or list the source builds (`{"type": "text", "text": h.score}`
   * under `-> list[TextContent]` is sent as built, and pydantic refuses it in CallToolResult).
   */
  literalsJudged = false,
): Proof {
  if (result instanceof UnknownValue) {
    if (coveredBy(declared === 'result', result) || result.declared?.proves === 'result')
      return BY_DECLARATION;
    return notProven(`the result is ${describe(result)}`);
  }
  const wholeResult = declared === 'result' && coversKnown(result, literalsJudged);
  if (!isObject(result) || isOpaque(result)) return notProven('the result is not an object');
  const content = result.content;
  if (content === undefined) {
    // A CreateTaskResult answers a task-augmented call; the content comes later through tasks/result.
    if (Object.hasOwn(result, 'task')) return PROVEN;
    if (wholeResult) return BY_DECLARATION;
    return notProven(
      isOpen(result)
        ? `the result may get "content" from a value known only at run time${openReason(result) ? ` (${openReason(result)})` : ''}`
        : 'the result has no content',
    );
  }
  let proof = proveContent(
    content,
    version,
    declared === 'result' && !wholeResult ? undefined : declared,
    literalsJudged,
  );
  const structured = result.structuredContent;
  if (proof.proven && needsStructured && structured instanceof UnknownValue && structured.maybeMissing) {
    if (result.isError !== true && !wholeResult)
      proof = notProven(
        `structuredContent, which the tool's outputSchema requires, is ${describe(structured)}`,
      );
  }
  for (const [member, need] of resultMembers(version)) {
    if (proof.proven) proof = both(proof, proveMember(result, member, need, member, wholeResult));
  }
  if (proof.proven) {
    proof = both(
      proof,
      openProof(result, 'the result', 'content, isError, structuredContent or _meta', wholeResult),
    );
  }
  return proof;
}

/** A declared result or block list covers every block of content. */
function covers(declared: DeclaredScope): boolean {
  return declared === 'result' || declared === 'blocks';
}

/**
 * Whether a declaration that covers a value the source builds holds its members to their types: a
 * TypeScript one always (the compiler checks them); a Python annotation only on a model instance.
 */
function coversKnown(value: unknown, literalsJudged: boolean): boolean {
  return !literalsJudged || modelName(value) !== undefined;
}

function proveContent(
  content: unknown,
  version: ProtocolVersion,
  declared: DeclaredScope,
  literalsJudged: boolean,
): Proof {
  if (content instanceof UnknownValue) {
    if (
      coveredBy(covers(declared), content) ||
      content.declared?.proves === 'blocks' ||
      content.declared?.proves === 'block'
    )
      return BY_DECLARATION;
    return notProven(`content is ${describe(content)}`);
  }
  if (!Array.isArray(content)) return notProven('content is not an array');
  const covered = covers(declared);
  if (isOpen(content) && !literalsJudged) {
    if (covered) return BY_DECLARATION;
    const why = openReason(content);
    return notProven(`content may hold items the analysis cannot see${why ? ` (${why})` : ''}`);
  }
  let proof = PROVEN;
  content.forEach((block, i) => {
    const blockCovered = covered && (block instanceof UnknownValue || coversKnown(block, literalsJudged));
    if (proof.proven) proof = both(proof, proveBlock(block, version, `content[${i}]`, blockCovered));
  });
  // The items the analysis cannot list are what it cannot see: a declaration proves those.
  if (proof.proven && isOpen(content)) {
    if (covered) return both(proof, BY_DECLARATION);
    const why = openReason(content);
    return notProven(`content may hold items the analysis cannot see${why ? ` (${why})` : ''}`);
  }
  return proof;
}

let compiler: OutputSchemaCompiler | undefined;

/** Whether `schema` itself (with none of it looser than zod) accepts a value the source fixes. */
function accepts(schema: unknown, value: unknown, version: ProtocolVersion): boolean {
  if (schemaLoss(schema) !== undefined) return false;
  compiler ??= createOutputSchemaCompiler();
  const compiled = compiler.compile(schema, version);
  if (!compiled.ok) return false;
  try {
    return compiled.validate(value).length === 0;
  } catch {
    return false;
  }
}

/** Keywords whose failure the document's verdict sets aside when any part of it is unknown (analyze.ts). */
export const DISJUNCTIONS: readonly string[] = ['anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'contains'];

/**
 * Whether a disjunctive keyword appears anywhere in `schema`. A mismatch under one is reported only when
 * the whole structuredContent is known (the option that should have matched may have failed on an
 * unknown elsewhere), so the document's verdict does not cover a known part judged by such a keyword.
 * A property named like a keyword counts too: that only sends the part to the schema itself.
 */
function hasDisjunction(schema: unknown, depth = 0): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  if (depth > 64) return true;
  if (!Array.isArray(schema) && DISJUNCTIONS.some((k) => Object.hasOwn(schema, k))) return true;
  return Object.values(schema).some((sub) => hasDisjunction(sub, depth + 1));
}

/** Keywords that describe a schema without constraining what it accepts. */
const ANNOTATIONS = new Set(['description', 'title', '$schema', '$id', 'default', 'examples']);

/** Keywords `fitsSchema` follows into the value; any other one may fail on what the analysis cannot see. */
const FOLLOWED = new Set(['type', 'properties', 'required', 'additionalProperties', 'items', 'anyOf']);

/** The JSON Schema types an unknown value of `kind` certainly satisfies (an unknown number may be 1.5). */
function kindSatisfies(kind: JsonKind | undefined, type: unknown): boolean {
  if (kind === undefined) return false;
  const types = Array.isArray(type) ? type : [type];
  return types.includes(kind);
}

/**
 * Why something the analysis cannot see could make `value` fail `schema`, or undefined when nothing
 * could. A part the source fixes was judged by the schema itself (a mismatch is an error finding),
 * unless that part of the schema is looser than the library it models (schema-loss.ts); an unknown
 * part fits only where the schema asks for no more than its JSON type.
 */
function unfit(
  value: unknown,
  schema: unknown,
  at: string,
  context: {
    readonly depth: number;
    readonly judged: boolean;
    /** The whole structuredContent is known, so no verdict of the schema on it was set aside. */
    readonly certain: boolean;
    readonly version: ProtocolVersion;
  },
  optional = false,
): string | undefined {
  if (schema === true || value === undefined) return undefined;
  if (!isObject(schema) || context.depth > 64) return `${at} is not shown to match its schema`;
  const loss = ownLoss(schema);
  if (loss) return `${at} is checked by ${loss}, which the analysis does not model`;
  const primitive = typeof value !== 'object' || value === null;
  if (isFullyKnown(value)) {
    // Outside a union the schema's verdict on the whole document covers this part: a primitive here
    // fits, and a container does where no part of the schema is looser than zod. Inside one, the
    // option that matched may be another: the part is held to this schema itself.
    if (!context.judged || (!context.certain && hasDisjunction(schema))) {
      return accepts(schema, value, context.version) ? undefined : `${at} is not shown to match its schema`;
    }
    if (schemaLoss(schema) === undefined) return undefined;
  }
  const deeper = { ...context, depth: context.depth + 1 };
  // An absence the analysis is not sure of is fine where the member is optional.
  const missingOk = !(value instanceof UnknownValue && value.maybeMissing) || optional;
  const keywords = Object.keys(schema).filter((k) => !ANNOTATIONS.has(k));
  const seen =
    value instanceof UnknownValue
      ? `${at} is ${describe(value)}`
      : `${at} holds values known only at run time`;
  if (keywords.length === 0) return missingOk ? undefined : seen;
  if (keywords.some((k) => !FOLLOWED.has(k))) return seen;
  if (Array.isArray(schema.anyOf)) {
    const { anyOf, ...rest } = schema;
    const options = { ...deeper, judged: false };
    const fits = (anyOf as unknown[]).some(
      (option) => unfit(value, option, at, options, optional) === undefined,
    );
    return fits ? unfit(value, rest, at, deeper, optional) : seen;
  }
  if (value instanceof UnknownValue) {
    const fits =
      !value.maybeMissing && keywords.every((k) => k === 'type') && kindSatisfies(value.kind, schema.type);
    return fits ? undefined : seen;
  }
  // A container the analysis sees only in part: a spread or items it cannot list may break anything.
  if (isOpen(value)) {
    const why = openReason(value);
    return `${at} may hold members the analysis cannot see${why ? ` (${why})` : ''}`;
  }
  if (isOpaque(value)) return seen;
  if (primitive) return undefined;
  // The schema's verdict on a container with an unknown part was set aside (it may be that part's
  // doing), so its own type and required members are checked here.
  const kind = Array.isArray(value) ? 'array' : 'object';
  if (schema.type !== undefined && !kindSatisfies(kind, schema.type))
    return `${at} is an ${kind}, which its schema does not allow`;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const why = unfit(item, schema.items ?? true, `${at}/${i}`, deeper);
      if (why) return why;
    }
    return undefined;
  }
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  const missing = required.find((key) => typeof key !== 'string' || !Object.hasOwn(value, key));
  if (missing !== undefined) return `${at} lacks ${JSON.stringify(missing)}, which its schema requires`;
  for (const [key, member] of Object.entries(value)) {
    const sub = Object.hasOwn(properties, key) ? properties[key] : (schema.additionalProperties ?? true);
    const why = unfit(member, sub, `${at}/${key}`, deeper, !required.includes(key));
    if (why) return why;
  }
  return undefined;
}

/**
 * Proves that the structuredContent of a result the client receives matches the tool's outputSchema,
 * which the framework checks before it sends the result: a mismatch fails the call for every client.
 * `unproven`: why no structuredContent can be shown to match (a schema the source does not fix). An
 * error result is not checked against it; a missing structuredContent is the rules' business.
 */
export function proveStructured(
  result: unknown,
  schema: unknown,
  unproven: string | undefined,
  version: ProtocolVersion,
): Proof {
  if (result instanceof UnknownValue) {
    return notProven(
      `the result is ${describe(result)}, so its structuredContent is not shown to match the tool's outputSchema`,
    );
  }
  if (!isObject(result) || isOpaque(result) || result.isError === true) return PROVEN;
  if (unproven !== undefined) return notProven(unproven);
  if (!Object.hasOwn(result, 'structuredContent')) return PROVEN;
  const why = unfit(result.structuredContent, schema, 'structuredContent', {
    depth: 0,
    judged: true,
    certain: isFullyKnown(result.structuredContent),
    version,
  });
  return why ? notProven(`${why}, so it is not shown to match the tool's outputSchema`) : PROVEN;
}
