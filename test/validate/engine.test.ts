/**
 * The rule engine (src/validate/engine.ts) on its own: what a finding carries out of a rule's report,
 * where each subject's findings point, how a rule that throws is isolated, what partial documents from
 * static analysis leave out, how a response finds its kind and its tool, and the block findings a
 * repair carries between its runs. Small rules made here stand in for the catalog where the mechanics,
 * not a rule, are the point; the catalog's own rules where routing decides which of them run.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OPEN, Opaque } from '../../src/core/opaque.js';
import { getRule, RULES } from '../../src/rules/catalog.js';
import { defineRule, type Rule, type RuleDefinition } from '../../src/rules/types.js';
import { ALL_VERSIONS, DEFAULT_PROTOCOL_VERSION, PROTOCOL_VERSIONS } from '../../src/spec/versions.js';
import {
  BlockFindings,
  type EngineFinding,
  firstSilentShape,
  isQuietMessage,
  isQuietPlainText,
  isQuietPlainTextIn,
  MAX_QUOTED,
  NEVER,
  payloadAt,
  responseKind,
  runFrame,
  runMessage,
  runSession,
  runToolResult,
  runToolsList,
  sniffSync,
} from '../../src/validate/engine.js';
import { Shape } from '../../src/validate/fast-path.js';
import { validateToolResultSync } from '../../src/validate/index.js';
import { anyResult } from '../spec/arbitraries.js';
import { runs } from '../support/runs.js';
import { everyRuleFinds, validatorFinds } from './support/rule-reports.js';

const V = '2025-11-25';
const RUNS = runs(2000);

/** A rule of `subject` whose check is `check`, everything else filled in. */
function rule(subject: RuleDefinition['subject'], check: Rule['check'], extra: Partial<Rule> = {}): Rule {
  return defineRule({
    id: `test-${subject}`,
    subject,
    severity: 'error',
    title: 'a test rule',
    rationale: 'tests the engine',
    versions: ALL_VERSIONS,
    clients: [],
    messages: { default: 'saw {{what}} at {{ where }}', other: 'other {{what}}' },
    examples: { wrong: { value: null }, right: { value: null } },
    check,
    ...extra,
  });
}

/** Reports the node's `bad` member, when it has one. */
const badMember: Rule['check'] = (node, ctx) => {
  if (node !== null && typeof node === 'object' && 'bad' in node) {
    ctx.report({ path: ['bad'], data: { what: String((node as { bad: unknown }).bad), where: 'bad' } });
  }
};

describe('a finding', () => {
  it('carries the rule, the formatted message and fix, the absolute path and pointer, and the paths of its subject and result', () => {
    const blockRule = rule('block', badMember, { fix: 'remove {{what}}', repair: () => undefined });
    const result = {
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b', bad: 'x/y' },
      ],
    };
    expect(runToolResult(result, { version: V, rules: [blockRule] })).toEqual([
      {
        rule: 'test-block',
        severity: 'error',
        message: 'saw x/y at bad',
        pointer: '/content/1/bad',
        fix: { description: 'remove x/y', automatic: true },
        data: { what: 'x/y', where: 'bad' },
        messageId: 'default',
        path: ['content', 1, 'bad'],
        subjectPath: ['content', 1],
        resultPath: [],
      },
    ]);
  });

  it('takes the message and severity of its messageId, and says a fix without a repair is not automatic', () => {
    const graded = rule(
      'result',
      (_node, ctx) => {
        ctx.report({ messageId: 'other', data: { what: 'it' } });
        ctx.report({ messageId: 'missing', data: { what: 'that', where: 'here' } });
      },
      { fix: 'by hand', messageSeverity: { other: 'warning' } },
    );
    const findings = runToolResult({ content: [] }, { version: V, rules: [graded] });
    expect(
      findings.map(({ message, severity, messageId, fix, pointer }) => ({
        message,
        severity,
        messageId,
        fix,
        pointer,
      })),
    ).toEqual([
      // The messageId's own template and severity.
      {
        message: 'other it',
        severity: 'warning',
        messageId: 'other',
        fix: { description: 'by hand', automatic: false },
        pointer: '',
      },
      // An unknown messageId falls back to the default template and the rule's severity.
      {
        message: 'saw that at here',
        severity: 'error',
        messageId: 'missing',
        fix: { description: 'by hand', automatic: false },
        pointer: '',
      },
    ]);
  });

  it('has no fix when the rule gives none, empty data when the report gives none, and keeps unfilled placeholders', () => {
    const bare = rule('result', (_node, ctx) => ctx.report({}));
    const [finding] = runToolResult({ content: [] }, { version: V, rules: [bare] });
    expect(finding).toEqual({
      rule: 'test-result',
      severity: 'error',
      message: 'saw {{what}} at {{ where }}',
      pointer: '',
      data: {},
      messageId: 'default',
      path: [],
      subjectPath: [],
      resultPath: [],
    });
    expect(finding).not.toHaveProperty('fix');
  });

  it('runs only the rules of the version', () => {
    const old = rule('result', (_node, ctx) => ctx.report({}), { versions: ['2024-11-05'] });
    expect(runToolResult({ content: [] }, { version: V, rules: [old] })).toEqual([]);
    expect(runToolResult({ content: [] }, { version: '2024-11-05', rules: [old] })).toHaveLength(1);
  });
});

describe('a finding quoting what a server sent', () => {
  it('quotes a value of megabytes by its first MAX_QUOTED characters, in its message and in its public data', () => {
    const long = 'q'.repeat(5_000);
    const [finding] = validateToolResultSync(
      { content: [{ type: long }] },
      { protocolVersion: '2025-11-25' },
    );
    expect(finding?.rule).toBe('block-type-unknown');
    expect(finding?.message).toContain(`${'q'.repeat(MAX_QUOTED)}… (4,000 more characters)`);
    expect(finding?.message).not.toContain('q'.repeat(MAX_QUOTED + 1));
    const data = (finding as { data?: Record<string, unknown> }).data ?? {};
    expect(Object.values(data)).toContain(`${'q'.repeat(MAX_QUOTED)}… (4,000 more characters)`);
    // The engine's own finding keeps the value whole: repairs read it.
    const [inner] = runToolResult({ content: [{ type: long }] }, { version: '2025-11-25' }).filter(
      (f) => f.rule === 'block-type-unknown',
    );
    expect(Object.values(inner?.data ?? {})).toContain(long);
  });
});

describe('the fix of a finding', () => {
  it('is automatic only where repair() acts on it: a rule with a repair, and a finding that is no info', () => {
    const graded = rule(
      'result',
      (_node, ctx) => {
        ctx.report({ data: { what: 'a', where: 'b' } });
        ctx.report({ messageId: 'other', data: { what: 'c' } });
      },
      { fix: 'do it', repair: () => undefined, messageSeverity: { other: 'info' } },
    );
    expect(
      runToolResult({ content: [] }, { version: V, rules: [graded] }).map((f) => [
        f.severity,
        f.fix?.automatic,
      ]),
    ).toEqual([
      ['error', true],
      ['info', false],
    ]);
    // A real one: the data: URL in a text block is advice, and repair() leaves it as it is.
    const text = `data:image/png;base64,iVBORw0KGgo${'A'.repeat(81)}`;
    const [finding] = runToolResult({ content: [{ type: 'text', text }] }, { version: V });
    expect(finding).toMatchObject({ rule: 'block-text-base64-image', severity: 'info' });
    expect(finding?.fix?.automatic).toBe(false);
  });
});

describe('a rule that throws', () => {
  it('becomes one info finding at its subject, and the rules after it still run', () => {
    const broken = rule('block', () => {
      throw new Error('boom');
    });
    const thrower = rule(
      'block',
      () => {
        throw 'a string';
      },
      { id: 'test-string' },
    );
    const after = rule('block', badMember, { id: 'test-after' });
    const findings = runToolResult(
      { content: [{ type: 'text', text: 'a', bad: 1 }] },
      { version: V, rules: [broken, thrower, after] },
    );
    expect(findings).toEqual([
      {
        rule: 'test-block',
        severity: 'info',
        message: 'rule test-block failed internally and was skipped: boom',
        pointer: '/content/0',
        data: { internal: true },
        messageId: 'internal',
        path: ['content', 0],
        subjectPath: ['content', 0],
        resultPath: [],
      },
      expect.objectContaining({
        rule: 'test-string',
        message: 'rule test-string failed internally and was skipped: a string',
      }),
      expect.objectContaining({ rule: 'test-after', pointer: '/content/0/bad' }),
    ]);
  });
});

describe('subjects', () => {
  it('a tools/list result: the list, then each tool at /tools/i, both inside the list', () => {
    const list = rule('tools-list', badMember);
    const tool = rule('tool', badMember);
    const findings = runToolsList(
      { tools: [{ name: 'a' }, { name: 'b', bad: 2 }], bad: 1 },
      { version: V, rules: [list, tool] },
    );
    expect(
      findings.map(({ rule, pointer, subjectPath, resultPath }) => ({
        rule,
        pointer,
        subjectPath,
        resultPath,
      })),
    ).toEqual([
      { rule: 'test-tools-list', pointer: '/bad', subjectPath: [], resultPath: [] },
      { rule: 'test-tool', pointer: '/tools/1/bad', subjectPath: ['tools', 1], resultPath: [] },
    ]);
    // No tools array: the list rules only.
    expect(
      runToolsList({ tools: 'x', bad: 1 }, { version: V, rules: [list, tool] }).map((f) => f.rule),
    ).toEqual(['test-tools-list']);
  });

  it('a frame and a session event: findings at the root, outside any result', () => {
    const frame = rule('frame', (node, ctx) =>
      ctx.report({ data: { what: (node as { text: string }).text } }),
    );
    const session = rule('session', badMember);
    expect(runFrame({ transport: 'stdio', text: 'garbage' }, { version: V, rules: [frame] })).toEqual([
      expect.objectContaining({
        rule: 'test-frame',
        message: 'saw garbage at {{ where }}',
        pointer: '',
        resultPath: undefined,
      }),
    ]);
    expect(runSession({ event: 'timeout', bad: 'late' }, { version: V, rules: [session] })).toEqual([
      expect.objectContaining({
        rule: 'test-session',
        pointer: '/bad',
        subjectPath: [],
        resultPath: undefined,
      }),
    ]);
  });

  it("a message: its own rules, then its result as a tools/call result inside /result, with the request's tool", () => {
    const message = rule('message', badMember);
    const seen: unknown[] = [];
    const result = rule('result', (_node, ctx) => {
      seen.push(ctx.tool);
      ctx.report({ path: ['content'] });
    });
    const block = rule('block', badMember);
    const rules = [message, result, block];
    const get = { name: 'get', inputSchema: { type: 'object' } };
    const tools = new Map([['get', get]]);
    const request = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get' } };
    const response = {
      jsonrpc: '2.0',
      id: 1,
      bad: 0,
      result: { content: [{ type: 'text', text: 'x', bad: 1 }] },
    };
    expect(
      runMessage(response, { version: V, rules, request, tools }).map(({ rule, pointer, resultPath }) => ({
        rule,
        pointer,
        resultPath,
      })),
    ).toEqual([
      { rule: 'test-message', pointer: '/bad', resultPath: undefined },
      { rule: 'test-result', pointer: '/result/content', resultPath: ['result'] },
      { rule: 'test-block', pointer: '/result/content/0/bad', resultPath: ['result'] },
    ]);
    expect(seen).toEqual([get]);
    // A tool given outright wins over the request's; a request naming no known tool gives none.
    const other = { name: 'other', inputSchema: { type: 'object' } };
    runMessage(response, { version: V, rules, request, tools, tool: other });
    runMessage(response, { version: V, rules, request: { ...request, params: { name: 'put' } }, tools });
    runMessage(response, { version: V, rules, request: { ...request, params: 'get' }, tools });
    expect(seen).toEqual([get, other, undefined, undefined]);
  });

  it('a message: a tools/list result is checked as one, and other results and errors by the message rules only', () => {
    const tool = rule('tool', badMember);
    const result = rule('result', (_node, ctx) => ctx.report({}));
    const rules = [tool, result];
    const list = { jsonrpc: '2.0', id: 1, result: { tools: [{ name: 'a', bad: 1 }] } };
    expect(runMessage(list, { version: V, rules }).map((f) => f.pointer)).toEqual(['/result/tools/0/bad']);
    const listRequest = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    expect(
      runMessage(
        { ...list, result: { tools: [{ bad: 1 }], content: [] } },
        { version: V, rules, request: listRequest },
      ).map((f) => f.pointer),
    ).toEqual(['/result/tools/0/bad']);
    const read = { jsonrpc: '2.0', id: 1, method: 'resources/read' };
    expect(
      runMessage({ jsonrpc: '2.0', id: 1, result: { content: [] } }, { version: V, rules, request: read }),
    ).toEqual([]);
    expect(
      runMessage({ jsonrpc: '2.0', id: 1, error: { code: 1, message: 'x' } }, { version: V, rules }),
    ).toEqual([]);
    expect(runMessage('not a message', { version: V, rules })).toEqual([]);
  });
});

describe('responseKind', () => {
  it("takes the request's method when it is tools/call or tools/list, else the result's shape when there is no method", () => {
    const call = { method: 'tools/call' };
    const list = { method: 'tools/list' };
    expect(responseKind({ tools: [] }, call)).toBe('tools/call');
    expect(responseKind({ content: [] }, list)).toBe('tools/list');
    expect(responseKind({ content: [] }, { method: 'resources/read' })).toBeUndefined();
    expect(responseKind({ tools: [] }, undefined)).toBe('tools/list');
    expect(responseKind({ tools: {} }, undefined)).toBeUndefined();
    for (const key of ['content', 'structuredContent', 'toolResult', 'isError']) {
      expect(responseKind({ [key]: undefined }, {}), key).toBe('tools/call');
    }
    expect(responseKind({ other: 1 }, undefined)).toBeUndefined();
    expect(responseKind([{ content: [] }], undefined)).toBeUndefined();
    expect(responseKind(null, undefined)).toBeUndefined();
  });
});

describe('partial documents (static analysis)', () => {
  it('leave out rules that need the complete document, and findings at opaque values or keys an open object may hold', () => {
    const complete = rule('result', (_node, ctx) => ctx.report({}), {
      id: 'test-complete',
      needsCompleteDocument: true,
    });
    const at = (path: (string | number)[]) =>
      rule('result', (_node, ctx) => ctx.report({ path }), { id: `test-at-${path.join('.')}` });
    const open = Object.assign({ type: 'text' }, { [OPEN]: true });
    const result = { content: [{ type: 'image', data: new Opaque('encode(buf)') }, open] };
    const rules = [
      complete,
      at(['content', 0, 'data']),
      at(['content', 0, 'type']),
      at(['content', 1, 'text']),
      at(['content', 1, 'type']),
    ];
    expect(runToolResult(result, { version: V, rules, partial: true }).map((f) => f.rule)).toEqual([
      'test-at-content.0.type',
      'test-at-content.1.type',
    ]);
    // The same document complete: every finding.
    expect(runToolResult(result, { version: V, rules })).toHaveLength(5);
  });
});

describe('block findings carried between the runs of one repair', () => {
  it('are reused for the same block at the same place, and found afresh elsewhere or once forgotten', () => {
    let checks = 0;
    const counting = rule('block', (node, ctx) => {
      checks++;
      badMember(node, ctx);
    });
    const block = { type: 'text', text: 'a', bad: 1 };
    const memo = new BlockFindings();
    const options = { version: V, rules: [counting], blockFindings: memo } as const;
    const first = runToolResult({ content: [block] }, options);
    expect(first.map((f) => f.pointer)).toEqual(['/content/0/bad']);
    expect(runToolResult({ content: [block] }, options)).toEqual(first);
    expect(checks).toBe(1);
    // Moved: checked again, at its new place.
    expect(
      runToolResult({ content: [{ type: 'text', text: 'b' }, block] }, options).map((f) => f.pointer),
    ).toEqual(['/content/1/bad']);
    expect(checks).toBe(3);
    memo.forget(block);
    memo.forget('not an object');
    memo.forget(null);
    runToolResult({ content: [block] }, options);
    expect(checks).toBe(4);
    memo.clear();
    expect(memo.get(block, ['content', 0])).toBeUndefined();
  });

  it('answer only for the path they were found at', () => {
    const memo = new BlockFindings();
    const block = {};
    const findings: EngineFinding[] = [];
    memo.set(block, ['content', 1], findings);
    expect(memo.get(block, ['content', 1])).toBe(findings);
    expect(memo.get(block, ['content', 2])).toBeUndefined();
    expect(memo.get(block, ['content'])).toBeUndefined();
    expect(memo.get(block, ['content', 1, 'x'])).toBeUndefined();
    expect(memo.get({}, ['content', 1])).toBeUndefined();
  });
});

describe('payloadAt', () => {
  it('names the holder and key of a payload, or nothing when the holder is missing', () => {
    const resource = { blob: 'AAAA' };
    const block = { type: 'resource', resource };
    expect(payloadAt(block, ['resource', 'blob'])).toEqual({ holder: resource, key: 'blob' });
    expect(payloadAt(block, ['resource', 'blob'])?.holder).toBe(resource);
    expect(payloadAt([block], [0, 'resource', 'blob'])?.holder).toBe(resource);
    expect(payloadAt(block, ['data'])).toEqual({ holder: block, key: 'data' });
    expect(payloadAt(['a'], [0])).toEqual({ holder: ['a'], key: '0' });
    expect(payloadAt(block, [])).toBeUndefined();
    expect(payloadAt(block, ['missing', 'blob'])).toBeUndefined();
    expect(payloadAt({ resource: 'x' }, ['resource', 'blob'])).toBeUndefined();
    expect(payloadAt({ resource: null }, ['resource', 'blob', 'x'])).toBeUndefined();
    expect(payloadAt(null, ['data'])).toBeUndefined();
  });
});

describe('rules that sniff', () => {
  it('see the bytes at their path below the node when the run sniffs, and nothing when it does not', () => {
    const sniffed: unknown[] = [];
    const sniffing = rule('block', (_node, ctx) => {
      sniffed.push(ctx.sniffed(['data'])?.mimeType, ctx.sniffed(['resource', 'blob']), ctx.sniffed([]));
    });
    const png =
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
    const result = { content: [{ type: 'image', data: png, mimeType: 'image/png' }] };
    runToolResult(result, { version: V, rules: [sniffing], sniff: sniffSync });
    runToolResult(result, { version: V, rules: [sniffing] });
    expect(sniffed).toEqual(['image/png', undefined, undefined, undefined, undefined, undefined]);
  });
});

describe('the quick check of a plain-text result', () => {
  const plain = { content: [{ type: 'text', text: 'iVBORw0KGgo=' }] };
  // The same block with a member no rule of the test reads: not plain text, so the full run has it.
  const full = { content: [{ type: 'text', text: 'iVBORw0KGgo=', x: 1 }] };

  it('gives a rule the context the full run would: its schemas and its sniffing', () => {
    const seen: unknown[] = [];
    const looking = rule('block', (_node, ctx) => {
      const compiled = ctx.schemas.compile({ type: 'string' }, ctx.version);
      seen.push([ctx.sniffed(['text']), ctx.sniffed([]), compiled.ok && compiled.validate(1).length]);
    });
    expect(runToolResult(plain, { version: V, rules: [looking], sniff: sniffSync })).toEqual([]);
    expect(runToolResult(full, { version: V, rules: [looking], sniff: sniffSync })).toEqual([]);
    expect(runToolResult(plain, { version: V, rules: [looking] })).toEqual([]);
    // The 8 bytes of a PNG signature alone are no image; without a sniffer there is no answer at all.
    const sniffed = { mimeType: undefined, settled: true, text: false, signature: '\x89PNG\r\n\x1a\n' };
    expect(seen).toEqual([
      [sniffed, undefined, 1],
      [sniffed, undefined, 1],
      [undefined, undefined, 1],
    ]);
  });

  it('with only result rules, checks no block; a rule that reports or throws sends the result to the full run', () => {
    const blocks: unknown[] = [];
    const quiet = rule('result', (node) => blocks.push(node));
    expect(runToolResult(plain, { version: V, rules: [quiet] })).toEqual([]);
    expect(blocks).toEqual([plain]);
    const reporting = rule('result', (_node, ctx) => ctx.report({ data: { what: 'it', where: 'root' } }));
    expect(runToolResult(plain, { version: V, rules: [reporting] }).map((f) => f.message)).toEqual([
      'saw it at root',
    ]);
    const throwing = rule('result', () => {
      throw new Error('boom');
    });
    expect(runToolResult(plain, { version: V, rules: [throwing] }).map((f) => f.message)).toEqual([
      'rule test-result failed internally and was skipped: boom',
    ]);
  });
});

describe('the quiet answers', () => {
  it('isQuietPlainText: a short plain-text result in every version that needs no resultType, never another shape', () => {
    const plain = { content: [{ type: 'text', text: 'sunny' }] };
    for (const version of ALL_VERSIONS) {
      const needsType = version === '2026-07-28';
      expect(isQuietPlainText(plain, version, undefined), version).toBe(!needsType);
      expect(isQuietPlainText({ ...plain, resultType: 'complete' }, version, undefined), version).toBe(
        needsType,
      );
      expect(
        isQuietPlainText(
          { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
          version,
          undefined,
        ),
      ).toBe(false);
    }
    // An outputSchema tool asks for structuredContent: not quiet.
    expect(isQuietPlainText(plain, V, { name: 't', inputSchema: {}, outputSchema: { type: 'object' } })).toBe(
      false,
    );
  });

  it('isQuietPlainTextIn: isQuietPlainText in the version an option names, and false for an option naming none', () => {
    const plain = { content: [{ type: 'text', text: 'sunny' }] };
    for (const version of ALL_VERSIONS) {
      for (const result of [plain, { ...plain, resultType: 'complete' }, { content: 'sunny' }]) {
        expect(isQuietPlainTextIn(result, version), version).toBe(
          isQuietPlainText(result, version, undefined),
        );
      }
    }
    // Names every object has, and what is no name at all.
    for (const named of ['toString', '__proto__', 'constructor', 'hasOwnProperty', 'draft', 'latest', '']) {
      expect(isQuietPlainTextIn(plain, named), named).toBe(false);
    }
    for (const other of [undefined, null, 20251125, { toString: () => DEFAULT_PROTOCOL_VERSION }]) {
      expect(isQuietPlainTextIn(plain, other)).toBe(false);
    }
  });

  it('firstSilentShape: the first plain-text shape no result or block rule of a rule set runs on', () => {
    const base64Rule = getRule('block-text-base64-image') as Rule;
    const sizeRule = getRule('result-over-client-limits') as Rule;
    for (const version of ALL_VERSIONS) {
      // The catalog: a text long enough to hold an image's base64 still has its rule run.
      expect(firstSilentShape(version), version).toBe(Shape.ShortPlainText);
      expect(firstSilentShape(version, [base64Rule, sizeRule]), version).toBe(Shape.ShortPlainText);
      // The quick check answers for the size rule on any plain text.
      expect(firstSilentShape(version, [sizeRule]), version).toBe(Shape.PlainText);
      // No rule, or only rules of other subjects: every plain-text result is quiet.
      expect(firstSilentShape(version, []), version).toBe(Shape.PlainText);
      expect(firstSilentShape(version, [rule('message', () => {})]), version).toBe(Shape.PlainText);
      // A result or block rule the quick check does not cover runs on every result.
      expect(firstSilentShape(version, [rule('result', () => {})]), version).toBe(NEVER);
      expect(firstSilentShape(version, [rule('block', () => {})]), version).toBe(NEVER);
    }
  });

  it('isQuietMessage: only a response carrying a tools/call result, only for the whole catalog on a complete document', () => {
    const response = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'sunny' }] } };
    const options = { version: V, sniff: sniffSync } as const;
    expect(isQuietMessage(response, options)).toBe(true);
    expect(isQuietMessage(response, { ...options, partial: true })).toBe(false);
    expect(isQuietMessage(response, { ...options, rules: RULES })).toBe(false);
    expect(isQuietMessage('x', options)).toBe(false);
    expect(isQuietMessage({ jsonrpc: '2.0', id: 1 }, options)).toBe(false);
    expect(isQuietMessage(response, { ...options, request: { method: 'tools/list' } })).toBe(false);
    expect(
      isQuietMessage({ ...response, result: { content: [{ type: 'text', text: 'a', extra: 1 }] } }, options),
    ).toBe(false);
    // The message rules still speak: an extra top-level member.
    expect(isQuietMessage({ ...response, requestId: 1 }, options)).toBe(false);
    expect(runMessage({ ...response, requestId: 1 }, options).map((f) => f.rule)).toEqual([
      'envelope-extra-member',
    ]);
  });
});

describe('the validator against every rule run on its own', () => {
  it('finds exactly what the rules find, whatever fast path or plan it takes (generated results of every kind)', {
    timeout: 120_000,
  }, () => {
    const cases = fc
      .constantFrom(...PROTOCOL_VERSIONS)
      .chain((version) => fc.record({ version: fc.constant(version), theCase: anyResult(version) }));
    let found = 0;
    fc.assert(
      fc.property(cases, ({ version, theCase: { result, tool } }) => {
        const got = validatorFinds(result, version, tool);
        const expected = everyRuleFinds(result, version, tool);
        if (expected.length > 0) found++;
        expect(got, JSON.stringify(result).slice(0, 300)).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
    // Both answers are reached often: clean results (the fast paths) and broken ones.
    expect(found).toBeGreaterThan(RUNS / 4);
    expect(found).toBeLessThan(RUNS - RUNS / 10);
  });
});

describe('which checks run (the fast paths skip what provably reports nothing)', () => {
  /** Rules named after catalog rules (the plans go by id), each counting the nodes it was called on. */
  function counting(ids: readonly (readonly [string, RuleDefinition['subject']])[]) {
    const calls = new Map<string, number>();
    const rules = ids.map(([id, subject]) =>
      rule(subject, () => calls.set(id, (calls.get(id) ?? 0) + 1), { id }),
    );
    return { rules, calls: () => Object.fromEntries([...ids].map(([id]) => [id, calls.get(id) ?? 0])) };
  }
  const png =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  const ids = [
    ['result-content-missing', 'result'],
    ['result-over-client-limits', 'result'],
    ['block-type-unknown', 'block'],
    ['block-text-base64-image', 'block'],
    ['block-resource-invalid', 'block'],
    ['block-mime-type-missing', 'block'],
    ['test-unlisted', 'block'],
  ] as const;

  it('a plain-text result meets no covered rule, and a short one not the base64-image rule either', () => {
    const { rules, calls } = counting(ids);
    runToolResult({ content: [{ type: 'text', text: 'short' }] }, { version: V, rules, sniff: sniffSync });
    expect(calls()).toEqual({
      'result-content-missing': 0,
      'result-over-client-limits': 0,
      'block-type-unknown': 0,
      'block-text-base64-image': 0,
      'block-resource-invalid': 0,
      'block-mime-type-missing': 0,
      'test-unlisted': 1,
    });
    const long = counting(ids);
    runToolResult({ content: [{ type: 'text', text: 'x'.repeat(84) }] }, { version: V, rules: long.rules });
    expect(long.calls()).toMatchObject({
      'block-text-base64-image': 1,
      'block-type-unknown': 0,
      'test-unlisted': 1,
    });
  });

  it('a plain media result meets only the result rules that read its size (none when it is small), and its image block only the unlisted rules', () => {
    const { rules, calls } = counting(ids);
    const image = { type: 'image', data: png, mimeType: 'image/png' };
    runToolResult({ content: [image] }, { version: V, rules, sniff: sniffSync });
    expect(calls()).toEqual({
      'result-content-missing': 0,
      'result-over-client-limits': 0,
      'block-type-unknown': 0,
      'block-text-base64-image': 0,
      'block-resource-invalid': 0,
      'block-mime-type-missing': 0,
      'test-unlisted': 1,
    });
    // Past 100,000 units of JSON (25,000 tokens as the size rule estimates them), the size rule runs.
    const large = counting(ids);
    const text = { type: 'text', text: 'x'.repeat(100_000) };
    runToolResult({ content: [text, image] }, { version: V, rules: large.rules, sniff: sniffSync });
    expect(large.calls()).toEqual({
      'result-content-missing': 0,
      'result-over-client-limits': 1,
      'block-type-unknown': 0,
      'block-text-base64-image': 1,
      'block-resource-invalid': 0,
      'block-mime-type-missing': 0,
      'test-unlisted': 2,
    });
  });

  it('an object block of a standard type meets the rules listed for its type and the unlisted ones; another block every rule', () => {
    const { rules, calls } = counting(ids);
    // Annotations that are no object: not a plain image, so the image rules run, but not the resource rule.
    const image = { type: 'image', data: png, mimeType: 'image/png', annotations: 5 };
    runToolResult({ content: [image, { type: 'video' }, 'text'] }, { version: V, rules, sniff: sniffSync });
    // block-type-unknown is listed for no standard type: it meets the other two blocks only.
    expect(calls()).toEqual({
      'result-content-missing': 1,
      'result-over-client-limits': 1,
      'block-type-unknown': 2,
      'block-text-base64-image': 2,
      'block-resource-invalid': 2,
      'block-mime-type-missing': 3,
      'test-unlisted': 3,
    });
  });

  it('text blocks of a result off the fast path meet no covered rule, and the base64-image rule from 84 characters on', () => {
    const { rules, calls } = counting([
      ['block-text-invalid', 'block'],
      ['block-text-base64-image', 'block'],
    ]);
    const texts = ['', 'x'.repeat(83), 'x'.repeat(84)].map((text) => ({ type: 'text', text }));
    runToolResult({ content: texts, structuredContent: {} }, { version: V, rules, sniff: sniffSync });
    expect(calls()).toEqual({ 'block-text-invalid': 0, 'block-text-base64-image': 1 });
  });

  it('plain links, and plain media results with text blocks, meet none of their covered rules', () => {
    const { rules, calls } = counting([
      ['result-content-missing', 'result'],
      ['block-resource-link-invalid', 'block'],
      ['block-mime-type-missing', 'block'],
    ]);
    const link = { type: 'resource_link', uri: 'file:///a', name: 'a' };
    const audio = { type: 'audio', data: png, mimeType: 'audio/wav' };
    runToolResult(
      { content: [link, { type: 'text', text: '' }, { type: 'text', text: 'x' }, audio] },
      { version: V, rules, sniff: sniffSync },
    );
    // The audio block's bytes are a PNG: not a plain media block, so its rules run.
    expect(calls()).toEqual({
      'result-content-missing': 1,
      'block-resource-link-invalid': 0,
      'block-mime-type-missing': 1,
    });
    const plain = counting([['result-content-missing', 'result']]);
    runToolResult(
      { content: [link, { type: 'text', text: '' }, { type: 'image', data: png, mimeType: 'image/png' }] },
      { version: V, rules: plain.rules, sniff: sniffSync },
    );
    expect(plain.calls()).toEqual({ 'result-content-missing': 0 });
  });

  it('a partial document meets every rule that runs on partial documents, whatever its shape', () => {
    const { rules, calls } = counting(ids);
    runToolResult({ content: [{ type: 'text', text: 'short' }] }, { version: V, rules, partial: true });
    expect(calls()).toEqual({
      'result-content-missing': 1,
      'result-over-client-limits': 1,
      'block-type-unknown': 1,
      'block-text-base64-image': 1,
      'block-resource-invalid': 1,
      'block-mime-type-missing': 1,
      'test-unlisted': 1,
    });
  });
});
