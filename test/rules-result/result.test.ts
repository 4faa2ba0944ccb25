import { AjvJsonSchemaValidator as V2Validator } from '@modelcontextprotocol/client/validators/ajv';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator as V1Validator } from '@modelcontextprotocol/sdk/validation/ajv';
import { describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import { Opaque } from '../../src/core/opaque.js';
import { affectedClients } from '../../src/report/clients.js';
import { runToolResult } from '../../src/validate/engine.js';
import { validateToolResultSync } from '../../src/validate/index.js';
import { toolsCall2026 } from '../support/requests.js';
import { pinnedV2Client } from '../support/v2-client.js';
import {
  hits,
  type RunOptions,
  repairAll,
  repairOnce,
  repairStale as repairStaleIn,
  run,
  said,
} from './helpers.js';

const v25 = { version: '2025-06-18' } as const;
const text = (t: string) => ({ type: 'text', text: t });

describe('result-not-object', () => {
  it('reports non-object results', () => {
    for (const value of ['done', [text('x')], null, 3]) {
      expect(hits('result-not-object', 'result', value, v25)).toEqual([['default', '']]);
    }
  });

  it('wraps a result inside a message, adding resultType in 2026-07-28', () => {
    const request = { method: 'tools/call', params: { name: 't' } };
    const r = repairOnce(
      'result-not-object',
      'message',
      { jsonrpc: '2.0', id: 1, result: 'done' },
      { request },
    );
    expect(r.doc).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { content: [text('done')], resultType: 'complete' },
    });
    const blocks = repairOnce(
      'result-not-object',
      'message',
      { jsonrpc: '2.0', id: 1, result: [text('a')] },
      {
        ...v25,
        request,
      },
    );
    expect(blocks.doc).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [text('a')] } });
  });

  it('cannot replace a bare document in place', () => {
    expect(repairOnce('result-not-object', 'result', 'done', v25).outcome).toBeUndefined();
  });
});

describe('result-content-missing', () => {
  const rule = 'result-content-missing';
  it('reports a missing content array', () => {
    expect(hits(rule, 'result', { isError: false }, v25)).toEqual([['default', '/content']]);
  });

  const task = {
    taskId: 't1',
    status: 'working',
    createdAt: '2025-11-25T10:00:00Z',
    lastUpdatedAt: '2025-11-25T10:00:00Z',
    ttl: null,
  };

  it('ignores input_required results, task results and legacy envelopes', () => {
    expect(hits(rule, 'result', { resultType: 'input_required', requestState: 'x' })).toEqual([]);
    expect(hits(rule, 'result', { task }, { version: '2025-11-25' })).toEqual([]);
    expect(hits(rule, 'result', { toolResult: 'x' }, v25)).toEqual([]);
  });

  // The TypeScript SDK v2 client rejects a tools/call result with `task` and no content ("content is
  // required when the body carries 'task'"), and the official schemas hold it to CallToolResult's content.
  it('takes a task for content only in a 2025-11-25 CreateTaskResult answering a task-augmented call', () => {
    const augmented = { method: 'tools/call', params: { name: 't', task: { ttl: 60_000 } } };
    const plain = { method: 'tools/call', params: { name: 't' } };
    const response = { jsonrpc: '2.0', id: 1, result: { task } };
    expect(hits(rule, 'message', response, { version: '2025-11-25', request: augmented })).toEqual([]);
    expect(hits(rule, 'message', response, { version: '2025-11-25', request: plain })).toEqual([
      ['task', '/result/content'],
    ]);
    // No tasks before 2025-11-25; in 2026-07-28 a task result says `resultType: "task"`.
    expect(hits(rule, 'result', { task }, v25)).toEqual([['task', '/content']]);
    expect(hits(rule, 'result', { resultType: 'complete', task })).toEqual([['task', '/content']]);
    expect(hits(rule, 'result', { resultType: 'task', task })).toEqual([]);
    // A task that is no Task of the schema makes no CreateTaskResult: the finding is at the member at fault.
    expect(hits(rule, 'result', { task: { taskId: 't1' } }, { version: '2025-11-25' })).toEqual([
      ['task', '/task/status'],
    ]);
    expect(hits(rule, 'result', { task: { ...task, ttl: 1.5 } }, { version: '2025-11-25' })).toEqual([
      ['task', '/task/ttl'],
    ]);
    expect(hits(rule, 'result', { task: 'x' }, { version: '2025-11-25' })).toEqual([['task', '/task']]);
    // scan: a task the source does not fix (an opaque value) is not judged by what cannot be seen.
    const unseen = runToolResult(
      { task: new Opaque('await store.createTask()') },
      { version: '2025-11-25', partial: true },
    );
    expect(unseen.filter((f) => f.rule === rule)).toEqual([]);
    expect(run('result', { task }, v25)[0]?.message).toBe(
      'the result has no "content" array; it has a "task", but protocol 2025-06-18 has no CreateTaskResult',
    );
  });

  it('repairs a task result into one with content, which the SDK clients take', () => {
    const r = repairOnce(rule, 'result', { task }, v25);
    expect(r.doc).toEqual({ task, content: [text(JSON.stringify({ task }))] });
    expect(r.after).toEqual([]);
  });

  it('holds a result of an unknown resultType to content, as the 2026-07-28 schema does', () => {
    expect(hits(rule, 'result', { resultType: 'weird' })).toEqual([['default', '/content']]);
    expect(hits(rule, 'result', { resultType: 'task' })).toEqual([]);
  });

  it('derives content from structuredContent, from payload members, or leaves it empty', () => {
    expect(repairOnce(rule, 'result', { structuredContent: { a: 1 } }, v25).doc).toEqual({
      structuredContent: { a: 1 },
      content: [text('{"a":1}')],
    });
    expect(repairOnce(rule, 'result', { temperature: 22, _meta: {} }, v25).doc).toEqual({
      temperature: 22,
      _meta: {},
      content: [text('{"temperature":22}')],
    });
    const empty = repairOnce(rule, 'result', { isError: false }, v25);
    expect(empty.doc).toEqual({ isError: false, content: [] });
    expect(empty.after).toEqual([]);
  });
});

describe('result-content-not-array', () => {
  const rule = 'result-content-not-array';
  it('has a specific message for strings', () => {
    expect(hits(rule, 'result', { content: 'hello' }, v25)).toEqual([['string', '/content']]);
    expect(hits(rule, 'result', { content: { type: 'text', text: 'x' } }, v25)).toEqual([
      ['default', '/content'],
    ]);
    expect(hits(rule, 'result', { content: null }, v25)).toEqual([['default', '/content']]);
  });

  it('repairs each shape into an array', () => {
    expect(repairOnce(rule, 'result', { content: 'hello' }, v25).doc).toEqual({ content: [text('hello')] });
    expect(repairOnce(rule, 'result', { content: text('x') }, v25).doc).toEqual({ content: [text('x')] });
    expect(repairOnce(rule, 'result', { content: null }, v25).doc).toEqual({ content: [] });
    expect(repairOnce(rule, 'result', { content: 42 }, v25).doc).toEqual({ content: [text('42')] });
  });
});

describe('result-legacy-tool-result', () => {
  const rule = 'result-legacy-tool-result';
  it('reports toolResult without content only', () => {
    expect(hits(rule, 'result', { toolResult: 'x' }, v25)).toEqual([['default', '/toolResult']]);
    expect(hits(rule, 'result', { toolResult: 'x', content: [] }, v25)).toEqual([]);
  });

  it('repairs to content, plus structuredContent where the version has it', () => {
    expect(repairOnce(rule, 'result', { toolResult: 'hi' }, v25).doc).toEqual({ content: [text('hi')] });
    expect(repairOnce(rule, 'result', { toolResult: { a: 1 } }, v25).doc).toEqual({
      content: [text('{"a":1}')],
      structuredContent: { a: 1 },
    });
    expect(repairOnce(rule, 'result', { toolResult: { a: 1 } }, { version: '2025-03-26' }).doc).toEqual({
      content: [text('{"a":1}')],
    });
    expect(repairOnce(rule, 'result', { toolResult: [1] }, v25).doc).toEqual({ content: [text('[1]')] });
    expect(repairOnce(rule, 'result', { toolResult: [1], resultType: 'complete' }).doc).toEqual({
      content: [text('[1]')],
      structuredContent: [1],
      resultType: 'complete',
    });
  });
});

describe('result-is-error-not-boolean', () => {
  const rule = 'result-is-error-not-boolean';
  it('reports strings, numbers and null', () => {
    for (const isError of ['true', 1, null]) {
      expect(hits(rule, 'result', { content: [], isError }, v25)).toEqual([['default', '/isError']]);
    }
  });

  it('repairs boolean spellings and gives up on others', () => {
    expect(repairOnce(rule, 'result', { content: [], isError: ' TRUE ' }, v25).doc).toEqual({
      content: [],
      isError: true,
    });
    expect(repairOnce(rule, 'result', { content: [], isError: 0 }, v25).doc).toEqual({
      content: [],
      isError: false,
    });
    expect(repairOnce(rule, 'result', { content: [], isError: null }, v25).doc).toEqual({ content: [] });
    expect(repairOnce(rule, 'result', { content: [], isError: 'maybe' }, v25).outcome).toBeUndefined();
  });
});

describe('result-type-invalid', () => {
  const rule = 'result-type-invalid';
  it('requires a recognized resultType in 2026-07-28 only', () => {
    expect(hits(rule, 'result', { content: [] })).toEqual([['default', '/resultType']]);
    expect(hits(rule, 'result', { content: [], resultType: 1 })).toEqual([['notString', '/resultType']]);
    expect(hits(rule, 'result', { content: [], resultType: 'success' })).toEqual([
      ['unknown', '/resultType'],
    ]);
    expect(hits(rule, 'result', { content: [] }, { version: '2025-11-25' })).toEqual([]);
  });

  it('takes "task" only from a request that declared the Tasks extension, and warns where none is known', () => {
    const task = { resultType: 'task', task: { taskId: 't1', status: 'working' } };
    const judged = (request?: JsonObject) =>
      run('result', task, request ? { request } : {})
        .filter((f) => f.rule === rule)
        .map((f) => [f.messageId, f.pointer, f.severity, f.fix?.automatic]);
    expect(judged(toolsCall2026({ extensions: { 'io.modelcontextprotocol/tasks': {} } }))).toEqual([]);
    expect(judged(toolsCall2026({}))).toEqual([['taskNotDeclared', '/resultType', 'error', false]]);
    expect(judged(toolsCall2026({ extensions: { 'io.example/other': {} } }))).toEqual([
      ['taskNotDeclared', '/resultType', 'error', false],
    ]);
    expect(judged()).toEqual([['taskUnknown', '/resultType', 'warning', false]]);
  });

  it('holds the SDK v2 client at 2026-07-28 to it: it rejects "task" answering its own request', async () => {
    const result = { resultType: 'task', task: { taskId: 't1', status: 'working' } };
    const { client, calls } = await pinnedV2Client(() => result);
    await expect(client.callTool({ name: 'slow', arguments: {} })).rejects.toThrow(
      "Unsupported result type 'task'",
    );
    await client.close();
    expect(hits(rule, 'result', result, { request: calls[0] })).toEqual([['taskNotDeclared', '/resultType']]);
  });
});

describe('result-meta-not-object', () => {
  it('reports and removes a non-object _meta', () => {
    expect(hits('result-meta-not-object', 'result', { content: [], _meta: [] }, v25)).toEqual([
      ['default', '/_meta'],
    ]);
    const r = repairOnce('result-meta-not-object', 'result', { content: [], _meta: 'x' }, v25);
    expect(r.doc).toEqual({ content: [] });
    expect(r.outcome?.lossy).toBe(true);
  });
});

describe('result-meta-key-invalid', () => {
  it('reports the _meta keys the SDK types, when their values fail those types', () => {
    for (const progressToken of [{}, 1.5, null, true, [1]]) {
      expect(
        hits('result-meta-key-invalid', 'result', { content: [], _meta: { progressToken } }, v25),
      ).toEqual([['default', '/_meta/progressToken']]);
    }
    for (const task of ['x', { taskId: 5 }, {}, null]) {
      const meta = { 'io.modelcontextprotocol/related-task': task };
      expect(hits('result-meta-key-invalid', 'result', { content: [], _meta: meta }, v25)).toEqual([
        ['default', '/_meta/io.modelcontextprotocol~1related-task'],
      ]);
    }
  });

  it('leaves valid values and other keys alone', () => {
    for (const meta of [
      { progressToken: 'p' },
      { progressToken: 7 },
      { 'io.modelcontextprotocol/related-task': { taskId: 't', extra: 1 } },
      { 'com.example/trace': {}, progressToken: undefined },
    ]) {
      expect(hits('result-meta-key-invalid', 'result', { content: [], _meta: meta }, v25)).toEqual([]);
    }
  });

  it('removes the key, saying what was lost, and the SDK then accepts the result', () => {
    const r = repairOnce(
      'result-meta-key-invalid',
      'result',
      { content: [], _meta: { progressToken: {}, 'com.example/trace': 'x' } },
      v25,
    );
    expect(r.doc).toEqual({ content: [], _meta: { 'com.example/trace': 'x' } });
    expect(r.outcome).toMatchObject({ description: 'removed "_meta.progressToken" ({})', lossy: true });
    expect(CallToolResultSchema.safeParse(r.doc).success).toBe(true);
    expect(CallToolResultSchema.safeParse({ content: [], _meta: { progressToken: {} } }).success).toBe(false);
  });
});

describe('result-server-info-invalid', () => {
  const rule = 'result-server-info-invalid';
  const KEY = 'io.modelcontextprotocol/serverInfo';
  const withInfo = (info: unknown) => ({ resultType: 'complete', content: [], _meta: { [KEY]: info } });
  const at = '/_meta/io.modelcontextprotocol~1serverInfo';

  it('requires an Implementation with string name and version, in 2026-07-28 only', () => {
    expect(hits(rule, 'result', withInfo({ name: 1 }))).toEqual([
      ['missing', `${at}/version`],
      ['notString', `${at}/name`],
    ]);
    expect(hits(rule, 'result', withInfo('srv'))).toEqual([['default', at]]);
    expect(hits(rule, 'result', withInfo({ name: 'srv', version: '1' }))).toEqual([]);
    expect(hits(rule, 'result', { resultType: 'complete', content: [] })).toEqual([]);
    expect(hits(rule, 'result', withInfo({ name: 1 }), { version: '2025-11-25' })).toEqual([]);
  });

  it('checks the optional fields: strings, websiteUrl as a URI, icons', () => {
    const info = {
      name: 'srv',
      version: '1',
      title: 2,
      websiteUrl: 'not a uri',
      icons: [{ src: 'https://example.com/i.png' }, { sizes: ['48x48'] }, { src: 'icon.png' }],
    };
    expect(hits(rule, 'result', withInfo(info))).toEqual([
      ['notString', `${at}/title`],
      ['websiteUrl', `${at}/websiteUrl`],
      ['icon', `${at}/icons/1`],
      ['icon', `${at}/icons/2`],
    ]);
  });

  it('repairs by removing only the malformed key', () => {
    const doc = { ...withInfo({ name: 1 }), _meta: { [KEY]: { name: 1 }, 'com.example/trace': 't' } };
    const r = repairOnce(rule, 'result', doc);
    expect(r.doc).toEqual({ resultType: 'complete', content: [], _meta: { 'com.example/trace': 't' } });
    expect(r.after).toEqual([]);
    expect(r.outcome?.lossy).toBe(true);
  });
});

describe('result-input-required-invalid', () => {
  const rule = 'result-input-required-invalid';
  const inputRequired = (members: object) => ({ resultType: 'input_required', ...members });

  it('requires inputRequests or requestState', () => {
    expect(hits(rule, 'result', inputRequired({}))).toEqual([['default', '']]);
    expect(hits(rule, 'result', inputRequired({ requestState: 's' }))).toEqual([]);
    expect(hits(rule, 'result', inputRequired({ inputRequests: { a: { method: 'roots/list' } } }))).toEqual(
      [],
    );
    // Not an InputRequiredResult, or a version without resultType: not this rule's business.
    expect(hits(rule, 'result', { resultType: 'complete', content: [] })).toEqual([]);
    expect(hits(rule, 'result', inputRequired({}), v25)).toEqual([]);
  });

  // The TypeScript SDK v2 client (2026-07-28 codec) rejects "input_required carries neither inputRequests
  // nor requestState" when inputRequests has no entry and requestState is no string.
  it('takes an empty inputRequests without requestState for neither', () => {
    expect(hits(rule, 'result', inputRequired({ inputRequests: {} }))).toEqual([['empty', '/inputRequests']]);
    expect(run('result', inputRequired({ inputRequests: {} })).find((f) => f.rule === rule)?.message).toBe(
      'the input_required result has an empty "inputRequests" and no "requestState"; the client has nothing to answer',
    );
    expect(hits(rule, 'result', inputRequired({ inputRequests: {}, requestState: 's' }))).toEqual([]);
    expect(hits(rule, 'result', inputRequired({ inputRequests: {}, requestState: 7 }))).toEqual([
      ['requestState', '/requestState'],
    ]);
  });

  it('checks the types of requestState, inputRequests and each request', () => {
    expect(hits(rule, 'result', inputRequired({ requestState: 7 }))).toEqual([
      ['requestState', '/requestState'],
    ]);
    expect(hits(rule, 'result', inputRequired({ inputRequests: ['roots/list'] }))).toEqual([
      ['inputRequests', '/inputRequests'],
    ]);
    const requests = {
      ok: { method: 'sampling/createMessage', params: { messages: [], maxTokens: 10 } },
      notObject: 'roots/list',
      noMethod: { params: {} },
      unknownMethod: { method: 'tools/call', params: {} },
      noParams: { method: 'elicitation/create' },
      badParams: { method: 'roots/list', params: 'x' },
    };
    expect(hits(rule, 'result', inputRequired({ inputRequests: requests }))).toEqual([
      ['request', '/inputRequests/notObject'],
      ['request', '/inputRequests/noMethod'],
      ['request', '/inputRequests/unknownMethod'],
      ['request', '/inputRequests/noParams'],
      ['request', '/inputRequests/badParams'],
    ]);
  });

  it('takes an input request only for a capability the answered request declared, as the SDK v2 client does', async () => {
    const asksRoots = inputRequired({
      inputRequests: { where: { method: 'roots/list' } },
      requestState: 's',
    });
    const done = { resultType: 'complete', content: [{ type: 'text', text: 'done' }] };
    // Without the roots capability the client cannot answer: the call fails.
    const bare = await pinnedV2Client(() => asksRoots);
    await expect(bare.client.callTool({ name: 'files', arguments: {} })).rejects.toThrow(
      "no handler is registered for 'roots/list'",
    );
    await bare.client.close();
    expect(hits(rule, 'result', asksRoots, { request: bare.calls[0] })).toEqual([
      ['undeclared', '/inputRequests/where/method'],
    ]);
    // With it, the client answers and retries, and the call completes.
    const rooted = await pinnedV2Client((_call, n) => (n === 1 ? asksRoots : done), { roots: true });
    await expect(rooted.client.callTool({ name: 'files', arguments: {} })).resolves.toMatchObject({
      content: [{ type: 'text', text: 'done' }],
    });
    await rooted.client.close();
    expect(hits(rule, 'result', asksRoots, { request: rooted.calls[0] })).toEqual([]);
    // Where the request is not known, nothing is claimed.
    expect(hits(rule, 'result', asksRoots)).toEqual([]);
  });

  it('is not mistaken for a CallToolResult without content', () => {
    const findings = run('result', inputRequired({ requestState: 's' }));
    expect(findings.filter((f) => f.severity === 'error')).toEqual([]);
  });
});

describe('structuredContent and versions', () => {
  it('structured-content-not-object: every version before 2026-07-28, with a mirror kept in step', () => {
    const result = { content: [text('[1, 2]')], structuredContent: [1, 2] };
    for (const version of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25'] as const) {
      expect(hits('structured-content-not-object', 'result', result, { version })).toEqual([
        ['default', '/structuredContent'],
      ]);
    }
    const r = repairOnce('structured-content-not-object', 'result', result, v25);
    expect(r.doc).toEqual({ content: [text('{"result":[1,2]}')], structuredContent: { result: [1, 2] } });
    expect(run('result', r.doc, v25).filter((f) => f.rule.startsWith('structured-content'))).toEqual([]);
  });

  it('structured-content-not-object-old-clients: a warning in 2026-07-28', () => {
    const result = { resultType: 'complete', content: [text('null')], structuredContent: null };
    const findings = run('result', result).filter((f) => f.rule.startsWith('structured-content-not-object'));
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([
      ['structured-content-not-object-old-clients', 'warning'],
    ]);
  });

  it('structured-content-unsupported-version: only unmirrored data, only before 2025-06-18', () => {
    const rule = 'structured-content-unsupported-version';
    const bare = { content: [], structuredContent: { a: 1 } };
    expect(hits(rule, 'result', bare, { version: '2025-03-26' })).toEqual([
      ['default', '/structuredContent'],
    ]);
    expect(hits(rule, 'result', bare, v25)).toEqual([]);
    expect(hits(rule, 'result', { ...bare, content: [text('{"a": 1}')] }, { version: '2024-11-05' })).toEqual(
      [],
    );
    expect(repairOnce(rule, 'result', bare, { version: '2025-03-26' }).doc).toEqual({
      content: [text('{"a":1}')],
      structuredContent: { a: 1 },
    });
  });
});

describe('text mirror rules', () => {
  const missing = 'structured-content-text-mirror-missing';
  const mismatch = 'structured-content-text-mismatch';

  it('accepts any JSON formatting and a string shown as itself', () => {
    const pretty = { content: [text('{\n  "b": [1],\n  "a": 1\n}')], structuredContent: { a: 1, b: [1] } };
    expect(hits(missing, 'result', pretty, v25)).toEqual([]);
    expect(hits(mismatch, 'result', pretty, v25)).toEqual([]);
    const str = { resultType: 'complete', content: [text('hello')], structuredContent: 'hello' };
    expect(hits(missing, 'result', str)).toEqual([]);
    // A scalar in 2026-07-28, written as JSON writes it or not: a number with spaces or in another form.
    for (const shown of ['42', ' 42 ', '4.2e1', '42.0']) {
      const scalar = { resultType: 'complete', content: [text(shown)], structuredContent: 42 };
      expect(hits(missing, 'result', scalar), shown).toEqual([]);
    }
    const other = { resultType: 'complete', content: [text('43')], structuredContent: 42 };
    expect(hits(missing, 'result', other)).toEqual([['prose', '/content']]);
  });

  it('gives a result without content the mirror older clients read, in content it creates', () => {
    const old = { version: '2025-03-26' } as const;
    const repaired = repairOnce(
      'structured-content-unsupported-version',
      'result',
      { structuredContent: { a: 1 } },
      old,
    );
    expect(repaired.doc).toEqual({ structuredContent: { a: 1 }, content: [text('{"a":1}')] });
    expect(repaired.after).toEqual([]);
  });

  it('reports a missing mirror, distinguishing empty content from prose', () => {
    expect(hits(missing, 'result', { content: [], structuredContent: { a: 1 } }, v25)).toEqual([
      ['default', '/content'],
    ]);
    expect(
      hits(missing, 'result', { content: [text('One item')], structuredContent: { a: 1 } }, v25),
    ).toEqual([['prose', '/content']]);
    const r = repairOnce(
      missing,
      'result',
      { content: [text('One item')], structuredContent: { a: 1 } },
      v25,
    );
    expect(r.doc).toEqual({ content: [text('One item'), text('{"a":1}')], structuredContent: { a: 1 } });
  });

  it('reports JSON text that disagrees, and only that', () => {
    const result = { content: [text('hi'), text('{"a":2}')], structuredContent: { a: 1 } };
    expect(hits(mismatch, 'result', result, v25)).toEqual([['default', '/content/1/text']]);
    expect(hits(missing, 'result', result, v25)).toEqual([]);
  });

  it('skips the mismatch check on partial documents from static analysis', () => {
    const result = { content: [text('{"a":2}')], structuredContent: { a: 1 } };
    expect(runToolResult(result, { version: '2025-06-18' }).some((f) => f.rule === mismatch)).toBe(true);
    expect(
      runToolResult(result, { version: '2025-06-18', partial: true }).some((f) => f.rule === mismatch),
    ).toBe(false);
  });
});

describe('results without structuredContent', () => {
  it('are no concern of the structuredContent rules, in any version, with or without a tool', () => {
    const plainTool = { name: 'plain', inputSchema: { type: 'object' } };
    const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
    for (const version of ['2025-03-26', '2025-06-18', '2026-07-28'] as const) {
      const extra = version === '2026-07-28' ? { resultType: 'complete' } : {};
      for (const content of [[], [text('hi')], [text('{"a":1}')], [image], [text('{"error":"x"}'), image]]) {
        for (const tool of [undefined, plainTool]) {
          const fired = run('result', { ...extra, content }, { version, tool })
            .map((f) => f.rule)
            .filter(
              (rule) =>
                rule.startsWith('structured-content') || rule === 'result-media-with-structured-content',
            );
          expect(fired, `${version} ${JSON.stringify(content)} ${tool ? 'tool' : ''}`).toEqual([]);
        }
      }
    }
  });

  it('a text the source does not fix (scan) still counts as prose beside structuredContent', () => {
    const doc = { content: [{ type: 'text', text: new Opaque('summary') }], structuredContent: { a: 1 } };
    expect(
      runToolResult(doc, { version: '2025-06-18', partial: true })
        .filter((f) => f.rule === 'structured-content-text-mirror-missing')
        .map((f) => [f.messageId, f.pointer]),
    ).toEqual([['prose', '/content']]);
  });
});

describe('the result rules at their edges', () => {
  const L = { version: '2026-07-28' } as const;

  it('holds a finished 2026-07-28 result to content, and 2025 results of any resultType', () => {
    const missing = 'result-content-missing';
    expect(hits(missing, 'result', { resultType: 'complete' })).toEqual([['default', '/content']]);
    // input_required exists from 2026-07-28 only: before, the member proves nothing.
    expect(hits(missing, 'result', { resultType: 'input_required' }, v25)).toEqual([['default', '/content']]);
  });

  it('names every payload member it moves into the text', () => {
    const r = repairOnce('result-content-missing', 'result', { temperature: 22, unit: 'C' }, v25);
    expect(r.doc).toEqual({ temperature: 22, unit: 'C', content: [text('{"temperature":22,"unit":"C"}')] });
    expect(r.outcome).toEqual({
      description: 'added content with a text block carrying the JSON of temperature, unit',
    });
  });

  it('takes booleans and an undefined member (JSON leaves it out) as isError', () => {
    for (const isError of [true, false, undefined]) {
      expect(hits('result-is-error-not-boolean', 'result', { content: [], isError }, v25)).toEqual([]);
    }
  });

  it('takes an undefined _meta (JSON leaves it out), and removes a null one without loss', () => {
    expect(hits('result-meta-not-object', 'result', { content: [], _meta: undefined }, v25)).toEqual([]);
    const r = repairOnce('result-meta-not-object', 'result', { content: [], _meta: null }, v25);
    expect(r.doc).toEqual({ content: [] });
    expect(r.outcome).toEqual({ description: 'removed the non-object "_meta" (null)', lossy: false });
  });

  it('keeps the structuredContent a legacy result already has', () => {
    const r = repairOnce(
      'result-legacy-tool-result',
      'result',
      { toolResult: { a: 1 }, structuredContent: { b: 2 } },
      v25,
    );
    expect(r.doc).toEqual({ structuredContent: { b: 2 }, content: [text('{"a":1}')] });
    expect(r.outcome).toEqual({
      description: 'replaced the legacy toolResult with a text block of its JSON',
    });
  });

  it('leaves a result that is no object to result-not-object', () => {
    expect(hits('result-type-invalid', 'result', 'done', L)).toEqual([]);
    expect(run('result', 'done', L).map((f) => f.rule)).toEqual(['result-not-object']);
  });

  it('completes a structured result without content, which is still a CallToolResult', () => {
    const r = repairOnce('result-type-invalid', 'result', { structuredContent: { a: 1 } }, L);
    expect(r.doc).toEqual({ structuredContent: { a: 1 }, resultType: 'complete' });
  });

  it('moves an array out of a block where the version can hold it, and drops it where not', () => {
    const block = { type: 'text', text: '[1]', structuredContent: [1] };
    const latest = repairOnce(
      'structured-content-in-block',
      'result',
      { resultType: 'complete', content: [block] },
      L,
    );
    expect(latest.doc).toEqual({ resultType: 'complete', content: [text('[1]')], structuredContent: [1] });
    const old = repairOnce('structured-content-in-block', 'result', { content: [block] }, v25);
    expect(old.doc).toEqual({ content: [text('[1]')] });
    expect(old.outcome).toEqual({
      description: 'removed structuredContent from content block 0 (clients strip it)',
      lossy: true,
    });
    expect(hits('structured-content-in-block', 'result', { content: 'x' }, v25)).toEqual([]);
  });

  it('wraps a bare structuredContent and rewrites only the text that mirrors it', () => {
    const r = repairOnce(
      'structured-content-not-object',
      'result',
      { content: [text('"x"'), text('x, as prose')], structuredContent: 'x' },
      v25,
    );
    expect(r.doc).toEqual({
      content: [text('{"result":"x"}'), text('x, as prose')],
      structuredContent: { result: 'x' },
    });
  });

  it('finds no disagreement where no text is JSON: that is a missing mirror', () => {
    const doc = { content: [text('It is warm')], structuredContent: { a: 1 } };
    expect(hits('structured-content-text-mismatch', 'result', doc, v25)).toEqual([]);
    expect(hits('structured-content-text-mirror-missing', 'result', doc, v25)).toEqual([
      ['prose', '/content'],
    ]);
  });

  it('mirrors structuredContent for 2025-03-26 clients, where content can take it', () => {
    const rule = 'structured-content-unsupported-version';
    const old = { version: '2025-03-26' } as const;
    const r = repairOnce(rule, 'result', { content: [], structuredContent: { a: 1 } }, old);
    expect(r.doc).toEqual({ content: [text('{"a":1}')], structuredContent: { a: 1 } });
    expect(r.outcome).toEqual({ description: 'added a text block carrying the JSON of structuredContent' });
    expect(
      repairOnce(rule, 'result', { content: 'x', structuredContent: { a: 1 } }, old).outcome,
    ).toBeUndefined();
  });

  it('reports at most ten schema errors, and against a schema that does not compile only that it was not checked', () => {
    const properties = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`p${i}`, { type: 'number' }]),
    );
    const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties } };
    const structuredContent = Object.fromEntries(Object.keys(properties).map((k) => [k, 'x']));
    const found = hits(
      'structured-content-schema-mismatch',
      'result',
      { content: [], structuredContent },
      { ...v25, tool },
    );
    expect(found).toHaveLength(10);
    const broken = { ...tool, outputSchema: { type: 'object', properties: { a: { type: 'nonsense' } } } };
    expect(
      hits(
        'structured-content-schema-mismatch',
        'result',
        { content: [], structuredContent: { a: 1 } },
        { ...v25, tool: broken },
      ),
    ).toEqual([['uncompilable', '/structuredContent']]);
  });

  it('says what it did with the non-conforming structuredContent of an error result', () => {
    const tool = {
      name: 't',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'object', required: ['t'] },
    };
    const r = repairOnce(
      'structured-content-schema-mismatch',
      'result',
      { content: [text('{"reason":"down"}')], structuredContent: { reason: 'down' }, isError: true },
      { ...v25, tool },
    );
    expect(r.doc).toEqual({ content: [text('{"reason":"down"}')], isError: true });
    expect(r.outcome).toEqual({
      description: 'moved the non-conforming structuredContent of the error result into a text block',
    });
  });
});

describe('result-error-without-is-error', () => {
  const rule = 'result-error-without-is-error';
  it('finds error payloads in structuredContent, as a member, and as the only text', () => {
    expect(hits(rule, 'result', { content: [text('{}')], structuredContent: { error: 'x' } }, v25)).toEqual([
      ['structured', '/structuredContent/error'],
    ]);
    expect(hits(rule, 'result', { content: [], error: { message: 'x' } }, v25)).toEqual([
      ['member', '/error'],
    ]);
    expect(hits(rule, 'result', { content: [text('{"error":"nope"}')] }, v25)).toEqual([
      ['text', '/content/0/text'],
    ]);
  });

  it('names the made-up block type in its message, even an empty one (found by the fuzz test)', () => {
    const findings = run('result', { content: [{ type: '', object: { error: 'quota exceeded' } }] }, v25);
    const messages = findings.filter((f) => f.rule === rule).map((f) => f.message);
    expect(messages).toEqual([
      'the only content block ("") carries an {"error": …} payload but "isError" is not true',
    ]);
  });

  it('ignores empty errors, errors among other output, and results with isError', () => {
    expect(hits(rule, 'result', { content: [text('{"error":null}')] }, v25)).toEqual([]);
    expect(hits(rule, 'result', { content: [text('{"error":"x"}'), text('more')] }, v25)).toEqual([]);
    expect(hits(rule, 'result', { content: [text('{"error":"x"}')], isError: true }, v25)).toEqual([]);
  });

  it('sets isError and adds readable text when there is none', () => {
    const r = repairOnce(
      rule,
      'result',
      { content: [], structuredContent: { error: { message: 'no city' } } },
      v25,
    );
    expect(r.doc).toEqual({
      content: [text('no city')],
      structuredContent: { error: { message: 'no city' } },
      isError: true,
    });
    expect(repairOnce(rule, 'result', { content: [text('{"error":"x"}')] }, v25).doc).toEqual({
      content: [text('{"error":"x"}')],
      isError: true,
    });
  });
});

describe('result-media-with-structured-content', () => {
  it('reports each image or audio block next to structuredContent', () => {
    const result = {
      content: [
        text('{}'),
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
      ],
      structuredContent: {},
    };
    expect(hits('result-media-with-structured-content', 'result', result, v25)).toEqual([
      ['default', '/content/1'],
      ['default', '/content/2'],
    ]);
  });
});

describe('result-over-client-limits', () => {
  const rule = 'result-over-client-limits';
  it('estimates tokens at 4 characters per token', () => {
    expect(hits(rule, 'result', { content: [text('x'.repeat(99_000))] }, v25)).toEqual([]);
    expect(hits(rule, 'result', { content: [text('x'.repeat(101_000))] }, v25)).toEqual([['tokens', '']]);
  });

  it('counts only own members, also when Object.prototype has an enumerable one', () => {
    const result = { content: [text('x'.repeat(99_000))], _meta: {} };
    expect(hits(rule, 'result', result, v25)).toEqual([]);
    Object.defineProperty(Object.prototype, 'polluted', {
      value: 'y'.repeat(10_000),
      enumerable: true,
      configurable: true,
      writable: true,
    });
    try {
      expect(hits(rule, 'result', result, v25)).toEqual([]);
    } finally {
      delete (Object.prototype as { polluted?: string }).polluted;
    }
  });

  it('measures the serialized result exactly, structuredContent included', () => {
    // Padded so that JSON.stringify(result) is exactly 100 000 characters (25 000 tokens), then one more.
    const sized = (length: number) => {
      const result = {
        content: [text('')],
        structuredContent: { rows: [{ id: 'a', n: 1.5, ok: true, none: null }] },
      };
      result.content = [text('x'.repeat(length - JSON.stringify(result).length))];
      expect(JSON.stringify(result)).toHaveLength(length);
      return result;
    };
    expect(hits(rule, 'result', sized(100_000), v25)).toEqual([]);
    expect(hits(rule, 'result', sized(100_001), v25)).toEqual([['tokens', '']]);
    const onlyStructured = { content: [], structuredContent: { s: 'y'.repeat(100_001 - 43) } };
    expect(JSON.stringify(onlyStructured)).toHaveLength(100_001);
    expect(hits(rule, 'result', onlyStructured, v25)).toEqual([['tokens', '']]);
  });

  it('estimates tokens from what JSON writes of values it cannot carry (a handler result is a JS value)', () => {
    // A function member is left out, and a function, undefined or NaN item is written as null: the
    // estimate must not count `String(fn)` (its source) or "undefined".
    const source = 'x'.repeat(200_000);
    const big = new Function(`return '${source}'`); // its source text is 200 000 characters long
    const sized = (length: number) => {
      const result: JsonObject = {
        content: [text('')],
        _meta: { helper: big, items: [big, undefined, Number.NaN, 1] },
      };
      (result.content as JsonObject[])[0] = text('x'.repeat(length - JSON.stringify(result).length));
      expect(JSON.stringify(result)).toHaveLength(length);
      return result;
    };
    expect(hits(rule, 'result', sized(100_000), v25)).toEqual([]);
    expect(hits(rule, 'result', sized(100_001), v25)).toEqual([['tokens', '']]);
  });

  it('reports results over 1 MiB, counting multi-byte characters exactly', () => {
    const ascii = { content: [text('x'.repeat(1_048_600))] };
    expect(hits(rule, 'result', ascii, v25).map(([id]) => id)).toEqual(['default', 'tokens']);
    // 400k three-byte characters: 1.2 MB of UTF-8 in 400k UTF-16 units.
    const wide = { content: [text('€'.repeat(400_000))] };
    expect(hits(rule, 'result', wide, v25).map(([id]) => id)).toContain('default');
  });

  it('measures a result nested deeper than the call stack reaches, exactly, as it came off the wire', () => {
    // JSON.parse builds any depth; JSON.stringify could not write it back, so lengths are counted here.
    const sized = (levels: number, length: number) => {
      const shell = { content: [text('')], _meta: { d: 0 } };
      const pad = length - (JSON.stringify(shell).length - 1 + 2 * levels);
      return JSON.parse(
        `{"content":[{"type":"text","text":"${'x'.repeat(pad)}"}],"_meta":{"d":${'['.repeat(levels)}${']'.repeat(levels)}}}`,
      ) as JsonObject;
    };
    // The token estimate (the bounds walk), either side of 25 000 tokens.
    expect(hits(rule, 'result', sized(45_000, 100_000), v25)).toEqual([]);
    expect(hits(rule, 'result', sized(45_000, 100_001), v25)).toEqual([['tokens', '']]);
    // The exact byte count, either side of 1 MiB.
    expect(hits(rule, 'result', sized(200_000, 1_048_576), v25).map(([id]) => id)).toEqual(['tokens']);
    expect(hits(rule, 'result', sized(200_000, 1_048_577), v25).map(([id]) => id)).toEqual([
      'default',
      'tokens',
    ]);
  });

  it('leaves what JSON.stringify throws on to result-not-serializable, an error: no client can receive it', () => {
    const unserializable = (reason: string) => [
      [
        'result-not-serializable',
        'error',
        `the result cannot be serialized: ${reason}, so JSON.stringify throws and no client receives it`,
      ],
    ];
    const judged = (result: JsonObject) =>
      run('result', result, v25).map((f) => [f.rule, f.severity, f.message]);
    const meta: JsonObject = { a: 1 };
    meta.self = meta;
    expect(judged({ content: [text('hi')], _meta: meta })).toEqual(
      unserializable('it holds a circular reference'),
    );
    expect(judged({ content: [{ ...text('hi'), n: 10n } as unknown as JsonObject] })).toEqual(
      unserializable('it holds a BigInt'),
    );
    expect(
      judged({ content: [text('hi')], structuredContent: { total: 2n ** 70n } }).filter(
        ([id]) => id === 'result-not-serializable' || id === rule,
      ),
    ).toEqual(unserializable('it holds a BigInt'));
    const failing = {
      toJSON() {
        throw new Error('no');
      },
    };
    expect(judged({ content: [text('hi')], _meta: { when: failing } as unknown as JsonObject })).toEqual(
      unserializable('a toJSON method throws'),
    );
    // A program that teaches JSON.stringify to write BigInts makes them sendable: counted, not reported.
    const prototype = BigInt.prototype as { toJSON?: () => string };
    prototype.toJSON = function (this: bigint) {
      return this.toString();
    };
    try {
      expect(judged({ content: [text('hi')], _meta: { n: 10n } as unknown as JsonObject })).toEqual([]);
      expect(
        hits(rule, 'result', { content: [text('')], _meta: { n: 10n ** 100_001n } as never }, v25),
      ).toEqual([['tokens', '']]);
      prototype.toJSON = () => {
        throw new Error('no');
      };
      expect(judged({ content: [text('hi')], _meta: { n: 10n } as unknown as JsonObject })).toEqual(
        unserializable('BigInt.prototype.toJSON throws'),
      );
    } finally {
      delete prototype.toJSON;
    }
    // Shared (not circular) parts are written twice by JSON, and counted twice.
    const half = { s: 'x'.repeat(50_000) };
    expect(hits(rule, 'result', { content: [text('')], _meta: { a: half, b: half } }, v25)).toEqual([
      ['tokens', ''],
    ]);
  });

  it('reports images over 5 MB decoded', () => {
    const image = { type: 'image', data: 'A'.repeat(7_200_000), mimeType: 'image/png' };
    expect(hits(rule, 'result', { content: [image] }, v25)).toContainEqual(['image', '/content/0/data']);
  });
});

describe("the SDK v2 client's reading of an outputSchema without $schema", () => {
  // The official clients' own validators, as each client runs them on a tool's outputSchema.
  const v1 = new V1Validator();
  const v2 = new V2Validator();
  const accepts = (validator: V1Validator | V2Validator, schema: JsonObject, value: unknown): boolean => {
    try {
      return validator.getValidator(schema)(value).valid;
    } catch {
      return false; // the schema does not compile for that client: every call of the tool fails
    }
  };
  const property = (schema: JsonObject) => ({ type: 'object', properties: { a: schema } });
  // Each passed check on 2025-06-18 (draft-07 ignores the keyword) while the v2 client rejects it.
  const cases: [string, JsonObject, unknown][] = [
    ['prefixItems', property({ type: 'array', prefixItems: [{ type: 'string' }] }), { a: [1] }],
    ['dependentRequired', { type: 'object', dependentRequired: { a: ['b'] } }, { a: 1 }],
    [
      'unevaluatedProperties',
      { type: 'object', properties: { a: {} }, unevaluatedProperties: false },
      { a: 1, b: 2 },
    ],
    [
      'minContains',
      property({ type: 'array', contains: { type: 'string' }, minContains: 2 }),
      { a: ['x', 1] },
    ],
    ['a draft-07 tuple', property({ type: 'array', items: [{ type: 'string' }] }), { a: ['x'] }],
  ];

  it('holds structuredContent to it before 2025-11-25, as the v2 client does', () => {
    for (const [label, outputSchema, structuredContent] of cases) {
      expect(accepts(v1, outputSchema, structuredContent), label).toBe(true);
      expect(accepts(v2, outputSchema, structuredContent), label).toBe(false);
      const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema };
      const result = { content: [text(JSON.stringify(structuredContent))], structuredContent };
      const findings = validateToolResultSync(result, { protocolVersion: '2025-06-18', tool });
      const errors = findings.filter((f) => f.severity === 'error').map((f) => f.rule);
      expect(errors, label).toContain('structured-content-schema-mismatch');
      const said = findings.find((f) => f.rule === 'structured-content-schema-mismatch')?.message ?? '';
      expect(said, label).toContain('TypeScript SDK v2 client');
      // Only that client refuses it: the breaks line names no other.
      const finding = findings.find((f) => f.rule === 'structured-content-schema-mismatch');
      expect(finding && affectedClients(finding).map((c) => c.client), label).toEqual(['ts-sdk-v2']);
      // With the draft-07 dialect declared, both clients read it as draft-07, which accepts it.
      const declared = { ...outputSchema, $schema: 'http://json-schema.org/draft-07/schema#' };
      expect(accepts(v2, declared, structuredContent), label).toBe(true);
      const clean = validateToolResultSync(result, {
        protocolVersion: '2025-06-18',
        tool: { ...tool, outputSchema: declared },
      });
      expect(
        clean.filter((f) => f.rule === 'structured-content-schema-mismatch'),
        label,
      ).toEqual([]);
    }
  });

  it('reports what both readings find once, and adds nothing where the v2 reading agrees', () => {
    const outputSchema = { type: 'object', properties: { n: { type: 'number' } } };
    const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema };
    expect(
      hits(
        'structured-content-schema-mismatch',
        'result',
        { content: [], structuredContent: { n: 'x' } },
        { ...v25, tool },
      ),
    ).toEqual([['default', '/structuredContent/n']]);
    const tuple = property({ type: 'array', items: [{ type: 'string' }] });
    const result = { content: [text('{"a":["x"]}')], structuredContent: { a: ['x'] } };
    expect(
      hits('structured-content-schema-mismatch', 'result', result, {
        ...v25,
        tool: { ...tool, outputSchema: tuple },
      }),
    ).toEqual([['v2Uncompilable', '/structuredContent']]);
    // From 2025-11-25 on the version's reading is the v2 client's: no second reading.
    expect(
      hits(
        'structured-content-schema-mismatch',
        'result',
        { content: [], structuredContent: { n: 'x' } },
        { version: '2025-11-25', tool },
      ),
    ).toEqual([['default', '/structuredContent/n']]);
  });

  it("resolves a $ref to the schema's own $id, as both clients do, and compiles two schemas of one $id apart", () => {
    const outputSchema = {
      $id: 'http://example.com/s',
      type: 'object',
      definitions: { x: { type: 'string' } },
      properties: { a: { $ref: 'http://example.com/s#/definitions/x' } },
    };
    for (const [value, valid] of [
      [{ a: 'ok' }, true],
      [{ a: 1 }, false],
    ] as const) {
      expect(accepts(v1, outputSchema, value)).toBe(valid);
      expect(accepts(v2, outputSchema, value)).toBe(valid);
      const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema };
      for (const version of ['2025-06-18', '2025-11-25'] as const) {
        const result = { content: [text(JSON.stringify(value))], structuredContent: value };
        const errors = validateToolResultSync(result, { protocolVersion: version, tool }).filter(
          (f) => f.severity === 'error',
        );
        expect(
          errors.map((f) => f.pointer),
          `${version} ${JSON.stringify(value)}`,
        ).toEqual(valid ? [] : ['/structuredContent/a']);
      }
    }
    const list = { tools: [{ name: 't', inputSchema: { type: 'object' }, outputSchema }] };
    expect(run('tools-list', list, v25).map((f) => f.rule)).toEqual([]);
    // Another schema under the same $id is its own schema, not the first one's.
    const other = { ...outputSchema, definitions: { x: { type: 'number' } } };
    const tool = { name: 't', inputSchema: { type: 'object' }, outputSchema: other };
    const result = { content: [text('{"a":1}')], structuredContent: { a: 1 } };
    expect(
      validateToolResultSync(result, { protocolVersion: '2025-06-18', tool }).filter(
        (f) => f.severity === 'error',
      ),
    ).toEqual([]);
  });

  it('reports a tools list whose outputSchema does not compile in the v2 reading (tool-schema-not-compilable)', () => {
    const tuple = property({ type: 'array', items: [{ type: 'string' }] });
    const list = { tools: [{ name: 't', inputSchema: tuple, outputSchema: tuple }] };
    // The inputSchema is not compiled by clients; the outputSchema is, by the v2 client as 2020-12.
    expect(hits('tool-schema-not-compilable', 'tools-list', list, v25)).toEqual([
      ['sdkV2', '/tools/0/outputSchema'],
    ]);
    const declared = { ...tuple, $schema: 'http://json-schema.org/draft-07/schema#' };
    const fixed = { tools: [{ name: 't', inputSchema: tuple, outputSchema: declared }] };
    expect(hits('tool-schema-not-compilable', 'tools-list', fixed, v25)).toEqual([]);
  });
});

describe('outputSchema conformance', () => {
  const tool = {
    name: 'weather',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] },
  };
  const mismatch = 'structured-content-schema-mismatch';
  const missing = 'structured-content-missing-for-output-schema';

  it('applies before 2025-06-18 too, where the SDK clients check a listed outputSchema all the same', async () => {
    const { Client: V1Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { InMemoryTransport: V1Memory } = await import('@modelcontextprotocol/sdk/inMemory.js');
    const { Client: V2Client, InMemoryTransport: V2Memory } = await import('@modelcontextprotocol/client');
    const version = '2025-03-26';
    const wrong = { content: [text('{"t":"warm"}')], structuredContent: { t: 'warm' } };
    const none = { content: [text('warm')] };
    for (const [sdk, Client, Memory] of [
      ['v1', V1Client, V1Memory],
      ['v2', V2Client, V2Memory],
    ] as const) {
      for (const [result, rule, said] of [
        [wrong, mismatch, 'does not match'],
        [none, missing, 'did not return structured content'],
      ] as const) {
        const [clientSide, serverSide] = Memory.createLinkedPair();
        serverSide.onmessage = (message: unknown) => {
          const m = message as JsonObject;
          const id = m.id as number;
          const serverInfo = { name: 'old', version: '1' };
          const answers: Record<string, unknown> = {
            initialize: { protocolVersion: version, capabilities: { tools: {} }, serverInfo },
            'tools/list': { tools: [tool] },
            'tools/call': result,
          };
          const answer = answers[m.method as string];
          if (answer !== undefined) void serverSide.send({ jsonrpc: '2.0', id, result: answer } as never);
        };
        await serverSide.start();
        const client = new Client({ name: 'c', version: '1' });
        await client.connect(clientSide as never);
        expect(client.getServerVersion()?.name, sdk).toBe('old');
        await client.listTools();
        await expect(client.callTool({ name: 'weather', arguments: {} }), `${sdk} ${rule}`).rejects.toThrow(
          said,
        );
        await client.close();
        expect(hits(rule, 'result', result, { version, tool }), `${sdk} ${rule}`).not.toEqual([]);
      }
    }
  });

  it('reports each schema error with the instance pointer and schema path', () => {
    const findings = run(
      'result',
      { content: [text('{"t":"warm"}')], structuredContent: { t: 'warm' } },
      { ...v25, tool },
    );
    const f = findings.find((x) => x.rule === mismatch);
    expect(f?.pointer).toBe('/structuredContent/t');
    expect(f?.message).toContain('#/properties/t/type');
  });

  it('notes that SDK v1 validates error results too, and repairs those by moving the data to text', () => {
    const result = { content: [], structuredContent: { reason: 'down' }, isError: true };
    expect(hits(mismatch, 'result', result, { ...v25, tool })).toEqual([['onError', '/structuredContent']]);
    const r = repairOnce(mismatch, 'result', result, { ...v25, tool });
    expect(r.doc).toEqual({ content: [text('{"reason":"down"}')], isError: true });
    expect(r.after).toEqual([]);
    expect(
      repairOnce(mismatch, 'result', { content: [], structuredContent: {} }, { ...v25, tool }).outcome,
    ).toBeUndefined();
  });

  it('says that structuredContent was not checked where the outputSchema does not compile (it passed)', () => {
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.properties = { t: cyclic };
    const schemas: [string, unknown][] = [
      ['an unknown type', { type: 'objekt' }],
      ['a dangling $ref', { type: 'object', properties: { t: { $ref: '#/nowhere' } } }],
      ['another document', { type: 'object', properties: { t: { $ref: 'https://example.com/t.json' } } }],
      ['a BigInt', { type: 'object', properties: { t: { type: 'number', maximum: 5n } } }],
      ['a circular JS value', cyclic],
    ];
    for (const [label, outputSchema] of schemas) {
      const findings = validateToolResultSync(
        { content: [text('{"t":"warm"}')], structuredContent: { t: 'warm' } },
        { protocolVersion: '2025-06-18', tool: { ...tool, outputSchema } },
      );
      expect(
        findings.map((f) => [f.rule, f.severity, f.pointer, f.fix?.automatic]),
        label,
      ).toEqual([[mismatch, 'error', '/structuredContent', false]]);
      expect(findings[0]?.message, label).toMatch(
        /^structuredContent was not checked: the tool's outputSchema does not compile \(.+\)/,
      );
    }
  });

  it('answers a tool option that throws when read with internal-error, not a throw', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const result = { content: [text('{"t":1}')], structuredContent: { t: 1 } };
    expect(
      validateToolResultSync(result, { protocolVersion: '2025-06-18', tool: proxy }).map((f) => f.rule),
    ).toEqual(['internal-error']);
  });

  it('uses the dialect the schema declares', () => {
    const draft7 = {
      ...tool,
      outputSchema: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', prefixItems: 1 },
    };
    // prefixItems is not a draft-07 keyword, so a draft-07 schema ignores it and compiles.
    expect(
      hits(mismatch, 'result', { content: [text('{}')], structuredContent: {} }, { tool: draft7 }),
    ).toEqual([]);
  });

  it('repairs structuredContent from JSON text without sharing the parsed value with later runs', () => {
    const spaced = '{ "t": 1 }';
    const r = repairOnce(missing, 'result', { content: [text(spaced)] }, { ...v25, tool });
    const repaired = r.doc as { structuredContent: { t: unknown } };
    expect(repaired.structuredContent).toEqual({ t: 1 });
    repaired.structuredContent.t = 'changed by the caller';
    const again = { content: [text(spaced)], structuredContent: { t: 1 } };
    expect(hits('structured-content-text-mismatch', 'result', again, v25)).toEqual([]);
  });

  it('requires structuredContent on successful results only', () => {
    expect(hits(missing, 'result', { content: [text('22')] }, { ...v25, tool })).toEqual([
      ['default', '/structuredContent'],
    ]);
    expect(hits(missing, 'result', { content: [text('down')], isError: true }, { ...v25, tool })).toEqual([]);
    expect(hits(missing, 'result', { resultType: 'input_required' }, { tool })).toEqual([]);
  });

  it('recovers structuredContent from matching JSON text only', () => {
    const r = repairOnce(missing, 'result', { content: [text('{"t": 22}')] }, { ...v25, tool });
    expect(r.doc).toEqual({ content: [text('{"t": 22}')], structuredContent: { t: 22 } });
    expect(
      repairOnce(missing, 'result', { content: [text('{"t":"x"}')] }, { ...v25, tool }).outcome,
    ).toBeUndefined();
  });

  describe('a value wrapped for the wrong era', () => {
    const numbers = {
      name: 'numbers',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'array', items: { type: 'number' } },
    };
    const wrapped = {
      ...numbers,
      outputSchema: {
        type: 'object',
        properties: { result: { type: 'array', items: { type: 'number' } } },
        required: ['result'],
      },
    };
    const L = { version: '2026-07-28', tool: numbers } as const;

    it('unwraps { "result": value } where the schema describes the bare value, with its text mirror', () => {
      const r = repairOnce(
        mismatch,
        'result',
        {
          resultType: 'complete',
          content: [text('{"result":[1,2]}'), text('two numbers')],
          structuredContent: { result: [1, 2] },
        },
        L,
      );
      expect(r.doc).toEqual({
        resultType: 'complete',
        content: [text('[1,2]'), text('two numbers')],
        structuredContent: [1, 2],
      });
      expect(r.outcome).toEqual({
        description:
          'unwrapped structuredContent from { "result": value }, as the outputSchema describes the value',
      });
      expect(r.after).toEqual([]);
    });

    it('wraps a bare value where the schema describes { "result": value }, in every version with structuredContent', () => {
      for (const [version, extra] of [
        ['2026-07-28', { resultType: 'complete' }],
        ['2025-06-18', {}],
      ] as const) {
        const r = repairOnce(
          mismatch,
          'result',
          { ...extra, content: [text('[1,2]')], structuredContent: [1, 2] },
          { version, tool: wrapped },
        );
        expect(r.doc, version).toEqual({
          ...extra,
          content: [text('{"result":[1,2]}')],
          structuredContent: { result: [1, 2] },
        });
        expect(r.outcome, version).toEqual({
          description: 'wrapped structuredContent as { "result": value }, which the outputSchema describes',
        });
      }
    });

    it('leaves the value where rewrapping would not match the schema, or the version cannot hold it', () => {
      const declined: [unknown, RunOptions][] = [
        // An array cannot be structuredContent before 2026-07-28.
        [
          { content: [text('{"result":[1,2]}')], structuredContent: { result: [1, 2] } },
          { ...v25, tool: numbers },
        ],
        // Rewrapped, the data still fails the schema.
        [{ resultType: 'complete', content: [], structuredContent: ['a'] }, { tool: wrapped }],
        [{ resultType: 'complete', content: [], structuredContent: { result: ['a'] } }, L],
        [{ resultType: 'complete', content: [], structuredContent: { result: 'x' } }, { tool: wrapped }],
        // A wrapper has one member: more is data of its own.
        [{ resultType: 'complete', content: [], structuredContent: { result: [1], extra: 1 } }, L],
      ];
      for (const [doc, options] of declined) {
        const r = repairOnce(mismatch, 'result', doc, options);
        expect(r, JSON.stringify(doc)).toMatchObject({ doc, outcome: undefined });
      }
    });

    it('keeps an error result whose content cannot take the data as text', () => {
      const doc = { content: 'x', structuredContent: { reason: 'down' }, isError: true };
      expect(repairOnce(mismatch, 'result', doc, { ...v25, tool: wrapped })).toMatchObject({
        doc,
        outcome: undefined,
      });
    });
  });

  it('recovers structuredContent from the JSON of any text block, as the version can hold it', () => {
    const numbers = {
      name: 'numbers',
      inputSchema: { type: 'object' },
      outputSchema: { type: 'array', items: { type: 'number' } },
    };
    expect(
      repairOnce(missing, 'result', { content: [text('[1,2]')] }, { ...v25, tool: numbers }).outcome,
    ).toBe(undefined);
    const latest = repairOnce(
      missing,
      'result',
      { resultType: 'complete', content: [text('[1,2]')] },
      { tool: numbers },
    );
    expect(latest.doc).toEqual({
      resultType: 'complete',
      content: [text('[1,2]')],
      structuredContent: [1, 2],
    });
    const second = repairOnce(
      missing,
      'result',
      { content: [text('hello'), text('{"t":1}')] },
      { ...v25, tool },
    );
    expect(second.doc).toEqual({ content: [text('hello'), text('{"t":1}')], structuredContent: { t: 1 } });
    expect(second.outcome).toEqual({
      description: 'set structuredContent from the JSON in text block 1, which matches the outputSchema',
    });
    // A schema that does not compile matches nothing.
    const broken = { ...tool, outputSchema: { type: 'object', properties: { t: { type: 'nonsense' } } } };
    expect(repairOnce(missing, 'result', { content: [text('{}')] }, { ...v25, tool: broken }).outcome).toBe(
      undefined,
    );
  });

  it('names the tool, or "?" for a tool without a string name; holds complete results of 2026-07-28 to it', () => {
    expect(said(missing, 'result', { content: [text('x')] }, { ...v25, tool: { ...tool, name: 7 } })).toEqual(
      [
        [
          'default',
          '/structuredContent',
          'tool "?" declares an outputSchema but the result has no structuredContent',
        ],
      ],
    );
    expect(hits(missing, 'result', { resultType: 'complete', content: [] }, { tool })).toEqual([
      ['default', '/structuredContent'],
    ]);
    // Without resultType it is still a CallToolResult (result-type-invalid reports the omission).
    expect(hits(missing, 'result', { content: [] }, { tool })).toEqual([['default', '/structuredContent']]);
    expect(hits(missing, 'result', { resultType: 'task', content: [] }, { tool })).toEqual([]);
  });

  it('repairAll converges on a result with several repairable findings', () => {
    const r = repairAll(
      'structured-content-text-mirror-missing',
      'result',
      { content: [], structuredContent: { t: 1 } },
      v25,
    );
    expect(r.after).toEqual([]);
  });
});

describe('structured-content-in-block', () => {
  const rule = 'structured-content-in-block';
  const block = { type: 'text', text: '{"a":1}', structuredContent: { a: 1 } };
  it('reports and moves structuredContent up to the result', () => {
    expect(hits(rule, 'result', { content: [block] }, v25)).toEqual([
      ['default', '/content/0/structuredContent'],
    ]);
    const r = repairOnce(rule, 'result', { content: [block] }, v25);
    expect(r.doc).toEqual({ content: [text('{"a":1}')], structuredContent: { a: 1 } });
    expect(r.outcome?.lossy).toBeFalsy();
  });

  it('drops it, lossily, when the result already has structuredContent', () => {
    const r = repairOnce(rule, 'result', { content: [block], structuredContent: { b: 2 } }, v25);
    expect(r.doc).toEqual({ content: [text('{"a":1}')], structuredContent: { b: 2 } });
    expect(r.outcome?.lossy).toBe(true);
  });
});

describe('result-over-client-limits: image dimensions', () => {
  it('reads PNG dimensions from the header', () => {
    const header = new Uint8Array(24);
    header.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(header.buffer).setUint32(16, 600);
    new DataView(header.buffer).setUint32(20, 8001);
    const data = btoa(String.fromCharCode(...header));
    const findings = run('result', { content: [{ type: 'image', data, mimeType: 'image/png' }] }, v25);
    const f = findings.find((x) => x.rule === 'result-over-client-limits');
    expect(f?.messageId).toBe('dimensions');
    expect(f?.message).toContain('600×8001');
  });
});

describe('what the result rules say', () => {
  const L = { version: '2026-07-28' } as const;
  const KEY = 'io.modelcontextprotocol/serverInfo';
  const SI = '/_meta/io.modelcontextprotocol~1serverInfo';
  const info = (value: unknown) => ({ resultType: 'complete', content: [], _meta: { [KEY]: value } });
  const weather = {
    name: 'weather',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] },
  };
  const CASES: [string, unknown, RunOptions, string[][]][] = [
    [
      'result-not-object',
      'done',
      v25,
      [
        [
          'default',
          '',
          'the tools/call result is a JSON string; it must be an object with a "content" array',
        ],
      ],
    ],
    [
      'result-content-missing',
      { isError: false },
      v25,
      [['default', '/content', 'the result has no "content" array']],
    ],
    [
      'result-content-not-array',
      { content: 'hello' },
      v25,
      [
        [
          'string',
          '/content',
          '"content" is a string; it must be an array such as [{ "type": "text", "text": … }]',
        ],
      ],
    ],
    [
      'result-content-not-array',
      { content: { type: 'text', text: 'x' } },
      v25,
      [['default', '/content', '"content" is a JSON object; it must be an array of content blocks']],
    ],
    [
      'result-content-not-array',
      { content: null },
      v25,
      [['default', '/content', '"content" is null; it must be an array of content blocks']],
    ],
    [
      'result-legacy-tool-result',
      { toolResult: 'x' },
      v25,
      [['default', '/toolResult', 'the result uses the legacy "toolResult" envelope and has no "content"']],
    ],
    [
      'result-is-error-not-boolean',
      { content: [], isError: 'true' },
      v25,
      [['default', '/isError', '"isError" is the string "true"; it must be true or false']],
    ],
    [
      'result-is-error-not-boolean',
      { content: [], isError: 1 },
      v25,
      [['default', '/isError', '"isError" is a JSON integer; it must be true or false']],
    ],
    [
      'result-type-invalid',
      { content: [] },
      L,
      [['default', '/resultType', 'the result has no "resultType"; protocol 2026-07-28 requires it']],
    ],
    [
      'result-type-invalid',
      { content: [], resultType: 1 },
      L,
      [
        [
          'notString',
          '/resultType',
          '"resultType" is a JSON integer; it must be a string such as "complete"',
        ],
      ],
    ],
    [
      'result-type-invalid',
      { content: [], resultType: 'success' },
      L,
      [
        [
          'unknown',
          '/resultType',
          '"resultType" "success" is not a recognized result type (complete, input_required, task)',
        ],
      ],
    ],
    [
      'result-meta-not-object',
      { content: [], _meta: [] },
      v25,
      [['default', '/_meta', '"_meta" is a JSON array; it must be an object']],
    ],
    [
      'result-server-info-invalid',
      info('srv'),
      L,
      [
        [
          'default',
          SI,
          '_meta serverInfo is a JSON string; it must be an object with string "name" and "version"',
        ],
      ],
    ],
    [
      'result-server-info-invalid',
      info({ name: 1 }),
      L,
      [
        [
          'missing',
          `${SI}/version`,
          '_meta serverInfo has no "version"; an Implementation needs string "name" and "version"',
        ],
        ['notString', `${SI}/name`, '_meta serverInfo "name" must be a string, got integer'],
      ],
    ],
    [
      'result-server-info-invalid',
      info({
        name: 's',
        version: '1',
        title: 2,
        websiteUrl: 'not a uri',
        icons: [{ src: 'https://example.com/i.png' }, { sizes: ['48x48'] }, { src: 'icon.png' }, 'x'],
      }),
      L,
      [
        ['notString', `${SI}/title`, '_meta serverInfo "title" must be a string, got integer'],
        [
          'websiteUrl',
          `${SI}/websiteUrl`,
          '_meta serverInfo "websiteUrl" must be an absolute URI, got "not a uri"',
        ],
        ['icon', `${SI}/icons/1`, '_meta serverInfo icon 1 has no "src"'],
        ['icon', `${SI}/icons/2`, '_meta serverInfo icon 2 "src" is not an absolute URI'],
        ['icon', `${SI}/icons/3`, '_meta serverInfo icon 3 is a JSON string, not an object'],
      ],
    ],
    [
      'result-server-info-invalid',
      info({ name: 's', version: '1', icons: 'x' }),
      L,
      [['icons', `${SI}/icons`, '_meta serverInfo "icons" must be an array of icons, got string']],
    ],
    [
      'result-input-required-invalid',
      { resultType: 'input_required' },
      L,
      [
        [
          'default',
          '',
          'the input_required result has neither "inputRequests" nor "requestState"; the client has nothing to answer',
        ],
      ],
    ],
    [
      'result-input-required-invalid',
      { resultType: 'input_required', requestState: 7 },
      L,
      [['requestState', '/requestState', '"requestState" is a JSON integer; it must be an opaque string']],
    ],
    [
      'result-input-required-invalid',
      { resultType: 'input_required', inputRequests: ['roots/list'] },
      L,
      [
        [
          'inputRequests',
          '/inputRequests',
          '"inputRequests" is a JSON array; it must be an object mapping ids to requests',
        ],
      ],
    ],
    [
      'result-input-required-invalid',
      {
        resultType: 'input_required',
        inputRequests: {
          notObject: 'roots/list',
          noMethod: { params: {} },
          unknownMethod: { method: 'tools/call', params: {} },
          noParams: { method: 'elicitation/create' },
          badParams: { method: 'roots/list', params: 'x' },
        },
      },
      L,
      [
        [
          'request',
          '/inputRequests/notObject',
          'input request "notObject" is a JSON string, not a request object',
        ],
        ['request', '/inputRequests/noMethod', 'input request "noMethod" has no string "method"'],
        [
          'request',
          '/inputRequests/unknownMethod',
          'input request "unknownMethod" asks for "tools/call", which is not one of elicitation/create, sampling/createMessage, roots/list',
        ],
        ['request', '/inputRequests/noParams', 'input request "noParams" has no "params"'],
        ['request', '/inputRequests/badParams', 'input request "badParams" "params" is not an object'],
      ],
    ],
    [
      'structured-content-not-object',
      { content: [text('[1, 2]')], structuredContent: [1, 2] },
      v25,
      [
        [
          'default',
          '/structuredContent',
          'structuredContent is a JSON array; this protocol version requires a JSON object',
        ],
      ],
    ],
    [
      'structured-content-not-object-old-clients',
      { resultType: 'complete', content: [text('null')], structuredContent: null },
      L,
      [
        [
          'default',
          '/structuredContent',
          'structuredContent is null; clients built on the v1 SDKs reject anything but an object',
        ],
      ],
    ],
    [
      'structured-content-unsupported-version',
      { content: [], structuredContent: { a: 1 } },
      { version: '2025-03-26' },
      [
        [
          'default',
          '/structuredContent',
          'structuredContent does not exist in protocol 2025-03-26 and no text block carries its data',
        ],
      ],
    ],
    [
      'structured-content-text-mirror-missing',
      { content: [], structuredContent: { a: 1 } },
      v25,
      [
        [
          'default',
          '/content',
          'structuredContent has no text block with its JSON; content-only clients see nothing',
        ],
      ],
    ],
    [
      'structured-content-text-mirror-missing',
      { content: [text('It is warm')], structuredContent: { a: 1 } },
      v25,
      [
        [
          'prose',
          '/content',
          'structuredContent has no text block with its JSON; content-only clients see only the prose text',
        ],
      ],
    ],
    [
      'structured-content-text-mismatch',
      { content: [text('x'), text('{"a":2}')], structuredContent: { a: 1 } },
      v25,
      [['default', '/content/1/text', 'text block 1 holds JSON that differs from structuredContent']],
    ],
    [
      'result-error-without-is-error',
      { content: [text('{"error":"x"}')], structuredContent: { error: 'x' } },
      v25,
      [
        [
          'structured',
          '/structuredContent/error',
          'structuredContent reports an error but "isError" is not true',
        ],
      ],
    ],
    [
      'result-error-without-is-error',
      { content: [text('x')], error: 'boom' },
      v25,
      [['member', '/error', 'the result has an "error" member but "isError" is not true']],
    ],
    [
      'result-error-without-is-error',
      { content: [text('{"error":"boom"}')] },
      v25,
      [
        [
          'text',
          '/content/0/text',
          'the only text block is an {"error": …} payload but "isError" is not true',
        ],
      ],
    ],
    [
      'result-error-without-is-error',
      { content: [{ type: 'object', object: { error: 'boom' } }] },
      v25,
      [
        [
          'block',
          '/content/0/object/error',
          'the only content block ("object") carries an {"error": …} payload but "isError" is not true',
        ],
      ],
    ],
    [
      'result-media-with-structured-content',
      {
        content: [text('{"a":1}'), { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
        structuredContent: { a: 1 },
      },
      v25,
      [
        [
          'default',
          '/content/1',
          'image block 1 sits next to structuredContent; clients that prefer structuredContent drop it',
        ],
      ],
    ],
    [
      'structured-content-in-block',
      { content: [text('a'), { type: 'text', text: 'x', structuredContent: { a: 1 } }] },
      v25,
      [
        [
          'default',
          '/content/1/structuredContent',
          'content block 1 carries "structuredContent"; it belongs on the result',
        ],
      ],
    ],
    [
      'result-over-client-limits',
      { content: [text('x'.repeat(120_000))] },
      v25,
      [
        [
          'tokens',
          '',
          'the result is about 30010 tokens (estimated at 4 characters per token); Claude Code refuses MCP output over 25,000 tokens',
        ],
      ],
    ],
    [
      'structured-content-missing-for-output-schema',
      { content: [text('x')] },
      { ...v25, tool: weather },
      [
        [
          'default',
          '/structuredContent',
          'tool "weather" declares an outputSchema but the result has no structuredContent',
        ],
      ],
    ],
    [
      'structured-content-schema-mismatch',
      { content: [text('{"t":"warm"}')], structuredContent: { t: 'warm' } },
      { ...v25, tool: weather },
      [
        [
          'default',
          '/structuredContent/t',
          'structuredContent/t must be number (outputSchema #/properties/t/type)',
        ],
      ],
    ],
    [
      'structured-content-schema-mismatch',
      { content: [text('{"t":"warm"}')], structuredContent: { t: 'warm' }, isError: true },
      { ...v25, tool: weather },
      [
        [
          'onError',
          '/structuredContent/t',
          'structuredContent/t must be number (outputSchema #/properties/t/type); SDK v1 clients validate it even though isError is true',
        ],
      ],
    ],
  ];

  it.each(
    CASES.map(
      ([rule, doc, options, expected]) =>
        [rule, JSON.stringify(doc).slice(0, 80), doc, options, expected] as const,
    ),
  )('%s on %s', (rule, _shown, doc, options, expected) => {
    expect(said(rule, 'result', doc, options)).toEqual(expected);
  });
});

describe('what the result repairs do and say', () => {
  const L = { version: '2026-07-28' } as const;
  const KEY = 'io.modelcontextprotocol/serverInfo';
  const call = { ...v25, request: { method: 'tools/call', params: { name: 't' } } };
  const weather = {
    name: 'weather',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] },
  };
  const CASES: [string, unknown, RunOptions, unknown, { description: string; lossy?: boolean }][] = [
    [
      'result-content-missing',
      { temperature: 22 },
      v25,
      { temperature: 22, content: [text('{"temperature":22}')] },
      { description: 'added content with a text block carrying the JSON of temperature' },
    ],
    [
      'result-content-missing',
      { structuredContent: { a: 1 } },
      v25,
      { structuredContent: { a: 1 }, content: [text('{"a":1}')] },
      { description: 'added content with a text block carrying the JSON of structuredContent' },
    ],
    [
      'result-content-missing',
      { isError: false },
      v25,
      { isError: false, content: [] },
      { description: 'added an empty content array' },
    ],
    [
      'result-content-not-array',
      { content: 'hello' },
      v25,
      { content: [text('hello')] },
      { description: 'turned the content string into a text block' },
    ],
    [
      'result-content-not-array',
      { content: { type: 'text', text: 'x' } },
      v25,
      { content: [text('x')] },
      { description: 'put the single content block into an array' },
    ],
    [
      'result-content-not-array',
      { content: 5 },
      v25,
      { content: [text('5')] },
      { description: 'turned the integer content into a text block with its JSON' },
    ],
    [
      'result-content-not-array',
      { content: null },
      v25,
      { content: [] },
      { description: 'replaced null content with an empty array' },
    ],
    [
      'result-legacy-tool-result',
      { toolResult: 'hi' },
      v25,
      { content: [text('hi')] },
      { description: 'replaced the legacy toolResult string with a text block' },
    ],
    [
      'result-legacy-tool-result',
      { toolResult: { a: 1 } },
      v25,
      { content: [text('{"a":1}')], structuredContent: { a: 1 } },
      { description: 'replaced the legacy toolResult with structuredContent and a text block of its JSON' },
    ],
    [
      'result-is-error-not-boolean',
      { content: [], isError: ' TRUE ' },
      v25,
      { content: [], isError: true },
      { description: 'converted "isError" " TRUE " to true' },
    ],
    [
      'result-is-error-not-boolean',
      { content: [], isError: 0 },
      v25,
      { content: [], isError: false },
      { description: 'converted "isError" 0 to false' },
    ],
    [
      'result-is-error-not-boolean',
      { content: [], isError: null },
      v25,
      { content: [] },
      { description: 'removed "isError": null (absent means false)' },
    ],
    [
      'result-type-invalid',
      { content: [], resultType: 'success' },
      L,
      { content: [], resultType: 'complete' },
      { description: 'replaced "resultType" "success" with "complete"' },
    ],
    [
      'result-type-invalid',
      { content: [] },
      L,
      { content: [], resultType: 'complete' },
      { description: 'added "resultType": "complete"' },
    ],
    [
      'result-meta-not-object',
      { content: [], _meta: 'x' },
      v25,
      { content: [] },
      { description: 'removed the non-object "_meta" ("x")', lossy: true },
    ],
    [
      'result-server-info-invalid',
      { resultType: 'complete', content: [], _meta: { [KEY]: { name: 1 } } },
      L,
      { resultType: 'complete', content: [], _meta: {} },
      { description: 'removed the malformed _meta serverInfo ({"name":1})', lossy: true },
    ],
    [
      'structured-content-not-object',
      { content: [text('[1, 2]')], structuredContent: [1, 2] },
      v25,
      { content: [text('{"result":[1,2]}')], structuredContent: { result: [1, 2] } },
      { description: 'wrapped structuredContent as { "result": value } and updated its text mirror' },
    ],
    [
      'structured-content-not-object',
      { content: [], structuredContent: 'x' },
      v25,
      { content: [], structuredContent: { result: 'x' } },
      { description: 'wrapped structuredContent as { "result": value }' },
    ],
    [
      'structured-content-text-mirror-missing',
      { content: [text('It is warm')], structuredContent: { a: 1 } },
      v25,
      { content: [text('It is warm'), text('{"a":1}')], structuredContent: { a: 1 } },
      { description: 'added a text block carrying the JSON of structuredContent' },
    ],
    [
      'result-error-without-is-error',
      { content: [text('x')], error: 'boom' },
      v25,
      { content: [text('x')], error: 'boom', isError: true },
      { description: 'set "isError": true' },
    ],
    [
      'result-error-without-is-error',
      { content: [{ type: 'object', object: { error: { message: 'boom' } } }] },
      v25,
      { content: [text('boom')], isError: true },
      { description: 'set "isError": true and replaced the "object" block with the error message' },
    ],
    [
      'structured-content-in-block',
      { content: [{ type: 'text', text: 'x', structuredContent: { a: 1 } }] },
      v25,
      { content: [text('x')], structuredContent: { a: 1 } },
      { description: 'moved structuredContent from content block 0 to the result' },
    ],
    [
      'structured-content-in-block',
      { content: [{ type: 'text', text: 'x', structuredContent: { a: 1 } }], structuredContent: { b: 1 } },
      v25,
      { content: [text('x')], structuredContent: { b: 1 } },
      { description: 'removed structuredContent from content block 0 (clients strip it)', lossy: true },
    ],
    [
      'structured-content-missing-for-output-schema',
      { content: [text('{"t":1}')] },
      { ...v25, tool: weather },
      { content: [text('{"t":1}')], structuredContent: { t: 1 } },
      { description: 'set structuredContent from the JSON in text block 0, which matches the outputSchema' },
    ],
  ];

  it.each(
    CASES.map(([rule, doc, ...rest]) => [rule, JSON.stringify(doc).slice(0, 80), doc, ...rest] as const),
  )('%s on %s', (rule, _shown, doc, options, after, outcome) => {
    const r = repairOnce(rule, 'result', doc, options);
    expect(r.doc).toEqual(after);
    expect(r.outcome).toEqual(outcome);
    expect(r.after).toEqual([]);
  });

  it('wraps a bare tools/call result in a message, naming what it wrapped', () => {
    const r = repairOnce('result-not-object', 'message', { jsonrpc: '2.0', id: 1, result: 5 }, call);
    expect(r.doc).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [text('5')] } });
    expect(r.outcome).toEqual({
      description: 'wrapped the integer result as a CallToolResult with a content array',
    });
  });

  it('declines where no structuredContent can be derived or fixed', () => {
    expect(
      repairOnce(
        'structured-content-missing-for-output-schema',
        'result',
        { content: [text('x')] },
        { ...v25, tool: weather },
      ).outcome,
    ).toBeUndefined();
    const mismatch = { content: [text('{"t":"1"}')], structuredContent: { t: '1' } };
    expect(
      repairOnce('structured-content-schema-mismatch', 'result', mismatch, { ...v25, tool: weather }).outcome,
    ).toBeUndefined();
  });
});

describe('result-over-client-limits agrees with JSON.stringify at the limits', () => {
  const rule = 'result-over-client-limits';
  const LIMIT = 1_048_576;
  const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value));
  /** 900 000 bytes of UTF-8 in 300 000 UTF-16 units: the bounds straddle the limit, so the exact count decides. */
  const WIDE = '€'.repeat(300_000);
  const PAYLOAD = btoa('\x89PNG'.padEnd(30_000, '\0'));
  const nested = { a: [1, 2.5, true, null, 'ü'], b: { c: {}, d: [] }, ключ: 'значение' };
  const shapes: [string, (pad: number) => JsonObject][] = [
    ['one text block', (pad) => ({ content: [text(WIDE + 'x'.repeat(pad))] })],
    [
      'structuredContent and its mirror',
      (pad) => {
        const structured = { s: WIDE.slice(150_000) + 'x'.repeat(pad), nested };
        return { content: [text(JSON.stringify(structured))], structuredContent: structured };
      },
    ],
    [
      'a canonical base64 payload',
      (pad) => ({
        content: [{ type: 'image', data: PAYLOAD, mimeType: 'image/png' }, text(WIDE + 'x'.repeat(pad))],
      }),
    ],
    [
      'nested members, numbers and non-ASCII names',
      (pad) => ({ content: [text(WIDE + 'x'.repeat(pad))], _meta: { nested, n: -0.000125, big: 1e21 } }),
    ],
    [
      'what JSON writes as null: non-finite numbers, and functions and undefined in a list',
      (pad) => ({
        content: [text(WIDE + 'x'.repeat(pad))],
        _meta: { n: Number.NaN, list: [Number.POSITIVE_INFINITY, undefined, () => 1, Symbol('s')] },
      }),
    ],
    [
      // Only the result's own structuredContent is counted by its JSON text: not a member of that name
      // that a toJSON elsewhere returns.
      'a toJSON value with a structuredContent member of its own, beside a mirrored structuredContent',
      (pad) => {
        const structured = { s: WIDE.slice(150_000) + 'x'.repeat(pad) };
        return {
          content: [text(JSON.stringify(structured))],
          structuredContent: structured,
          _meta: { wrapped: { toJSON: () => ({ structuredContent: 1 }) } },
        };
      },
    ],
  ];

  /** The largest padding that keeps the result within the limit, and one more. */
  function straddle(make: (pad: number) => JsonObject): [number, number] {
    const per = bytesOf(make(1)) - bytesOf(make(0));
    let pad = Math.floor((LIMIT - bytesOf(make(0))) / per);
    while (bytesOf(make(pad + 1)) <= LIMIT) pad++;
    while (bytesOf(make(pad)) > LIMIT) pad--;
    return [pad, pad + 1];
  }

  it.each(shapes)(
    '%s: over 1 MiB exactly when the serialized result is, with its token estimate',
    (_name, make) => {
      for (const pad of straddle(make)) {
        const result = make(pad);
        const json = JSON.stringify(result);
        const found = said(rule, 'result', result, v25);
        // The estimate counts UTF-16 units of the JSON without its escapes (here only the mirror's quotes).
        const units = json.length - (json.match(/\\/g)?.length ?? 0);
        const tokens = `the result is about ${Math.ceil(units / 4)} tokens (estimated at 4 characters per token); Claude Code refuses MCP output over 25,000 tokens`;
        const over = Buffer.byteLength(json) > LIMIT;
        expect(found, `${Buffer.byteLength(json)} bytes`).toEqual([
          ...(over
            ? [
                [
                  'default',
                  '',
                  'the result is 1.00 MiB serialized; Claude Desktop refuses results over 1 MiB',
                ],
              ]
            : []),
          ['tokens', '', tokens],
        ]);
      }
    },
  );

  it('an ASCII structuredContent mirrored, of quotes and backslashes: over 1 MiB exactly when it is', () => {
    // Each character of the mirror takes two bytes, the most that the bound sparing the exact count
    // allows it (its only slack is in member names, a few hundred bytes): a bound short by more would
    // pass the larger of the two results (it does with 1,000 bytes less).
    const make = (pad: number) => {
      const structured = { s: '"\\'.repeat(70_000) + '"'.repeat(pad) };
      return { content: [text(JSON.stringify(structured))], structuredContent: structured };
    };
    for (const pad of straddle(make)) {
      const result = make(pad);
      const over = bytesOf(result) > LIMIT;
      expect(
        hits(rule, 'result', result, v25).some(([id]) => id === 'default'),
        `${bytesOf(result)} bytes`,
      ).toBe(over);
    }
  });

  it('an ASCII structuredContent mirrored, beside texts that are not its mirror: over 1 MiB exactly when it is', () => {
    // The bound that spares the exact count takes a mirror's character for at most two bytes: here every
    // character of the mirror takes two, and every other text is of control characters, six bytes each,
    // as the bound counts them. A text counted as a mirror though it is none (any text, or one merely as
    // long as the mirror) would make the bound short of the truth and pass a result over the limit.
    const structured = { s: '"\\'.repeat(10_000) };
    const mirror = JSON.stringify(structured);
    const control = (n: number) => text('\u0001'.repeat(n));
    const shapes = [
      (pad: number) => ({ content: [text(mirror), control(150_000 + pad)], structuredContent: structured }),
      (pad: number) => ({
        content: [text(mirror), control(mirror.length), control(110_000 + pad)],
        structuredContent: structured,
      }),
    ];
    for (const make of shapes) {
      for (const pad of straddle(make)) {
        const over = bytesOf(make(pad)) > LIMIT;
        expect(
          hits(rule, 'result', make(pad), v25).some(([id]) => id === 'default'),
          `${bytesOf(make(pad))} bytes`,
        ).toBe(over);
      }
    }
  });

  it('counts what toJSON returns, as JSON.stringify writes it, however small the object', () => {
    const expanding = { content: [text('x')], _meta: { big: { toJSON: () => 'x'.repeat(1_100_000) } } };
    expect(said(rule, 'result', expanding, v25)).toEqual([
      ['default', '', 'the result is 1.05 MiB serialized; Claude Desktop refuses results over 1 MiB'],
      [
        'tokens',
        '',
        `the result is about ${Math.ceil(JSON.stringify(expanding).length / 4)} tokens (estimated at 4 characters per token); Claude Code refuses MCP output over 25,000 tokens`,
      ],
    ]);
    // An array's toJSON too, and the validator's fast path for plain text results does not skip it.
    const content = Object.assign([{ type: 'text', text: 'x' }], {
      toJSON: () => [{ type: 'text', text: 'x'.repeat(1_100_000) }],
    });
    expect(said(rule, 'result', { content }, v25).map(([id]) => id)).toEqual(['default', 'tokens']);
    expect(
      validateToolResultSync({ content }, { protocolVersion: '2025-06-18' })
        .filter((f) => f.rule === rule)
        .map((f) => f.message.slice(0, 25)),
    ).toEqual(['the result is 1.05 MiB se', 'the result is about 27501']);
    // A toJSON that throws: JSON.stringify throws, so the result cannot be sent at all (toolResult's wire
    // conversion leaves such a value out; given as it is, it is an error).
    const throwing = {
      content: [text('x')],
      _meta: {
        a: {
          toJSON() {
            throw new Error('boom');
          },
        },
      },
    };
    expect(
      validateToolResultSync(throwing, { protocolVersion: '2025-06-18' }).map((f) => [f.severity, f.message]),
    ).toEqual([
      [
        'error',
        'the result cannot be serialized: a toJSON method throws, so JSON.stringify throws and no client receives it',
      ],
    ]);
    // A toJSON that returns its own object is called once, as JSON.stringify calls it: the object is
    // then written member by member (its 1.1 MB member counted), not handed to toJSON again forever.
    const itself = {
      content: [text('x')],
      _meta: {
        a: {
          big: 'x'.repeat(1_100_000),
          toJSON() {
            return this;
          },
        },
      },
    };
    expect(said(rule, 'result', itself, v25).map(([id]) => id)).toEqual(['default', 'tokens']);
    // 30,000 dates, as ISO strings of 24 characters: about 200,000 tokens, where `{}`s would be 22,500.
    const dates = { content: [text('x')], _meta: { at: Array.from({ length: 30_000 }, () => new Date(0)) } };
    expect(said(rule, 'result', dates, v25).map(([id]) => id)).toEqual(['tokens']);
  });

  it('counts escapes, undefined members and inherited members as JSON.stringify does', () => {
    // Each control character is 6 bytes of JSON in one UTF-16 unit.
    const escapes = (pad: number) => ({
      content: [text('\u0001"\\'.repeat(58_000) + 'x'.repeat(pad))],
      isError: undefined,
    });
    const inherited = (pad: number) => {
      const block = Object.create({ hidden: 'h'.repeat(200_000) }) as JsonObject;
      Object.assign(block, { type: 'text', text: WIDE + 'x'.repeat(pad) });
      return { content: [block] };
    };
    for (const make of [escapes, inherited]) {
      for (const pad of straddle(make)) {
        const over = bytesOf(make(pad)) > LIMIT;
        expect(
          hits(rule, 'result', make(pad), v25).some(([id]) => id === 'default'),
          `pad ${pad}`,
        ).toBe(over);
      }
    }
  });

  it('names each image over 5 MB decoded or 8000 px a side, and only image blocks', () => {
    const png = (width: number, height: number) => {
      const header = new Uint8Array(24);
      header.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
      const view = new DataView(header.buffer);
      view.setUint32(16, width);
      view.setUint32(20, height);
      return btoa(String.fromCharCode(...header));
    };
    const image = (data: string) => ({ type: 'image', data, mimeType: 'image/png' });
    const result = {
      content: [
        image(png(8000, 8000)),
        image(png(8001, 10)),
        { type: 'audio', data: png(9000, 9000), mimeType: 'audio/wav' },
      ],
    };
    expect(said(rule, 'result', result, v25)).toEqual([
      [
        'dimensions',
        '/content/1/data',
        "image block 1 is 8001×10 px; Claude Code's API refuses images over 8000 px a side",
      ],
    ]);
    const big = 5 * 1024 * 1024;
    const sized = (bytes: number) => ({ content: [text('x'), image(btoa('\0'.repeat(bytes)))] });
    expect(said(rule, 'result', sized(big), v25).filter(([id]) => id === 'image')).toEqual([]);
    expect(said(rule, 'result', sized(big + 3), v25).filter(([id]) => id === 'image')).toEqual([
      ['image', '/content/1/data', 'image block 1 is 5.00 MiB decoded; Claude Code refuses images over 5 MB'],
    ]);
  });
});

describe('result-error-without-is-error: which payloads are errors, and what the repair writes', () => {
  const rule = 'result-error-without-is-error';
  const CASES: [string, unknown, string[][]][] = [
    ['a blank error string', { content: [text('{}')], structuredContent: { error: '  ' } }, []],
    ['error: false', { content: [text('{}')], structuredContent: { error: false } }, []],
    ['error: 0', { content: [text('{}')], structuredContent: { error: 0 } }, []],
    ['an empty error list', { content: [text('{}')], structuredContent: { error: [] } }, []],
    [
      'error: true',
      { content: [text('{}')], structuredContent: { error: true } },
      [['structured', '/structuredContent/error']],
    ],
    [
      'an error list',
      { content: [text('{}')], structuredContent: { error: [1] } },
      [['structured', '/structuredContent/error']],
    ],
    [
      'an error object',
      { content: [text('{}')], structuredContent: { error: {} } },
      [['structured', '/structuredContent/error']],
    ],
    [
      'a payload under a made-up member',
      { content: [{ type: 'custom', result: { error: 'x' } }] },
      [['block', '/content/0/result/error']],
    ],
    [
      'the member named after the type first',
      { content: [{ type: 'custom', custom: { error: 'x' }, result: { error: 'y' } }] },
      [['block', '/content/0/custom/error']],
    ],
    [
      'a double-encoded payload',
      { content: [{ type: 'object', object: '{"error":"x"}' }] },
      [['block', '/content/0/object/error']],
    ],
    ['a string that only mentions "error"', { content: [{ type: 'object', object: 'plain "error"' }] }, []],
    [
      'the block’s own error member, after payloads without one',
      { content: [{ type: 'custom', data: { error: null }, error: 'x' }] },
      [['block', '/content/0/error']],
    ],
    ['an error block, left to block-type-unknown', { content: [{ type: 'error', error: 'x' }] }, []],
    ['a standard block with an error member', { content: [{ type: 'text', text: 'x', error: 'y' }] }, []],
    ['a made-up block among others', { content: [{ type: 'custom', error: 'x' }, text('y')] }, []],
    ['a block with no string type', { content: [{ type: 5, error: 'x' }] }, []],
    ['a content item that is no block', { content: ['x'] }, []],
    [
      'an error text beside other structuredContent',
      { content: [text('{"error":"x"}')], structuredContent: { a: 1 } },
      [['text', '/content/0/text']],
    ],
    ['the mirror of structuredContent', { content: [text('{"a":1}')], structuredContent: { a: 1 } }, []],
    ['structuredContent without text', { content: [], structuredContent: { a: 1 } }, []],
    [
      'an error text with spaces around it',
      { content: [text(' {"error":"x"} ')] },
      [['text', '/content/0/text']],
    ],
    ['a list naming "error"', { content: [text('["error"]')] }, []],
    ['an error member beside broken content', { content: 'x', error: 'y' }, [['member', '/error']]],
  ];

  it.each(CASES)('%s', (_name, result, expected) => {
    expect(hits(rule, 'result', result, v25)).toEqual(expected);
  });

  it('writes the error as a person reads it', () => {
    const cases: [unknown, string][] = [
      [{ error: 'CODE', message: 'it broke' }, 'CODE: it broke'],
      [{ error: 'CODE', message: 'CODE' }, 'CODE'],
      [{ error: 'CODE', message: ' ' }, 'CODE'],
      [{ error: 'CODE', message: 5 }, 'CODE'],
      [{ error: { code: 5 } }, '{"code":5}'],
      [{ error: { message: 'no city', code: 5 } }, 'no city'],
      [{ error: true }, 'true'],
    ];
    for (const [structured, written] of cases) {
      const r = repairOnce(rule, 'result', { content: [], structuredContent: structured }, v25);
      expect(r.doc, JSON.stringify(structured)).toEqual({
        content: [text(written)],
        structuredContent: structured,
        isError: true,
      });
      expect(r.outcome).toEqual({
        description: 'set "isError": true and added a text block describing the error',
      });
    }
    const member = repairOnce(rule, 'result', { content: [], error: 'E2', message: 'gone' }, v25);
    expect(member.doc).toEqual({ content: [text('E2: gone')], error: 'E2', message: 'gone', isError: true });
    const block = repairOnce(
      rule,
      'result',
      { content: [{ type: 'custom', custom: { error: 'E1', message: 'bad' } }] },
      v25,
    );
    expect(block.doc).toEqual({ content: [text('E1: bad')], isError: true });
    expect(block.outcome).toEqual({
      description: 'set "isError": true and replaced the "custom" block with the error message',
    });
  });
});

describe('a result repair handed a finding that no longer holds', () => {
  const repairStale = (ruleId: string, before: unknown, after: unknown, options: RunOptions = v25) =>
    repairStaleIn(ruleId, 'result', before, after, options);
  const L = { version: '2026-07-28' } as const;
  const KEY = 'io.modelcontextprotocol/serverInfo';
  const weather = {
    name: 'weather',
    inputSchema: { type: 'object' },
    outputSchema: { type: 'object', properties: { t: { type: 'number' } }, required: ['t'] },
  };
  const CASES: [string, unknown, unknown, RunOptions?][] = [
    ['result-content-missing', { isError: false }, { isError: false, content: [] }],
    ['result-content-not-array', { content: 'x' }, { content: [text('x')] }],
    // Content gone altogether is result-content-missing's to repair, not "null content".
    ['result-content-not-array', { content: 'x' }, {}],
    ['result-is-error-not-boolean', { content: [], isError: 'yes' }, { content: [], isError: true }],
    ['result-is-error-not-boolean', { content: [], isError: 'yes' }, { content: [] }],
    ['result-legacy-tool-result', { toolResult: 'x' }, { content: [text('x')] }],
    ['result-legacy-tool-result', { toolResult: 'x' }, { toolResult: 'x', content: [text('x')] }],
    ['result-meta-not-object', { content: [], _meta: 'x' }, { content: [], _meta: { a: 1 } }],
    ['result-meta-not-object', { content: [], _meta: 'x' }, { content: [] }],
    [
      'result-server-info-invalid',
      { resultType: 'complete', content: [], _meta: { [KEY]: { name: 1 } } },
      { resultType: 'complete', content: [], _meta: { a: 1 } },
      L,
    ],
    [
      'result-server-info-invalid',
      { resultType: 'complete', content: [], _meta: { [KEY]: { name: 1 } } },
      { resultType: 'complete', content: [] },
      L,
    ],
    ['result-type-invalid', { content: [] }, { content: [], resultType: 'complete' }, L],
    ['result-type-invalid', { content: [], resultType: 'success' }, { content: [], resultType: 'task' }, L],
    ['result-error-without-is-error', { content: [text('x')], error: 'boom' }, { content: [text('x')] }],
    [
      'structured-content-in-block',
      { content: [{ type: 'text', text: 'x', structuredContent: { a: 1 } }] },
      { content: [text('x')] },
    ],
    [
      'structured-content-not-object',
      { content: [], structuredContent: 'x' },
      { content: [], structuredContent: { result: 'x' } },
    ],
    // structuredContent gone: nothing to wrap (it was wrapped as {}).
    ['structured-content-not-object', { content: [], structuredContent: 'x' }, { content: [] }],
    [
      'structured-content-text-mirror-missing',
      { content: [text('warm')], structuredContent: { a: 1 } },
      { content: [text('warm')] },
    ],
    // Content that is no list any more has nowhere to take the mirror.
    [
      'structured-content-text-mirror-missing',
      { content: [text('warm')], structuredContent: { a: 1 } },
      { content: 'warm', structuredContent: { a: 1 } },
    ],
    [
      'structured-content-unsupported-version',
      { content: [], structuredContent: { a: 1 } },
      { content: [text('{"a":1}')] },
      { version: '2025-03-26' },
    ],
    [
      'structured-content-missing-for-output-schema',
      { content: [text('{"t":1}')] },
      { content: [text('{"t":1}')], structuredContent: { t: 1 } },
      { ...v25, tool: weather },
    ],
    [
      'structured-content-schema-mismatch',
      { content: [text('{"result":{"t":1}}')], structuredContent: { result: { t: 1 } } },
      { content: [text('{"result":{"t":1}}')] },
      { ...v25, tool: weather },
    ],
  ];

  it.each(
    CASES.map(
      ([rule, before, after, options]) => [rule, JSON.stringify(after), before, after, options] as const,
    ),
  )('%s declines on %s, and changes nothing', (rule, _shown, before, after, options) => {
    expect(repairStale(rule, before, after, options)).toEqual({ outcome: undefined, root: after });
  });

  it('declines where the result is no object any more', () => {
    for (const [rule, before, , options] of CASES) {
      expect(repairStale(rule, before, 'gone', options), rule).toEqual({ outcome: undefined, root: 'gone' });
    }
  });
});
