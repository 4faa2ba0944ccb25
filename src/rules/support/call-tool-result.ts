/**
 * Helpers shared by the result-level rules: finding the text blocks of a CallToolResult, reading them
 * as JSON, and editing a result during repair. Not a rule folder, so the generator skips it.
 */

import { isObject, type JsonObject, jsonEqual, jsonTypeOf, tryParseJson } from '../../core/json.js';
import { isJsonTextOf, PIECEWISE_FROM, stringified as stringify } from '../../core/json-text.js';
import { stringifyJson } from '../../core/json-write.js';
import { getIn } from '../../core/pointer.js';
import { knownJson, mayBeUnwritable, memoByString, memoPerRun } from '../../core/run-memo.js';
import { unwritable } from '../../core/unwritable.js';
import type { RepairContext } from '../types.js';

export interface TextBlock {
  readonly index: number;
  readonly text: string;
}

/**
 * The well-formed text blocks of `result.content`, with their indices; found once per validation run,
 * as several rules ask. Callers must not modify the array.
 */
export const textBlocks = memoPerRun((result: JsonObject): readonly TextBlock[] => {
  const content = result.content;
  if (!Array.isArray(content)) return [];
  const out: TextBlock[] = [];
  for (let index = 0; index < content.length; index++) {
    const block = content[index];
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') {
      out.push({ index, text: block.text });
    }
  }
  return out;
});

/**
 * The JSON value a text block carries, when it is a serialized JSON object or array. Bare scalars are
 * not treated as JSON text: "42" or "true" in a text block is far more often prose than a mirror.
 */
export function jsonOfText(text: string): { readonly value: unknown } | undefined {
  return parsedText(text);
}

/**
 * Several rules read the same text mirror of one result, and a mirror can be megabytes: each text is
 * parsed once per validation. Within a validation the parsed values are shared, so callers must not
 * mutate them.
 */
const parsedText = memoByString(parseJsonText);

function parseJsonText(text: string): { readonly value: unknown } | undefined {
  const trimmed = text.trim();
  const first = trimmed[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return { value: JSON.parse(trimmed) };
  } catch {
    return undefined;
  }
}

/** Whether `text` serializes `value` (any JSON formatting; a string value may also appear as itself). */
export function isTextMirrorOf(text: string, value: unknown): boolean {
  if (typeof value === 'string' && text === value) return true;
  // Most mirrors are JSON.stringify output: one stringify beats parsing the text and comparing trees.
  if (isCompactJsonOf(text, value)) return true;
  const parsed = jsonOfText(text);
  if (parsed) return jsonEqual(parsed.value, value);
  // jsonOfText reads every text that starts with a bracket: any other text can carry only a scalar. An
  // object or array is never mirrored by it, and each rule asked about every text block of a result:
  // the parse that threw for each of them took 0.8 s of a result of 50,000 short text blocks.
  if (typeof value === 'object' && value !== null) return false;
  const trimmed = text.trim();
  switch (typeof value) {
    case 'string':
      return trimmed.startsWith('"') && parseScalarText(trimmed) === value;
    case 'number':
      return /^-?\d/.test(trimmed) && parseScalarText(trimmed) === value;
    default:
      // true, false and null have one spelling each in JSON.
      return value === null ? trimmed === 'null' : typeof value === 'boolean' && trimmed === String(value);
  }
}

/** The JSON value of `text`, or NOT_SCALAR for a text that is no JSON (prose, mostly). */
function parseScalarText(text: string): unknown {
  const parsed = tryParseJson(text);
  return parsed ? parsed.value : NOT_SCALAR;
}

const NOT_SCALAR = Symbol('not JSON');

/**
 * As stringify, at any depth (a structuredContent parsed from 200,000 levels of nesting has a text all
 * the same); for a handler's value that may stand for a text too long to write, only when it does not.
 */
const stringifyObject = memoPerRun<object, string | undefined>((value) =>
  mayBeUnwritable() && unwritable(value) !== undefined ? undefined : writtenAtAnyDepth(value),
);

/** stringifyJson, or undefined for what JSON cannot hold (a cycle, a BigInt). */
function writtenAtAnyDepth(value: object): string | undefined {
  try {
    return stringifyJson(value);
  } catch {
    return undefined;
  }
}

/**
 * `JSON.stringify(value)`, computed once per validation run for objects: the mirror rules and the size
 * rule all need the JSON of the same, possibly large, structuredContent.
 */
export function compactJson(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return stringify(value);
  return knownJson(value) ?? stringifyObject(value);
}

/**
 * Whether `text` is exactly `JSON.stringify(value)` (compactJson). A long text is compared piece by
 * piece (core/json-text.ts), which never makes the whole JSON text: making it cost as much again as the
 * stringify, for a structuredContent over 128 KB. Answered once per run for an object and a text: the
 * mirror rules and the size rule all ask.
 */
export function isCompactJsonOf(text: string, value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return text === stringify(value);
  const known = knownJson(value);
  if (known !== undefined) return text === known;
  if (text.length < PIECEWISE_FROM) return text === stringifyObject(value);
  const answers = longTextAnswers(value);
  let answer = answers.get(text);
  if (answer === undefined) {
    answer = !(mayBeUnwritable() && unwritable(value) !== undefined) && isJsonTextOf(text, value);
    answers.set(text, answer);
  }
  return answer;
}

/**
 * isCompactJsonOf's answers for an object in this run, by long text. Each rule asks about every text
 * block, so a result of many long texts would otherwise have each compared again by each rule. (A Map
 * hashes a long string by its length alone, and tells texts of one length apart by comparing them.)
 */
const longTextAnswers = memoPerRun<object, Map<string, boolean>>(() => new Map());

/** Whether some text block mirrors `value`. */
export function hasTextMirror(result: JsonObject, value: unknown): boolean {
  return textBlocks(result).some(({ text }) => isTextMirrorOf(text, value));
}

/** The CallToolResult (or other object) a repair works on, or `undefined` when it is not an object. */
export function subjectObject(ctx: RepairContext): JsonObject | undefined {
  const node = getIn(ctx.root, ctx.subjectPath);
  return isObject(node) ? node : undefined;
}

/** Appends a text block, creating `content` when it is missing. Returns false when content is unusable. */
export function appendText(result: JsonObject, text: string): boolean {
  if (result.content === undefined) result.content = [];
  if (!Array.isArray(result.content)) return false;
  result.content.push({ type: 'text', text });
  return true;
}

/**
 * JSON text for a text block a repair writes, at any depth (JSON.stringify runs out of call stack a few
 * thousand levels down); `undefined` (not serializable) becomes `null`.
 */
export function serialize(value: unknown): string {
  return stringifyJson(value);
}

/** An outputSchema of the SDK v2 wrapper `{ "result": value }` names a `result` property. */
export function describesResultWrapper(schema: unknown): boolean {
  return isObject(schema) && isObject(schema.properties) && Object.hasOwn(schema.properties, 'result');
}

/** "null" or "a JSON array"/"a JSON string"…, for messages about a value of the wrong type. */
export function describeType(value: unknown): string {
  return value === null ? 'null' : `a JSON ${jsonTypeOf(value)}`;
}

/** A well-formed structured result with its text mirror, for rule examples (2025-06-18). */
export const MIRRORED_WEATHER = {
  content: [{ type: 'text', text: '{"temperature":22}' }],
  structuredContent: { temperature: 22 },
} as const;
