/**
 * Client impacts that several result and tool rules share, so the evidence is written once.
 * Every entry names its source in shared/reference (client-compat.md, spec-versions.md).
 */

import type { ClientImpact } from '../../clients/catalog.js';

/** A result that fails the TypeScript SDK v1 `CallToolResultSchema`. */
export function sdkV1RejectsResult(detail: string): ClientImpact {
  return {
    client: 'ts-sdk-v1',
    effect: 'rejects-call',
    detail: `\`callTool()\` rejects with ${detail}`,
    source: 'shared/reference/client-compat.md §3 (probe of 1.23 and 1.29)',
  };
}

/** A result that fails the Python SDK's pydantic `CallToolResult`. */
export function pythonRejectsResult(detail: string): ClientImpact {
  return {
    client: 'python-sdk',
    effect: 'rejects-call',
    detail: `pydantic ValidationError: ${detail}`,
    source: 'python-sdk v1.29 src/mcp/types.py (client-compat.md §2)',
  };
}

/** Cline (and older TypeScript SDKs) require `content`. */
export const CLINE_REQUIRES_CONTENT: ClientImpact = {
  client: 'cline',
  effect: 'rejects-call',
  detail: '`expected array … path ["content"] Required`',
  source: 'cloudflare/mcp-server-cloudflare #12 (client-compat.md §4 row 19)',
};

/** A tools/list result that fails the TypeScript SDK v1 `ToolSchema`: every tool of the server is lost. */
export function sdkV1RejectsToolsList(detail: string): ClientImpact {
  return {
    client: 'ts-sdk-v1',
    effect: 'rejects-call',
    detail: `\`listTools()\` rejects (${detail}): no tool of the server is usable`,
    source: 'shared/reference/spec-versions.md §11 (ToolSchema in sdk 1.32.2 types.js)',
  };
}

/** Clients that hand the model only `structuredContent` when it is present. */
export const STRUCTURED_ONLY_CLIENTS: readonly ClientImpact[] = [
  {
    client: 'codex',
    effect: 'drops-content',
    detail: 'sends only structuredContent to the model when it is present',
    source: 'client-compat.md §5.3 (codex-rs/protocol/src/models.rs)',
  },
  {
    client: 'claude-code',
    effect: 'drops-content',
    detail: 'sends only structuredContent to the model (anthropics/claude-code #54737, #55677)',
    source: 'client-compat.md §4 rows 27–28',
  },
  {
    client: 'vscode-copilot',
    effect: 'drops-content',
    detail: 'text blocks are not sent to the model when structuredContent is present',
    source: 'vscode mcpLanguageModelToolContribution.ts (client-compat.md §1)',
  },
];

/** Clients that hand the model only `content` and never look at `structuredContent`. */
export const CONTENT_ONLY_CLIENTS: readonly ClientImpact[] = [
  {
    client: 'claude-desktop',
    effect: 'drops-content',
    detail: 'shows no output for a result whose content is empty (seuros/action_mcp #181)',
    source: 'client-compat.md §4 row 29',
  },
  {
    client: 'gemini-cli',
    effect: 'drops-content',
    detail: 'structuredContent is ignored for the model; only content is transformed',
    source: 'gemini-cli packages/core/src/tools/mcp-tool.ts (client-compat.md §2)',
  },
  {
    client: 'goose',
    effect: 'drops-content',
    detail: 'provider formatters do not forward structuredContent',
    source: 'goose providers/formats/openai.rs, anthropic.rs (client-compat.md §2)',
  },
  {
    client: 'zed',
    effect: 'drops-content',
    detail: '`structured_content` is parsed but unused',
    source: 'zed crates/context_server/src/types.rs (client-compat.md §2)',
  },
  {
    client: 'continue',
    effect: 'drops-content',
    detail: 'structuredContent is ignored',
    source: 'continue core/tools/callTool.ts (client-compat.md §2)',
  },
];
