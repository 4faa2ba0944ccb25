/**
 * Client impacts that several block rules share, each naming its public source; the team's notes that
 * collected the evidence are ../shared/reference/client-compat.md. Each rule picks the ones that apply.
 */

import type { ClientImpact } from '../../../clients/catalog.js';

const SDK_PROBE =
  'modelcontextprotocol/typescript-sdk v1.29.0 src/types.ts (CallToolResultSchema), src/shared/protocol.ts (a failed safeParse rejects the call); reproduced with 1.23.0 and 1.29.0';

/** The v1 TypeScript SDK parses every block with a closed Zod union; one bad block fails `callTool()`. */
export function tsSdkRejects(
  detail = '`callTool()` rejects with a raw ZodError `invalid_union`',
): ClientImpact {
  return { client: 'ts-sdk-v1', effect: 'rejects-call', detail, source: SDK_PROBE };
}

/** Clients built on the v1 TypeScript SDK inherit its parser. */
export const SDK_BASED_CLIENTS: readonly ClientImpact[] = [
  {
    client: 'gemini-cli',
    effect: 'rejects-call',
    detail: "SDK 1.23 ZodError, shown as `MCP tool 'x' reported an error.`",
    source: 'gemini-cli packages/core/src/tools/mcp-tool.ts with SDK 1.23 (probe)',
  },
  {
    client: 'librechat',
    effect: 'rejects-call',
    detail: 'the SDK schema rejects the result (`client.request(…, CallToolResultSchema)`)',
    source: 'LibreChat packages/api/src/mcp/MCPManager.ts (inferred)',
  },
  {
    client: 'continue',
    effect: 'rejects-call',
    detail: 'the SDK (^1.25) rejects the result',
    source: 'continue core/tools/callTool.ts (inferred)',
  },
];

/** rmcp deserializes content into a closed enum; any unparsable block fails the whole result. */
export const RMCP_CLIENTS: readonly ClientImpact[] = [
  {
    client: 'codex',
    effect: 'rejects-call',
    detail: '`tool call failed … Caused by: Unexpected response type`',
    source: 'rmcp crates/rmcp/src/model/content.rs; openai/codex #29002',
  },
  {
    client: 'goose',
    effect: 'rejects-call',
    detail: '`Unexpected response type` (rmcp)',
    source: 'goose crates/goose/src/agents/mcp_client.rs (inferred)',
  },
];

export const PYTHON_SDK_REJECTS: ClientImpact = {
  client: 'python-sdk',
  effect: 'rejects-call',
  detail: 'pydantic `ValidationError` on the content union',
  source: 'python-sdk src/mcp/types.py v1.29',
};
