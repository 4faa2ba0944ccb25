/**
 * RFC 6901 JSON Pointers. Small enough that a dependency would cost more than it saves, and the
 * core must stay free of I/O and Node built-ins.
 */

export type PathSegment = string | number;

export function escapeSegment(segment: PathSegment): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function toPointer(path: readonly PathSegment[]): string {
  let out = '';
  for (const segment of path) out += `/${escapeSegment(segment)}`;
  return out;
}

export function parsePointer(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new SyntaxError(`JSON Pointer must start with "/": ${pointer}`);
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The value at `path`, or `undefined` when any step is missing. */
export function getIn(document: unknown, path: readonly PathSegment[]): unknown {
  let node: unknown = document;
  for (const key of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

/** Sets the value at `path` in place; the parent must exist. Returns false when it does not. */
export function setIn(document: unknown, path: readonly PathSegment[], value: unknown): boolean {
  const parent = getIn(document, path.slice(0, -1));
  const key = path[path.length - 1];
  if (key === undefined || parent === null || typeof parent !== 'object') return false;
  (parent as Record<string | number, unknown>)[key] = value;
  return true;
}

/** Whether `path` names a member or array item that is there (possibly holding `undefined`). */
export function hasIn(document: unknown, path: readonly PathSegment[]): boolean {
  const parent = getIn(document, path.slice(0, -1));
  const key = path[path.length - 1];
  return key !== undefined && parent !== null && typeof parent === 'object' && Object.hasOwn(parent, key);
}

/**
 * Removes the member or array item at `path` in place (array items are spliced out). Returns false when
 * there is none: a repair must not say it removed what was not there.
 */
export function deleteIn(document: unknown, path: readonly PathSegment[]): boolean {
  if (!hasIn(document, path)) return false;
  const parent = getIn(document, path.slice(0, -1)) as object;
  const key = path[path.length - 1] as PathSegment;
  if (Array.isArray(parent) && typeof key === 'number') parent.splice(key, 1);
  else delete (parent as Record<string | number, unknown>)[key];
  return true;
}
