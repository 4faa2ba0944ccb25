/**
 * Client impacts that several result and tool rules share, so the evidence is written once.
 * Every entry names its public source (a repository path at a version, an issue, or the SDK build that
 * was probed), which the rule docs print; the team's notes that collected them are in ../shared/reference.
 */

import type { ClientImpact } from '../../clients/catalog.js';

/** A result that fails the TypeScript SDK v1 `CallToolResultSchema`. */
export function sdkV1RejectsResult(detail: string): ClientImpact {
  return {
    client: 'ts-sdk-v1',
    effect: 'rejects-call',
    detail: `\`callTool()\` rejects with ${detail}`,
    source:
      'modelcontextprotocol/typescript-sdk v1.29.0 src/types.ts (CallToolResultSchema), src/shared/protocol.ts (a failed safeParse rejects the call); reproduced with 1.23.0 and 1.29.0',
  };
}

/** A result that fails the Python SDK's pydantic `CallToolResult`. */
export function pythonRejectsResult(detail: string): ClientImpact {
  return {
    client: 'python-sdk',
    effect: 'rejects-call',
    detail: `pydantic ValidationError: ${detail}`,
    source: 'modelcontextprotocol/python-sdk v1.29.0 src/mcp/types.py',
  };
}

/** Cline (and older TypeScript SDKs) require `content`. */
export const CLINE_REQUIRES_CONTENT: ClientImpact = {
  client: 'cline',
  effect: 'rejects-call',
  detail: '`expected array … path ["content"] Required`',
  source: 'cloudflare/mcp-server-cloudflare #12',
};

/** A tools/list result that fails the TypeScript SDK v1 `ToolSchema`: every tool of the server is lost. */
export function sdkV1RejectsToolsList(detail: string): ClientImpact {
  return {
    client: 'ts-sdk-v1',
    effect: 'rejects-call',
    detail: `\`listTools()\` rejects (${detail}): no tool of the server is usable`,
    source: '@modelcontextprotocol/sdk 1.32.2 dist/esm/types.js (ToolSchema)',
  };
}

/** Clients that hand the model only `structuredContent` when it is present. */
export const STRUCTURED_ONLY_CLIENTS: readonly ClientImpact[] = [
  {
    client: 'codex',
    effect: 'drops-content',
    detail: 'sends only structuredContent to the model when it is present',
    source: 'openai/codex codex-rs/protocol/src/models.rs (CallToolResult::as_function_call_output_payload)',
  },
  {
    client: 'claude-code',
    effect: 'drops-content',
    detail: 'sends only structuredContent to the model (anthropics/claude-code #54737, #55677)',
    source: 'anthropics/claude-code #54737, #55677, #59480',
  },
  {
    client: 'vscode-copilot',
    effect: 'drops-content',
    detail: 'text blocks are not sent to the model when structuredContent is present',
    source: 'microsoft/vscode src/vs/workbench/contrib/mcp/common/mcpLanguageModelToolContribution.ts',
  },
];

/** Clients that hand the model only `content` and never look at `structuredContent`. */
export const CONTENT_ONLY_CLIENTS: readonly ClientImpact[] = [
  {
    client: 'claude-desktop',
    effect: 'drops-content',
    detail: 'shows no output for a result whose content is empty (seuros/action_mcp #181)',
    source: 'seuros/action_mcp #181',
  },
  {
    client: 'gemini-cli',
    effect: 'drops-content',
    detail: 'structuredContent is ignored for the model; only content is transformed',
    source: 'google-gemini/gemini-cli packages/core/src/tools/mcp-tool.ts',
  },
  {
    client: 'goose',
    effect: 'drops-content',
    detail: 'provider formatters do not forward structuredContent',
    source: 'block/goose crates/goose/src/providers/formats/openai.rs, anthropic.rs',
  },
  {
    client: 'zed',
    effect: 'drops-content',
    detail: '`structured_content` is parsed but unused',
    source: 'zed-industries/zed crates/context_server/src/types.rs',
  },
  {
    client: 'continue',
    effect: 'drops-content',
    detail: 'structuredContent is ignored',
    source: 'continuedev/continue core/tools/callTool.ts',
  },
];
