/**
 * notification-params-invalid: what the official TypeScript SDK clients do with a notification whose
 * params fail the schema of its method (they parse it before its handler runs; a failed parse goes to
 * onerror and the notification is lost), and the findings the rule makes of such notifications, alone
 * and in a checked session.
 */

import { Client as V2Client, InMemoryTransport as V2InMemoryTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport as V1InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { checkInput, parseInput } from '../../src/check/index.js';
import { said } from './helpers.js';

const RULE = 'notification-params-invalid';
const V = { version: '2025-06-18' } as const;

const note = (method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  method,
  ...(params === undefined ? {} : { params }),
});

/** Notifications a server sends while a call runs (its progress token is `token`), each bad one before a good one. */
function notifications(token: unknown) {
  return [
    note('notifications/progress', { progressToken: token, progress: '50%' }),
    note('notifications/progress', { progressToken: token, progress: 60 }),
    note('notifications/message', { level: 'warn', data: 'bad level' }),
    note('notifications/message', { level: 'warning', data: 'good' }),
    note('notifications/message', { level: 'info' }),
    note('notifications/message', { level: 'info', data: null }),
    note('notifications/resources/updated', { uri: 5 }),
    note('notifications/resources/updated', { uri: 'file:///a' }),
  ];
}

interface Seen {
  progress: unknown[];
  logs: unknown[];
  updates: unknown[];
  errors: string[];
}

/** A server on the far end of an in-memory pair, answering initialize and a call that sends `notifications`. */
function fakeServer(serverSide: {
  onmessage?: (m: never) => void;
  send(m: unknown): Promise<void>;
  start(): Promise<void>;
}) {
  serverSide.onmessage = ((m: {
    id: number;
    method: string;
    params: { _meta: { progressToken: unknown } };
  }) => {
    if (m.method === 'initialize') {
      const capabilities = { tools: {}, logging: {}, resources: { subscribe: true } };
      const serverInfo = { name: 's', version: '1' };
      void serverSide.send({
        jsonrpc: '2.0',
        id: m.id,
        result: { protocolVersion: '2025-06-18', capabilities, serverInfo },
      });
    }
    if (m.method === 'tools/call') {
      for (const n of notifications(m.params._meta.progressToken)) void serverSide.send(n);
      setTimeout(() => void serverSide.send({ jsonrpc: '2.0', id: m.id, result: { content: [] } }), 30);
    }
  }) as never;
  return serverSide.start();
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 30));

describe('what the SDK clients do with a notification that fails the schema of its method', () => {
  const expected = (seen: Seen) => {
    expect(seen.progress).toEqual([{ progress: 60 }]);
    expect(seen.logs).toEqual([
      { level: 'warning', data: 'good' },
      { level: 'info', data: null },
    ]);
    expect(seen.updates).toEqual([{ uri: 'file:///a' }]);
    expect(seen.errors).toHaveLength(4);
    for (const error of seen.errors) expect(error).toContain('Uncaught error in notification handler');
  };

  /** The server's side of a fresh in-memory pair started, and what the client saw, for `call` to fill. */
  async function observe(
    pair: readonly [unknown, unknown],
    call: (clientSide: never, seen: Seen) => Promise<void>,
  ): Promise<void> {
    const seen: Seen = { progress: [], logs: [], updates: [], errors: [] };
    await fakeServer(pair[1] as never);
    await call(pair[0] as never, seen);
    await settle();
    expected(seen);
  }

  it('v1: the bad ones go to onerror, and neither onprogress nor the handlers see them', async () => {
    await observe(V1InMemoryTransport.createLinkedPair(), async (clientSide, seen) => {
      const client = new V1Client({ name: 'c', version: '1' });
      client.onerror = (e) => seen.errors.push(e.message);
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.logs.push(n.params));
      client.setNotificationHandler(
        ResourceUpdatedNotificationSchema,
        (n) => void seen.updates.push(n.params),
      );
      await client.connect(clientSide);
      await client.callTool({ name: 't', arguments: {} }, undefined, {
        onprogress: (p) => void seen.progress.push(p),
      });
      await client.close();
    });
  });

  it('v2: the same', async () => {
    await observe(V2InMemoryTransport.createLinkedPair(), async (clientSide, seen) => {
      const client = new V2Client({ name: 'c', version: '1' });
      client.onerror = (e) => seen.errors.push(e.message);
      client.setNotificationHandler('notifications/message', (n) => void seen.logs.push(n.params));
      client.setNotificationHandler(
        'notifications/resources/updated',
        (n) => void seen.updates.push(n.params),
      );
      await client.connect(clientSide);
      await client.callTool({ name: 't', arguments: {} }, { onprogress: (p) => void seen.progress.push(p) });
      await client.close();
    });
  });
});

describe('notification-params-invalid', () => {
  const findings = (doc: unknown) => said(RULE, 'message', doc, V);

  it('reports the notifications the SDK clients drop, at the param, and none they read', () => {
    expect(notifications('t').flatMap(findings)).toEqual([
      [
        'default',
        '/params/progress',
        'notifications/progress: "params.progress" is the string "50%"; it must be a number',
      ],
      [
        'default',
        '/params/level',
        'notifications/message: "params.level" is the string "warn"; it must be one of debug, info, notice, warning, error, critical, alert, emergency',
      ],
      [
        'missing',
        '/params',
        'notifications/message has no "params.data"; it may be any JSON value, null included',
      ],
      [
        'default',
        '/params/uri',
        'notifications/resources/updated: "params.uri" is a JSON integer; it must be a string',
      ],
    ]);
    expect(findings(note('notifications/message'))).toEqual([
      ['noParams', '', 'notifications/message has no params; it needs "level" and "data"'],
    ]);
  });

  it('judges every param of progress and cancellation, and what a method needs and lacks', () => {
    expect(
      findings(note('notifications/progress', { progressToken: 1.5, progress: 1, total: null, message: 2 })),
    ).toEqual([
      [
        'default',
        '/params/progressToken',
        'notifications/progress: "params.progressToken" is a number that is no integer; it must be a string or an integer',
      ],
      ['default', '/params/total', 'notifications/progress: "params.total" is null; it must be a number'],
      [
        'default',
        '/params/message',
        'notifications/progress: "params.message" is a JSON integer; it must be a string',
      ],
    ]);
    expect(findings(note('notifications/progress', { progress: 1 }))).toEqual([
      [
        'missing',
        '/params',
        'notifications/progress has no "params.progressToken"; it must be a string or an integer',
      ],
    ]);
    expect(findings(note('notifications/progress'))).toEqual([
      ['noParams', '', 'notifications/progress has no params; it needs "progressToken" and "progress"'],
    ]);
    expect(
      findings(note('notifications/message', { data: 'x', logger: 5 })).map(
        ([id, pointer]) => `${id} ${pointer}`,
      ),
    ).toEqual(['missing /params', 'default /params/logger']);
    expect(
      findings(note('notifications/cancelled', { requestId: true, reason: 7 })).map(([, pointer]) => pointer),
    ).toEqual(['/params/requestId', '/params/reason']);
    expect(findings(note('notifications/cancelled'))).toEqual([]);
    expect(findings(note('notifications/cancelled', { requestId: 'a', reason: 'user' }))).toEqual([]);
  });

  it('leaves other methods, requests, and params that are no object (envelope-request-invalid) alone', () => {
    expect(findings(note('notifications/tools/list_changed'))).toEqual([]);
    expect(findings(note('notifications/custom', { level: 5 }))).toEqual([]);
    expect(findings({ jsonrpc: '2.0', id: 1, method: 'notifications/progress', params: {} })).toEqual([]);
    expect(findings(note('notifications/progress', 'half'))).toEqual([]);
    expect(
      said('envelope-request-invalid', 'message', note('notifications/progress', 'half'), V),
    ).toHaveLength(1);
  });

  it('is reported in a checked session, at the line of the notification', async () => {
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'a', _meta: { progressToken: 't' } } },
      ...notifications('t'),
      { jsonrpc: '2.0', id: 1, result: { content: [] } },
    ];
    const outcome = await checkInput(
      parseInput(lines.map((l) => JSON.stringify(l)).join('\n'), { session: true }),
      {
        protocolVersion: '2025-06-18',
      },
    );
    expect(
      outcome.findings.filter((f) => f.rule === RULE).map((f) => [f.location?.line, f.pointer, f.severity]),
    ).toEqual([
      [2, '/params/progress', 'error'],
      [4, '/params/level', 'error'],
      [6, '/params', 'error'],
      [8, '/params/uri', 'error'],
    ]);
  });
});
