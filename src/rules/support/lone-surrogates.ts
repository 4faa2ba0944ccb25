/**
 * Lone surrogates in plain JSON: where they are, how each is reported, and how a repair mends them. The
 * rules result-lone-surrogate (a tool result) and envelope-lone-surrogate (the rest of a message) read
 * it; core/well-formed.ts holds the test itself.
 */

import type { ClientImpact } from '../../clients/catalog.js';
import { isObject } from '../../core/json.js';
import { getIn, type PathSegment } from '../../core/pointer.js';
import { isWellFormed, LONE_SURROGATE, toWellFormed } from '../../core/well-formed.js';
import type { Report } from '../types.js';

/** Places reported at most; a repair mends them all at once. */
const MAX_REPORTED = 20;

interface Place {
  readonly path: PathSegment[];
  /** The member's name holds it, not its value. */
  readonly key: boolean;
}

/** A place in a walk: its member name or index, and the place holding it (none for the root). */
interface Step {
  readonly key: PathSegment;
  readonly up: Step | undefined;
}

/** The path of a step, made only for a place reported: a walk 200,000 levels deep copies no paths. */
function pathOf(step: Step | undefined): PathSegment[] {
  const path: PathSegment[] = [];
  for (let at = step; at !== undefined; at = at.up) path.push(at.key);
  return path.reverse();
}

/**
 * Where the strings of plain JSON hold a lone surrogate: values, and member names. Iterative, as deep
 * as the value goes; at most `max` places. `skip`: a member of the root left out (its name too).
 */
function lonePlaces(root: unknown, max: number, skip?: string): Place[] {
  const places: Place[] = [];
  // Each member with whether its name holds one: reported where the member is, in document order.
  const stack: [unknown, Step | undefined, boolean][] = [[root, undefined, false]];
  while (stack.length > 0 && places.length < max) {
    const [value, step, badName] = stack.pop() as [unknown, Step | undefined, boolean];
    if (badName) places.push({ path: pathOf(step), key: true });
    if (typeof value === 'string') {
      if (!isWellFormed(value)) places.push({ path: pathOf(step), key: false });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], { key: i, up: step }, false]);
    } else if (isObject(value)) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        if (step === undefined && key === skip) continue;
        stack.push([value[key], { key, up: step }, !isWellFormed(key)]);
      }
    }
  }
  return places.slice(0, max);
}

/** Replaces every lone surrogate in the strings and member names of plain JSON, in place; how many strings changed. */
export function mendAll(root: unknown): number {
  let mended = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (typeof item === 'string' && !isWellFormed(item)) {
          value[i] = toWellFormed(item);
          mended++;
        } else if (typeof item === 'object' && item !== null) stack.push(item);
      }
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        let name = key;
        if (!isWellFormed(key)) {
          name = toWellFormed(key);
          const member = value[key];
          delete value[key];
          // A name that is taken already keeps its member: the one renamed is left out.
          if (!Object.hasOwn(value, name)) value[name] = member;
          mended++;
        }
        const member = value[name];
        if (typeof member === 'string' && !isWellFormed(member)) {
          value[name] = toWellFormed(member);
          mended++;
        } else if (typeof member === 'object' && member !== null) stack.push(member);
      }
    }
  }
  return mended;
}

/**
 * Whether plain JSON holds a lone surrogate in a string or member name (`skip` as for lonePlaces):
 * the walk of lonePlaces without the paths it makes, which a clean document, nearly every one, is
 * spared. Iterative, as deep as the value goes.
 */
function holdsLone(root: unknown, skip?: string): boolean {
  const stack: unknown[] = [root];
  let top = true;
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (!isWellFormed(value)) return true;
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) stack.push(value[i]);
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        if (top && key === skip) continue;
        if (!isWellFormed(key)) return true;
        stack.push(value[key]);
      }
    }
    top = false;
  }
  return false;
}

/** The messages of the rules that report lone surrogates with reportLonePlaces. */
export const LONE_MESSAGES = {
  default: 'the string holds a lone surrogate ({{code}}), which strict JSON readers refuse',
  key: 'the member name holds a lone surrogate ({{code}}), which strict JSON readers refuse',
  more: 'and {{count}} more strings after these hold lone surrogates',
} as const;

/**
 * Reports each place of `sent` (plain JSON) holding a lone surrogate, up to MAX_REPORTED, and how many
 * more there are; `skip` as for lonePlaces. Returns whether there was any.
 */
export function reportLonePlaces(sent: unknown, report: (r: Report) => void, skip?: string): boolean {
  if (!holdsLone(sent, skip)) return false;
  const places = lonePlaces(sent, MAX_REPORTED + 1, skip);
  for (const { path, key } of places.slice(0, MAX_REPORTED)) {
    const text = key ? String(path[path.length - 1]) : String(getIn(sent, path));
    const lone = LONE_SURROGATE.exec(text)?.[0] ?? '';
    const code = `U+${lone.charCodeAt(0).toString(16).toUpperCase()}`;
    report({ messageId: key ? 'key' : 'default', path, data: { code } });
  }
  if (places.length > MAX_REPORTED) {
    const all = lonePlaces(sent, Number.POSITIVE_INFINITY, skip).length;
    report({ messageId: 'more', data: { count: all - MAX_REPORTED } });
  }
  return places.length > 0;
}

/** The clients built on rmcp, whose serde_json refuses the escape of a lone surrogate. */
export const RMCP_DROPS_LONE_SURROGATE: readonly ClientImpact[] = (['codex', 'goose'] as const).map(
  (client) => ({
    client,
    effect: 'drops-message',
    detail: 'serde_json: "lone leading surrogate in hex escape"; the message is ignored (inferred)',
    source: 'modelcontextprotocol/rust-sdk crates/rmcp/src/transport/async_rw.rs (syntax errors ignored)',
  }),
);
