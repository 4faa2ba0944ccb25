import { isObject, type JsonObject } from '../../core/json.js';
import type { PathSegment } from '../../core/pointer.js';

/** Where a node is: its member name or index, under its parent's place. Paths are built only when asked. */
export interface Place {
  readonly segment: PathSegment;
  readonly up: Place | undefined;
}

/** The path of `place`, after `base`. */
export function pathTo(base: readonly PathSegment[], place: Place | undefined): PathSegment[] {
  const segments: PathSegment[] = [];
  for (let p = place; p !== undefined; p = p.up) segments.push(p.segment);
  return [...base, ...segments.reverse()];
}

/**
 * Visits every object in `root` (arrays are looked through, item by item) in document order, with an
 * explicit stack: a schema from a server may nest deeper than the call stack reaches, and the rules that
 * read it must report on it, not fail. `visit` chooses what to go into with `descend(value, …segments)`
 * (a schema's data keywords hold no subschema), and builds a member's path with `pathTo` only when it
 * reports one: copying the path at every level costs the square of the depth.
 */
export function walkSchemaObjects(
  root: unknown,
  visit: (
    node: JsonObject,
    place: Place | undefined,
    descend: (value: unknown, ...segments: PathSegment[]) => void,
  ) => void,
): void {
  const stack: { readonly value: unknown; readonly place: Place | undefined }[] = [
    { value: root, place: undefined },
  ];
  const inside: { readonly value: unknown; readonly place: Place | undefined }[] = [];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const { value, place } = item;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--)
        stack.push({ value: value[i], place: { segment: i, up: place } });
    } else if (isObject(value)) {
      visit(value, place, (member, ...segments) => {
        let at = place;
        for (const segment of segments) at = { segment, up: at };
        inside.push({ value: member, place: at });
      });
      // Pushed last first, so that members are visited in the order descended into.
      for (let i = inside.length - 1; i >= 0; i--) stack.push(inside[i] as (typeof inside)[number]);
      inside.length = 0;
    }
  }
}
