/**
 * Fuzz: 100 000 random values (arbitrary JS values, JSON values, and objects biased to look like tool
 * results, blocks, JSON-RPC messages and tools/list results) through every validator and the sync
 * engine. None may throw or reject, no rule may fail internally, and every finding must be well formed
 * with a pointer that resolves into the document or names a missing member of an existing parent.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Finding, SEVERITIES } from '../../src/core/finding.js';
import { parsePointer } from '../../src/core/pointer.js';
import { ruleIds } from '../../src/rules/catalog.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion } from '../../src/spec/versions.js';
import { runMessage, runToolResult, runToolsList } from '../../src/validate/engine.js';
import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
  validateToolsList,
  validateToolsListSync,
} from '../../src/validate/index.js';
import { anyResult, validBlock } from './arbitraries.js';

const version = fc.constantFrom<ProtocolVersion>(...PROTOCOL_VERSIONS);
const junk = fc.oneof(fc.anything({ maxDepth: 1, maxKeys: 3 }), fc.jsonValue({ maxDepth: 2 }));
const KNOWN_RULES = new Set([...ruleIds(), 'internal-error']);

const blockish = fc.oneof(
  validBlock('2026-07-28'),
  junk,
  fc.record(
    {
      type: fc.oneof(
        fc.constantFrom('text', 'image', 'audio', 'resource', 'resource_link', 'json', 'error', 'html'),
        junk,
      ),
      text: junk,
      data: fc.oneof(fc.base64String(), junk),
      mimeType: fc.oneof(fc.constantFrom('image/png', 'png', ''), junk),
      uri: fc.oneof(fc.webUrl(), junk),
      name: junk,
      resource: fc.oneof(
        fc.record({ uri: junk, text: junk, blob: fc.oneof(fc.base64String(), junk) }, { requiredKeys: [] }),
        junk,
      ),
      annotations: fc.oneof(
        fc.record({ audience: junk, priority: junk, lastModified: junk }, { requiredKeys: [] }),
        junk,
      ),
      _meta: junk,
      icons: junk,
    },
    { requiredKeys: [] },
  ),
);

const resultish = fc.oneof(
  version.chain((v) => anyResult(v).map(({ result }) => result)),
  fc.record(
    {
      content: fc.oneof(fc.array(blockish, { maxLength: 4 }), junk),
      structuredContent: junk,
      isError: junk,
      resultType: fc.oneof(fc.constant('complete'), junk),
      _meta: junk,
      toolResult: junk,
    },
    { requiredKeys: [] },
  ),
  junk,
);

const messageish = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.oneof(fc.constant('2.0'), junk),
      id: fc.oneof(fc.integer(), fc.string(), junk),
      result: resultish,
      error: fc.oneof(fc.record({ code: junk, message: junk, data: junk }, { requiredKeys: [] }), junk),
      method: fc.oneof(fc.constantFrom('tools/call', 'initialize'), junk),
      params: junk,
      requestId: junk,
    },
    { requiredKeys: [] },
  ),
  fc.array(junk, { maxLength: 3 }),
  junk,
);

const toolish = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.string(), junk),
      description: junk,
      inputSchema: fc.oneof(
        fc.constant({ type: 'object' }),
        fc.record({ type: junk, properties: junk, $ref: junk }, { requiredKeys: [] }),
        junk,
      ),
      outputSchema: fc.oneof(fc.constant({ type: 'object', properties: { a: { type: 'string' } } }), junk),
      annotations: fc.oneof(fc.record({ readOnlyHint: junk, title: junk }, { requiredKeys: [] }), junk),
      icons: junk,
      title: junk,
    },
    { requiredKeys: [] },
  ),
  junk,
);
const toolsListish = fc.oneof(
  fc.record(
    {
      tools: fc.oneof(fc.array(toolish, { maxLength: 4 }), junk),
      ttlMs: junk,
      cacheScope: junk,
      resultType: junk,
      nextCursor: junk,
    },
    { requiredKeys: [] },
  ),
  junk,
);

/** The pointer resolves, or names a missing member (or array slot) of a parent that exists. */
function pointsInto(document: unknown, pointer: string): boolean {
  let segments: string[];
  try {
    segments = parsePointer(pointer);
  } catch {
    return false;
  }
  let node: unknown = document;
  for (const [i, key] of segments.entries()) {
    if (node === null || typeof node !== 'object') return false;
    if (Array.isArray(node) && !/^(0|[1-9]\d*)$/.test(key)) return false;
    if (!Object.hasOwn(node, key)) return i === segments.length - 1;
    node = (node as Record<string, unknown>)[key];
  }
  return true;
}

/** What is wrong with a finding list, if anything; plain checks because vitest's expect is slow at 100k runs. */
function problems(findings: unknown, document: unknown): string[] {
  if (!Array.isArray(findings)) return ['findings are not an array'];
  const out: string[] = [];
  for (const f of findings as (Finding & { messageId?: string })[]) {
    const broken =
      (!KNOWN_RULES.has(f.rule) && 'unknown rule') ||
      ((f.rule === 'internal-error' || f.messageId === 'internal') && 'internal failure') ||
      (!SEVERITIES.includes(f.severity) && 'bad severity') ||
      ((typeof f.message !== 'string' || f.message.length === 0 || /\{\{\w+\}\}/.test(f.message)) &&
        'bad message') ||
      (!pointsInto(document, f.pointer) && 'pointer does not point into the document');
    if (broken)
      out.push(`${broken}: ${JSON.stringify(f)} in ${String(JSON.stringify(document)).slice(0, 300)}`);
  }
  return out;
}

function expectWellFormed(findings: unknown, document: unknown): void {
  const found = problems(findings, document);
  if (found.length > 0) expect(found).toEqual([]);
}

const OPTIONS = { numRuns: 25_000 } as const;
const TIMEOUT = 400_000;

describe('fuzz: 100 000 random values through every validator', () => {
  it('validateToolResult and validateToolResultSync (25 000)', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(resultish, version, junk, async (result, protocolVersion, tool) => {
        expectWellFormed(await validateToolResult(result, { protocolVersion, tool }), result);
        expectWellFormed(validateToolResultSync(result, { protocolVersion, tool }), result);
      }),
      OPTIONS,
    );
  });

  it('validateMessage and validateMessageSync (25 000)', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(
        messageish,
        version,
        fc.oneof(fc.constant({ method: 'tools/call', params: { name: 'a' } }), junk),
        async (message, protocolVersion, request) => {
          const options = {
            protocolVersion,
            request,
            tools: [{ name: 'a', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }],
          };
          expectWellFormed(await validateMessage(message, options), message);
          expectWellFormed(validateMessageSync(message, options), message);
        },
      ),
      OPTIONS,
    );
  });

  it('validateToolsList and validateToolsListSync (20 000)', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(toolsListish, version, async (list, protocolVersion) => {
        expectWellFormed(await validateToolsList(list, { protocolVersion }), list);
        expectWellFormed(validateToolsListSync(list, { protocolVersion }), list);
      }),
      { numRuns: 20_000 },
    );
  });

  it('sync engine: runToolResult, runMessage, runToolsList (30 000)', { timeout: TIMEOUT }, () => {
    fc.assert(
      fc.property(
        fc.oneof(
          resultish.map((value) => ({ value, run: runToolResult })),
          messageish.map((value) => ({ value, run: runMessage })),
          toolsListish.map((value) => ({ value, run: runToolsList })),
        ),
        version,
        ({ value, run }, v) => {
          expectWellFormed(run(value, { version: v }), value);
        },
      ),
      { numRuns: 30_000 },
    );
  });
});
