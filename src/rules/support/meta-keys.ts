/**
 * The two `_meta` keys the TypeScript SDK v1 types wherever `_meta` is parsed (results, and request and
 * notification params): `progressToken`, a string or an integer, and the related task,
 * `{ "taskId": string }`.
 */

import { isObject, type JsonObject } from '../../core/json.js';
import { describeType } from './call-tool-result.js';

export const PROGRESS_TOKEN = 'progressToken';
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** What each typed key must be, in words. */
export function expectedOf(key: string): string {
  return key === PROGRESS_TOKEN
    ? 'it must be a string or an integer'
    : 'it must be an object with a string "taskId"';
}

/** Why the value of one of the two keys fails its type; `undefined` when it is fine. */
function defect(key: string, value: unknown): string | undefined {
  if (key === PROGRESS_TOKEN) {
    if (typeof value === 'string' || Number.isSafeInteger(value)) return undefined;
    return typeof value === 'number' ? 'a number that is no integer' : describeType(value);
  }
  if (isObject(value) && typeof value.taskId === 'string') return undefined;
  return isObject(value) ? 'an object without a string "taskId"' : describeType(value);
}

/** The typed keys of `meta` whose values fail their type, with why. */
export function metaKeyDefects(meta: JsonObject): [string, string][] {
  const out: [string, string][] = [];
  for (const key of [PROGRESS_TOKEN, RELATED_TASK]) {
    if (!Object.hasOwn(meta, key) || meta[key] === undefined) continue;
    const why = defect(key, meta[key]);
    if (why) out.push([key, why]);
  }
  return out;
}
