/**
 * Numbers in a repaired message as the server wrote them (number-text.ts): 1e400 not null,
 * 12345678901234567890 not 12345678901234567000, -0 not 0, 1.0 not 1; a real stdio server behind the
 * command line, HTTP bodies and SSE events in this process, and the finding of each number again in
 * the repaired message, which must never put one number's text in another's place.
 */

import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunningHttpProxy } from '../../src/proxy/http.js';
import { markNumbers, sourceNumbers, stringifyMarked, trackedCopy } from '../../src/proxy/number-text.js';
import { REPO_ROOT } from '../support/cli.js';
import { loggingProxy } from './support/http-proxy.js';
import { startProxy } from './support/processes.js';
import { closeServer } from './support/session-server.js';

const NUMBER_SERVER = join(REPO_ROOT, 'test/proxy/support/number-server.mjs');

/** The numbers JSON.parse loses, in an object and an array beside a block the repair replaces. */
const NUMBERS = '"n":1e400,"big":12345678901234567890,"z":-0,"f":1.0,"e":1E2,"list":[1.50,-0.0,2e-400]';
const BAD_BLOCK = '{"type":"text"}';
const DROPPED =
  '{"type":"text","text":"[A \\"text\\" block was dropped from this tool result: text block has no \\"text\\". It was: {\\"type\\":\\"text\\"}]"}';

const servers: Server[] = [];
const proxies: RunningHttpProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await Promise.all(servers.splice(0).map(closeServer));
});

describe('proxy: a repaired message keeps the numbers the repair left as the server wrote them', () => {
  // Past 2^20 characters a repaired message is written in pieces, its long strings slice by slice.
  it.each([
    ['', 0],
    [', a message written in pieces', 3_000_000],
  ])(
    'over stdio, through the command line, byte for byte%s',
    async (_, pad) => {
      const result = `{"content":[${BAD_BLOCK}],${NUMBERS},"deep":{"a":[{"b":12345678901234567891}]}}`;
      const proxy = startProxy(['--', process.execPath, NUMBER_SERVER, result, String(pad)]);
      proxy.child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}\n');
      const [line] = await proxy.linesArrived(1);
      proxy.child.stdin.end();
      await proxy.exited;
      const padding = pad > 0 ? `{"type":"text","text":"${'x'.repeat(pad)}"},` : '';
      // Compared as text: a 3 MB difference would be printed whole.
      expect(
        line ===
          `{"jsonrpc":"2.0","id":1,"result":{"content":[${padding}${DROPPED}],${NUMBERS},"deep":{"a":[{"b":12345678901234567891}]}}}`,
      ).toBe(true);
      expect(proxy.stderr()).toContain(`block-text-invalid at /result/content/${pad > 0 ? 1 : 0}/text`);
    },
    120_000,
  );

  it.each([
    [
      'beside a block the repair added (the mirror), and in the mirror, as structuredContent says them',
      'tools/call',
      '{"content":[{"type":"text","text":"a","annotations":{"priority":1.0}}],"structuredContent":{"n":1e400,"big":12345678901234567890,"z":-0,"list":[1.0,2]}}',
      '{"content":[{"type":"text","text":"a","annotations":{"priority":1.0}},{"type":"text","text":"{\\"n\\":1e400,\\"big\\":12345678901234567890,\\"z\\":-0,\\"list\\":[1.0,2]}"}],"structuredContent":{"n":1e400,"big":12345678901234567890,"z":-0,"list":[1.0,2]}}',
    ],
    [
      'in a structuredContent the repair wrapped, and in a block whose neighbour it replaced',
      'tools/call',
      `{"content":[${BAD_BLOCK},{"type":"text","text":"b","annotations":{"priority":0.50}}],"structuredContent":[1e400,1.0]}`,
      `{"content":[${DROPPED},{"type":"text","text":"b","annotations":{"priority":0.50}},{"type":"text","text":"{\\"result\\":[1e400,1.0]}"}],"structuredContent":{"result":[1e400,1.0]}}`,
    ],
    [
      'in a block whose annotations the repair mended',
      'tools/call',
      '{"content":[{"type":"text","text":"x","annotations":{"priority":1.0,"audience":["User"]}}],"structuredContent":{"a":1.0}}',
      '{"content":[{"type":"text","text":"x","annotations":{"priority":1.0,"audience":["user"]}},{"type":"text","text":"{\\"a\\":1.0}"}],"structuredContent":{"a":1.0}}',
    ],
    [
      'in a tool after one the repair dropped from the list',
      'tools/list',
      '{"tools":[42,{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"number","maximum":1.0,"default":1e400,"enum":[1.0,-0]}}}}]}',
      '{"tools":[{"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"number","maximum":1.0,"default":1e400,"enum":[1.0,-0]}}}}]}',
    ],
  ])(
    'over stdio, %s',
    async (_, method, result, repaired) => {
      const proxy = startProxy(['--protocol', '2025-06-18', '--', process.execPath, NUMBER_SERVER, result]);
      proxy.child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"${method}","params":{"name":"t"}}\n`);
      const [line] = await proxy.linesArrived(1);
      proxy.child.stdin.end();
      await proxy.exited;
      expect(line).toBe(`{"jsonrpc":"2.0","id":1,"result":${repaired}}`);
    },
    120_000,
  );

  it('over HTTP, in a JSON body and in the events of a batch split', async () => {
    const result = `{"content":[${BAD_BLOCK}],${NUMBERS}}`;
    const answer = (id: number) => `{"jsonrpc":"2.0","id":${id},"result":${result}}`;
    const repaired = (id: number) =>
      `{"jsonrpc":"2.0","id":${id},"result":{"content":[${DROPPED}],${NUMBERS}}}`;
    const url = await upstream((res, body) => {
      if (body.startsWith('[')) {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`id: e1\ndata: [${answer(1)},${answer(2)}]\n\n`);
      } else res.writeHead(200, { 'content-type': 'application/json' }).end(answer(1));
    });
    const { proxy } = await loggingProxy(url, proxies);
    const call = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"t"}}`;
    expect(await (await post(proxy.url, call(1))).text()).toBe(repaired(1));
    const events = await (await post(proxy.url, `[${call(1)},${call(2)}]`)).text();
    expect(events).toBe(`data: ${repaired(1)}\n\nid: e1\ndata: ${repaired(2)}\n\n`);
  }, 30_000);
});

describe('sourceNumbers', () => {
  it('finds each number JSON.stringify would write otherwise, with its path; strings and keys are skipped', () => {
    const text =
      '\uFEFF{"a\\"1.0":"1e400 [ {","k\\u0065y":[0,1.0,{"x":-0}],"ok":[1,2.5,-3,100,1e-7],"big":9007199254740993}';
    expect(sourceNumbers(text)).toEqual([
      { path: ['key', 1], text: '1.0', value: 1 },
      { path: ['key', 2, 'x'], text: '-0', value: -0 },
      { path: ['big'], text: '9007199254740993', value: 9007199254740992 },
    ]);
  });

  it('reads a frame nested 200,000 deep', () => {
    const depth = 200_000;
    const text = `${'['.repeat(depth)}1.0${']'.repeat(depth)}`;
    const [found] = sourceNumbers(text);
    expect(found?.text).toBe('1.0');
    expect(found?.path.length).toBe(depth);
  });
});

describe('markNumbers', () => {
  const mark = (text: string, value: unknown) => {
    const texts: string[] = [];
    const marked = markNumbers({ value, original: JSON.parse(text), prefix: [] }, sourceNumbers(text), texts);
    return marked === undefined ? undefined : stringifyMarked(marked, texts);
  };

  it('writes numbers the copy holds as JSON sends them (null for 1e400, 0 for -0) as they were written', () => {
    expect(mark('{"a":1e400,"b":-0,"c":[1.0]}', { a: null, b: 0, c: [1], d: 'added' })).toBe(
      '{"a":1e400,"b":-0,"c":[1.0],"d":"added"}',
    );
  });

  it('leaves out a number the repair changed, moved or made, and leaves the value it was given alone', () => {
    const value = JSON.parse('{"a":2,"b":{"moved":12345678901234567890},"c":null}');
    const before = JSON.stringify(value);
    expect(mark('{"a":1.0,"b":12345678901234567890,"c":"x"}', value)).toBeUndefined();
    expect(JSON.stringify(value)).toBe(before);
  });

  it("never writes one item's digits for another that an item dropped or added moved into its place", () => {
    // Both numbers parse to the same double: only the item's place says which text is its own.
    const text = '[{"v":12345678901234567890},{"v":12345678901234567891}]';
    const [, second] = JSON.parse(text) as unknown[];
    expect(mark(text, [second])).toBeUndefined();
    expect(mark(text, [{ added: true }, ...JSON.parse(text)])).toBeUndefined();
    expect(mark(text, JSON.parse(text))).toBe(text);
  });
});

describe('markNumbers, on a copy the repair changed in place (trackedCopy)', () => {
  /** The text `repair` makes of the tracked copy of `text`, with the numbers markNumbers finds. */
  const mark = (text: string, repair: (copy: unknown[]) => void) => {
    const original = JSON.parse(text) as unknown;
    const { copy, copies } = trackedCopy(original);
    repair(copy as unknown[]);
    const texts: string[] = [];
    const marked = markNumbers({ value: copy, original, prefix: [], copies }, sourceNumbers(text), texts);
    return marked === undefined ? JSON.stringify(copy) : stringifyMarked(marked, texts);
  };

  it("finds an item's numbers where the items dropped before it moved it", () => {
    const text = '[{"v":12345678901234567890},{"v":12345678901234567891,"w":[1.0,-0]}]';
    expect(mark(text, (copy) => copy.splice(0, 1))).toBe('[{"v":12345678901234567891,"w":[1.0,-0]}]');
    expect(mark(text, (copy) => copy.unshift({ added: 1 }))).toBe(`[{"added":1},${text.slice(1)}`);
  });

  it('finds a number in an array of numbers only where its place is sure', () => {
    // 1e400 and null look alike in the copy: with one of them dropped, the one left may be either.
    expect(mark('[1e400,null]', (copy) => copy.splice(0, 1))).toBe('[null]');
    expect(mark('[1e400,null]', (copy) => copy.splice(1, 1))).toBe('[null]');
    expect(mark('[1e400,null,1.0]', (copy) => copy.splice(1, 1))).toBe('[null,1.0]');
    // Numbers written alike are the same whichever is left; as many as there were keep their order.
    expect(mark('[1.0,"x",1.0]', (copy) => copy.splice(1, 1))).toBe('[1.0,1.0]');
    expect(mark('[1e400,null,"x"]', (copy) => copy.push('y'))).toBe('[1e400,null,"x","y"]');
  });

  it('leaves out a number the repair changed or made', () => {
    expect(mark('[{"a":1.0},{"b":-0}]', (copy) => Object.assign(copy[0] as object, { a: 2 }))).toBe(
      '[{"a":2},{"b":-0}]',
    );
    expect(mark('[1.0,2.0]', (copy) => copy.splice(0, 1, 3))).toBe('[3,2.0]');
  });
});

/** An upstream whose answer `handle` writes from the request's body. */
async function upstream(handle: (res: ServerResponse, body: string) => void): Promise<string> {
  const server = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    handle(res, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

const post = (url: string, body: string) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body,
  });
