/**
 * The one deep copy repair makes. `structuredClone` would keep class instances and throw on functions;
 * a tool result is JSON on the wire, so the copy keeps only what JSON.stringify would send, as plain
 * objects and arrays, with non-finite numbers as null and BigInts as strings, as JSON has them. Keys are defined, not assigned, so an own `__proto__` key stays a key.
 */

export function cloneJson(value: unknown): unknown {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => cloneJson(item) ?? null);
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    try {
      return cloneJson(toJSON.call(value));
    } catch {
      return undefined;
    }
  }
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = cloneJson((value as Record<string, unknown>)[key]);
    if (item === undefined) continue;
    Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** JSON text of any value; never throws (cycles and BigInts become a placeholder). */
export function safeJson(value: unknown, space?: number): string {
  try {
    return (
      JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), space) ??
      String(value)
    );
  } catch {
    return String(value);
  }
}

/** JSON of a value with long strings shortened, to describe dropped data without pasting megabytes. */
export function previewJson(value: unknown, maxString = 200): string {
  try {
    const text = JSON.stringify(value, (_key, v: unknown) => {
      if (typeof v === 'string' && v.length > maxString) {
        return `${v.slice(0, maxString)}… (${v.length} characters)`;
      }
      return typeof v === 'bigint' ? v.toString() : v;
    });
    return text ?? String(value);
  } catch {
    return String(value);
  }
}
