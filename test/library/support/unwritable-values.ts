/**
 * Run as its own process by hostile-values.test.ts, which kills it past a deadline: a validator that
 * hangs on a value (JSON.stringify of shared parts never ends) must fail that test, not stall the suite.
 * Prints, for each place and validator, the messages of the result-not-serializable findings.
 */

import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
} from '../../../src/validate/index.js';
import { exponential, PLACES, WALKED_TOOL } from './hostile-places.js';

/** The shared parts as they are, and as what a toJSON returns (which JSON.stringify writes all the same). */
const VALUES: [string, () => unknown][] = [
  ['shared parts', exponential],
  ['a toJSON returning shared parts', () => ({ toJSON: exponential })],
];

const answers: Record<string, string[]> = {};
for (const [kind, make] of VALUES)
  for (const [place, put] of PLACES) {
    for (const tool of [undefined, WALKED_TOOL]) {
      const where = `${kind} in ${place}${tool ? ' (outputSchema)' : ''}`;
      const options = { protocolVersion: '2025-11-25' as const, tool };
      const message = () => ({ jsonrpc: '2.0', id: 1, result: put(make()) });
      const messageOptions = { protocolVersion: '2025-11-25' as const, tools: tool ? [tool] : [] };
      const runs = {
        validateToolResultSync: () => validateToolResultSync(put(make()), options),
        validateToolResult: () => validateToolResult(put(make()), options),
        validateMessageSync: () => validateMessageSync(message(), messageOptions),
        validateMessage: () => validateMessage(message(), messageOptions),
      };
      for (const [validator, run] of Object.entries(runs)) {
        const findings = await run();
        answers[`${validator}: ${where}`] = findings
          .filter((f) => f.rule === 'result-not-serializable')
          .map((f) => f.message);
      }
    }
  }
process.stdout.write(JSON.stringify(answers));
