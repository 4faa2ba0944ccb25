import { scanSource } from '../../src/scan/index.js';

/** The status of every tool return the scan of `source` finds, then the rule of every finding. */
export async function judged(path: string, source: string): Promise<string[]> {
  const file = await scanSource(path, source);
  return [
    ...file.handlers.flatMap((h) => h.returns.map((r) => r.status)),
    ...file.findings.map((f) => f.rule),
  ];
}
