/**
 * The MCP clients whose behaviour the rule catalog predicts. Evidence lives with each rule
 * (`ClientImpact.source`); this file only names the clients and the versions the evidence covers.
 * Facts come from shared/reference/client-compat.md.
 */

export const CLIENTS = {
  'ts-sdk-v1': { name: 'TypeScript SDK v1 client', versions: '1.23–1.32' },
  'ts-sdk-v2': { name: 'TypeScript SDK v2 client', versions: '2.x' },
  'python-sdk': { name: 'Python SDK client', versions: '1.29' },
  codex: { name: 'OpenAI Codex', versions: 'CLI/App with rmcp 3.x' },
  'claude-code': { name: 'Claude Code', versions: '1.0 – 2.1.280' },
  'claude-desktop': { name: 'Claude Desktop / claude.ai', versions: 'as of 2026-09' },
  cursor: { name: 'Cursor', versions: '0.49 – 3.1' },
  'vscode-copilot': { name: 'VS Code Copilot Chat', versions: 'commit b801fe9' },
  'gemini-cli': { name: 'Gemini CLI', versions: 'HEAD 5411f11 (SDK 1.23)' },
  goose: { name: 'Goose', versions: 'rmcp-based builds' },
  continue: { name: 'Continue (IDE and cn CLI)', versions: 'HEAD d0a3c0b' },
  zed: { name: 'Zed', versions: 'index versions' },
  librechat: { name: 'LibreChat', versions: 'index versions' },
  cline: { name: 'Cline / Roo Code', versions: 'reported versions' },
} as const;

export type ClientId = keyof typeof CLIENTS;

/**
 * What a client does when it meets the defect:
 * - `rejects-call`: the whole tools/call fails, every block is lost;
 * - `drops-message`: the response is discarded and the call hangs until timeout;
 * - `drops-content`: the offending part is silently lost;
 * - `misreads`: the call succeeds but the model or user sees something wrong;
 * - `limits`: the client refuses or truncates over a size limit.
 */
export type ClientEffect = 'rejects-call' | 'drops-message' | 'drops-content' | 'misreads' | 'limits';

export interface ClientImpact {
  readonly client: ClientId;
  readonly effect: ClientEffect;
  /** What the user or model sees, quoting the client's message where known. */
  readonly detail: string;
  /** Where the evidence comes from: an issue, a source file, or a probe. */
  readonly source: string;
}

export function clientName(id: ClientId): string {
  return CLIENTS[id].name;
}
