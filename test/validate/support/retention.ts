/**
 * Run by sync.test.ts under `node --expose-gc`: validates and repairs documents, drops them, collects
 * garbage, and prints whether they were collected. A fact cache that outlived its validation would keep
 * them alive.
 */

import { repairMessageSync, repairSync } from '../../../src/library/repair/index.js';
import {
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
} from '../../../src/validate/index.js';

const refs: WeakRef<object>[] = [];

function png(size: number): string {
  const bytes = new Uint8Array(size);
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  return Buffer.from(bytes).toString('base64');
}

async function useAndDrop(): Promise<void> {
  const structured = { rows: Array.from({ length: 200 }, (_, i) => ({ i, name: `row ${i}` })) };
  const image = { type: 'image', data: png(200_000), mimeType: 'image/png' };
  const result = {
    content: [image, { type: 'text', text: JSON.stringify(structured) }],
    structuredContent: structured,
  };
  const broken = {
    content: [{ type: 'image', data: `data:image/png;base64,${png(50_000)}` }],
    structuredContent: [1],
  };
  const message = { jsonrpc: '2.0', id: 1, result: { content: [image] }, requestId: 'x' };
  refs.push(new WeakRef(result), new WeakRef(image), new WeakRef(structured), new WeakRef(broken));
  refs.push(new WeakRef(message));
  const repaired = repairSync(broken).result;
  const relayed = repairMessageSync(message).message as { result: { content: object[] } };
  refs.push(new WeakRef(repaired), ...repaired.content.map((block) => new WeakRef(block)));
  refs.push(new WeakRef(relayed), ...relayed.result.content.map((block) => new WeakRef(block)));
  // Validations last, so the last payload any cache could hold is one of these documents'.
  await validateToolResult(result);
  validateMessageSync(message);
  validateToolResultSync(result);
}

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
await useAndDrop();
for (let i = 0; i < 3; i++) {
  await new Promise((resolve) => setTimeout(resolve, 20));
  gc();
}
console.log(JSON.stringify({ collected: refs.every((ref) => ref.deref() === undefined) }));
