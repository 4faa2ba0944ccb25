/**
 * The session rules (what an audit saw happen) and the frame rules (raw transport frames), run the way
 * the audit and `check` run them: one event or frame through the engine, every finding compared whole
 * (rule, severity, message id, message), so a change to what a rule says or when it speaks fails here
 * without spawning a server.
 */

import { describe, expect, it } from 'vitest';
import type { Frame, SessionEvent } from '../../src/rules/types.js';
import { runFrame, runSession } from '../../src/validate/engine.js';

const options = { version: '2025-06-18' } as const;

function said(event: SessionEvent): string[][] {
  return runSession(event, options).map((f) => [f.rule, f.severity, f.messageId, f.message]);
}

function framed(frame: Frame): string[][] {
  return runFrame(frame, options).map((f) => [f.rule, f.messageId, f.message]);
}

describe('session rules that report an event with its facts', () => {
  it('words each event with its facts, numbers as numbers and missing facts as nothing', () => {
    expect(
      said({ event: 'call-error', tool: 'get_weather', code: -32603, detail: 'city not found' }),
    ).toEqual([
      [
        'audit-call-error',
        'info',
        'default',
        'tools/call get_weather answered with JSON-RPC error -32603: city not found',
      ],
    ]);
    expect(said({ event: 'http-error', method: 'tools/list', status: 502 })).toEqual([
      ['audit-http-error', 'error', 'default', 'HTTP 502 for tools/list'],
    ]);
    const [finding] = runSession({ event: 'response-too-large', bytes: 52428800, limit: 16777216 }, options);
    expect(finding?.data).toEqual({ bytes: 52428800, limit: 16777216 });
    expect(finding?.message).toBe(
      'a response of more than 52428800 bytes exceeds the 16777216-byte cap; it was not parsed',
    );
    expect(said({ event: 'tools-list-failed', detail: null })).toEqual([
      ['audit-tools-list-failed', 'error', 'default', 'tools/list failed: '],
    ]);
  });

  it('says nothing about an event no rule judges', () => {
    expect(said({ event: 'answered-in-time' })).toEqual([]);
    expect(said({ event: 'arguments-accepted', tool: 't' })).toEqual([]);
  });
});

describe('audit-arguments-rejected', () => {
  it('blames the synthesized arguments unless the user gave them with --args', () => {
    const event = { event: 'arguments-rejected', tool: 'get_weather', detail: 'arguments.city: missing' };
    expect(said({ ...event, from: 'synthesized' })).toEqual([
      [
        'audit-arguments-rejected',
        'info',
        'default',
        'tools/call get_weather: the server rejected the synthesized arguments (arguments.city: missing); they may be at fault, not the tool: give real ones with --args',
      ],
    ]);
    expect(said({ ...event, from: '--args' })).toEqual([
      [
        'audit-arguments-rejected',
        'info',
        'given',
        'tools/call get_weather: the server rejected the arguments from --args (arguments.city: missing)',
      ],
    ]);
    expect(said({ event: 'arguments-rejected' })[0]?.[3]).toBe(
      'tools/call : the server rejected the synthesized arguments (); they may be at fault, not the tool: give real ones with --args',
    );
  });
});

describe('audit-initialize-invalid and audit-version-unknown', () => {
  const good = { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 's', version: '1' } };
  const initialize = (result: unknown) => ({ event: 'initialize-result', version: '2025-06-18', result });

  it('names each missing part of an initialize result', () => {
    expect(said(initialize(good))).toEqual([]);
    const problems = (result: unknown) =>
      said(initialize(result))
        .filter(([rule]) => rule === 'audit-initialize-invalid')
        .map(([, , , message]) => message);
    const prefix = 'the initialize result for 2025-06-18 ';
    expect(problems({ ...good, protocolVersion: 20250618 })).toEqual([
      `${prefix}has no protocolVersion string`,
    ]);
    expect(problems({ ...good, capabilities: [] })).toEqual([`${prefix}has no capabilities object`]);
    for (const serverInfo of [undefined, 's', { name: 's' }, { version: '1' }, { name: 1, version: '1' }]) {
      expect(problems({ ...good, serverInfo }), JSON.stringify(serverInfo)).toEqual([
        `${prefix}has no serverInfo with name and version`,
      ]);
    }
    expect(problems({})).toHaveLength(3);
  });

  it('judges only initialize results that are objects', () => {
    expect(said(initialize('nope'))).toEqual([]);
    expect(said({ event: 'initialize', version: '2025-06-18', result: {} })).toEqual([]);
  });

  it('reports a protocolVersion that is no version with an initialize handshake', () => {
    const unknown = (answered: unknown) =>
      said(initialize({ ...good, protocolVersion: answered })).filter(
        ([rule]) => rule === 'audit-version-unknown',
      );
    expect(unknown('2025-06-01')).toEqual([
      [
        'audit-version-unknown',
        'error',
        'default',
        'asked for 2025-06-18, the server answered protocolVersion "2025-06-01", which is no published version',
      ],
    ]);
    expect(unknown('2024-11-05')).toEqual([]);
    // 2026-07-28 has no initialize handshake: a server cannot answer it to initialize.
    expect(unknown('2026-07-28')).toHaveLength(1);
    const { protocolVersion: _, ...missing } = good;
    expect(said(initialize(missing)).find(([rule]) => rule === 'audit-version-unknown')?.[3]).toBe(
      'asked for 2025-06-18, the server answered protocolVersion nothing, which is no published version',
    );
  });
});

describe('audit-timeout', () => {
  const timing = (event: string, ms: unknown) =>
    runSession({ event, method: 'tools/call slow', ms }, options).map((f) => [
      f.severity,
      f.messageId,
      f.message,
      f.data.affected,
    ]);
  const SDKS =
    'TypeScript SDK v1 client (60 s), TypeScript SDK v2 client (60 s), Claude Desktop / claude.ai (60 s), Zed (60 s), Cline / Roo Code (60 s)';
  const SIXTY = 'ts-sdk-v1,ts-sdk-v2,claude-desktop,zed,cline';

  it('an answer at exactly a client timeout is in time; no answer by then is not', () => {
    expect(timing('answered', 60_000)).toEqual([]);
    expect(timing('timeout', 60_000)).toEqual([
      [
        'error',
        'default',
        `tools/call slow got no answer in 60 s, longer than ${SDKS} wait by default`,
        SIXTY,
      ],
    ]);
    expect(timing('answered', 60_001)).toEqual([
      ['error', 'default', `tools/call slow answered after 60 s, longer than ${SDKS} wait by default`, SIXTY],
    ]);
  });

  it('names every client whose default the latency passed, rounding to a tenth of a second', () => {
    expect(timing('answered', 300_001)).toEqual([
      [
        'error',
        'default',
        `tools/call slow answered after 300 s, longer than ${SDKS}, OpenAI Codex (300 s), Goose (300 s) wait by default`,
        `${SIXTY},codex,goose`,
      ],
    ]);
    expect(timing('answered', 61_249)[0]?.[2]).toMatch(/^tools\/call slow answered after 61\.2 s,/);
  });

  it('leaves a short --timeout unjudged, and reads ms given as text', () => {
    expect(timing('timeout', 1000)).toEqual([
      [
        'warning',
        'unjudged',
        'no response to tools/call slow in the 1 s the audit waited (--timeout); no client is known to give up that early (the official SDKs wait 60 s): rerun with a longer --timeout to judge',
        // No client gave up: the finding names none.
        '',
      ],
    ]);
    expect(timing('answered', 1000)).toEqual([]);
    expect(timing('timeout', '61000')[0]?.[2]).toMatch(/^tools\/call slow got no answer in 61 s,/);
    expect(timing('timeout', 'soon')).toEqual([]);
    expect(timing('started', 90_000)).toEqual([]);
    expect(runSession({ event: 'timeout', ms: 1000 }, options)[0]?.message).toMatch(
      /^no response to a request /,
    );
  });
});

describe('frame-not-json', () => {
  it('words the frame by transport and shows a one-line excerpt of at most 60 characters', () => {
    expect(framed({ transport: 'stdio', text: 'Server  listening\non stdio ' })).toEqual([
      ['frame-not-json', 'default', 'stdout line is not JSON: "Server listening on stdio"'],
    ]);
    expect(framed({ transport: 'http', text: '<html>' })).toEqual([
      ['frame-not-json', 'http', 'HTTP response body is not JSON: "<html>"'],
      [
        'http-content-type',
        'missing',
        'HTTP response with a body has no Content-Type; expected application/json or text/event-stream',
      ],
    ]);
    expect(framed({ transport: 'sse', text: 'ping' })).toEqual([
      ['frame-not-json', 'sse', 'SSE event data is not JSON: "ping"'],
    ]);
    const sixty = 'x'.repeat(60);
    expect(framed({ transport: 'stdio', text: sixty })[0]?.[2]).toBe(`stdout line is not JSON: "${sixty}"`);
    expect(framed({ transport: 'stdio', text: `${sixty}y` })[0]?.[2]).toBe(
      `stdout line is not JSON: "${'x'.repeat(57)}…"`,
    );
  });

  it('calls a blank stdout line empty, but not a blank HTTP body', () => {
    expect(framed({ transport: 'stdio', text: ' \t' })).toEqual([
      ['frame-not-json', 'empty', 'empty line on stdout (a client parses it as a message and fails)'],
    ]);
    expect(framed({ transport: 'sse', text: ' ' })).toEqual([
      ['frame-not-json', 'sse', 'SSE event data is not JSON: ""'],
    ]);
  });

  it('names a byte order mark before JSON, which the excerpt would not show', () => {
    const message = '\uFEFF{"jsonrpc":"2.0","id":1,"result":{}}';
    expect(framed({ transport: 'stdio', text: message })).toEqual([
      [
        'frame-not-json',
        'bom',
        'stdout line starts with a byte order mark (U+FEFF) before its JSON, which JSON.parse rejects',
      ],
    ]);
    expect(framed({ transport: 'sse', text: message })[0]?.[2]).toBe(
      'SSE event data starts with a byte order mark (U+FEFF) before its JSON, which JSON.parse rejects',
    );
    // A mark before something that is no JSON either is that, shown as ever.
    expect(framed({ transport: 'stdio', text: '\uFEFFready' })[0]?.[1]).toBe('default');
  });
});

describe('frame-not-jsonrpc', () => {
  it('names the JSON type of a bare value and up to five members of an object', () => {
    expect(framed({ transport: 'stdio', text: '"ready"' })).toEqual([
      ['frame-not-jsonrpc', 'default', 'frame is JSON but not a JSON-RPC message: a bare string'],
    ]);
    expect(framed({ transport: 'stdio', text: 'null' })[0]?.[2]).toMatch(/a bare null$/);
    const object = (members: string) =>
      `frame is a JSON object but not a JSON-RPC message: it has none of jsonrpc, method, id, result, error (members: ${members})`;
    expect(framed({ transport: 'stdio', text: '{}' })).toEqual([
      ['frame-not-jsonrpc', 'object', object('none')],
    ]);
    expect(framed({ transport: 'stdio', text: '{"a":1,"b":2,"c":3,"d":4,"e":5}' })[0]?.[2]).toBe(
      object('"a", "b", "c", "d", "e"'),
    );
    expect(framed({ transport: 'stdio', text: '{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6}' })[0]?.[2]).toBe(
      object('"a", "b", "c", "d", "e", …'),
    );
  });

  it('leaves JSON-RPC shapes and batches to the envelope rules, and non-JSON to frame-not-json', () => {
    expect(framed({ transport: 'stdio', text: '{"id":1}' })).toEqual([]);
    expect(framed({ transport: 'stdio', text: '[1]' })).toEqual([]);
    expect(framed({ transport: 'stdio', text: '{' }).map(([rule]) => rule)).toEqual(['frame-not-json']);
  });
});

describe('http-content-type', () => {
  const body = '{"jsonrpc":"2.0","id":1,"result":{}}';
  it('accepts JSON and event streams whatever the case and parameters', () => {
    for (const contentType of ['application/json', ' Application/JSON ; charset=utf-8', 'text/event-stream'])
      expect(framed({ transport: 'http', text: body, contentType }), contentType).toEqual([]);
  });

  it('reports another or a missing Content-Type on HTTP only', () => {
    expect(framed({ transport: 'http', text: body, contentType: 'text/plain; charset=utf-8' })).toEqual([
      [
        'http-content-type',
        'default',
        'HTTP response has Content-Type "text/plain; charset=utf-8"; expected application/json or text/event-stream',
      ],
    ]);
    expect(framed({ transport: 'http', text: body, contentType: ' ' }).map(([, id]) => id)).toEqual([
      'missing',
    ]);
    // The finding's data says what the header was: nothing.
    expect(runFrame({ transport: 'http', text: body }, options)[0]?.data).toEqual({ contentType: '' });
    expect(framed({ transport: 'http', text: body, contentType: 'application/jsonl' })).toHaveLength(1);
    expect(framed({ transport: 'sse', text: body, contentType: 'text/plain' })).toEqual([]);
  });
});
