import { isObject, type JsonObject } from '../../core/json.js';
import { stringifyJson } from '../../core/json-write.js';
import { getIn, type PathSegment } from '../../core/pointer.js';
import { isWellFormed, LONE_SURROGATE, toWellFormed } from '../../core/well-formed.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { serialization } from '../support/serialization.js';
import { defineRule } from '../types.js';

/** Places reported at most; a repair mends them all at once. */
const MAX_REPORTED = 20;

interface Place {
  readonly path: PathSegment[];
  /** The member's name holds it, not its value. */
  readonly key: boolean;
}

/**
 * Where the strings of plain JSON hold a lone surrogate: values, and member names. Iterative, as deep
 * as the value goes; at most `max` places.
 */
function lonePlaces(root: unknown, max: number): Place[] {
  const places: Place[] = [];
  // Each member with whether its name holds one: reported where the member is, in document order.
  const stack: [unknown, PathSegment[], boolean][] = [[root, [], false]];
  while (stack.length > 0 && places.length < max) {
    const [value, path, badName] = stack.pop() as [unknown, PathSegment[], boolean];
    if (badName) places.push({ path, key: true });
    if (typeof value === 'string') {
      if (!isWellFormed(value)) places.push({ path, key: false });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], [...path, i], false]);
    } else if (isObject(value)) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push([value[key], [...path, key], !isWellFormed(key)]);
      }
    }
  }
  return places.slice(0, max);
}

/** Replaces every lone surrogate in the strings and member names of plain JSON, in place; how many strings changed. */
function mendAll(root: unknown): number {
  let mended = 0;
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item = value[i];
        if (typeof item === 'string' && !isWellFormed(item)) {
          value[i] = toWellFormed(item);
          mended++;
        } else if (typeof item === 'object' && item !== null) stack.push(item);
      }
    } else if (isObject(value)) {
      for (const key of Object.keys(value)) {
        let name = key;
        if (!isWellFormed(key)) {
          name = toWellFormed(key);
          const member = value[key];
          delete value[key];
          // A name that is taken already keeps its member: the one renamed is left out.
          if (!Object.hasOwn(value, name)) value[name] = member;
          mended++;
        }
        const member = value[name];
        if (typeof member === 'string' && !isWellFormed(member)) {
          value[name] = toWellFormed(member);
          mended++;
        } else if (typeof member === 'object' && member !== null) stack.push(member);
      }
    }
  }
  return mended;
}

/** The result as plain JSON (what JSON.stringify sends of a handler's value), when it can be read so. */
function asSent(result: JsonObject): unknown {
  try {
    return JSON.parse(stringifyJson(result));
  } catch {
    return undefined;
  }
}

export default defineRule({
  id: 'result-lone-surrogate',
  subject: 'result',
  severity: 'error',
  title: 'Strings must be well-formed Unicode: no lone surrogates',
  rationale: [
    'A JavaScript string can hold half of a surrogate pair, most often where text was cut by length',
    '(`text.slice(0, 1000)` through an emoji). UTF-8 cannot encode one, and the JSON-RPC messages of',
    'every MCP transport MUST be UTF-8, so `JSON.stringify` writes it as an escape (`"\\ud83d"`), which',
    'the JSON grammar allows but strict readers refuse. The official Python SDK client reads each',
    'message with pydantic (`JSONRPCMessage.model_validate_json`), which refuses it ("unexpected end of',
    'hex escape"): the response is dropped, and the call waits with no answer (reproduced with a',
    'TypeScript SDK server over stdio). rmcp reads messages with serde_json, which refuses it too (a',
    'syntax error, "lone leading surrogate in hex escape"), and ignores what it cannot parse. The',
    'TypeScript SDK clients accept it. Member names are strings too.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'python-sdk',
      effect: 'drops-message',
      detail: '"Failed to parse JSONRPC message from server": the call gets no answer',
      source:
        'python-sdk src/mcp/client/stdio/__init__.py (`types.JSONRPCMessage.model_validate_json(line)`); reproduced with mcp 2.3.0 and pydantic 2.13.5 against a TypeScript SDK 1.32.2 stdio server',
    },
    {
      client: 'codex',
      effect: 'drops-message',
      detail: 'serde_json: "lone leading surrogate in hex escape"; the message is ignored (inferred)',
      source: 'modelcontextprotocol/rust-sdk crates/rmcp/src/transport/async_rw.rs (syntax errors ignored)',
    },
    {
      client: 'goose',
      effect: 'drops-message',
      detail: 'serde_json: "lone leading surrogate in hex escape"; the message is ignored (inferred)',
      source: 'modelcontextprotocol/rust-sdk crates/rmcp/src/transport/async_rw.rs (syntax errors ignored)',
    },
  ],
  messages: {
    default: 'the string holds a lone surrogate ({{code}}), which strict JSON readers refuse',
    key: 'the member name holds a lone surrogate ({{code}}), which strict JSON readers refuse',
    more: 'and {{count}} more strings after these hold lone surrogates',
  },
  fix: 'Cut text at whole characters (`Array.from(text).slice(0, n).join("")`, or `text.toWellFormed()`), never between the halves of a surrogate pair.',
  examples: {
    wrong: {
      value: { content: [{ type: 'text', text: 'Top story: Launch day \ud83d' }] },
      source: "{ content: [{ type: 'text', text: 'Top story: Launch day \\ud83d' }] }",
      protocolVersion: '2025-11-25',
    },
    right: {
      value: { content: [{ type: 'text', text: 'Top story: Launch day \ud83d\ude80' }] },
      protocolVersion: '2025-11-25',
    },
  },
  check(result, ctx) {
    if (!isObject(result)) return;
    const serialized = serialization(result);
    if (!('size' in serialized) || !serialized.size.loneSurrogate) return;
    const sent = asSent(result);
    if (sent === undefined) return;
    const places = lonePlaces(sent, MAX_REPORTED + 1);
    for (const { path, key } of places.slice(0, MAX_REPORTED)) {
      const text = key ? String(path[path.length - 1]) : String(getIn(sent, path));
      const lone = LONE_SURROGATE.exec(text)?.[0] ?? '';
      const code = `U+${lone.charCodeAt(0).toString(16).toUpperCase()}`;
      ctx.report({ messageId: key ? 'key' : 'default', path, data: { code } });
    }
    if (places.length > MAX_REPORTED) {
      const all = lonePlaces(sent, Number.POSITIVE_INFINITY).length;
      ctx.report({ messageId: 'more', data: { count: all - MAX_REPORTED } });
    }
  },
  repair(ctx) {
    const result = getIn(ctx.root, ctx.subjectPath);
    if (!isObject(result)) return undefined;
    const mended = mendAll(result);
    if (mended === 0) return undefined;
    return {
      description: `replaced the lone surrogates of ${mended} ${mended === 1 ? 'string' : 'strings'} with U+FFFD, as UTF-8 writes them`,
      lossy: true,
    };
  },
});
