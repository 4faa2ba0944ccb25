/**
 * The generic, lossy repair for errors no rule could repair. It never guesses at meaning: it keeps what
 * it drops readable, as text, and says why. Four moves, from least to most drastic:
 * - a broken block becomes a text block describing the block and the problem;
 * - a broken result member (other than `content`) is removed and its value appended as text;
 * - a result that lacks a member it cannot be given (structuredContent a declared outputSchema asks
 *   for, and no text holds matching data) is marked `isError`, with a text block saying why: an error
 *   result needs no structuredContent, and its content reaches the model unchanged;
 * - a result that is not even an object with a content array is rebuilt around its data as text.
 *
 * The document is plain JSON (the repair's own copy, or parsed JSON handed over), so it is written as
 * it is, without another copy.
 */

import { isObject, type JsonObject } from '../../core/json.js';
import { getIn, type PathSegment, setIn } from '../../core/pointer.js';
import { describeType } from '../../rules/support/call-tool-result.js';
import { features } from '../../spec/versions.js';
import type { EngineFinding } from '../../validate/engine.js';
import { plainJson, previewPlainJson } from './clone.js';
import type { RepairTarget } from './engine.js';

export interface FallbackStep {
  readonly document: unknown;
  readonly description: string;
  /** The result was rebuilt around its data: the last move, after which only the last resort is left. */
  readonly rebuilt?: true;
}

/**
 * The index of the content block the fallback replaces for `error` (when it is not the last resort), if
 * its move is that one: the error is about a block of a result whose content is an array.
 */
export function fallbackBlockIndex(
  document: unknown,
  error: EngineFinding,
  target: RepairTarget,
): number | undefined {
  const base = target.resultPath(document);
  if (base === undefined || !startsWith(error.path, base)) return undefined;
  const result = getIn(document, base);
  if (!isObject(result) || !Array.isArray(result.content)) return undefined;
  const [member, index] = error.path.slice(base.length, base.length + 2);
  return member === 'content' && typeof index === 'number' ? index : undefined;
}

/** Members of a CallToolResult the fallback must not drop, because they define the result. */
const STRUCTURAL = new Set(['content', 'resultType']);

function textBlock(text: string): JsonObject {
  return { type: 'text', text };
}

/**
 * What the fallback calls the item it drops, as the object of a sentence (`the "image" block`) and as
 * its subject (`An "image" block`): the model reads the second. The rules repair most items that are no
 * object or have no type (block-not-object, block-type-unknown) before the fallback runs, but not every
 * one (a repair can decline or fail), so such an item is named by its place and its JSON type.
 */
function blockNames(block: unknown, index: number): { readonly object: string; readonly subject: string } {
  if (isObject(block) && typeof block.type === 'string') {
    const name = `"${block.type}" block`;
    return { object: `the ${name}`, subject: `${/^"[aeiou]/i.test(name) ? 'An' : 'A'} ${name}` };
  }
  const kind = isObject(block) ? 'a block without a type' : describeType(block);
  const name = `content item ${index} (${kind})`;
  return { object: name, subject: `C${name.slice(1)}` };
}

function droppedBlockText(block: unknown, index: number, reason: string): string {
  return `[${blockNames(block, index).subject} was dropped from this tool result: ${reason}. It was: ${previewPlainJson(block)}]`;
}

/** A CallToolResult holding `data` as text, for a result that cannot be salvaged member by member. */
function rebuildResult(
  data: unknown,
  target: Pick<RepairTarget, 'version'>,
  options: { isError: boolean; reason?: string },
): JsonObject {
  const body = typeof data === 'string' ? data : plainJson(data);
  const text = options.reason ? `${options.reason}\n${body}` : body;
  const result: JsonObject = { content: [textBlock(text)] };
  if (options.isError) result.isError = true;
  if (features(target.version).resultTypeRequired) result.resultType = 'complete';
  return result;
}

function place(document: unknown, base: readonly PathSegment[], value: unknown): unknown {
  if (base.length === 0) return value;
  setIn(document, base, value);
  return document;
}

/** The fallback's move for `error`, or `undefined` when it has no safe one (the error is then left). */
export function applyFallback(
  document: unknown,
  error: EngineFinding,
  target: RepairTarget,
  lastResort: boolean,
): FallbackStep | undefined {
  const base = target.resultPath(document);
  if (base === undefined || !startsWith(error.path, base)) return envelopeFallback(document, error);
  const result = getIn(document, base);
  const relative = error.path.slice(base.length);

  if (!lastResort && isObject(result) && Array.isArray(result.content)) {
    const [member] = relative;
    const index = fallbackBlockIndex(document, error, target);
    // A finding on a block points at a block that is there.
    if (index !== undefined) {
      const block: unknown = result.content[index];
      result.content[index] = textBlock(droppedBlockText(block, index, error.message));
      return {
        document,
        description: `replaced ${blockNames(block, index).object} with a text block saying what was dropped and why (${error.message})`,
      };
    }
    if (typeof member === 'string' && !STRUCTURAL.has(member) && Object.hasOwn(result, member)) {
      const value = result[member];
      delete result[member];
      const text = `${member}: ${plainJson(value)}`;
      // JSON has no undefined member, so there is always a value to keep, unless the content says it already.
      if (!result.content.some((b) => isObject(b) && b.text === text)) {
        result.content.push(textBlock(`[${error.message}; it is kept here as text] ${text}`));
      }
      return { document, description: `removed ${member} and kept its value as text` };
    }
    // The one member a result is faulted for lacking is structuredContent an outputSchema asks for, which
    // the rules ask of non-error results only.
    if (typeof member === 'string' && !Object.hasOwn(result, member)) {
      // Rebuilding would only wrap this well-formed content in JSON text (twice, at the last resort).
      result.content.push(textBlock(`[The tool result could not be delivered as sent: ${error.message}.]`));
      result.isError = true;
      return {
        document,
        description: `marked the result as a tool error (isError) with a text block saying why: ${member} is missing`,
      };
    }
  }

  const wasError = isObject(result) && result.isError === true;
  const rebuilt = rebuildResult(result, target, {
    isError: wasError || lastResort,
    ...(lastResort ? { reason: `The tool result could not be delivered as sent (${error.message}).` } : {}),
  });
  return {
    document: place(document, base, rebuilt),
    description: 'rebuilt the result as a single text block holding its data as JSON',
    rebuilt: true,
  };
}

/**
 * Envelope members the fallback keeps: they make a message what it is. A request's `method` and
 * `params` among them: dropping the parameters a method needs (all of them, for a `params._meta` of the
 * wrong type) leaves a message its method's schema refuses all the same, and loses what it said.
 */
const ENVELOPE = ['jsonrpc', 'id', 'method', 'params', 'result', 'error'];

/**
 * Outside a tool result only stray envelope members can be dropped safely: extra ones, and `result` or
 * `error` on a request or notification (which carries neither: the client would drop the whole message).
 * Anything else is a rule's job.
 */
function envelopeFallback(document: unknown, error: EngineFinding): FallbackStep | undefined {
  const [member] = error.path;
  if (isObject(document) && typeof member === 'string' && Object.hasOwn(document, member)) {
    const stray =
      !ENVELOPE.includes(member) ||
      ((member === 'result' || member === 'error') && Object.hasOwn(document, 'method'));
    if (stray) {
      const value = document[member];
      delete document[member];
      return {
        document,
        description: `removed top-level member "${member}"${
          member === 'result' || member === 'error'
            ? ` from a ${Object.hasOwn(document, 'id') ? 'request' : 'notification'} (it was ${previewPlainJson(value, 60)})`
            : ''
        }`,
      };
    }
  }
  return undefined;
}

function startsWith(path: readonly PathSegment[], prefix: readonly PathSegment[]): boolean {
  return prefix.every((segment, i) => path[i] === segment);
}
