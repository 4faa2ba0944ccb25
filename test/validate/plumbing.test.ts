/**
 * The plumbing of the public validators (src/validate/index.ts): which payloads the asynchronous ones
 * hand to file-type, how its answers take over from the synchronous sniffer, tool definitions by name,
 * what a finding carries out of the engine, and the one finding a validator returns instead of throwing.
 */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../src/core/finding.js';
import { FactScope } from '../../src/core/run-memo.js';
import { sniffSync } from '../../src/validate/engine.js';
import {
  fileTypeAnswers,
  mediaPayloads,
  publicFinding,
  sniffWith,
  toolsByName,
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
  validateToolsList,
  validateToolsListSync,
} from '../../src/validate/index.js';

const media = (name: string) =>
  readFileSync(join(import.meta.dirname, '../../fixtures/media', name)).toString('base64');
const PNG = media('image.png');
const TIFF = media('image.tiff');
const V = { protocolVersion: '2025-11-25' } as const;

describe('mediaPayloads', () => {
  it('finds the data of image and audio blocks and the blob of embedded resources, and nothing else', () => {
    const image = { type: 'image', data: PNG };
    const audio = { type: 'audio', data: 'AAAA' };
    const blob = { uri: 'file:///a', blob: 'AAAA' };
    const result = {
      content: [
        image,
        null,
        'text',
        { type: 'text', text: 'x', data: 'AAAA' },
        { type: 'image', data: 7 },
        audio,
        { type: 'resource', resource: blob },
        { type: 'resource', resource: { uri: 'file:///b', text: 'x' } },
        { type: 'resource', resource: 'x' },
        { type: 'resource_link', uri: 'file:///c', blob: 'AAAA' },
        { type: 'text', text: 'x', resource: { uri: 'file:///d', blob: 'AAAA' } },
      ],
    };
    expect(mediaPayloads(result)).toEqual([
      { holder: image, key: 'data' },
      { holder: audio, key: 'data' },
      { holder: blob, key: 'blob' },
    ]);
    expect(mediaPayloads(result)[0]?.holder).toBe(image);
    for (const none of [undefined, 'x', { content: 'x' }, { content: {} }])
      expect(mediaPayloads(none)).toEqual([]);
  });
});

describe('fileTypeAnswers and sniffWith', () => {
  it('answer at once, with nothing, when the synchronous sniffer placed every payload', () => {
    const answers = fileTypeAnswers(
      mediaPayloads({ content: [{ type: 'image', data: PNG }] }),
      new FactScope(),
    );
    expect(answers).toBeInstanceOf(Map);
    expect((answers as Map<object, unknown>).size).toBe(0);
    expect(sniffWith(answers as Map<object, never>)).toBe(sniffSync);
  });

  it("ask file-type for the others, and its answer overrides the synchronous sniffer's for that block", async () => {
    const tiff = { type: 'image', data: TIFF };
    const png = { type: 'image', data: PNG };
    const garbage = { type: 'image', data: 'AAAAAAAAAAAAAAAA' };
    const scope = new FactScope();
    const pending = fileTypeAnswers(mediaPayloads({ content: [tiff, png, garbage] }), scope);
    expect(pending).toBeInstanceOf(Promise);
    const answers = await pending;
    // Only the TIFF is answered: the PNG was placed, and file-type knows nothing of zeros.
    expect([...answers.keys()]).toEqual([tiff]);
    expect(answers.get(tiff)?.mimeType).toBe('image/tiff');
    const sniff = sniffWith(answers);
    expect(sniff(tiff, 'data')?.mimeType).toBe('image/tiff');
    expect(sniff(png, 'data')).toEqual(sniffSync(png, 'data'));
  });
});

describe('fileTypeAnswers, when a payload changes under it', () => {
  it('skips a payload that is no longer a string, before or after file-type answers', async () => {
    expect(fileTypeAnswers([{ holder: { data: 5 }, key: 'data' }], new FactScope())).toEqual(new Map());
    const tiff: { type: string; data: unknown } = { type: 'image', data: TIFF };
    const pending = fileTypeAnswers(mediaPayloads({ content: [tiff] }), new FactScope());
    tiff.data = 5;
    expect(await pending).toEqual(new Map());
  });

  it('falls back to the synchronous sniffer when reading a payload fails while file-type runs', async () => {
    let reads = 0;
    const flaky = {
      type: 'image',
      mimeType: 'image/png',
      get data(): string {
        reads++;
        if (reads > 2) throw new Error('gone');
        return TIFF;
      },
    };
    const findings = await validateToolResult({ content: [flaky] }, V);
    expect(reads).toBeGreaterThan(2);
    expect(Array.isArray(findings)).toBe(true);
  });
});

describe('toolsByName', () => {
  it('reads an array of tools or a tools/list result, keeping only tools with a string name', () => {
    const get = { name: 'get', inputSchema: {} };
    const put = { name: 'put' };
    expect([...toolsByName([get, null, { name: 5 }, 'x', put])]).toEqual([
      ['get', get],
      ['put', put],
    ]);
    expect(toolsByName({ tools: [get] }).get('get')).toBe(get);
    for (const none of [undefined, null, 'x', { tools: 'x' }, {}]) expect(toolsByName(none).size).toBe(0);
  });
});

describe('the validators', () => {
  it('return plain findings: location and fix when there are, data when it has members', () => {
    const [finding] = validateToolResultSync(
      { content: [{ type: 'image', data: PNG, mimeType: 'image/gif' }] },
      V,
    );
    expect(finding).toEqual({
      rule: 'block-mime-type-mismatch',
      severity: expect.any(String),
      message: 'mimeType image/gif contradicts the bytes, which look like image/png',
      pointer: '/content/0/mimeType',
      fix: expect.objectContaining({ description: expect.any(String) }),
      data: { declared: 'image/gif', sniffed: 'image/png' },
    });
    const [bare] = validateToolResultSync({}, V);
    expect(Object.keys(bare ?? {}).sort()).toEqual(['fix', 'message', 'pointer', 'rule', 'severity']);
  });

  it('sniff with file-type only the payloads of a tools/call result, asynchronously', async () => {
    // AVIF has no one fixed signature to miss: only file-type, which knows TIFF, contradicts it.
    const result = { content: [{ type: 'image', data: TIFF, mimeType: 'image/avif' }] };
    const message = { jsonrpc: '2.0', id: 1, result };
    const call = { ...V, request: { method: 'tools/call', params: { name: 'get' } } };
    expect((await validateMessage(message, call)).map((f) => f.rule)).toEqual(['block-mime-type-mismatch']);
    expect(validateMessageSync(message, call)).toEqual([]);
    // A plain-text result, answered by the quick path.
    const plain = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } };
    expect(validateMessageSync(plain, call)).toEqual([]);
    // Not a tools/call result, or no result at all: nothing to sniff, and nothing found there.
    expect(await validateMessage(message, { ...V, request: { method: 'resources/read' } })).toEqual([]);
    expect(await validateMessage({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }, V)).toEqual([]);
  });

  it('find the same in a tools/list result either way, by default in the default version', async () => {
    const list = { tools: [{ name: 'bad name', inputSchema: { type: 'object' } }] };
    const sync = validateToolsListSync(list);
    expect(sync.map((f) => f.rule)).toContain('tool-name-format');
    expect(await validateToolsList(list)).toEqual(sync);
    expect(validateToolsListSync(list, { protocolVersion: '2024-11-05' })).not.toEqual(sync);
  });

  it("leave the engine's bookkeeping out of a finding, and keep its location", () => {
    const engine = {
      rule: 'r',
      severity: 'error' as const,
      message: 'm',
      pointer: '/a',
      location: { file: 'x.json' },
      data: {},
      messageId: 'default',
      path: ['a'],
      subjectPath: [],
      resultPath: undefined,
    };
    expect(Object.entries(publicFinding(engine))).toEqual([
      ['rule', 'r'],
      ['severity', 'error'],
      ['message', 'm'],
      ['pointer', '/a'],
      ['location', { file: 'x.json' }],
    ]);
  });

  it('judge in the default version when none is given, asynchronously too', async () => {
    expect((await validateToolResult({ content: 'plain' })).map((f) => f.rule)).toEqual([
      'result-content-not-array',
    ]);
    const message = { jsonrpc: '2.0', id: 1, result: { content: 'plain' } };
    expect((await validateMessage(message)).map((f) => f.rule)).toEqual(['result-content-not-array']);
  });

  it('turn a failure of the walk into one internal-error finding, never a throw or a rejection', async () => {
    // A member that throws on its first read only: the walk fails, yet the value reads cleanly after,
    // so it is no value that cannot be sent (that one is result-not-serializable, below).
    const hostile = () => {
      let thrown = false;
      return {
        get content(): unknown {
          if (thrown) return [];
          thrown = true;
          throw new Error('no');
        },
      };
    };
    const expected = [
      { rule: 'internal-error', severity: 'error', message: 'validation failed: no', pointer: '' },
    ];
    expect(validateToolResultSync(hostile())).toEqual(expected);
    const message = () => ({ jsonrpc: '2.0', id: 1, result: hostile() });
    // The message validators read a message's value before their walk (for its sent form), as the
    // asynchronous ones read a result's (for its payloads); that spends the one throw.
    expect(validateMessageSync(message(), { request: { method: 'tools/call' } })).toEqual([]);
    await expect(validateToolResult(hostile())).resolves.toEqual([]);
    await expect(validateMessage(message(), { request: { method: 'tools/call' } })).resolves.toEqual([]);
    const list = {
      get tools(): unknown {
        throw 'not an Error';
      },
    };
    // A list whose tools throw on every read cannot be sent: that is the finding, not a failure of the walk.
    expect(validateToolsListSync(list).map((f) => `${f.severity} ${f.rule} ${f.pointer}`)).toEqual([
      'error tools-list-not-serializable /tools',
    ]);
    // A payload that throws when read, and one that throws only from its second read on (after the
    // asynchronous validators gathered it for file-type): a result that cannot be sent, either way.
    const payload = (reads: number) => {
      let left = reads;
      return {
        content: [
          {
            type: 'image',
            mimeType: 'image/png',
            get data(): string {
              if (left-- > 0) return btoa('GIF89a');
              throw new Error('no bytes');
            },
          },
        ],
      };
    };
    const unreadable = [
      {
        rule: 'result-not-serializable',
        severity: 'error',
        message:
          'the result cannot be serialized: reading one of its members throws, so JSON.stringify throws and no client receives it',
        pointer: '',
      },
    ];
    const brief = (
      findings: readonly { rule: string; severity: string; message: string; pointer: string }[],
    ) => findings.map(({ rule, severity, message, pointer }) => ({ rule, severity, message, pointer }));
    for (const reads of [0, 1]) {
      expect(brief(validateToolResultSync(payload(reads))), `${reads} reads`).toEqual(unreadable);
      expect(brief(await validateToolResult(payload(reads))), `${reads} reads`).toEqual(unreadable);
    }
  });

  it('resolve, never reject, when the version cannot be read (a throwing getter)', async () => {
    // Found by hand: the asynchronous validators read `resultType` (for the default version) outside
    // their guard, so this threw out of validateMessage instead of resolving. A message whose result
    // cannot be read at all cannot be sent either (it was an internal-error finding, as if ours).
    const message = {
      jsonrpc: '2.0',
      id: 1,
      get result(): unknown {
        throw new Error('no result');
      },
    };
    const unsendable = [{ rule: 'result-not-serializable', severity: 'error', pointer: '/result' }];
    const brief = (findings: readonly Finding[]) =>
      findings.map(({ rule, severity, pointer }) => ({ rule, severity, pointer }));
    expect(brief(await validateMessage(message))).toEqual(unsendable);
    expect(brief(validateMessageSync(message))).toEqual(unsendable);
    const result = {
      content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
      get resultType(): unknown {
        throw new Error('no type');
      },
    };
    // A result that throws when read cannot be sent (JSON.stringify reads resultType too).
    expect((await validateToolResult(result)).map((f) => f.rule)).toEqual(['result-not-serializable']);
    expect(validateToolResultSync(result).map((f) => f.rule)).toEqual(['result-not-serializable']);
  });
});
