/**
 * The stdio relay in this process (runStdioProxy), in front of small `sh` servers: what reaches the
 * client byte for byte, the log and repair events, pending requests answered when the server exits,
 * the exit code, the escalation after the client closes its input, and forwarded signals. The CLI
 * tests (relay.test.ts, lifecycle.test.ts) show the same through real pipes; these run the relay where
 * a mutation run can see it, and cost a shell each.
 */

import { isUtf8 } from 'node:buffer';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ProxyEvent } from '../../src/proxy/events.js';
import { Recorder } from '../../src/proxy/record.js';
import { ProxyStartError, runStdioProxy, type StdioProxyOptions } from '../../src/proxy/stdio.js';

interface Run {
  readonly code: number;
  /** What the client read, as bytes. */
  readonly out: Buffer;
  readonly log: string[];
  readonly repaired: ProxyEvent[];
  readonly recorded: Record<string, unknown>[];
}

/**
 * Runs the relay in front of `sh -c script`. `client` is written to the proxy's input at once; the
 * input ends then unless `keepOpen`. `during` runs once the relay is started.
 */
async function relay(
  script: string,
  client: string,
  extra: Partial<StdioProxyOptions> & {
    keepOpen?: boolean;
    during?: (stdin: PassThrough, stdout: PassThrough) => void;
  } = {},
): Promise<Run> {
  const { keepOpen, during, ...options } = extra;
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const recording = new PassThrough();
  const chunks: Buffer[] = [];
  // A copy: the relay reuses its slice buffer once a write is called back.
  stdout.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
  let recordedText = '';
  recording.setEncoding('utf8').on('data', (text: string) => {
    recordedText += text;
  });
  const log: string[] = [];
  const repaired: ProxyEvent[] = [];
  const running = runStdioProxy({
    command: 'sh',
    args: ['-c', script],
    protocolVersion: '2025-06-18',
    stdin,
    stdout,
    recorder: Recorder.on(recording),
    onLog: (line) => log.push(line),
    onRepaired: (event) => repaired.push(event),
    forwardSignals: false,
    watchdog: false,
    graceMs: 200,
    ...options,
  });
  if (client !== '') stdin.write(client);
  if (!keepOpen) stdin.end();
  during?.(stdin, stdout);
  const code = await running;
  await new Promise((resolve) => setImmediate(resolve));
  const recorded = recordedText
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return { code, out: Buffer.concat(chunks), log, repaired, recorded };
}

/**
 * For a server that exits once its input ends: no SIGTERM while it is still writing. The relay's
 * 200 ms default grace starts when the client's input ends, at once here, and under load a shell can
 * take longer than that to start and write (a 1 MB answer was cut off on a loaded machine).
 */
const SERVER_ENDS_ITSELF = { graceMs: 60_000 } as const;

/** Sleeps in a loop for at most 10 s: a server that outlives a failed test still ends. */
const LOOP = 'i=0; while [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done';

/**
 * Each test takes well under a second; a relay that never ends fails its test after this long rather
 * than stall the run (a mutation run's own limit, which restarts its worker, is longer).
 */
const TIMEOUT = 15_000;

/** A shell command that writes `text` exactly (printf's format is only `%s`). */
const print = (text: string) => `printf '%s' '${text.replaceAll("'", "'\\''")}'`;

const AS_SENT = [
  '{ "jsonrpc": "2.0", "id": 1, "result": { "content": [ { "type": "text", "text": "x" } ], "_meta": { "n": 1.0, "big": 1E3, "e": "\\u00e9" } } }',
  '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"é 😀 a raw CR next"}}\r',
];

describe('runStdioProxy: server to client', () => {
  it(
    'forwards untouched messages as their bytes, repairs the broken, drops what is no message, and ends an unterminated last frame',
    async () => {
      const broken =
        '{"jsonrpc":"2.0","id":2,"requestId":"r","result":{"content":[{"type":"text","text":"y"}]}}';
      const last =
        '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1.50}}';
      // The server reads the request before it answers, so the relay knows what the answer is for.
      const script = `read -r request; ${print(`${AS_SENT.join('\n')}\nnot json at all\n42\n${broken}\n${last}`)}; cat >/dev/null`;
      const run = await relay(
        script,
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"weather"}}\n',
        SERVER_ENDS_ITSELF,
      );
      expect(run.out.toString('utf8')).toBe(
        `${AS_SENT.join('\n')}\n{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"y"}]}}\n${last}\n`,
      );
      expect(run.code).toBe(0);
      expect(run.log).toContain('server sent not JSON, not forwarded: not json at all');
      expect(run.log).toContain(
        'server sent JSON but not a JSON-RPC message: a bare integer, not forwarded: 42',
      );
      expect(run.repaired).toEqual([
        {
          fixes: [expect.objectContaining({ rule: 'envelope-extra-member' })],
          protocolVersion: '2025-06-18',
          method: 'tools/call',
          tool: 'weather',
        },
      ]);
      // Every frame both ways is recorded, once, as the stdio connection.
      expect(run.recorded.map((r) => [r.from, r.connection, r.transport])).toEqual([
        ['client', 'stdio', 'stdio'],
        ...Array(6).fill(['server', 'stdio', 'stdio']),
      ]);
      expect(run.recorded.filter((r) => r.dropped !== undefined)).toHaveLength(2);
    },
    TIMEOUT,
  );

  it(
    'logs a message it forwards unchanged for a reason, naming the request it answers',
    async () => {
      const unfixable = '{"jsonrpc":"2.0","requestId":"r","result":{"content":[]}}';
      const run = await relay(`${print(`${unfixable}\n`)}; cat >/dev/null`, '', SERVER_ENDS_ITSELF);
      expect(run.out.toString('utf8')).toBe(`${unfixable}\n`);
      expect(
        run.log.some((l) =>
          /^\[2025-06-18\] message: left unchanged: no repair for envelope-id-invalid/.test(l),
        ),
      ).toBe(true);
      expect(run.repaired).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'writes a repaired message of more than 1 MB whole, in the order it came',
    async () => {
      const text = 'z'.repeat((1 << 20) + 10);
      const broken = `{"jsonrpc":"2.0","id":1,"requestId":"r","result":{"content":[{"type":"text","text":"${text}"}]}}`;
      const after = '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":1}}';
      const file = join(mkdtempSync(join(tmpdir(), 'mcp-shape-stdio-')), 'out.ndjson');
      writeFileSync(file, `${broken}\n${after}\n`);
      const run = await relay(`cat '${file}'; cat >/dev/null`, '', SERVER_ENDS_ITSELF);
      expect(run.out.toString('utf8')).toBe(
        `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"${text}"}]}}\n${after}\n`,
      );
    },
    TIMEOUT,
  );
});

describe('runStdioProxy: the end of the conversation', () => {
  it(
    'answers each request the server left unanswered with an error, and exits with the server code',
    async () => {
      const client = [
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"a"}}',
        '{"jsonrpc":"2.0","id":"b","method":"ping"}',
        '{"jsonrpc":"2.0","id":6,"method":"ping"}',
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":6}}',
        // The last request has no newline: the relay still learns of it when the input ends.
        '{"jsonrpc":"2.0","id":7,"method":"ping"}',
      ].join('\n');
      const run = await relay('cat >/dev/null; exit 3', client);
      expect(run.code).toBe(3);
      const error = (id: unknown) =>
        JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32000, message: 'server exited with code 3' } });
      expect(run.out.toString('utf8')).toBe(`${error(5)}\n${error('b')}\n${error(7)}\n`);
      expect(run.log).toContain('server exited with code 3; answered 3 pending requests with an error');
    },
    TIMEOUT,
  );

  it(
    'learns requests from a client input read as text, as from bytes',
    async () => {
      const run = await relay('cat >/dev/null; exit 2', '', {
        keepOpen: true,
        during: (stdin) => {
          stdin.setEncoding('utf8');
          stdin.end('{"jsonrpc":"2.0","id":"é","method":"ping"}\n');
        },
      });
      expect(run.code).toBe(2);
      expect(run.out.toString('utf8')).toBe(
        `${JSON.stringify({ jsonrpc: '2.0', id: 'é', error: { code: -32000, message: 'server exited with code 2' } })}\n`,
      );
    },
    TIMEOUT,
  );

  it(
    'says how many it answered in the singular, and nothing when none was pending',
    async () => {
      const one = await relay('cat >/dev/null', '{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
      expect(one.log).toContain('server exited with code 0; answered 1 pending request with an error');
      const none = await relay('cat >/dev/null', '');
      expect(none.log).toContain('server exited with code 0');
      expect(none.out.length).toBe(0);
    },
    TIMEOUT,
  );

  it(
    'stops a server that closed its output and runs on, so that its requests are answered',
    async () => {
      // Nothing it could still write reaches the client: before, the call waited for the client's timeout.
      const run = await relay(
        `exec >&-; ${LOOP}`,
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}\n',
        { keepOpen: true },
      );
      expect(run.code).toBe(143);
      expect(run.out.toString('utf8')).toBe(
        '{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"server exited with code 143"}}\n',
      );
      expect(run.log).toContain(
        'server closed its output and still runs 0.2 s later, so no answer can come: sending SIGTERM to its process group',
      );
    },
    TIMEOUT,
  );

  it(
    'exits 128 + the signal number when a signal ended the server, and names it',
    async () => {
      const run = await relay('kill -TERM $$', '', { keepOpen: true });
      expect(run.code).toBe(143);
      expect(run.log).toContain('server exited with code 143 (SIGTERM)');
    },
    TIMEOUT,
  );

  it(
    'closes the server input when the client closes its own, without a signal for a server that exits',
    async () => {
      const run = await relay(
        'cat',
        '{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
        SERVER_ENDS_ITSELF,
      );
      expect(run.code).toBe(0);
      // cat echoed the client's notification back: the server sent it, and it needed nothing.
      expect(run.out.toString('utf8')).toBe('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
      expect(run.log).toContain(
        "client closed its input: closing the server's, then SIGTERM and SIGKILL 60 s apart",
      );
      expect(run.log.some((l) => l.includes('sending'))).toBe(false);
    },
    TIMEOUT,
  );

  it(
    'sends SIGTERM, then SIGKILL, a grace period apart to a server that ignores both its input and SIGTERM',
    async () => {
      const run = await relay(`trap '' TERM; ${LOOP}`, '');
      expect(run.code).toBe(137);
      expect(run.log).toEqual([
        "client closed its input: closing the server's, then SIGTERM and SIGKILL 0.2 s apart",
        'server still running 0.2 s later: sending SIGTERM to its process group',
        'server still running 0.2 s later: sending SIGKILL to its process group',
        'server exited with code 137 (SIGKILL)',
      ]);
    },
    TIMEOUT,
  );

  it(
    'stops waiting for the output a grace period after the server exited, when its child holds it open',
    async () => {
      const run = await relay(`${print('{"jsonrpc":"2.0","method":"m"}\n')}; sleep 3 & exit 4`, '');
      expect(run.code).toBe(4);
      expect(run.out.toString('utf8')).toBe('{"jsonrpc":"2.0","method":"m"}\n');
    },
    TIMEOUT,
  );

  it(
    'writes ids as they were sent: an answer with id 1e400 is logged so, and a pending 12345678901234567890 gets its error under that id',
    async () => {
      const big = '12345678901234567890';
      const requests = [
        '{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":{"name":"t"}}',
        `{"jsonrpc":"2.0","id":${big},"method":"tools/call","params":{"name":"t"}}`,
      ];
      const answer = '{"jsonrpc":"2.0","id":1e400,"result":{"content":[{"type":"object"}]}}';
      const run = await relay(`read a; read b; ${print(`${answer}\n`)}`, `${requests.join('\n')}\n`, {
        ...SERVER_ENDS_ITSELF,
      });
      const lines = run.out.toString('utf8').split('\n');
      expect(lines[0]).toBe(answer);
      expect(lines[1]).toBe(
        `{"jsonrpc":"2.0","id":${big},"error":{"code":-32000,"message":"server exited with code 0"}}`,
      );
      expect(run.log).toContain(
        '[2025-06-18] tools/call t: left unchanged: no repair for envelope-id-invalid at /id: "id" is 1e400, a number that is no safe integer; request ids must be a string or an integer',
      );
    },
    TIMEOUT,
  );

  it(
    'rejects with one line when the command cannot be started',
    async () => {
      const start = runStdioProxy({
        command: 'mcp-shape-no-such-command',
        args: [],
        protocolVersion: '2025-06-18',
        stdin: new PassThrough(),
        stdout: new PassThrough(),
        forwardSignals: false,
        watchdog: false,
      });
      await expect(start).rejects.toThrow(ProxyStartError);
      await expect(start).rejects.toThrow('command not found: mcp-shape-no-such-command');
    },
    TIMEOUT,
  );
});

describe('runStdioProxy: signals sent to the proxy', () => {
  const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const listeners = () => SIGNALS.map((s) => process.listeners(s));
  /**
   * The relay's own handler for `signal`, called as the signal would call it: process.emit would also
   * run the test runner's handlers.
   */
  const send = (before: ReturnType<typeof listeners>, signal: (typeof SIGNALS)[number]) => {
    const index = SIGNALS.indexOf(signal);
    for (const listener of process.listeners(signal)) {
      if (!before[index]?.includes(listener)) (listener as (s: NodeJS.Signals) => void)(signal);
    }
  };

  /** A server that says it is ready (its traps are set) once running. */
  const READY = `echo '{"jsonrpc":"2.0","method":"ready"}'`;
  /** Calls `then` once the relay wrote its first line: the server runs, and the handlers are in place. */
  const onceReady = (then: (stdin: PassThrough) => void) => (stdin: PassThrough, stdout: PassThrough) =>
    stdout.once('data', () => then(stdin));

  it(
    'forwards SIGINT to the server and removes its handlers at the end',
    async () => {
      const before = listeners();
      let during: number[] = [];
      const run = await relay(`trap 'exit 9' INT; ${READY}; ${LOOP}`, '', {
        keepOpen: true,
        forwardSignals: true,
        during: onceReady(() => {
          during = listeners().map((l) => l.length);
          send(before, 'SIGINT');
        }),
      });
      expect(run.code).toBe(9);
      expect(during).toEqual(before.map((l) => l.length + 1));
      expect(run.log).toEqual([
        "received SIGINT: forwarding it to the server's process group",
        'server exited with code 9',
      ]);
      expect(listeners()).toEqual(before);
    },
    TIMEOUT,
  );

  it(
    'escalates a forwarded SIGINT to SIGTERM a grace period later',
    async () => {
      const before = listeners();
      const run = await relay(`trap '' INT; ${READY}; ${LOOP}`, '', {
        keepOpen: true,
        forwardSignals: true,
        during: onceReady(() => send(before, 'SIGINT')),
      });
      expect(run.code).toBe(143);
      expect(run.log).toEqual([
        "received SIGINT: forwarding it to the server's process group",
        'server still running 0.2 s later: sending SIGTERM to its process group',
        'server exited with code 143 (SIGTERM)',
      ]);
    },
    TIMEOUT,
  );

  it(
    'takes a second signal as a request not to wait out the grace period',
    async () => {
      const before = listeners();
      const run = await relay(`trap '' TERM INT; ${READY}; ${LOOP}`, '', {
        keepOpen: true,
        forwardSignals: true,
        graceMs: 600_000,
        during: onceReady(() => {
          send(before, 'SIGTERM');
          send(before, 'SIGHUP');
        }),
      });
      expect(run.code).toBe(137);
      expect(run.log).toEqual([
        "received SIGTERM: forwarding it to the server's process group",
        'received SIGHUP while the server is stopping: sending SIGKILL to its process group',
        'server exited with code 137 (SIGKILL)',
      ]);
    },
    TIMEOUT,
  );

  it(
    'leaves signals alone when told not to forward them',
    async () => {
      const before = listeners();
      let during: ReturnType<typeof listeners> = [];
      await relay(`${READY}; ${LOOP}`, '', {
        keepOpen: true,
        during: onceReady((stdin) => {
          during = listeners();
          stdin.end();
        }),
      });
      expect(during).toEqual(before);
    },
    TIMEOUT,
  );
});

/** Calls the relay's own handlers for `signal`: those added since `before` was taken. */
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const handlersNow = () => SIGNALS.map((s) => process.listeners(s));
const sendTo = (before: ReturnType<typeof handlersNow>, signal: (typeof SIGNALS)[number]) => {
  for (const listener of process.listeners(signal)) {
    if (!before[SIGNALS.indexOf(signal)]?.includes(listener))
      (listener as (s: NodeJS.Signals) => void)(signal);
  }
};

describe('runStdioProxy: flow control and late events', () => {
  it(
    'stops reading the client while the server does not read, and delivers every byte once it does',
    async () => {
      const line = `${'x'.repeat(1023)}\n`;
      const input = line.repeat(4096);
      let paused = false;
      const run = await relay('sleep 0.3; wc -c', '', {
        ...SERVER_ENDS_ITSELF,
        keepOpen: true,
        during: (stdin) => {
          stdin.on('pause', () => {
            paused = true;
          });
          stdin.end(input);
        },
      });
      expect(run.code).toBe(0);
      expect(paused).toBe(true);
      // All of it reached the server, so the relay read on once the server did.
      expect(run.log).toContain(
        `server sent JSON but not a JSON-RPC message: a bare integer, not forwarded: ${input.length}`,
      );
    },
    TIMEOUT,
  );

  it(
    'passes a frame that is not UTF-8 on as UTF-8, with U+FFFD for each bad sequence, and logs it',
    async () => {
      const file = join(mkdtempSync(join(tmpdir(), 'mcp-shape-stdio-')), 'out.ndjson');
      const bytes = Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","method":"m","params":{"t":"'),
        Buffer.from([0xff, 0xc3]),
        Buffer.from('"}}\n'),
      ]);
      writeFileSync(file, bytes);
      const run = await relay(`cat '${file}'; cat >/dev/null`, '', SERVER_ENDS_ITSELF);
      // The Python SDK's stdio client ends its session on such bytes (frame-not-utf8); the TypeScript
      // SDK reads U+FFFD in their place, which is what every client now gets.
      expect(isUtf8(run.out)).toBe(true);
      expect(run.out.toString('utf8')).toBe('{"jsonrpc":"2.0","method":"m","params":{"t":"\uFFFD\uFFFD"}}\n');
      expect(run.log).toContain(
        'server sent a line that is not UTF-8 (byte 45 is 0xFF): passed on as UTF-8, with U+FFFD for each bad sequence',
      );
    },
    TIMEOUT,
  );

  it(
    'ignores a client that closes its input, or a signal, once the server has exited',
    async () => {
      const before = handlersNow();
      // The server exits at once; its background child holds the output open for a second.
      const run = await relay(
        `echo "{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"pid\\",\\"params\\":{\\"pid\\":$$}}"; sleep 1 & exit 5`,
        '',
        {
          keepOpen: true,
          forwardSignals: true,
          graceMs: 60_000,
          during: (stdin, stdout) => {
            stdout.once('data', async (chunk: Buffer) => {
              const pid = (JSON.parse(chunk.toString('utf8')) as { params: { pid: number } }).params.pid;
              for (let alive = true; alive; ) {
                try {
                  process.kill(pid, 0);
                  await new Promise((resolve) => setTimeout(resolve, 20));
                } catch {
                  alive = false;
                }
              }
              await new Promise((resolve) => setImmediate(resolve));
              sendTo(before, 'SIGINT');
              stdin.end();
            });
          },
        },
      );
      expect(run.code).toBe(5);
      expect(run.log).toEqual(['server exited with code 5']);
    },
    TIMEOUT,
  );

  it(
    'takes a third signal while the server is being killed as nothing more to do, and leaves process.stdin alone when given another input',
    async () => {
      const before = handlersNow();
      const send = (signal: (typeof SIGNALS)[number]) => sendTo(before, signal);
      const run = await relay(`trap '' TERM INT; echo '{"jsonrpc":"2.0","method":"ready"}'; ${LOOP}`, '', {
        keepOpen: true,
        forwardSignals: true,
        graceMs: 600_000,
        during: (_stdin, stdout) =>
          stdout.once('data', () => {
            send('SIGTERM');
            send('SIGHUP');
            send('SIGINT');
          }),
      });
      expect(run.code).toBe(137);
      expect(run.log).toEqual([
        "received SIGTERM: forwarding it to the server's process group",
        'received SIGHUP while the server is stopping: sending SIGKILL to its process group',
        'server exited with code 137 (SIGKILL)',
      ]);
      expect(process.stdin.destroyed).toBe(false);
    },
    TIMEOUT,
  );
});

describe('runStdioProxy: options and failing pipes', () => {
  it(
    'relays without a log, a report or a recording to give them to',
    async () => {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const chunks: Buffer[] = [];
      stdout.on('data', (chunk: Buffer) => chunks.push(Buffer.from(chunk)));
      const broken = '{"jsonrpc":"2.0","id":1,"requestId":"r","result":{}}';
      const running = runStdioProxy({
        command: 'sh',
        args: ['-c', `read -r request; ${print(`${broken}\nnot json\n`)}; cat >/dev/null`],
        protocolVersion: '2025-06-18',
        stdin,
        stdout,
        forwardSignals: false,
        watchdog: false,
        graceMs: 60_000,
      });
      stdin.end('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
      expect(await running).toBe(0);
      expect(Buffer.concat(chunks).toString('utf8')).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
    },
    TIMEOUT,
  );

  it(
    'repairs for the version it was given when that version is fixed, whatever the server negotiates',
    async () => {
      const initialize =
        '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}';
      const answers = [
        '{"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-03-26","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}',
        '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"object","object":{"a":1}}]}}',
      ];
      const script = `read -r a; read -r b; ${print(`${answers.join('\n')}\n`)}; cat >/dev/null`;
      const client = `${initialize}\n{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t"}}\n`;
      const result = async (fixedVersion: boolean) => {
        const run = await relay(script, client, { ...SERVER_ENDS_ITSELF, fixedVersion });
        return JSON.parse(run.out.toString('utf8').split('\n')[1] ?? 'null').result;
      };
      // 2025-03-26 has no structuredContent; 2025-06-18, fixed, keeps the object as structuredContent too.
      expect(await result(false)).toEqual({ content: [{ type: 'text', text: '{"a":1}' }] });
      expect((await result(true)).structuredContent).toEqual({ a: 1 });
    },
    TIMEOUT,
  );

  it(
    'takes a client input that fails as closed: the server input is closed, then the server stopped',
    async () => {
      const run = await relay(`echo '{"jsonrpc":"2.0","method":"ready"}'; cat >/dev/null`, '', {
        ...SERVER_ENDS_ITSELF,
        keepOpen: true,
        during: (stdin, stdout) => stdout.once('data', () => stdin.destroy(new Error('reset by peer'))),
      });
      expect(run.code).toBe(0);
      expect(run.log).toEqual([
        "client closed its input: closing the server's, then SIGTERM and SIGKILL 60 s apart",
        'server exited with code 0',
      ]);
    },
    TIMEOUT,
  );

  it(
    'keeps the escalation a signal started when the client then closes its input',
    async () => {
      const before = handlersNow();
      const run = await relay(`trap '' TERM; echo '{"jsonrpc":"2.0","method":"ready"}'; ${LOOP}`, '', {
        keepOpen: true,
        forwardSignals: true,
        during: (stdin, stdout) =>
          stdout.once('data', () => {
            sendTo(before, 'SIGTERM');
            stdin.end();
          }),
      });
      expect(run.code).toBe(137);
      expect(run.log).toEqual([
        "received SIGTERM: forwarding it to the server's process group",
        "client closed its input: closing the server's, then SIGTERM and SIGKILL 0.2 s apart",
        'server still running 0.2 s later: sending SIGKILL to its process group',
        'server exited with code 137 (SIGKILL)',
      ]);
    },
    TIMEOUT,
  );

  it(
    'goes on when the server closed its input and the client still writes',
    async () => {
      const run = await relay(`exec 0<&-; echo '{"jsonrpc":"2.0","method":"ready"}'; sleep 0.3`, '', {
        ...SERVER_ENDS_ITSELF,
        keepOpen: true,
        during: (stdin, stdout) =>
          stdout.once('data', () => {
            for (let i = 0; i < 64; i++) stdin.write(`${'x'.repeat(16_383)}\n`);
          }),
      });
      expect(run.code).toBe(0);
      expect(run.out.toString('utf8')).toBe('{"jsonrpc":"2.0","method":"ready"}\n');
    },
    TIMEOUT,
  );
});
