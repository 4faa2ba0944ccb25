/**
 * The fast path (src/validate/fast-path.ts) skips rules on plain-text results because they provably
 * report nothing there. This holds the claim to the rules themselves: every covered rule, run on its
 * own against generated results the fast path accepts (including near misses of the shape), reports
 * nothing; and editing a covered rule's module fails the fingerprint test until the claim is checked
 * again.
 */

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listRuleModules } from '../../scripts/rule-modules.js';
import { isObject, type JsonObject } from '../../src/core/json.js';
import { toPointer } from '../../src/core/pointer.js';
import { FactScope, runInScope } from '../../src/core/run-memo.js';
import { RULES } from '../../src/rules/catalog.js';
import { serialization } from '../../src/rules/support/serialization.js';
import type { Rule } from '../../src/rules/types.js';
import { BLOCK_TYPES, features, PROTOCOL_VERSIONS, type ProtocolVersion } from '../../src/spec/versions.js';
import { asSent } from '../../src/validate/as-sent.js';
import {
  isQuietBuiltText,
  isQuietMessage,
  isQuietPlainText,
  runMessage,
  runToolResult,
  sniffSync,
} from '../../src/validate/engine.js';
import {
  BLOCK_RULE_TYPES,
  builtTextShape,
  COVERED_BLOCK_RULES,
  COVERED_FOR_SHORT_TEXT,
  COVERED_LINK_BLOCK_RULES,
  COVERED_MEDIA_BLOCK_RULES,
  COVERED_MEDIA_RESULT_RULES,
  COVERED_RESOURCE_BLOCK_RULES,
  COVERED_RESULT_RULES,
  COVERED_SMALL_MEDIA_RESULT_RULES,
  isPlainLinkBlock,
  isPlainMediaBlock,
  isPlainMediaResult,
  isPlainResourceBlock,
  isSmallPlainMediaResult,
  plainMediaUnits,
  resultShape,
  Shape,
} from '../../src/validate/fast-path.js';
import {
  toolsByName,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
} from '../../src/validate/index.js';
import { isMutationRun, runs } from '../support/runs.js';
import { everyRuleFinds, reports, validatorFinds } from './support/rule-reports.js';

const root = join(import.meta.dirname, '../..');

/**
 * Property sizes. The counters below (how many draws a recognizer accepted, how many it turned away)
 * are fractions of the draws, so that they hold in a mutation run too, where runs() takes a tenth.
 */
const RESULT_RUNS = runs(3000);
const BLOCK_RUNS = runs(4000);

/**
 * sha256 (first 16 hex digits) of each covered rule's module, as checked. When one changes, read the
 * rule's new check against the shape in src/validate/fast-path.ts, fix the fast path or drop the rule
 * from its covered set, then update the fingerprint here.
 */
const CHECKED: Readonly<Record<string, string>> = {
  'result-content-missing': 'a33e54e45f37d75c',
  'result-content-not-array': '89479dee1d112e51',
  'result-error-without-is-error': '559c8b1d1808f6be',
  'result-input-required-invalid': 'be1a23902521cfa9',
  'result-is-error-not-boolean': 'c85b007c332b1d6a',
  'result-legacy-tool-result': '80fb06c37a157530',
  'result-lone-surrogate': 'fe4d9240e0cf43b2',
  'result-media-with-structured-content': '2f323ea0cacdcbc3',
  'result-meta-key-invalid': 'addaa4df478a2a6c',
  'result-meta-not-object': '6be0aaafd507d571',
  'result-not-object': '9f3744811bf00b66',
  'result-not-serializable': 'c6ce3535d3327eed',
  'result-over-client-limits': '248dbd66a1affe77',
  'result-server-info-invalid': '739dd99704d25c46',
  'result-type-invalid': '67adb410bf5eb2d3',
  'result-value-refused-by-sdk': 'e3da52f74d2a2c3f',
  'structured-content-in-block': '6d03150e6677b40c',
  'structured-content-missing-for-output-schema': '944e8942b51f061f',
  'structured-content-not-object': 'a05f5df8884dba3a',
  'structured-content-not-object-old-clients': '9e56330b72e33a18',
  'structured-content-schema-mismatch': '94becb1d1d6bfd0d',
  'structured-content-text-mirror-missing': 'b3d3404f519251df',
  'structured-content-text-mismatch': '20037258c4c4a6b6',
  'structured-content-unsupported-version': '70b1fcd166c21554',
  'block-annotations-in-resource': '5792ab8e47d64d65',
  'block-annotations-invalid': '2baeec89a717d9b2',
  'block-base64-data-uri': '96b6a083eaf803be',
  'block-base64-invalid': '04c0b201d5af6e76',
  'block-base64-non-canonical': '2c4ecc799cd571b5',
  'block-base64-url-alphabet': '13ab57ff8dd921e9',
  'block-data-invalid': '5e44cac4f530e3a6',
  'block-meta-not-object': '3bb0edbb24e748cc',
  'block-mime-type-malformed': '11d56267bf5fc1ca',
  'block-mime-type-mismatch': '6c2db56110eb4d47',
  'block-mime-type-missing': '36b8e7704b4068af',
  'block-mime-type-wrong-family': '49741cdfd6c80324',
  'block-not-object': '6ba5489afe4a315b',
  'block-resource-invalid': 'c8f5aa53f631a23b',
  'block-resource-link-invalid': '9010b60c1e000a9f',
  'block-resource-text-and-blob': 'c2aceaae8b106084',
  'block-text-invalid': '05675feaf62d709c',
  'block-type-unknown': 'a8edbd37338fcb19',
  'block-type-unsupported-in-version': '006ff0a1fe9b4146',
  'block-uri-invalid': '27508dad73192aa5',
  'block-uri-script': '347f94803568871c',
  'block-text-base64-image': '32047cff67bcbf5c',
};

const COVERED = new Set([
  ...COVERED_RESULT_RULES,
  ...COVERED_BLOCK_RULES,
  ...COVERED_FOR_SHORT_TEXT,
  ...COVERED_MEDIA_BLOCK_RULES,
  ...COVERED_LINK_BLOCK_RULES,
  ...COVERED_RESOURCE_BLOCK_RULES,
]);

function fingerprint(id: string): string | undefined {
  const module = listRuleModules(join(root, 'src/rules')).find((m) => m.endsWith(`/${id}.ts`));
  if (!module) return undefined;
  return createHash('sha256')
    .update(readFileSync(join(root, 'src/rules', module)))
    .digest('hex')
    .slice(0, 16);
}

const texts = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.constantFrom(
    '',
    '{"error":"city not found"}',
    'the "error" was temporary',
    // Error payloads behind what trim() removes (the shape looks past a first character only when it
    // is printable ASCII other than "{"), and texts that merely contain one.
    ' {"error":"city not found"}',
    '\n\t{"error":"city not found"}',
    '\u00a0{"error":"city not found"}',
    '\ufeff{"error":"city not found"}',
    '\u2028{"error":"city not found"}',
    'Error: {"error":"city not found"}',
    '[{"error":"city not found"}]',
    `data:image/png;base64,${'A'.repeat(80)}`,
    // The shortest text block-text-base64-image reports: 84 characters (SHORT_TEXT), and one short of it.
    `data:image/x;base64,${'A'.repeat(64)}`,
    `data:image/x;base64,${'A'.repeat(63)}`,
    `iVBORw0KGgo${'A'.repeat(300)}`,
    'x'.repeat(9_000),
    'y'.repeat(20_000),
    // Lone surrogates (result-lone-surrogate), and a whole pair.
    'Launch day \ud83d',
    '\ude80 at the start',
    'Launch day \ud83d\ude80',
  ),
);

const block = fc.oneof(
  { weight: 6, arbitrary: texts.map((text) => ({ type: 'text', text })) },
  fc.record(
    {
      type: fc.constantFrom<unknown>('text', 'Text', 'image', undefined, 3),
      text: fc.oneof(texts, fc.constant<unknown>(7)),
      annotations: fc.constantFrom<unknown>({ priority: 2 }, undefined),
      _meta: fc.constantFrom<unknown>(5, undefined),
      structuredContent: fc.constantFrom<unknown>({ a: 1 }, undefined),
      extra: fc.constantFrom<unknown>('x', undefined),
    },
    { requiredKeys: [] },
  ),
);

/** A result of the plain-text shape for `version`: what the fast path must accept and get right. */
function plainResult(version: ProtocolVersion): fc.Arbitrary<JsonObject> {
  return fc
    .record(
      {
        content: fc.array(
          texts.map((text) => ({ type: 'text', text })),
          { maxLength: 4 },
        ),
        isError: fc.boolean(),
        resultType: fc.constant(features(version).resultTypeRequired ? 'complete' : undefined),
      },
      { requiredKeys: ['content'] },
    )
    .map(compact);
}

/** Near misses: one member the shape does not allow, or a block that is not plain text. */
const nearMiss = fc
  .record(
    {
      content: fc.oneof({ weight: 5, arbitrary: fc.array(block, { maxLength: 4 }) }, fc.constant('text')),
      isError: fc.constantFrom<unknown>(true, false, 'yes', undefined),
      resultType: fc.constantFrom<unknown>('complete', 'input_required', undefined),
      error: fc.constantFrom<unknown>('failed', undefined),
      _meta: fc.constantFrom<unknown>({ a: 1 }, 4, undefined),
      structuredContent: fc.constantFrom<unknown>({ a: 1 }, undefined),
      toolResult: fc.constantFrom<unknown>('x', undefined),
      extra: fc.constantFrom<unknown>(1, undefined),
    },
    { requiredKeys: ['content'] },
  )
  .map(compact);

function compact(r: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(r).filter(([, v]) => v !== undefined));
}

const versioned = fc
  .constantFrom(...PROTOCOL_VERSIONS)
  .chain((version) =>
    fc.record({ version: fc.constant(version), input: fc.oneof(plainResult(version), nearMiss) }),
  );

const tool = fc.constantFrom<JsonObject | undefined>(
  undefined,
  { name: 't', inputSchema: { type: 'object' } },
  { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } },
);

describe('the plain-text fast path', () => {
  // Not in a mutation run: Stryker's sandbox holds every rule module instrumented with all its mutants
  // (one text for every mutant), so no fingerprint matches there and none could tell two mutants apart.
  it.skipIf(isMutationRun())(
    'covers rules only as they were checked (fingerprints of the covered rule modules)',
    () => {
      const current = Object.fromEntries([...COVERED].sort().map((id) => [id, fingerprint(id)]));
      expect(current, 'a covered rule changed: see the comment on CHECKED').toEqual(
        Object.fromEntries(Object.entries(CHECKED).sort()),
      );
    },
  );

  it('every covered rule reports nothing on the results the fast path accepts', { timeout: 120_000 }, () => {
    const byId = new Map(RULES.map((r) => [r.id, r]));
    let accepted = 0;
    fc.assert(
      fc.property(versioned, tool, ({ input, version }, t) => {
        const shape = resultShape(input, features(version), t);
        if (shape === Shape.Other) return;
        accepted++;
        const covered = (id: string) =>
          COVERED_RESULT_RULES.has(id) ||
          COVERED_BLOCK_RULES.has(id) ||
          (shape === Shape.ShortPlainText && COVERED_FOR_SHORT_TEXT.has(id));
        for (const [id, rule] of byId) {
          if (!covered(id) || !rule.versions.includes(version)) continue;
          const nodes = rule.subject === 'result' ? [input] : (input.content as unknown[]);
          for (const node of nodes) {
            expect(
              reports(rule, node, version, t),
              `${id} on ${JSON.stringify(input).slice(0, 300)}`,
            ).toEqual([]);
          }
        }
      }),
      { numRuns: RESULT_RUNS },
    );
    expect(accepted).toBeGreaterThan(RESULT_RUNS / 5);
  });

  it('builtTextShape and isQuietBuiltText answer as resultShape and isQuietPlainText do on the result toolResult builds', () => {
    // Texts near every boundary: short or not (84), error payloads (a JSON object naming "error", also
    // after whitespace), base64 that may be an image, and the size bound (10,000 with the allowance).
    const text = fc.oneof(
      fc.string({ maxLength: 100 }),
      fc.string({ unit: 'binary', maxLength: 100 }),
      fc.constantFrom(
        '{"error":"x"}',
        ' {"error":1}',
        '\n{"a":"error"}',
        '{"ok":"error"}',
        'error: {"error":1}',
      ),
      fc.nat({ max: 12_000 }).map((n) => 'a'.repeat(n)),
      fc.nat({ max: 400 }).map((n) => `data:image/png;base64,${'iVBORw0KGgo'.repeat(n)}`),
      fc.nat({ max: 100 }).map((n) => 'QUJD'.repeat(n)),
    );
    fc.assert(
      fc.property(text, fc.constantFrom(...PROTOCOL_VERSIONS), (t, version) => {
        const result: JsonObject = { content: [{ type: 'text', text: t }] };
        if (features(version).resultTypeRequired) result.resultType = 'complete';
        expect(builtTextShape(t)).toBe(resultShape(result, features(version), undefined));
        expect(isQuietBuiltText(t, version)).toBe(isQuietPlainText(result, version, undefined));
      }),
      { numRuns: runs(3000) },
    );
    expect(builtTextShape('a'.repeat(83))).toBe(Shape.ShortPlainText);
    expect(builtTextShape('a'.repeat(84))).toBe(Shape.PlainText);
    expect(builtTextShape('a'.repeat(9960))).toBe(Shape.PlainText);
    expect(builtTextShape('a'.repeat(9961))).toBe(Shape.Other);
    expect(builtTextShape('{"error":"x"}')).toBe(Shape.Other);
  });

  it('takes only plain objects: a class instance or a null-prototype object gets the full check', () => {
    class Result {
      content = [{ type: 'text', text: 'hi' }];
    }
    const bare = Object.assign(Object.create(null) as JsonObject, {
      content: [{ type: 'text', text: 'hi' }],
    });
    const inherited = Object.create({ content: [{ type: 'text', text: 'hi' }] }) as JsonObject;
    const f = features('2025-11-25');
    expect(resultShape(new Result(), f, undefined)).toBe(Shape.Other);
    expect(resultShape(bare, f, undefined)).toBe(Shape.Other);
    expect(resultShape(inherited, f, undefined)).toBe(Shape.Other);
    // An inherited `content` is read by the full check as the SDK's server reads it, and sends it
    // (test/validate/sdk-sent.test.ts): JSON.stringify of the value would leave it out.
    expect(validateToolResultSync(inherited)).toEqual([]);
    // A non-enumerable structuredContent is still read, as the rules read it.
    const hidden = { content: [{ type: 'text', text: '{"a":2}' }] };
    Object.defineProperty(hidden, 'structuredContent', { value: { a: 1 }, enumerable: false });
    expect(resultShape(hidden, f, undefined)).toBe(Shape.Other);
    // The same for blocks: enumeration alone would take each of these for a plain text block.
    class Block {
      type = 'text';
      text = 'hi';
    }
    const hiddenBlock = { type: 'text', text: 'hi' };
    Object.defineProperty(hiddenBlock, 'annotations', { value: 'no', enumerable: false });
    const inheritedText = Object.assign(Object.create({ text: 'hi' }) as JsonObject, { type: 'text' });
    for (const odd of [new Block(), hiddenBlock, inheritedText]) {
      expect(resultShape({ content: [odd] }, f, undefined)).toBe(Shape.Other);
    }
    const hiddenMeta = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    Object.defineProperty(hiddenMeta, '_meta', { value: 4, enumerable: false });
    expect(isPlainMediaBlock(hiddenMeta, f, sniffSync)).toBe(false);
    expect(isPlainMediaBlock({ ...hiddenMeta }, f, sniffSync)).toBe(true);
  });

  it('answers the same before a run (the shortcut) as in one, and the async validator agrees', async () => {
    await fc.assert(
      fc.asyncProperty(versioned, tool, async ({ input, version }, t) => {
        if (!isObject(input)) return;
        // Custom rule lists never take the pre-run shortcut, but the walk still skips covered rules. The
        // validators judge what JSON would send (a generated member may hold undefined, which it leaves out).
        const full = runToolResult(asSent(input).document, {
          version,
          tool: t,
          rules: RULES.filter(() => true),
        });
        const sync = validateToolResultSync(input, { protocolVersion: version, tool: t });
        expect(sync.map((f) => `${f.rule} ${f.pointer}`)).toEqual(full.map((f) => `${f.rule} ${f.pointer}`));
        expect(await validateToolResult(input, { protocolVersion: version, tool: t })).toEqual(sync);
      }),
      { numRuns: runs(500) },
    );
  });

  it('answers a plain-text result at the entry point only where the options are sound', () => {
    const plain = { content: [{ type: 'text', text: 'hi' }] };
    expect(validateToolResultSync(plain, { protocolVersion: '2025-11-25' })).toEqual([]);
    // An unknown version is the caller's mistake whatever the result.
    expect(() => validateToolResultSync(plain, { protocolVersion: '2025-13-01' as never })).toThrow(
      RangeError,
    );
    // Options that throw when read are the caller's own error, thrown as before; a result that throws is
    // answered by the general path.
    const throwing = {
      get protocolVersion(): never {
        throw new Error('options getter');
      },
    };
    expect(() => validateToolResultSync(plain, throwing as never)).toThrow('options getter');
    const getter = {
      get content(): never {
        throw new Error('content getter');
      },
    };
    expect(validateToolResultSync(getter, { protocolVersion: '2025-11-25' }).length).toBeGreaterThan(0);
    // A tool given (even one without outputSchema) is judged by the general path, with the same answer.
    expect(validateToolResultSync(plain, { protocolVersion: '2025-11-25', tool: { name: 't' } })).toEqual([]);
  });

  it('answers a plain media handler value at the entry point as it answers the JSON it sends', () => {
    const V = { protocolVersion: '2025-11-25' } as const;
    const png = readFileSync(join(root, 'fixtures/media', 'image.png')).toString('base64');
    const image = { type: 'image', data: png, mimeType: 'image/png' };
    class Blocks extends Array<unknown> {}
    const values: unknown[] = [
      { content: [image] },
      // Members JSON leaves out, and an Array subclass JSON writes as an array.
      { content: [{ type: 'resource', resource: { uri: 'file:///a.png', blob: png, text: undefined } }] },
      { content: [{ type: 'resource', resource: { uri: 'file:///a.md', text: 'x', mimeType: undefined } }] },
      { content: Blocks.from([image, { type: 'text', text: 'hi' }]) },
      // Mislabelled: not quiet, and found as for the sent JSON.
      { content: [{ ...image, mimeType: 'image/jpeg' }] },
    ];
    for (const value of values) {
      const sent = JSON.parse(JSON.stringify(value)) as unknown;
      expect(validateToolResultSync(value, V), JSON.stringify(value).slice(0, 80)).toEqual(
        validateToolResultSync(sent, V),
      );
    }
    expect(validateToolResultSync(values[4], V).map((f) => f.rule)).toContain('block-mime-type-mismatch');
    // One 16 MB block shared 64 times stands for a JSON text longer than any string: the quick answer
    // gives way, and the general path says it cannot be sent.
    const big = { type: 'image', data: 'A'.repeat(1 << 24), mimeType: 'image/png' };
    const shared = { content: new Array(64).fill(big) };
    expect(validateToolResultSync(shared, V).map((f) => f.rule)).toContain('result-not-serializable');
  });
});

/** Real encoder output, so that sniffing rules have something to place. */
const media = ['image.png', 'image.jpg', 'audio.wav'].map((name) =>
  readFileSync(join(root, 'fixtures/media', name)).toString('base64'),
);

const strings = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    ...media,
    '',
    'iVBORw0KGgo=',
    'iVBORw0KGgoAAAANSUhEUg',
    'data:image/png;base64,iVBORw0KGgo=',
    'SGVsbG8_-w==',
    'SGVsbG9=',
    'AAAA',
    'image/png',
    'audio/wav',
    'text/plain',
    'image/',
    'not a mime',
    'file:///a.txt',
    'https://example.com/a.png',
    'not a uri',
    'javascript:alert(1)',
    `data:image/x;base64,${'A'.repeat(64)}`,
    `iVBORw0KGgo${'A'.repeat(300)}`,
  ),
);
const member = fc.oneof(
  { weight: 4, arbitrary: strings },
  fc.constantFrom<unknown>(3, null, true, [], {}, { audience: ['user'] }, { priority: 9 }),
);
/** Payloads and media types biased toward real media, so that the sniffing rules fire often. */
const payload = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...media) }, member);
const mimeType = fc.oneof(fc.constantFrom('image/png', 'image/jpeg', 'audio/wav'), member);
const resource = fc.oneof(
  member,
  fc.record(
    { uri: member, text: member, blob: payload, mimeType, annotations: member, _meta: member },
    { requiredKeys: [] },
  ),
);

/** An object block of a standard type, with any mix of the members blocks of every type carry. */
const typedBlock = fc.record(
  {
    type: fc.constantFrom(...BLOCK_TYPES),
    text: member,
    data: payload,
    mimeType,
    uri: member,
    name: member,
    title: member,
    size: member,
    resource,
    annotations: member,
    _meta: member,
  },
  { requiredKeys: ['type'] },
);

describe('block rules by block type (BLOCK_RULE_TYPES)', () => {
  it('lists only block rules of the catalog', () => {
    const blockRules = new Set(RULES.filter((r) => r.subject === 'block').map((r) => r.id));
    for (const id of Object.keys(BLOCK_RULE_TYPES)) expect(blockRules, id).toContain(id);
    // Each listed rule's claim is fingerprinted with the covered rules above.
    for (const id of Object.keys(BLOCK_RULE_TYPES)) expect(CHECKED, id).toHaveProperty(id);
  });

  it('a rule reports nothing on an object block of a type it is not listed for', { timeout: 120_000 }, () => {
    const byId = new Map(RULES.map((r) => [r.id, r]));
    const fired = new Set<string>();
    fc.assert(
      fc.property(fc.constantFrom(...PROTOCOL_VERSIONS), typedBlock, (version, node) => {
        for (const [id, types] of Object.entries(BLOCK_RULE_TYPES)) {
          const rule = byId.get(id) as Rule;
          if (!rule.versions.includes(version)) continue;
          const found = reports(rule, node, version, undefined);
          if (found.length > 0) fired.add(id);
          if (types.includes(node.type)) continue;
          expect(found, `${id} on ${JSON.stringify(node).slice(0, 300)}`).toEqual([]);
        }
      }),
      { numRuns: runs(5000) },
    );
    // The generator reaches the rules it is meant to exercise (a test of the test).
    const reachable = Object.entries(BLOCK_RULE_TYPES).filter(([, types]) => types.length > 0);
    expect(reachable.filter(([id]) => !fired.has(id)).map(([id]) => id)).toEqual([]);
  });

  it('the engine runs every rule on a block when its type is not a standard one', () => {
    const odd = { content: [{ type: 'video', data: 'AAAA' }, ['text'], { type: 'Image', data: '%%' }] };
    const all = runToolResult(odd, { version: '2025-11-25', rules: RULES.filter(() => true) });
    const sync = validateToolResultSync(odd, { protocolVersion: '2025-11-25' });
    expect(sync.map((f) => `${f.rule} ${f.pointer}`)).toEqual(all.map((f) => `${f.rule} ${f.pointer}`));
    expect(sync.map((f) => f.rule)).toEqual(
      expect.arrayContaining(['block-type-unknown', 'block-not-object']),
    );
  });
});

/** Payloads of every kind the base64 and sniffing rules tell apart, around real media. */
const mediaPayload = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...media) },
  fc.constantFrom(
    ...media.map((m) => m.replace(/=+$/, '')),
    ...media.map((m) => `${m.slice(0, 40)}\n${m.slice(40)}`),
    ...media.map((m) => m.replace(/\+/g, '-').replace(/\//g, '_')),
    ...media.map((m) => `data:image/png;base64,${m}`),
    '',
    'AAAA',
    'not base64!',
    'PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=',
  ),
  fc.constant<unknown>(7),
);
const mediaMime = fc.constantFrom<unknown>(
  'image/png',
  'image/jpeg',
  'image/jpg',
  'IMAGE/PNG',
  'image/png; charset=x',
  'image/svg+xml',
  'audio/wav',
  'audio/x-wav',
  'audio/mpeg',
  'application/pdf',
  'image/',
  'not a mime',
  '',
  3,
);
/** Real media with the types they may be declared as, right and wrong. */
const [png, jpg, wav] = media as [string, string, string];
const plainMedia = fc.oneof(
  fc.record({
    type: fc.constant('image'),
    data: fc.constantFrom(png, jpg, ''),
    mimeType: fc.constantFrom(
      'image/png',
      'IMAGE/PNG',
      'image/png; x=y',
      'image/jpeg',
      'image/jpg',
      'image/gif',
    ),
  }),
  fc.record({
    type: fc.constantFrom('audio', 'image'),
    data: fc.constantFrom(wav, png),
    mimeType: fc.constantFrom('audio/wav', 'audio/x-wav', 'audio/mpeg', 'image/png'),
  }),
);
/** Image and audio blocks at and around the plain media shape. */
const mediaBlock = fc.oneof(
  { weight: 3, arbitrary: plainMedia },
  fc
    .record(
      {
        type: fc.constantFrom<unknown>('image', 'audio', 'Image', 'text'),
        data: mediaPayload,
        mimeType: mediaMime,
        annotations: fc.constantFrom<unknown>(undefined, undefined, { priority: 0.5 }, 'x'),
        _meta: fc.constantFrom<unknown>(undefined, undefined, 4),
        blob: fc.constantFrom<unknown>(undefined, undefined, undefined, 'AAAA'),
      },
      { requiredKeys: [] },
    )
    .map(compact),
);

/** URIs, absolute and not, and media types, well formed and not. */
const linkUri = fc.constantFrom<unknown>(
  'file:///a.txt',
  'https://example.com/files/1/a.csv',
  'ui://widget/1',
  'urn:x:1',
  'notes/a.txt',
  '/abs/path.txt',
  'https://exa mple.com/',
  '',
  3,
  // URLs that run script (block-uri-script), in the forms a browser reads as one, and near them.
  'javascript:alert(1)',
  'javascript://example.com/a',
  'JaVa\tScript:alert(1)',
  ' javascript:alert(1)',
  '\u0000vbscript:msgbox',
  'VBScript:msgbox(1)',
  'data:text/html,<b>x</b>',
  'Data:Text/HTML;base64,AAAA',
  'data:text/plain,x',
  'jar:file:///a.jar!/x',
  'vnd://x',
  '\u212aey://x',
);
const linkMime = fc.constantFrom<unknown>(
  'text/csv',
  'image/png',
  'TEXT/Plain; charset=utf-8',
  'text/',
  'csv',
  7,
);
/** Plain resource links. */
const plainLink = fc
  .record(
    {
      type: fc.constant('resource_link'),
      uri: fc.constantFrom('file:///a.txt', 'https://example.com/f/1.csv'),
      name: fc.constantFrom('a.txt', '', 'cut \ud83d'),
      title: fc.constantFrom<unknown>('A', undefined),
      description: fc.constantFrom<unknown>('about a', 'a \udfff', undefined),
      mimeType: fc.constantFrom<unknown>('text/csv', 'text/plain; charset=utf-8', undefined),
    },
    { requiredKeys: ['type', 'uri', 'name'] },
  )
  .map(compact);
/** Values of a link's members, right and wrong, to put in place of one member of a plain link. */
const linkMember = fc.record({
  key: fc.constantFrom(
    'type',
    'uri',
    'name',
    'title',
    'description',
    'mimeType',
    'size',
    'icons',
    'annotations',
    '_meta',
    'extra',
  ),
  value: fc.oneof(
    linkUri,
    linkMime,
    fc.constantFrom<unknown>(
      undefined,
      'resource',
      12,
      1.5,
      null,
      [{ src: 'x' }],
      [{ src: 'https://a/i.png' }],
      { priority: 0.5 },
      { priority: 9 },
    ),
  ),
});
/** resource_link blocks at and around the plain link shape: a plain one, or one with a member replaced. */
const linkBlock = fc.oneof(
  plainLink,
  fc
    .tuple(plainLink, linkMember, linkMember)
    .map(([link, a, b]) => compact({ ...link, [a.key]: a.value, [b.key]: b.value })),
);
/** Embedded resources at and around the plain resource shape, with real and broken payloads. */
const resourceContents = fc
  .record(
    {
      uri: linkUri,
      mimeType: fc.oneof(mediaMimeOrNone(), linkMime),
      text: fc.constantFrom<unknown>('# Note', '', 5, '# \udc00', undefined, undefined),
      blob: fc.oneof({ weight: 2, arbitrary: mediaPayload }, fc.constant<unknown>(undefined)),
      annotations: fc.constantFrom<unknown>(undefined, undefined, undefined, { priority: 1 }),
      _meta: fc.constantFrom<unknown>(undefined, undefined, undefined, 'm'),
      extra: fc.constantFrom<unknown>(undefined, undefined, undefined, 1),
    },
    { requiredKeys: [] },
  )
  .map(compact);
const plainResource = fc.record({
  type: fc.constant('resource'),
  resource: fc.oneof(
    fc.record({
      uri: fc.constant('file:///n.md'),
      mimeType: fc.constant('text/markdown'),
      text: fc.constant('# N'),
    }),
    fc.record({
      uri: fc.constant('file:///i.png'),
      mimeType: fc.constantFrom('image/png', 'image/jpeg', 'IMAGE/PNG'),
      blob: fc.constantFrom(png, jpg, ''),
    }),
    fc.record({ uri: fc.constant('urn:a'), blob: fc.constantFrom(png, wav) }),
  ),
});
/** Values of a resource's members, right and wrong. */
const resourceMember = fc.record({
  key: fc.constantFrom('uri', 'mimeType', 'text', 'blob', 'annotations', '_meta', 'extra'),
  value: fc.oneof(
    linkUri,
    mediaPayload,
    mediaMime,
    fc.constantFrom<unknown>(undefined, '# T', { priority: 1 }, 4),
  ),
});
const blockMember = fc.record({
  key: fc.constantFrom('type', 'annotations', '_meta', 'extra'),
  value: fc.constantFrom<unknown>(undefined, 'resource_link', 'text', { priority: 0.5 }, { priority: 2 }, 3),
});
/** Embedded resources at and around the plain resource shape, with real and broken payloads. */
const resourceBlock = fc.oneof(
  plainResource,
  fc.tuple(plainResource, resourceMember, resourceMember).map(([block, a, b]) => ({
    ...block,
    resource: compact({ ...block.resource, [a.key]: a.value, [b.key]: b.value }),
  })),
  fc.tuple(plainResource, blockMember).map(([block, a]) => compact({ ...block, [a.key]: a.value })),
  fc.record(
    {
      type: fc.constantFrom<unknown>('resource', 'resource_link'),
      resource: fc.oneof(
        { weight: 4, arbitrary: resourceContents },
        fc.constantFrom<unknown>(undefined, 'r', null),
      ),
    },
    { requiredKeys: [] },
  ),
);

function mediaMimeOrNone(): fc.Arbitrary<unknown> {
  return fc.oneof(mediaMime, fc.constant<unknown>(undefined));
}

/**
 * Holds a plain-block recognizer to its covered rules: each covered rule, run on its own on a block
 * the recognizer accepts, reports nothing; the generator reaches both answers often.
 */
function coversSilently(
  blocks: fc.Arbitrary<unknown>,
  accepts: (block: unknown, version: ProtocolVersion) => boolean,
  covered: ReadonlySet<string>,
): void {
  const byId = new Map(RULES.map((r) => [r.id, r]));
  let accepted = 0;
  let rejected = 0;
  fc.assert(
    fc.property(fc.constantFrom(...PROTOCOL_VERSIONS), blocks, (version, node) => {
      if (!accepts(node, version)) {
        rejected++;
        return;
      }
      accepted++;
      for (const id of covered) {
        const rule = byId.get(id) as Rule;
        if (!rule.versions.includes(version)) continue;
        expect(
          reports(rule, node, version, undefined),
          `${id} on ${JSON.stringify(node).slice(0, 200)}`,
        ).toEqual([]);
      }
    }),
    { numRuns: BLOCK_RUNS },
  );
  expect(accepted).toBeGreaterThan(BLOCK_RUNS / 20);
  expect(rejected).toBeGreaterThan(BLOCK_RUNS / 20);
}

describe('the plain resource link and embedded resource fast paths', () => {
  it('every covered rule reports nothing on a resource link the fast path accepts', {
    timeout: 120_000,
  }, () => {
    coversSilently(linkBlock, (b, v) => isPlainLinkBlock(b, features(v)), COVERED_LINK_BLOCK_RULES);
  });

  it('every covered rule reports nothing on an embedded resource the fast path accepts', {
    timeout: 120_000,
  }, () => {
    coversSilently(
      resourceBlock,
      (b, v) => isPlainResourceBlock(b, features(v), sniffSync),
      COVERED_RESOURCE_BLOCK_RULES,
    );
  });

  it('covers every block rule that can report on its block type, each fingerprinted', () => {
    const blockRules = RULES.filter((r) => r.subject === 'block');
    for (const [type, covered] of [
      ['resource_link', COVERED_LINK_BLOCK_RULES],
      ['resource', COVERED_RESOURCE_BLOCK_RULES],
    ] as const) {
      const applicable = blockRules
        .filter((r) => BLOCK_RULE_TYPES[r.id]?.includes(type) ?? true)
        .map((r) => r.id)
        .sort();
      // Nothing is claimed of a rule that can never report on the type, and a rule added later runs.
      expect([...covered].sort(), type).toEqual(applicable.filter((id) => covered.has(id)));
      for (const id of covered) expect(CHECKED, id).toHaveProperty(id);
    }
  });

  it('takes only plain objects and reads members a rule reads even when not enumerable', () => {
    const f = features('2025-11-25');
    const link = { type: 'resource_link', uri: 'file:///a', name: 'a' };
    expect(isPlainLinkBlock(link, f)).toBe(true);
    expect(isPlainLinkBlock(link, features('2025-03-26'))).toBe(false);
    const hiddenSize = { ...link };
    Object.defineProperty(hiddenSize, 'size', { value: 1.5, enumerable: false });
    expect(isPlainLinkBlock(hiddenSize, f)).toBe(false);
    expect(isPlainLinkBlock(Object.assign(Object.create(null) as JsonObject, link), f)).toBe(false);
    const resource = { type: 'resource', resource: { uri: 'file:///a', text: 'x' } };
    expect(isPlainResourceBlock(resource, f, sniffSync)).toBe(true);
    const hiddenAnnotations = { uri: 'file:///a', text: 'x' };
    Object.defineProperty(hiddenAnnotations, 'annotations', { value: undefined, enumerable: false });
    expect(isPlainResourceBlock({ type: 'resource', resource: hiddenAnnotations }, f, sniffSync)).toBe(false);
    expect(
      isPlainResourceBlock(
        { type: 'resource', resource: { uri: 'file:///a', text: 'x', blob: 'AAAA' } },
        f,
        sniffSync,
      ),
    ).toBe(false);
  });
});

describe('members the fast paths read by name', () => {
  it('a member that is not enumerable still takes a block off the fast path, and the rule that reads it reports it', () => {
    const link = { type: 'resource_link', uri: 'file:///a', name: 'a' };
    const f = features('2025-11-25');
    for (const [key, value, rule] of [
      ['title', 5, 'block-resource-link-invalid'],
      ['description', 5, 'block-resource-link-invalid'],
      ['icons', 5, 'block-resource-link-invalid'],
      ['mimeType', 'bad', 'block-mime-type-malformed'],
    ] as const) {
      const odd = hiding(link, key, value);
      expect(isPlainLinkBlock(odd, f), key).toBe(false);
      expect(validateToolResultSync({ content: [odd] }).map((x) => `${x.rule} ${x.pointer}`)).toEqual([
        `${rule} /content/0/${key}`,
      ]);
    }
    const image = hiding({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }, 'annotations', 5);
    expect(isPlainMediaBlock(image, f, sniffSync)).toBe(false);
    expect(validateToolResultSync({ content: [image] }).map((x) => `${x.rule} ${x.pointer}`)).toEqual([
      'block-annotations-invalid /content/0/annotations',
    ]);
  });

  it('many short texts still count toward the size limits (each block counts its text and its own JSON)', () => {
    const many = { content: Array.from({ length: 30_000 }, () => ({ type: 'text', text: 'x'.repeat(30) })) };
    expect(resultShape(many, features('2025-11-25'), undefined)).toBe(Shape.Other);
    expect(validateToolResultSync(many).map((x) => `${x.rule} ${x.severity}`)).toEqual([
      'result-over-client-limits warning',
      'result-over-client-limits warning',
    ]);
  });
});

/** `value` with `key` set but not enumerable: a handler's value can hide a member from for…in. */
function hiding<T extends object>(value: T, key: string, hidden: unknown): T {
  return Object.defineProperty({ ...value }, key, { value: hidden, enumerable: false });
}

describe('near misses of the plain shapes (found by mutation testing)', () => {
  const png = media[0] as string;
  const text = { type: 'text', text: 'hi' };
  const link = { type: 'resource_link', uri: 'file:///a', name: 'a' };
  const resource = { type: 'resource', resource: { uri: 'file:///a', text: 'x' } };
  const cases: readonly (readonly [string, unknown, ProtocolVersion?])[] = [
    // A stray member after mimeType must not stand in for it.
    [
      'an image whose stray member looks like its mimeType',
      { content: [{ type: 'image', data: png, mimeType: 'image/gif', x: 'image/png' }] },
    ],
    [
      'an image block with the members of a link',
      { content: [{ type: 'image', uri: 'file:///a', name: 'a' }] },
    ],
    ['a link without a name', { content: [{ type: 'resource_link', uri: 'file:///a' }] }],
    // A stray member after resource must not stand in for it.
    [
      'a resource whose stray member looks like its contents',
      {
        content: [
          { type: 'resource', resource: { uri: 'not a uri', text: 'x' }, x: { uri: 'file:///a', text: 'x' } },
        ],
      },
    ],
    [
      'a resource whose blob is no string',
      { content: [{ type: 'resource', resource: { uri: 'file:///a', blob: 5 } }] },
    ],
    [
      'a 2026-07-28 result whose stray member says complete',
      { content: [text], x: 'complete' },
      '2026-07-28',
    ],
    ['an error payload behind a space', { content: [{ type: 'text', text: ' {"error":"x"}' }] }],
    ['an error payload behind a newline', { content: [{ type: 'text', text: '\n{"error":"x"}' }] }],
    ['a hidden _meta on a result', hiding({ content: [text] }, '_meta', 5)],
    ['a hidden _meta on a text block', { content: [hiding(text, '_meta', 5)] }],
    [
      'a hidden structuredContent on a text block',
      { content: [hiding(text, 'structuredContent', { a: 1 })] },
    ],
    ['a hidden annotations on a link', { content: [hiding(link, 'annotations', 5)] }],
    ['a hidden _meta on a link', { content: [hiding(link, '_meta', 5)] }],
    ['a hidden size on a link', { content: [hiding(link, 'size', 'big')] }],
    ['a hidden annotations on a resource block', { content: [hiding(resource, 'annotations', 5)] }],
    ['a hidden _meta on a resource block', { content: [hiding(resource, '_meta', 5)] }],
    [
      'a hidden _meta on resource contents',
      { content: [{ type: 'resource', resource: hiding(resource.resource, '_meta', 5) }] },
    ],
    // One broken member each, beside plain blocks of every kind (so the fast paths are tried first).
    ['a null result', null],
    ['a string result', 'hi'],
    ['a null block after a text', { content: [text, null] }],
    [
      'a string block after an image',
      { content: [{ type: 'image', data: png, mimeType: 'image/png' }, 'hi'] },
    ],
    ['a null block after a link', { content: [link, null] }],
    ['a number block after a resource', { content: [resource, 5] }],
    [
      'an audio block before audio existed',
      { content: [{ type: 'audio', data: media[2], mimeType: 'audio/wav' }] },
      '2024-11-05',
    ],
    [
      'an image whose data is not base64',
      { content: [{ type: 'image', data: '!!!!', mimeType: 'image/png' }] },
    ],
    ['an image whose mimeType is a number', { content: [{ type: 'image', data: png, mimeType: 5 }] }],
    ['an image whose mimeType is malformed', { content: [{ type: 'image', data: png, mimeType: 'png' }] }],
    ['an image labelled JPEG', { content: [{ type: 'image', data: png, mimeType: 'image/jpeg' }] }],
    ['a link with a relative uri', { content: [{ ...link, uri: 'a.txt' }] }],
    ['a link whose name is a number', { content: [{ ...link, name: 5 }] }],
    ['a link whose title is a number', { content: [{ ...link, title: 5 }] }],
    ['a link whose description is a number', { content: [{ ...link, description: 5 }] }],
    ['a link whose mimeType is a number', { content: [{ ...link, mimeType: 5 }] }],
    ['a link whose mimeType is malformed', { content: [{ ...link, mimeType: 'not a mime' }] }],
    ['a resource block whose resource is null', { content: [{ type: 'resource', resource: null }] }],
    [
      'a resource block whose resource is a string',
      { content: [{ type: 'resource', resource: 'file:///a' }] },
    ],
    [
      'resource contents with annotations',
      { content: [{ type: 'resource', resource: { ...resource.resource, annotations: 5 } }] },
    ],
    [
      'resource contents with a relative uri',
      { content: [{ type: 'resource', resource: { uri: 'a', text: 'x' } }] },
    ],
    [
      'resource contents whose text is a number',
      { content: [{ type: 'resource', resource: { uri: 'file:///a', text: 5 } }] },
    ],
    [
      'resource contents with both text and blob',
      { content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'x', blob: png } }] },
    ],
    [
      'resource contents whose blob is not base64',
      { content: [{ type: 'resource', resource: { uri: 'file:///a', blob: '!!!!' } }] },
    ],
    [
      'resource contents whose mimeType is a number',
      { content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'x', mimeType: 5 } }] },
    ],
    [
      'resource contents whose mimeType is malformed',
      { content: [{ type: 'resource', resource: { uri: 'file:///a', text: 'x', mimeType: 'text' } }] },
    ],
    [
      'a PNG blob labelled JPEG',
      { content: [{ type: 'resource', resource: { uri: 'file:///a', blob: png, mimeType: 'image/jpeg' } }] },
    ],
    [
      'an error payload behind a no-break space',
      { content: [{ type: 'text', text: '\u00a0{"error":"x"}' }] },
    ],
  ];

  it('the validator finds what each rule finds on its own, and that is not nothing', () => {
    for (const [name, result, version = '2025-11-25'] of cases) {
      const expected = everyRuleFinds(result, version);
      expect(expected, name).not.toEqual([]);
      expect(validatorFinds(result, version), name).toEqual(expected);
    }
  });
});

/** The base64 of a PNG of any stated size, its payload padded to any length. */
function pngOf(width: number, height: number, filler: number): string {
  const bytes = Buffer.alloc(33 + filler);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]).copy(bytes);
  bytes.write('IHDR', 12, 'latin1');
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  return bytes.toString('base64');
}

/**
 * Results of at most four of `blocks` for each version, with the members of the plain shapes and near
 * misses of them (an isError that is no boolean, another resultType, structuredContent, `_meta`).
 */
function resultsOf(
  blocks: fc.Arbitrary<unknown>,
): fc.Arbitrary<{ version: ProtocolVersion; input: JsonObject }> {
  return fc.constantFrom(...PROTOCOL_VERSIONS).chain((version) =>
    fc.record({
      version: fc.constant(version),
      input: fc
        .record(
          {
            content: fc.array(blocks, { maxLength: 4 }),
            isError: fc.constantFrom<unknown>(true, false, 'yes', undefined, undefined),
            resultType: fc.constantFrom<unknown>(
              ...Array(4).fill(features(version).resultTypeRequired ? 'complete' : undefined),
              'input_required',
              undefined,
            ),
            structuredContent: fc.constantFrom<unknown>(undefined, undefined, undefined, { a: 1 }),
            _meta: fc.constantFrom<unknown>(undefined, undefined, undefined, 4),
          },
          { requiredKeys: ['content'] },
        )
        .map(compact),
    }),
  );
}

describe('the plain media block fast path', () => {
  it('every covered rule reports nothing on a block the fast path accepts', { timeout: 120_000 }, () => {
    coversSilently(
      mediaBlock,
      (b, v) => isPlainMediaBlock(b, features(v), sniffSync),
      COVERED_MEDIA_BLOCK_RULES,
    );
  });

  it('covers only block rules of the catalog, each fingerprinted', () => {
    const blockRules = new Set(RULES.filter((r) => r.subject === 'block').map((r) => r.id));
    for (const id of COVERED_MEDIA_BLOCK_RULES) {
      expect(blockRules, id).toContain(id);
      expect(CHECKED, id).toHaveProperty(id);
    }
  });

  it('every covered result rule reports nothing on a result the media fast path accepts', {
    timeout: 120_000,
  }, () => {
    const byId = new Map(RULES.map((r) => [r.id, r]));
    // Texts that make result-over-client-limits and result-error-without-is-error report: covering the
    // first would fail this test, and the second is covered only because the fast path turns such a
    // lone text away.
    const textBlock = fc
      .oneof(texts, fc.constantFrom('{"error":"x"}', 'z'.repeat(101_000)))
      .map((text) => ({ type: 'text', text }));
    const result = resultsOf(
      fc.oneof(
        { weight: 4, arbitrary: plainMedia },
        { weight: 2, arbitrary: textBlock },
        mediaBlock,
        typedBlock,
        linkBlock,
        resourceBlock,
      ),
    );
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(result, tool, ({ version, input }, t) => {
        if (!isPlainMediaResult(input, features(version), t, sniffSync)) {
          rejected++;
          return;
        }
        accepted++;
        for (const id of COVERED_MEDIA_RESULT_RULES) {
          const rule = byId.get(id) as Rule;
          if (!rule.versions.includes(version)) continue;
          expect(reports(rule, input, version, t), `${id} on ${JSON.stringify(input).slice(0, 300)}`).toEqual(
            [],
          );
        }
        // And the whole validation finds what every result rule, run on its own, finds.
        const resultRules = RULES.filter((r) => r.subject === 'result' && r.versions.includes(version));
        const expected = resultRules.flatMap((rule) =>
          reports(rule, input, version, t).map((r) => `${rule.id} ${toPointer(r.path ?? [])}`),
        );
        const got = validateToolResultSync(input, { protocolVersion: version, tool: t })
          .filter((f) => resultRules.some((r) => r.id === f.rule))
          .map((f) => `${f.rule} ${f.pointer}`);
        expect(got.sort()).toEqual(expected.sort());
      }),
      { numRuns: RESULT_RUNS },
    );
    // About one result in ten is accepted (a tool outputSchema, structuredContent, a mismatched type…).
    expect(accepted).toBeGreaterThan(RESULT_RUNS / 20);
    expect(rejected).toBeGreaterThan(RESULT_RUNS / 10);
  });

  it('answers a clean media result without a run only where the run finds nothing (quietPlainMedia)', () => {
    // PNGs of any stated size and payload length: over 8000 px a side, or past the 25,000 tokens
    // result-over-client-limits estimates, the result is no longer quiet.
    const sizedPng = fc
      .record({
        width: fc.constantFrom(1, 7_999, 8_000, 8_001, 20_000),
        height: fc.constantFrom(1, 8_000, 9_000),
        filler: fc.constantFrom(0, 1_000, 74_000, 76_000),
      })
      .map(({ width, height, filler }) => ({
        type: 'image',
        data: pngOf(width, height, filler),
        mimeType: 'image/png',
      }));
    const shortText = fc.string({ maxLength: 20 }).map((text) => ({ type: 'text', text }));
    let quiet = 0;
    let loud = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...PROTOCOL_VERSIONS),
        fc.array(
          fc.oneof({ weight: 3, arbitrary: sizedPng }, plainMedia, shortText, linkBlock, resourceBlock),
          {
            minLength: 1,
            maxLength: 3,
          },
        ),
        (version, content) => {
          const result = features(version).resultTypeRequired
            ? { content, resultType: 'complete' }
            : { content };
          const expected = everyRuleFinds(result, version);
          if (expected.length === 0) quiet++;
          else loud++;
          expect(validatorFinds(result, version), JSON.stringify(result).slice(0, 200)).toEqual(expected);
        },
      ),
      { numRuns: runs(600) },
    );
    expect(quiet).toBeGreaterThan(runs(600) / 10);
    expect(loud).toBeGreaterThan(runs(600) / 10);
  });

  it('covers only result rules silent on the plain-text shape, each fingerprinted', () => {
    for (const id of COVERED_MEDIA_RESULT_RULES) expect(COVERED_RESULT_RULES, id).toContain(id);
  });

  it('leaves the findings of whole results unchanged (against every rule run on every block)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROTOCOL_VERSIONS),
        fc.array(fc.oneof(mediaBlock, typedBlock, linkBlock, resourceBlock), { minLength: 1, maxLength: 4 }),
        (version, content) => {
          const result = { content };
          const fast = validateToolResultSync(result, { protocolVersion: version });
          // The block rules, each run on its own on every block, as if there were no fast path.
          const blockRules = RULES.filter((r) => r.subject === 'block' && r.versions.includes(version));
          const expected = new Set<string>();
          content.forEach((node, i) => {
            for (const rule of blockRules) {
              for (const r of reports(rule, node, version, undefined)) {
                expected.add(`${rule.id} /content/${i}${(r.path ?? []).map((p) => `/${p}`).join('')}`);
              }
            }
          });
          const got = new Set(
            fast.filter((f) => f.pointer.startsWith('/content/') && blockRules.some((r) => r.id === f.rule)),
          );
          expect([...got].map((f) => `${f.rule} ${f.pointer}`).sort()).toEqual([...expected].sort());
        },
      ),
      { numRuns: runs(1500) },
    );
  });
});

describe('the small plain media walk (isSmallPlainMediaResult)', () => {
  /** PNGs around the size rule's limits: 8000 px a side, 100,000 units of JSON. */
  const sizedPng = fc
    .record({
      type: fc.constantFrom('image', 'image', 'resource'),
      width: fc.constantFrom(1, 7_999, 8_000, 8_001, 20_000),
      height: fc.constantFrom(1, 8_000, 9_000),
      filler: fc.constantFrom(0, 1_000, 37_000, 74_000, 76_000),
      mimeType: fc.constantFrom('image/png', 'IMAGE/PNG', 'image/apng', 'image/jpeg'),
    })
    .map(({ type, width, height, filler, mimeType }) =>
      type === 'image'
        ? { type, data: pngOf(width, height, filler), mimeType }
        : { type, resource: { uri: 'file:///a.png', blob: pngOf(width, height, filler), mimeType } },
    );
  /** Texts around the plain-text shape's bounds and the size rule's: 84, 10,000, 100,000 units. */
  const sizedText = fc
    .constantFrom(0, 63, 64, 83, 84, 9_999, 49_960, 99_900, 100_000)
    .chain((n) => fc.constantFrom('x', 'é', '"', `iVBORw0KGgo${'A'.repeat(300)}`).map((c) => c.repeat(n)))
    .map((text) => ({ type: 'text', text }));
  /** JS values JSON writes differently, or not at all: members it leaves out, shared blocks. */
  const quirks = fc.constantFrom<unknown>(
    { type: 'resource', resource: { uri: 'file:///a.md', text: '# A', mimeType: undefined } },
    { type: 'resource', resource: { uri: 'file:///a.png', blob: media[0], text: undefined } },
    hiding({ type: 'resource_link', name: 'a' }, 'uri', 'file:///a'),
    hiding({ type: 'resource', resource: { text: 'x' } }, 'annotations', undefined),
    { type: 'resource', resource: hiding({ text: 'x' }, 'uri', 'file:///a') },
  );
  const sized = fc.oneof(sizedPng, sizedText);
  const others = fc.oneof(mediaBlock, linkBlock, resourceBlock, quirks);
  const results = resultsOf(
    fc.oneof({ weight: 3, arbitrary: plainMedia }, { weight: 4, arbitrary: sized }, others),
  );
  /** The same content, one block shared at several places (a handler's value can share a block). */
  const shared = results.map(({ version, input }) => {
    const content = input.content as unknown[];
    const first = content[0];
    return {
      version,
      input: first === undefined ? input : { ...input, content: [first, ...content, first, first] },
    };
  });

  it('every covered result rule reports nothing on a result it accepts, which is a plain media result', {
    timeout: 120_000,
  }, () => {
    const byId = new Map(RULES.map((r) => [r.id, r]));
    let accepted = 0;
    let rejected = 0;
    fc.assert(
      fc.property(fc.oneof(results, shared), tool, ({ version, input }, t) => {
        const f = features(version);
        if (!isSmallPlainMediaResult(input, f, t, 0, () => true)) {
          rejected++;
          return;
        }
        accepted++;
        expect(runInScope(new FactScope(), () => isPlainMediaResult(input, f, t, sniffSync))).toBe(true);
        for (const id of COVERED_SMALL_MEDIA_RESULT_RULES) {
          const rule = byId.get(id) as Rule;
          if (!rule.versions.includes(version)) continue;
          expect(reports(rule, input, version, t), `${id} on ${JSON.stringify(input).slice(0, 300)}`).toEqual(
            [],
          );
        }
      }),
      { numRuns: RESULT_RUNS },
    );
    expect(accepted).toBeGreaterThan(RESULT_RUNS / 20);
    expect(rejected).toBeGreaterThan(RESULT_RUNS / 10);
  });

  it('counts the units of JSON text result-over-client-limits counts', { timeout: 120_000 }, () => {
    let counted = 0;
    fc.assert(
      fc.property(fc.oneof(results, shared), ({ version, input }) => {
        const f = features(version);
        const check = (_h: object, _k: string, value: string) => value.length % 4 === 0;
        const units = plainMediaUnits(input, f, undefined, Number.POSITIVE_INFINITY, check, 0, () => true);
        if (units < 0) return;
        counted++;
        const serialized = serialization(input);
        expect('size' in serialized && serialized.size.units, JSON.stringify(input).slice(0, 200)).toBe(
          units,
        );
      }),
      { numRuns: runs(1000) },
    );
    expect(counted).toBeGreaterThan(runs(1000) / 10);
  });

  it('asks about each block of an asked kind, and stops at the first that is not quiet', () => {
    const f = features('2025-11-25');
    const link = { type: 'resource_link', uri: 'file:///a', name: 'a' };
    const long = { type: 'text', text: 'x'.repeat(84) };
    const short = { type: 'text', text: 'x' };
    const asked: unknown[] = [];
    const quiet = (block: object) => {
      asked.push(block);
      return block !== link;
    };
    // Bits 1 << PlainKind: Text (1) and Link (4).
    const mask = (1 << 1) | (1 << 4);
    expect(isSmallPlainMediaResult({ content: [short, long, link, long] }, f, undefined, mask, quiet)).toBe(
      false,
    );
    expect(asked).toEqual([long, link]);
  });

  it('takes no payload longer than a base64 chunk that holds whitespace for canonical', () => {
    // 80,044 characters: past the 65,536 that readBase64 decodes a chunk at a time, within the size the
    // walk answers; one of them a space or a line break, which atob skips.
    const png = pngOf(100, 100, 60_000);
    const f = features('2025-11-25');
    for (const blank of [' ', '\n']) {
      for (const at of [1_000, 70_000]) {
        const data = png.slice(0, at) + blank + png.slice(at + 1);
        const result = { content: [{ type: 'image', data, mimeType: 'image/png' }] };
        expect(isSmallPlainMediaResult(result, f, undefined, 0, () => true)).toBe(false);
        expect(
          validateToolResultSync(result, { protocolVersion: '2025-11-25' }).map((finding) => finding.rule),
        ).toContain('block-base64-non-canonical');
      }
    }
    const clean = { content: [{ type: 'image', data: png, mimeType: 'image/png' }] };
    expect(isSmallPlainMediaResult(clean, f, undefined, 0, () => true)).toBe(true);
  });
});

/** Responses (and near misses of one) carrying results at and around the plain-text shape. */
const mostlyPlain = fc.constantFrom(...PROTOCOL_VERSIONS).chain((version) =>
  fc.record({
    version: fc.constant(version),
    input: fc.oneof({ weight: 3, arbitrary: plainResult(version) }, nearMiss),
  }),
);
const message = mostlyPlain.chain(({ version, input }) =>
  fc
    .record(
      {
        jsonrpc: fc.constantFrom<unknown>(...Array(8).fill('2.0'), '1.0', undefined),
        id: fc.constantFrom<unknown>(...Array(6).fill(1), 'a', null, undefined, 2.5),
        result: fc.oneof({ weight: 5, arbitrary: fc.constant<unknown>(input) }, fc.constant<unknown>([])),
        method: fc.constantFrom<unknown>(...Array(8).fill(undefined), 'tools/call'),
        error: fc.constantFrom<unknown>(...Array(8).fill(undefined), { code: 1, message: 'x' }),
        requestId: fc.constantFrom<unknown>(...Array(8).fill(undefined), 1),
      },
      { requiredKeys: [] },
    )
    .map((m) => ({ version, message: compact(m) })),
);
const request = fc.constantFrom<JsonObject | undefined>(
  undefined,
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 't' } },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'u' } },
  { jsonrpc: '2.0', id: 1, method: 'tools/list' },
);
const tools = fc.constantFrom<JsonObject[]>(
  [],
  [{ name: 't', inputSchema: { type: 'object' } }],
  [{ name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object' } }],
);

describe('the quiet-message shortcut (isQuietMessage)', () => {
  it('says quiet only of messages the engine finds nothing in', { timeout: 120_000 }, () => {
    let quiet = 0;
    let loud = 0;
    fc.assert(
      fc.property(message, request, tools, ({ version, message }, req, defs) => {
        const options = { version, request: req, tools: toolsByName(defs), sniff: sniffSync };
        const findings = runMessage(message, options);
        if (findings.length > 0) loud++;
        if (!isQuietMessage(message, options)) return;
        quiet++;
        expect(findings.map((f) => `${f.rule} ${f.pointer}`)).toEqual([]);
        expect(validateMessageSync(message, { protocolVersion: version, request: req, tools: defs })).toEqual(
          [],
        );
      }),
      { numRuns: RESULT_RUNS },
    );
    expect(quiet).toBeGreaterThan(RESULT_RUNS / 30);
    expect(loud).toBeGreaterThan(RESULT_RUNS / 15);
  });

  it('says quiet of a media response only where the engine finds nothing, with or without a scope', {
    timeout: 120_000,
  }, () => {
    const mediaMessage = fc.constantFrom(...PROTOCOL_VERSIONS).chain((version) =>
      fc
        .record({
          jsonrpc: fc.constantFrom<unknown>(...Array(8).fill('2.0'), '1.0'),
          id: fc.constantFrom<unknown>(1, 1, 1, 'a', null),
          content: fc.array(
            fc.oneof({ weight: 8, arbitrary: plainMedia }, mediaBlock, linkBlock, resourceBlock),
            {
              minLength: 1,
              maxLength: 3,
            },
          ),
        })
        .map(({ jsonrpc, id, content }) => ({
          version,
          message: {
            jsonrpc,
            id,
            result: features(version).resultTypeRequired ? { content, resultType: 'complete' } : { content },
          },
        })),
    );
    let quiet = 0;
    let loud = 0;
    fc.assert(
      fc.property(mediaMessage, request, tools, ({ version, message }, req, defs) => {
        const options = { version, request: req, tools: toolsByName(defs), sniff: sniffSync };
        const findings = runMessage(message, options);
        // The media walk keeps nothing in a scope: the answer is the same without one.
        expect(isQuietMessage(message, options)).toBe(isQuietMessage(message, options, new FactScope()));
        if (!isQuietMessage(message, options, new FactScope())) {
          if (findings.length > 0) loud++;
          return;
        }
        quiet++;
        expect(findings.map((f) => `${f.rule} ${f.pointer}`)).toEqual([]);
      }),
      { numRuns: RESULT_RUNS },
    );
    // About one draw in forty is quiet (50 to 80 of 3,000): the bound is one in a hundred, so that it
    // tests the test without failing one run in a hundred.
    expect(quiet).toBeGreaterThan(RESULT_RUNS / 100);
    // Most generated media blocks are clean; enough are not.
    expect(loud).toBeGreaterThan(RESULT_RUNS / 60);
  });
});

describe('a plain media result too long to write', () => {
  it('is no plain media result: two texts of 2^28 units each, which JSON.stringify cannot write, are reported', async () => {
    const text = 'x'.repeat(2 ** 28);
    const result = {
      content: [
        { type: 'text', text },
        { type: 'text', text },
      ],
    };
    expect(() => JSON.stringify(result)).toThrow(RangeError);
    const options = { protocolVersion: '2025-11-25' } as const;
    for (const findings of [
      validateToolResultSync(result, options),
      await validateToolResult(result, options),
    ]) {
      expect(findings.map((f) => `${f.rule} ${f.severity}`)).toContain('result-not-serializable error');
    }
    expect(isPlainMediaResult(result, features('2025-11-25'), undefined, () => undefined)).toBe(false);
  });
});
