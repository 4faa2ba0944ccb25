/**
 * Validator speed against the official TypeScript SDK's `CallToolResultSchema.safeParse` (what every SDK
 * client applies to a tools/call result), measured side by side on the corpora of issue 11, plus the
 * floor of an exact text-mirror check (one `JSON.stringify(structuredContent)`), time per KB across
 * sizes, and the proxy's per-message cost against the SDK client's own check of the same message.
 */

import { CallToolResultSchema, JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { readBase64 } from '../../src/core/base64.js';
import { ProxySession } from '../../src/proxy/session.js';
import { DEFAULT_PROTOCOL_VERSION } from '../../src/spec/versions.js';
import { validateToolResult, validateToolResultSync } from '../../src/validate/index.js';
import {
  brokenCorpus,
  type Corpus,
  cycler,
  imageCorpus,
  mixedCorpus,
  sizedImageCorpus,
  sizedStructuredCorpus,
  smallTextCorpus,
  structuredCorpus,
} from '../corpora.js';
import { type BenchResult, type Candidate, compare, type Suite } from '../measure.js';

const VERSION = DEFAULT_PROTOCOL_VERSION;
const SDK = 'SDK CallToolResultSchema.safeParse';
const OURS = 'validateToolResultSync';
const ASYNC = 'validateToolResult (async)';
const STRINGIFY = 'JSON.stringify(structuredContent)';
const ATOB = 'atob() of every payload (floor)';

/** The speed-ups issue 11 asks of the validator over the SDK parse, by corpus. */
const SDK_TARGETS: Readonly<Record<string, number>> = {
  'small text (57 B)': 3,
  '100 mixed blocks': 3,
  '1 MB PNG': 1,
};

function validatorCandidates(corpus: Corpus, tool?: Record<string, unknown>): Candidate[] {
  const next = cycler(corpus.results);
  const options = { protocolVersion: VERSION, ...(tool ? { tool } : {}) };
  const candidates: Candidate[] = [
    { name: OURS, run: () => validateToolResultSync(next(), options) },
    { name: ASYNC, run: () => validateToolResult(next(), options) },
    { name: SDK, run: () => CallToolResultSchema.safeParse(next()) },
  ];
  if (corpus.results[0]?.structuredContent !== undefined) {
    candidates.push({ name: STRINGIFY, run: () => JSON.stringify(next().structuredContent) });
  }
  if (corpus.results.some((result) => payloadsOf(result).length > 0)) {
    candidates.push({ name: ATOB, run: () => decodeEvery(payloadsOf(next())) });
  }
  return candidates;
}

/**
 * The base64 payloads of a result's blocks. The SDK's parse calls `atob` on each (its Base64Schema), and
 * so must any exact check of what it accepts: `atob` alone is the floor under both, printed so a ratio to
 * the SDK can be read against what no exact validator can go below.
 */
function payloadsOf(result: Record<string, unknown>): string[] {
  const payloads: string[] = [];
  const content = Array.isArray(result.content) ? (result.content as Record<string, unknown>[]) : [];
  for (const block of content) {
    const resource = block.resource as Record<string, unknown> | undefined;
    const payload = typeof block.data === 'string' ? block.data : resource?.blob;
    if (typeof payload === 'string') payloads.push(payload);
  }
  return payloads;
}

function decodeEvery(payloads: readonly string[]): number {
  let bytes = 0;
  for (const payload of payloads) {
    try {
      bytes += atob(payload).length;
    } catch {
      // The broken corpus's invalid payloads: atob throws on them in the SDK's parse too.
    }
  }
  return bytes;
}

async function corpusComparison(corpus: Corpus, tool?: Record<string, unknown>): Promise<BenchResult> {
  const atLeast = SDK_TARGETS[corpus.name];
  const targets: { against: string; atLeast?: number; atMost?: number }[] = [];
  if (atLeast !== undefined) targets.push({ against: SDK, atLeast });
  if (corpus.results[0]?.structuredContent !== undefined && !tool) {
    targets.push({ against: STRINGIFY, atMost: 1.3 });
  }
  const title = `${corpus.name}${tool ? ' with its outputSchema' : ''}: validation (${VERSION})`;
  return compare(title, validatorCandidates(corpus, tool), { targets });
}

/** The proxy per tools/call response: the request teaches it the method, then the response is checked. */
async function proxyComparison(corpus: Corpus): Promise<BenchResult> {
  const request = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search' } });
  const lines = corpus.bytes.map((bytes) => `{"jsonrpc":"2.0","id":1,"result":${bytes}}`);
  const nextLine = cycler(lines);
  const session = new ProxySession({ protocolVersion: VERSION, fixedVersion: true });
  return compare(`${corpus.name}: proxy per message vs the SDK client's own check of it`, [
    {
      name: 'proxy: ProxySession.fromClient + fromServer',
      run: () => {
        session.fromClient(request);
        return session.fromServer(nextLine());
      },
    },
    {
      name: 'SDK client: JSON.parse + message + result parse',
      run: () => {
        const message = JSON.parse(nextLine());
        JSONRPCMessageSchema.safeParse(message);
        return CallToolResultSchema.safeParse(message.result);
      },
    },
    { name: 'direct relay: JSON.parse', run: () => JSON.parse(nextLine()) },
  ]);
}

const SIZES = [10 * 1024, 100 * 1024, 400 * 1024, 1024 * 1024, 10 * 1024 * 1024];

/** Time per KB of serialized result, across sizes: a flat line means no size cliff. */
async function perKilobyte(kind: 'image' | 'structured'): Promise<BenchResult[]> {
  const corpora = SIZES.map((size) =>
    kind === 'image' ? sizedImageCorpus(size) : sizedStructuredCorpus(size),
  );
  const candidates = corpora.map((corpus) => {
    const next = cycler(corpus.results);
    return { name: corpus.name, run: () => validateToolResultSync(next(), { protocolVersion: VERSION }) };
  });
  const { samples } = await compare(`${kind}: time per KB`, candidates, { rounds: 5, roundMs: 300 });
  const perKb = samples.map((s, i) => {
    const kb = (corpora[i]?.bytes[0]?.length ?? 1) / 1024;
    return 1e6 / s.opsPerSec / kb;
  });
  const results: BenchResult[] = samples.map((s, i) => ({
    kind: 'measurement',
    title: `${kind}: ${OURS} per KB, ${s.name}`,
    value: perKb[i] ?? 0,
    unit: 'µs/KB',
  }));
  results.push({
    kind: 'measurement',
    title: `${kind}: slowest ÷ fastest time per KB from 10 KB to 10 MB`,
    value: Math.max(...perKb) / Math.min(...perKb),
    unit: '×',
    target: { atMost: 1.5 },
  });
  if (kind === 'image') results.push(...(await decodeFloorPerKilobyte(corpora)));
  return results;
}

/**
 * The same per-KB line for the base64 check alone (readBase64: `atob` of the whole payload, or of 64K
 * characters at a time past that, as the validator decodes it), the floor under any exact check of an
 * image: its own spread across sizes is what the validator's cannot go below.
 */
async function decodeFloorPerKilobyte(corpora: readonly Corpus[]): Promise<BenchResult[]> {
  const candidates = corpora.map((corpus) => {
    const next = cycler(corpus.results.map((result) => payloadsOf(result)[0] ?? ''));
    return { name: corpus.name, run: () => readBase64(next()) };
  });
  const { samples } = await compare('image: base64 check per KB', candidates, { rounds: 5, roundMs: 300 });
  const perKb = samples.map((s, i) => 1e6 / s.opsPerSec / ((corpora[i]?.bytes[0]?.length ?? 1024) / 1024));
  return [
    ...samples.map((s, i) => ({
      kind: 'measurement' as const,
      title: `image: readBase64 (the decode floor) per KB, ${s.name}`,
      value: perKb[i] ?? 0,
      unit: 'µs/KB',
    })),
    {
      kind: 'measurement' as const,
      title: 'image: slowest ÷ fastest time per KB of the decode floor alone',
      value: Math.max(...perKb) / Math.min(...perKb),
      unit: '×',
    },
  ];
}

export const suite: Suite = {
  name: 'validate',
  async run() {
    const results: BenchResult[] = [];
    const main = [smallTextCorpus(), mixedCorpus(), structuredCorpus(), imageCorpus(), brokenCorpus()];
    for (const corpus of main) results.push(await corpusComparison(corpus));
    const structured = main[2] as Corpus;
    results.push(await corpusComparison(structured, structured.tool));
    for (const corpus of main) results.push(await proxyComparison(corpus));
    results.push(...(await perKilobyte('structured')), ...(await perKilobyte('image')));
    return results;
  },
};
