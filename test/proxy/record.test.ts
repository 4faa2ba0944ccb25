/**
 * `proxy --record`: each frame one JSONL line, in the recording format `check` reads. A frame's own
 * JSON text is written as it came (`1.0` stays `1.0`), a repaired one adds what was forwarded and the
 * fixes, a dropped one why, and text that is no JSON goes in as `frame`.
 */

import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Recorder } from '../../src/proxy/record.js';
import { ProxySession } from '../../src/proxy/session.js';

const WHERE = { connection: 'c1', transport: 'sse' } as const;

/** A recorder on a stream, and the lines written to it so far. */
function recorder() {
  const out = new PassThrough();
  let text = '';
  out.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
  });
  return { recorder: Recorder.on(out), lines: () => text.split('\n') };
}

/** A line without its time, which differs per run. */
const timeless = (line: string | undefined) => (line ?? '').replace(/^\{"time":"[^"]+",/, '{');

describe('Recorder', () => {
  it('records a message after a byte order mark as the frame it came as, beside what was forwarded', async () => {
    const { recorder: record, lines } = recorder();
    const session = new ProxySession({ protocolVersion: '2025-06-18' });
    const marked = '\uFEFF{"jsonrpc":"2.0","id":1,"result":{}}';
    record.server(marked, session.fromServer(marked), WHERE);
    await new Promise((resolve) => setImmediate(resolve));
    expect(JSON.parse(lines()[0] ?? '')).toMatchObject({
      from: 'server',
      forwarded: { jsonrpc: '2.0', id: 1, result: {} },
      fixes: [{ rule: 'frame-not-json', description: 'byte order mark (U+FEFF) before the message dropped' }],
      frame: marked,
    });
  });

  it('writes each kind of frame on one line, the frame text as it came', async () => {
    const { recorder: record, lines } = recorder();
    const session = new ProxySession({ protocolVersion: '2025-06-18' });
    const client = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
    record.client(client, session.fromClient(client), WHERE);
    record.client('not json', session.fromClient('not json'), WHERE);
    const plain = ' {"jsonrpc":"2.0","id":1,"result":{"n":1.0}} ';
    record.server(plain, session.fromServer(plain), WHERE);
    const broken = '{"jsonrpc":"2.0","id":2,"requestId":"r","result":{}}';
    record.server(broken, session.fromServer(broken), WHERE);
    record.server('42', session.fromServer('42'), WHERE);
    record.server('oops', session.fromServer('oops'), WHERE);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines().slice(0, 3).map(timeless)).toEqual([
      '{"from":"client","connection":"c1","transport":"sse","message":{"jsonrpc":"2.0","id":1,"method":"ping"}}',
      '{"from":"client","connection":"c1","transport":"sse","frame":"not json"}',
      '{"from":"server","connection":"c1","transport":"sse","message":{"jsonrpc":"2.0","id":1,"result":{"n":1.0}}}',
    ]);
    const repaired = JSON.parse(lines()[3] ?? '');
    expect(repaired).toMatchObject({
      from: 'server',
      fixes: [{ rule: 'envelope-extra-member', description: expect.any(String) }],
      forwarded: { jsonrpc: '2.0', id: 2, result: {} },
      message: JSON.parse(broken),
    });
    expect(Object.keys(repaired)).toEqual([
      'time',
      'from',
      'connection',
      'transport',
      'fixes',
      'forwarded',
      'message',
    ]);
    expect(timeless(lines()[4])).toBe(
      '{"from":"server","connection":"c1","transport":"sse","dropped":"JSON but not a JSON-RPC message: a bare integer","message":42}',
    );
    expect(timeless(lines()[5])).toBe(
      '{"from":"server","connection":"c1","transport":"sse","dropped":"not JSON","frame":"oops"}',
    );
    expect(lines()[6]).toBe('');
    expect(JSON.parse(lines()[0] ?? '').time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('writes a frame holding raw line ends on one line, each a space, its numbers as they came', async () => {
    const { recorder: record, lines } = recorder();
    const session = new ProxySession({ protocolVersion: '2025-06-18' });
    // A pretty-printed HTTP body, or an SSE event of several data lines, holds line feeds.
    const text = '{"jsonrpc":"2.0",\r"method":"m",\n"params":{"big":1e400,"n":1.0,"s":"a\\nb"}}';
    record.server(text, session.fromServer(text), WHERE);
    await new Promise((resolve) => setImmediate(resolve));
    expect(timeless(lines()[0])).toBe(
      '{"from":"server","connection":"c1","transport":"sse","message":{"jsonrpc":"2.0", "method":"m", "params":{"big":1e400,"n":1.0,"s":"a\\nb"}}}',
    );
    const pretty = '{\n  "jsonrpc": "2.0",\n  "method": "m"\n}';
    record.server(pretty, session.fromServer(pretty), WHERE);
    await new Promise((resolve) => setImmediate(resolve));
    expect(timeless(lines()[1])).toBe(
      '{"from":"server","connection":"c1","transport":"sse","message":{   "jsonrpc": "2.0",   "method": "m" }}',
    );
    expect(lines()[2]).toBe('');
  });

  it('opens a file, and says why it cannot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-record-'));
    const file = join(dir, 'r.jsonl');
    const record = await Recorder.open(file);
    record.client('[1.0]', [1], WHERE);
    await record.close();
    expect(readFileSync(file, 'utf8')).toMatch(/,"message":\[1\.0\]\}\n$/);
    await expect(Recorder.open(join(dir, 'missing', 'r.jsonl'))).rejects.toThrow(/ENOENT/);
  });

  it('closes without a throw when its stream fails at the end (a full disk)', async () => {
    const failing = new Writable({
      write: (_chunk, _encoding, callback) => callback(),
      final: (callback) => callback(new Error('ENOSPC: no space left on device')),
    });
    const record = Recorder.on(failing);
    record.client('{}', {}, WHERE);
    await expect(record.close()).resolves.toBeUndefined();
  });
});
