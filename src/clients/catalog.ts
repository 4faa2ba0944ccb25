/**
 * The MCP clients whose behaviour the rule catalog predicts. Evidence lives with each rule
 * (`ClientImpact.source`); this file only names the clients and the versions the evidence covers,
 * and the one fact that is the client's own rather than a rule's: how long it waits for a response.
 * Facts come from shared/reference/client-compat.md and the sources named below.
 */

/**
 * How long a client waits for the response to a request before it gives up, by default.
 * `ms: null` means it does not time out at all. Clients without an entry have no default we could
 * verify in their source, so no finding claims they time out.
 */
export interface RequestTimeout {
  readonly ms: number | null;
  /** Where the default is set (file and constant), or the report that measured it. */
  readonly source: string;
}

interface ClientInfo {
  readonly name: string;
  readonly versions: string;
  readonly requestTimeout?: RequestTimeout;
}

export const CLIENTS = {
  'ts-sdk-v1': {
    name: 'TypeScript SDK v1 client',
    versions: '1.23–1.32',
    requestTimeout: {
      ms: 60_000,
      source: '@modelcontextprotocol/sdk 1.32.2 dist/esm/shared/protocol.js DEFAULT_REQUEST_TIMEOUT_MSEC',
    },
  },
  'ts-sdk-v2': {
    name: 'TypeScript SDK v2 client',
    versions: '2.x',
    requestTimeout: { ms: 60_000, source: '@modelcontextprotocol/client 2.4.0 DEFAULT_REQUEST_TIMEOUT_MSEC' },
  },
  'python-sdk': {
    name: 'Python SDK client',
    versions: '1.29',
    requestTimeout: {
      ms: null,
      source:
        'python-sdk v1.29.0 src/mcp/shared/session.py send_request: no deadline unless read_timeout_seconds is set',
    },
  },
  codex: {
    name: 'OpenAI Codex',
    versions: 'CLI/App with rmcp 3.x',
    requestTimeout: {
      ms: 300_000,
      source:
        'openai/codex codex-rs/codex-mcp/src/rmcp_client.rs DEFAULT_TOOL_TIMEOUT (60 s in releases before the codex-mcp crate)',
    },
  },
  'claude-code': { name: 'Claude Code', versions: '1.0 – 2.1.280' },
  'claude-desktop': {
    name: 'Claude Desktop / claude.ai',
    versions: 'as of 2026-09',
    requestTimeout: {
      ms: 60_000,
      source: 'anthropics/claude-code #22542 (measured: calls over ~60 s get no result)',
    },
  },
  cursor: { name: 'Cursor', versions: '0.49 – 3.1' },
  'vscode-copilot': { name: 'VS Code Copilot Chat', versions: 'commit b801fe9' },
  'gemini-cli': {
    name: 'Gemini CLI',
    versions: 'HEAD 5411f11 (SDK 1.23)',
    requestTimeout: {
      ms: 600_000,
      source: 'google-gemini/gemini-cli packages/core/src/tools/mcp-client.ts MCP_DEFAULT_TIMEOUT_MSEC',
    },
  },
  goose: {
    name: 'Goose',
    versions: 'rmcp-based builds',
    requestTimeout: {
      ms: 300_000,
      source: 'block/goose crates/goose/src/config/extensions.rs DEFAULT_EXTENSION_TIMEOUT',
    },
  },
  continue: { name: 'Continue (IDE and cn CLI)', versions: 'HEAD d0a3c0b' },
  zed: {
    name: 'Zed',
    versions: 'index versions',
    requestTimeout: {
      ms: 60_000,
      source: 'zed-industries/zed crates/context_server/src/client.rs DEFAULT_REQUEST_TIMEOUT',
    },
  },
  librechat: { name: 'LibreChat', versions: 'index versions' },
  cline: {
    name: 'Cline / Roo Code',
    versions: 'reported versions',
    requestTimeout: { ms: 60_000, source: 'cline/cline src/shared/mcp.ts DEFAULT_MCP_TIMEOUT_SECONDS' },
  },
} as const satisfies Record<string, ClientInfo>;

export type ClientId = keyof typeof CLIENTS;

/** The official SDK clients: what every other client is built on or measured against. */
export const OFFICIAL_SDK_CLIENTS: readonly ClientId[] = ['ts-sdk-v1', 'ts-sdk-v2', 'python-sdk'];

/** The default request timeout of a client, when its source is known. */
export function requestTimeoutOf(id: ClientId): RequestTimeout | undefined {
  return (CLIENTS[id] as ClientInfo).requestTimeout;
}

/** Clients whose known default timeout is shorter than `latencyMs`: they gave up before the answer. */
export function clientsTimedOutAt(latencyMs: number): ClientId[] {
  return (Object.keys(CLIENTS) as ClientId[]).filter((id) => {
    const ms = requestTimeoutOf(id)?.ms;
    return typeof ms === 'number' && latencyMs > ms;
  });
}

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

/**
 * The same impact on every client of the catalog: for a defect that fails before any client sees the
 * message (the server's own SDK refuses the result and sends an error in its place).
 */
export function everyClient(detail: string, source: string): readonly ClientImpact[] {
  return (Object.keys(CLIENTS) as ClientId[]).map((client) => ({
    client,
    effect: 'rejects-call',
    detail,
    source,
  }));
}

export function clientName(id: ClientId): string {
  return CLIENTS[id].name;
}
