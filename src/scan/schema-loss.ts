/**
 * Schemas a model accepts more with than the library it models: the JSON Schema the analysis makes of
 * `z.string().email()` is `{ type: "string" }`, which accepts what zod rejects. The model marks such
 * schema objects here (with the method that made them looser), and the proof that a structuredContent
 * matches its tool's outputSchema (proof.ts) does not count a value judged only by a looser schema.
 * Keyed by identity, so a schema stays plain JSON Schema for the validator.
 */

const lossy = new WeakMap<object, string>();

/** Marks `schema` as looser than what it models because of `method` (`.email()`). */
export function markLossy(schema: object, method: string): void {
  if (!lossy.has(schema)) lossy.set(schema, method);
}

/** The method that made this very schema object looser, if any (not its parts). */
export function ownLoss(schema: object): string | undefined {
  return lossy.get(schema);
}

/** The first method anywhere in `schema` that made it looser, or undefined when it is exact. */
export function schemaLoss(schema: unknown, depth = 0): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (depth > 64) return 'a schema nested too deeply';
  const own = lossy.get(schema);
  if (own) return own;
  for (const part of Object.values(schema)) {
    const found = schemaLoss(part, depth + 1);
    if (found) return found;
  }
  return undefined;
}
