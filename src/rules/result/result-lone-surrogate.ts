import { isObject, type JsonObject } from '../../core/json.js';
import { stringifyJson } from '../../core/json-write.js';
import { getIn } from '../../core/pointer.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import {
  LONE_MESSAGES,
  mendAll,
  RMCP_DROPS_LONE_SURROGATE,
  reportLonePlaces,
} from '../support/lone-surrogates.js';
import { serialization } from '../support/serialization.js';
import { defineRule } from '../types.js';

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
    ...RMCP_DROPS_LONE_SURROGATE,
  ],
  messages: LONE_MESSAGES,
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
    reportLonePlaces(sent, (r) => ctx.report(r));
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
