/** Hostile values and where they go in the validator tests (hostile-values.test.ts and the process it runs). */

/** Where a handler's value may put a hostile one, and a tool whose outputSchema makes the validators walk it. */
export const PLACES: [string, (value: unknown) => Record<string, unknown>][] = [
  [
    'structuredContent',
    (value) => ({ content: [{ type: 'text', text: 'x' }], structuredContent: { value } }),
  ],
  ['_meta', (value) => ({ content: [{ type: 'text', text: 'x' }], _meta: { value } })],
  ["a block's _meta", (value) => ({ content: [{ type: 'text', text: 'x', _meta: { value } }] })],
];
export const WALKED_TOOL = { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } };

/** `[[…], […]]` sixty times: a few hundred bytes of memory, 2^60 leaves in JSON. */
export function exponential(): unknown {
  let value: unknown = 1;
  for (let i = 0; i < 60; i++) value = [value, value];
  return value;
}
