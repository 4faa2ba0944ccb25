/**
 * Validator throughput against the official TypeScript SDK's `CallToolResultSchema.safeParse`, Ajv with
 * the official schema, and `JSON.parse` of the same bytes. Sniffing and outputSchema validation are
 * measured as separate lines.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { sniffBase64 } from '../../src/core/sniff.js';
import { validateToolResult } from '../../src/validate/index.js';
import { allCorpora, cycler } from '../corpora.js';
import { type BenchResult, type Candidate, compare, type Suite } from '../measure.js';
import { SHARED_DIR } from '../paths.js';

const VERSION = '2025-06-18';
const SHARED_SCHEMA = join(SHARED_DIR, 'spec', VERSION, 'schema.json');

/** Ajv compiled from the official schema's CallToolResult, as a client using the schema directly would. */
function officialValidator(): ((value: unknown) => boolean) | undefined {
  if (!existsSync(SHARED_SCHEMA)) return undefined;
  const ajv = new Ajv({ strict: false, allErrors: true, logger: false });
  ajv.addSchema(JSON.parse(readFileSync(SHARED_SCHEMA, 'utf8')), 'mcp');
  return ajv.getSchema('mcp#/definitions/CallToolResult');
}

export const suite: Suite = {
  name: 'validate',
  async run() {
    const results: BenchResult[] = [];
    const ajvValidate = officialValidator();
    for (const corpus of allCorpora()) {
      const next = cycler(corpus.results);
      const nextBytes = cycler(corpus.bytes);
      const candidates: Candidate[] = [
        {
          name: 'mcp-shape validateToolResult',
          run: () => validateToolResult(next(), { protocolVersion: VERSION }),
        },
        { name: 'SDK CallToolResultSchema.safeParse', run: () => CallToolResultSchema.safeParse(next()) },
        { name: 'JSON.parse of the same bytes', run: () => JSON.parse(nextBytes()) },
      ];
      if (ajvValidate) candidates.push({ name: 'ajv + official schema', run: () => ajvValidate(next()) });
      const targets = [{ against: 'SDK CallToolResultSchema.safeParse', atLeast: 3 }];
      if (corpus.name !== 'small text') targets.push({ against: 'JSON.parse of the same bytes', atLeast: 1 });
      results.push(
        await compare(`${corpus.name}: full validation (${VERSION}, MIME sniffing included)`, candidates, {
          targets,
          note: ajvValidate ? undefined : 'ajv line skipped: ../shared/spec is absent',
        }),
      );
      if (corpus.tool) {
        const tool = corpus.tool;
        results.push(
          await compare(`${corpus.name}: with outputSchema validation`, [
            {
              name: 'mcp-shape validateToolResult + outputSchema',
              run: () => validateToolResult(next(), { protocolVersion: VERSION, tool }),
            },
            {
              name: 'mcp-shape validateToolResult',
              run: () => validateToolResult(next(), { protocolVersion: VERSION }),
            },
          ]),
        );
      }
      if (corpus.name.includes('image')) {
        const data = () => (next().content as { data: string }[])[0]?.data ?? '';
        results.push(
          await compare(`${corpus.name}: MIME sniffing alone`, [
            { name: 'sniffBase64 (file-type)', run: () => sniffBase64(data()) },
          ]),
        );
      }
    }
    return results;
  },
};
