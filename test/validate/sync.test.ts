/**
 * The synchronous validators: the same findings as the asynchronous ones (the property tests in
 * test/spec hold them together on generated results; the catalog test on every rule's examples), the
 * one documented difference, their default version, and facts that live for one validation only.
 */

import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inScope } from '../../src/core/run-memo.js';
import * as library from '../../src/index.js';
import { DEFAULT_PROTOCOL_VERSION } from '../../src/spec/versions.js';
import {
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
  validateToolsListSync,
} from '../../src/validate/index.js';
import { countingAtob } from '../support/count-atob.js';
import { toolsCall2026 } from '../support/requests.js';
import { fileTypeOnlyBlocks } from '../support/sync-agreement.js';

const root = join(import.meta.dirname, '../..');
const media = (name: string) => readFileSync(join(root, 'fixtures/media', name)).toString('base64');
const PNG = media('image.png');
const V = { protocolVersion: '2025-11-25' } as const;

function rules(findings: readonly { rule: string }[]): string[] {
  return findings.map((f) => f.rule);
}

describe('validateToolResultSync and validateMessageSync', () => {
  it('are exported by the package', () => {
    expect(library.validateToolResultSync).toBe(validateToolResultSync);
    expect(library.validateMessageSync).toBe(validateMessageSync);
    expect(library.validateToolsListSync).toBe(validateToolsListSync);
  });

  it('sniff the formats clients handle without waiting', () => {
    const mislabeled = { content: [{ type: 'image', data: media('image.jpg'), mimeType: 'image/png' }] };
    expect(validateToolResultSync(mislabeled, V)).toEqual([
      expect.objectContaining({
        rule: 'block-mime-type-mismatch',
        message: 'mimeType image/png contradicts the bytes, which look like image/jpeg',
      }),
    ]);
    const unlabeled = { content: [{ type: 'audio', data: media('audio.flac') }] };
    expect(validateToolResultSync(unlabeled, V)[0]?.message).toBe(
      'audio block has no mimeType; the bytes look like audio/flac',
    );
    const svg = { content: [{ type: 'image', data: media('image-xml.svg'), mimeType: 'image/png' }] };
    expect(validateToolResultSync(svg, V)[0]?.message).toContain('look like image/svg+xml');
  });

  it('return what the asynchronous validators return', async () => {
    const results = [
      { content: [{ type: 'image', data: PNG, mimeType: 'image/jpeg' }] },
      { content: [{ type: 'image', data: `data:image/png;base64,${PNG}` }], structuredContent: [1] },
      { content: 'plain', isError: 'yes' },
      { content: [{ type: 'text', text: '{"a":2}' }], structuredContent: { a: 1 } },
    ];
    for (const result of results) {
      expect(validateToolResultSync(result, V)).toEqual(await validateToolResult(result, V));
      const message = { jsonrpc: '2.0', id: 1, result, requestId: 'x' };
      const options = { ...V, request: { method: 'tools/call' } };
      expect(validateMessageSync(message, options)).toEqual(await validateMessage(message, options));
    }
  });

  it('differ only where file-type knows a format the synchronous sniffer leaves open (TIFF here)', async () => {
    // Declared as a type with a fixed signature, which the bytes lack: both report it, the synchronous
    // validator without naming what the bytes are.
    const tiff = { content: [{ type: 'image', data: media('image.tiff'), mimeType: 'image/png' }] };
    expect((await validateToolResult(tiff, V)).map((f) => f.message)).toEqual([
      'mimeType image/png contradicts the bytes, which look like image/tiff',
    ]);
    expect(validateToolResultSync(tiff, V).map((f) => f.message)).toEqual([
      'mimeType image/png contradicts the bytes, which do not begin with its signature',
    ]);
    // Declared as a type without one: only file-type's answer contradicts it.
    const asMp3 = { content: [{ type: 'audio', data: media('image.tiff'), mimeType: 'audio/mpeg' }] };
    expect(rules(await validateToolResult(asMp3, V))).toEqual(['block-mime-type-mismatch']);
    expect(validateToolResultSync(asMp3, V)).toEqual([]);
  });

  it(`default to DEFAULT_PROTOCOL_VERSION (${DEFAULT_PROTOCOL_VERSION})`, () => {
    const result = { content: [{ type: 'text', text: 'sunny' }] };
    expect(validateToolResultSync(result)).toEqual([]);
    expect(rules(validateToolResultSync(result, { protocolVersion: '2026-07-28' }))).toEqual([
      'result-type-invalid',
    ]);
    const message = { jsonrpc: '2.0', id: 1, result };
    expect(validateMessageSync(message)).toEqual(validateMessageSync(message, V));
  });

  it('never throw, whatever they are given', () => {
    const cyclic: Record<string, unknown> = { content: [] };
    cyclic.structuredContent = cyclic;
    for (const value of [undefined, null, 7, 'x', [], cyclic, { content: [null, 1, 'x'] }]) {
      expect(() => validateToolResultSync(value)).not.toThrow();
      expect(() => validateMessageSync({ jsonrpc: '2.0', id: 1, result: value })).not.toThrow();
    }
  });
});

describe('the request a result answers (option `request`)', () => {
  const task = { resultType: 'task', task: { taskId: 't1', status: 'working' } };
  const verdicts = async (request?: unknown) => {
    const options = { protocolVersion: '2026-07-28' as const, ...(request ? { request } : {}) };
    const sync = validateToolResultSync(task, options);
    expect(await validateToolResult(task, options)).toEqual(sync);
    return sync.filter((f) => f.rule === 'result-type-invalid').map((f) => f.severity);
  };

  it('decides what the request declared: a task for a client that did not ask for one is an error', async () => {
    expect(await verdicts(toolsCall2026({ extensions: { 'io.modelcontextprotocol/tasks': {} } }))).toEqual(
      [],
    );
    expect(await verdicts(toolsCall2026({}))).toEqual(['error']);
    // Not known: only a warning can be given.
    expect(await verdicts()).toEqual(['warning']);
    expect(await verdicts('not a request')).toEqual(['warning']);
  });

  it('in 2025-11-25, takes a task instead of content only for a task-augmented request', () => {
    const created = {
      task: {
        taskId: 't1',
        status: 'working',
        createdAt: '2026-01-01T00:00:00Z',
        lastUpdatedAt: '2026-01-01T00:00:00Z',
        ttl: null,
      },
    };
    const request = (params: Record<string, unknown>) => ({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params,
    });
    const missing = (options: Record<string, unknown>) =>
      rules(validateToolResultSync(created, { ...V, ...options })).includes('result-content-missing');
    expect(missing({ request: request({ name: 'slow', task: { ttl: 60_000 } }) })).toBe(false);
    expect(missing({ request: request({ name: 'slow' }) })).toBe(true);
  });
});

describe('each payload is decoded once a validation', () => {
  it('even when the quick answer for a clean media result gives way to the full run', () => {
    // 120,000 bytes of PNG: past the 25,000 tokens result-over-client-limits estimates, so not quiet.
    const bytes = Buffer.alloc(120_000);
    Buffer.from(PNG, 'base64').copy(bytes);
    const data = bytes.toString('base64');
    const { value: findings, count } = countingAtob(() =>
      validateToolResultSync({ content: [{ type: 'image', data, mimeType: 'image/png' }] }, V),
    );
    expect(rules(findings)).toContain('result-over-client-limits');
    expect(count).toBe(Math.ceil(data.length / 65_536));
  });
});

describe('facts live for one validation', () => {
  it('a second validation of a mutated result sees the mutation', () => {
    const structured = { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1 } };
    expect(validateToolResultSync(structured, V)).toEqual([]);
    structured.structuredContent.a = 2;
    expect(rules(validateToolResultSync(structured, V))).toEqual(['structured-content-text-mismatch']);

    const image = { type: 'image', data: PNG, mimeType: 'image/png' };
    const withImage = { content: [image] };
    expect(validateToolResultSync(withImage, V)).toEqual([]);
    image.data = 'not base64!';
    expect(rules(validateToolResultSync(withImage, V))).toEqual(['block-base64-invalid']);
    image.data = media('image.gif');
    expect(validateToolResultSync(withImage, V).map((f) => f.message)).toEqual([
      'mimeType image/png contradicts the bytes, which look like image/gif',
    ]);
  });

  it('no validation is current once a validator has returned, even after an internal error', async () => {
    validateToolResultSync({ content: [{ type: 'image', data: PNG }] });
    expect(inScope()).toBe(false);
    await validateToolResult({ content: [{ type: 'image', data: media('image.tiff') }] });
    expect(inScope()).toBe(false);
    const hostile = {
      get content(): unknown {
        throw new Error('no');
      },
    };
    expect(validateToolResultSync(hostile)[0]?.rule).toBe('result-not-serializable');
    expect(inScope()).toBe(false);
    let thrown = false;
    const onceHostile = {
      get content(): unknown {
        if (thrown) return [];
        thrown = true;
        throw new Error('no');
      },
    };
    expect(validateToolResultSync(onceHostile)[0]?.rule).toBe('internal-error');
    expect(inScope()).toBe(false);
  });

  it('keeps nothing of a validated document once it returns (checked with the garbage collector)', () => {
    const script = join(import.meta.dirname, 'support/retention.ts');
    const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ collected: true });
  });
});

describe('the blocks where the two validators may differ (test/support/sync-agreement.ts)', () => {
  it('are those whose payload only file-type placed, whatever else the content holds', async () => {
    // 0xC7 0x71 opens a cpio archive: file-type knows it, the synchronous sniffer does not.
    const cpio = { type: 'image', data: 'x3E=', mimeType: 'image/png' };
    const png = { type: 'image', data: PNG, mimeType: 'image/png' };
    // A random seed of the differential drew a null beside such a block, and the helper threw.
    expect(await fileTypeOnlyBlocks({ content: [cpio, null, 'text', png] })).toEqual(['/content/0']);
    expect(
      await fileTypeOnlyBlocks(
        { result: { content: [png, { type: 'resource', resource: { uri: 'a:b', blob: 'x3E=' } }] } },
        ['result'],
      ),
    ).toEqual(['/result/content/1']);
    expect(await fileTypeOnlyBlocks({ content: [png] })).toEqual([]);
  });
});
