import { isObject, type JsonObject } from '../../core/json.js';
import type { PathSegment } from '../../core/pointer.js';
import { ALL_VERSIONS, BLOCK_TYPES } from '../../spec/versions.js';
import {
  appendText,
  isCompactJsonOf,
  jsonOfText,
  serialize,
  subjectObject,
  textBlocks,
} from '../support/call-tool-result.js';
import { defineRule } from '../types.js';

/** An `error` member that actually reports an error (not `null`, `false` or an empty string). */
function isErrorValue(value: unknown): boolean {
  if (typeof value === 'string') return value.trim() !== '';
  return value === true || isObject(value) || (Array.isArray(value) && value.length > 0);
}

interface ErrorPayload {
  readonly messageId: 'structured' | 'member' | 'text' | 'block';
  readonly path: readonly PathSegment[];
  readonly error: unknown;
  /** The object holding `error`, for a readable text (`{"error": "CODE", "message": "…"}`). */
  readonly holder?: JsonObject;
}

/**
 * Members that carry the payload of a made-up block (`{"type": "object", "object": {…}}`), as the
 * gateways that invent them name it: after the block's own type name, these, in this order.
 */
const BLOCK_PAYLOAD_KEYS = ['json', 'object', 'data', 'value', 'result', 'content', 'structuredContent'];

/** An object parsed from a JSON string, as gateways sometimes double-encode a payload. */
function objectOf(value: unknown): JsonObject | undefined {
  if (isObject(value)) return value;
  if (typeof value !== 'string' || !value.includes('"error"')) return undefined;
  const parsed = jsonOfText(value)?.value;
  return isObject(parsed) ? parsed : undefined;
}

/**
 * The error payload inside the only block of `content`, when that block has a type no client knows
 * (`object`, `json`, `data`, …) and its payload is `{"error": …}`. block-type-unknown reports the
 * type; this reports that the result is a failure every client takes for a success. An `error` block
 * is left to block-type-unknown, whose message and repair already say it is an error.
 */
function blockErrorPayload(result: JsonObject): ErrorPayload | undefined {
  if (!Array.isArray(result.content) || result.content.length !== 1) return undefined;
  const block = result.content[0];
  if (!isObject(block) || typeof block.type !== 'string' || block.type === 'error') return undefined;
  if ((BLOCK_TYPES as readonly string[]).includes(block.type)) return undefined;
  for (const key of [block.type, ...BLOCK_PAYLOAD_KEYS]) {
    if (!Object.hasOwn(block, key)) continue;
    const holder = objectOf(block[key]);
    if (holder && isErrorValue(holder.error)) {
      return { messageId: 'block', path: ['content', 0, key, 'error'], error: holder.error, holder };
    }
  }
  if (isErrorValue(block.error)) {
    return { messageId: 'block', path: ['content', 0, 'error'], error: block.error, holder: block };
  }
  return undefined;
}

/**
 * Where the result carries an error payload, if it does. `jsonBuilt`: the text-mirror rules of this
 * version serialize structuredContent in this run anyway, so comparing a text with it costs no more
 * than a string comparison.
 */
function errorPayload(result: JsonObject, jsonBuilt = false): ErrorPayload | undefined {
  const structured = result.structuredContent;
  if (isObject(structured) && isErrorValue(structured.error)) {
    return {
      messageId: 'structured',
      path: ['structuredContent', 'error'],
      error: structured.error,
      holder: structured,
    };
  }
  if (isErrorValue(result.error)) {
    return { messageId: 'member', path: ['error'], error: result.error, holder: result };
  }
  const inBlock = blockErrorPayload(result);
  if (inBlock) return inBlock;
  const texts = textBlocks(result);
  const only =
    texts.length === 1 && Array.isArray(result.content) && result.content.length === 1 ? texts[0] : undefined;
  // The exact JSON of structuredContent says what structuredContent says, which was checked above;
  // spotting that is far cheaper than searching a large mirror for "error".
  if (only && jsonBuilt && isObject(structured) && isCompactJsonOf(only.text, structured)) return undefined;
  // Only a text that names an "error" member can be an error payload; skip parsing large data mirrors.
  if (only?.text.includes('"error"')) {
    const parsed = jsonOfText(only.text)?.value;
    if (isObject(parsed) && isErrorValue(parsed.error)) {
      return { messageId: 'text', path: ['content', 0, 'text'], error: parsed.error };
    }
  }
  return undefined;
}

/**
 * The error as a person reads it, not its JSON: `"Account service unreachable"`, or
 * `"INVALID_SIGNATURE: invalid signature"` when the payload pairs a code with a message.
 */
function errorText(error: unknown, holder?: JsonObject): string {
  if (isObject(error) && typeof error.message === 'string') return error.message;
  if (typeof error !== 'string') return serialize(error);
  const message = holder?.message;
  return typeof message === 'string' && message.trim() !== '' && message !== error
    ? `${error}: ${message}`
    : error;
}

function blockType(result: JsonObject): string {
  const block = Array.isArray(result.content) ? result.content[0] : undefined;
  return isObject(block) && typeof block.type === 'string' ? block.type : '';
}

export default defineRule({
  id: 'result-error-without-is-error',
  subject: 'result',
  severity: 'warning',
  title: 'Error payloads need `isError: true`',
  rationale: [
    'CallToolResult.isError: "Any errors that originate from the tool SHOULD be reported inside the',
    'result object, with `isError` set to true". A result that says `{"error": …}` in structuredContent,',
    'in its only text block, in the payload of its only block when that block has a made-up type',
    '(`{"type": "object", "object": {"error": …}}`), or as a member of the result, but leaves `isError` unset is a success to',
    'every client: Gemini CLI and Zed route failed calls differently only when `isError` is true, and the',
    'model is told the call worked. Errors carried only in structuredContent are also invisible to',
    'clients that read only content.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    {
      client: 'gemini-cli',
      effect: 'misreads',
      detail: 'only `isError` makes `isMCPToolError` report the call as failed',
      source: 'google-gemini/gemini-cli packages/core/src/tools/mcp-tool.ts',
    },
    {
      client: 'zed',
      effect: 'misreads',
      detail: 'only `isError` turns the result into a tool error (`Err(text)`) for the model',
      source: 'zed-industries/zed crates/agent/src/tools/context_server_registry.rs',
    },
    {
      client: 'vscode-copilot',
      effect: 'misreads',
      detail: '`toolResultDetails.isError` is set only from `isError`',
      source: 'microsoft/vscode src/vs/workbench/contrib/mcp/common/mcpLanguageModelToolContribution.ts',
    },
  ],
  messages: {
    structured: 'structuredContent reports an error but "isError" is not true',
    member: 'the result has an "error" member but "isError" is not true',
    text: 'the only text block is an {"error": …} payload but "isError" is not true',
    block: 'the only content block ("{{type}}") carries an {"error": …} payload but "isError" is not true',
    default: 'the result reports an error but "isError" is not true',
  },
  fix: 'Set `"isError": true` and describe the error in a text block.',
  examples: {
    wrong: {
      value: {
        content: [{ type: 'text', text: '{"error":"city not found"}' }],
        structuredContent: { error: 'city not found' },
      },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: {
        content: [{ type: 'text', text: '{"error":"city not found"}' }],
        structuredContent: { error: 'city not found' },
        isError: true,
      },
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || result.isError === true) return;
    const payload = errorPayload(result, ctx.features.structuredContent !== 'none');
    if (!payload) return;
    // The made-up type may be the empty string; the message still names it.
    const type = payload.messageId === 'block' ? blockType(result) : undefined;
    ctx.report({
      messageId: payload.messageId,
      path: payload.path,
      ...(type !== undefined ? { data: { type } } : {}),
    });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    const payload = result && errorPayload(result);
    if (!result || !payload) return undefined;
    result.isError = true;
    if (payload.messageId === 'block' && Array.isArray(result.content)) {
      // The made-up block goes: its text is the error itself, which is what the model should read.
      const type = blockType(result);
      result.content[0] = { type: 'text', text: errorText(payload.error, payload.holder) };
      return { description: `set "isError": true and replaced the "${type}" block with the error message` };
    }
    if (textBlocks(result).length === 0 && appendText(result, errorText(payload.error, payload.holder))) {
      return { description: 'set "isError": true and added a text block describing the error' };
    }
    return { description: 'set "isError": true' };
  },
});
