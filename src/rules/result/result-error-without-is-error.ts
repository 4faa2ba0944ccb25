import { isObject, type JsonObject } from '../../core/json.js';
import type { PathSegment } from '../../core/pointer.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import {
  appendText,
  compactJson,
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
  readonly messageId: 'structured' | 'member' | 'text';
  readonly path: readonly PathSegment[];
  readonly error: unknown;
}

/**
 * Where the result carries an error payload, if it does. `jsonBuilt`: the text-mirror rules of this
 * version serialize structuredContent in this run anyway, so comparing a text with it costs no more
 * than a string comparison.
 */
function errorPayload(result: JsonObject, jsonBuilt = false): ErrorPayload | undefined {
  const structured = result.structuredContent;
  if (isObject(structured) && isErrorValue(structured.error)) {
    return { messageId: 'structured', path: ['structuredContent', 'error'], error: structured.error };
  }
  if (isErrorValue(result.error)) return { messageId: 'member', path: ['error'], error: result.error };
  const texts = textBlocks(result);
  const only =
    texts.length === 1 && Array.isArray(result.content) && result.content.length === 1 ? texts[0] : undefined;
  // The exact JSON of structuredContent says what structuredContent says, which was checked above;
  // spotting that is far cheaper than searching a large mirror for "error".
  if (only && jsonBuilt && isObject(structured) && only.text === compactJson(structured)) return undefined;
  // Only a text that names an "error" member can be an error payload; skip parsing large data mirrors.
  if (only?.text.includes('"error"')) {
    const parsed = jsonOfText(only.text)?.value;
    if (isObject(parsed) && isErrorValue(parsed.error)) {
      return { messageId: 'text', path: ['content', 0, 'text'], error: parsed.error };
    }
  }
  return undefined;
}

/** A one-line, human-readable form of an error payload. */
function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (isObject(error) && typeof error.message === 'string') return error.message;
  return serialize(error);
}

export default defineRule({
  id: 'result-error-without-is-error',
  subject: 'result',
  severity: 'warning',
  title: 'Error payloads need `isError: true`',
  rationale: [
    'CallToolResult.isError: "Any errors that originate from the tool SHOULD be reported inside the',
    'result object, with `isError` set to true". A result that says `{"error": …}` in structuredContent,',
    'in its only text block, or as a member of the result, but leaves `isError` unset is a success to',
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
    if (payload) ctx.report({ messageId: payload.messageId, path: payload.path });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    const payload = result && errorPayload(result);
    if (!result || !payload) return undefined;
    result.isError = true;
    if (textBlocks(result).length === 0 && appendText(result, errorText(payload.error))) {
      return { description: 'set "isError": true and added a text block describing the error' };
    }
    return { description: 'set "isError": true' };
  },
});
