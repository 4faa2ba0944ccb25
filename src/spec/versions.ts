/**
 * The protocol model: what each MCP protocol version allows in tool results and tool definitions.
 * Facts come from the official schema.json of each version and the spec prose; the differential
 * tests in test/spec hold this table against the official schemas.
 */

export const PROTOCOL_VERSIONS = [
  '2024-11-05',
  '2025-03-26',
  '2025-06-18',
  '2025-11-25',
  '2026-07-28',
] as const;

export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];

export const LATEST_PROTOCOL_VERSION: ProtocolVersion = '2026-07-28';

/**
 * The version every command and library entry point assumes when neither the input (a recorded
 * initialize or server/discover, a 2026-07-28 `resultType`) nor the user (`--protocol`) says otherwise:
 * what current clients negotiate. Defaulting to the newest draft would fail every valid result of
 * today's servers for lacking members only the draft requires.
 */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = '2025-11-25';

/**
 * The version to assume for a document when nobody names one: 2026-07-28 when it carries a `resultType`
 * member (only that version defines it, so the document says which version it speaks), otherwise
 * DEFAULT_PROTOCOL_VERSION. Looks at a result, a JSON-RPC response's `result`, and the messages of a batch.
 */
export function assumedProtocolVersion(document: unknown): ProtocolVersion {
  return speaksResultType(document) ? LATEST_PROTOCOL_VERSION : DEFAULT_PROTOCOL_VERSION;
}

function speaksResultType(document: unknown, depth = 0): boolean {
  if (Array.isArray(document)) return depth === 0 && document.some((m) => speaksResultType(m, 1));
  if (typeof document !== 'object' || document === null) return false;
  // A JSON-RPC message speaks through its result; anything else is a result itself.
  const isMessage = Object.hasOwn(document, 'jsonrpc') || Object.hasOwn(document, 'result');
  const result = isMessage ? (document as { result?: unknown }).result : document;
  return typeof result === 'object' && result !== null && Object.hasOwn(result, 'resultType');
}

/** The draft schema is byte-identical to 2026-07-28, so `draft` is accepted as an alias. */
export function parseProtocolVersion(input: string): ProtocolVersion | undefined {
  if (input === 'draft' || input === 'latest') return LATEST_PROTOCOL_VERSION;
  return (PROTOCOL_VERSIONS as readonly string[]).includes(input) ? (input as ProtocolVersion) : undefined;
}

/** A Set, not `Object.hasOwn(FEATURES, …)`: this runs on every validation, and the lookup is cheaper. */
const KNOWN_VERSIONS: ReadonlySet<unknown> = new Set(PROTOCOL_VERSIONS);

/** Whether `value` is one of PROTOCOL_VERSIONS (not an alias such as `draft`). */
export function isProtocolVersion(value: unknown): value is ProtocolVersion {
  return KNOWN_VERSIONS.has(value);
}

/**
 * The error for a library caller's `protocolVersion` option that names no version mcp-shape knows;
 * `undefined` when it names one or is absent (undefined or null). A typo such as `'2025-06-19'` is a
 * mistake in the calling code, so every entry point throws it (the asynchronous ones reject with it)
 * rather than judging some other version, or failing deep inside as an internal error. `draft` and
 * `latest` are the CLI's words, not the library's.
 */
export function protocolVersionOptionError(
  options: { readonly protocolVersion?: unknown } | null | undefined,
): RangeError | undefined {
  const given = options?.protocolVersion;
  // `null` is absent too, as the entry points' `??` reads it.
  if (given === undefined || given === null || isProtocolVersion(given)) return undefined;
  const named =
    typeof given === 'string'
      ? JSON.stringify(given.length > 40 ? `${given.slice(0, 40)}…` : given)
      : `of type ${typeof given}`;
  return new RangeError(`unknown protocolVersion ${named}: expected one of ${PROTOCOL_VERSIONS.join(', ')}`);
}

/** Throws protocolVersionOptionError's error, if any. */
export function checkProtocolVersionOption(
  options: { readonly protocolVersion?: unknown } | null | undefined,
): void {
  const error = protocolVersionOptionError(options);
  if (error !== undefined) throw error;
}

/** Version strings are ISO dates, so string order is release order. */
export function atLeast(version: ProtocolVersion, since: ProtocolVersion): boolean {
  return version >= since;
}

/** Versions from `since` on (inclusive), and optionally before `until` (exclusive). */
export function versionsFrom(since: ProtocolVersion, until?: ProtocolVersion): readonly ProtocolVersion[] {
  return PROTOCOL_VERSIONS.filter((v) => v >= since && (until === undefined || v < until));
}

export const ALL_VERSIONS: readonly ProtocolVersion[] = PROTOCOL_VERSIONS;

export type BlockType = 'text' | 'image' | 'audio' | 'resource_link' | 'resource';

export const BLOCK_TYPES: readonly BlockType[] = ['text', 'image', 'audio', 'resource_link', 'resource'];

export interface VersionFeatures {
  /** Content block types allowed in CallToolResult.content. */
  readonly blockTypes: readonly BlockType[];
  /** `none`: not defined; `object`: JSON object only; `any`: any JSON value. */
  readonly structuredContent: 'none' | 'object' | 'any';
  /** `resultType` is required on every result. */
  readonly resultTypeRequired: boolean;
  /** `_meta` is defined on content blocks. */
  readonly blockMeta: boolean;
  /** `annotations.lastModified` is defined. */
  readonly annotationsLastModified: boolean;
  /** `none`: no outputSchema; `object-root`: root must be `type: "object"`; `any-root`: any schema. */
  readonly outputSchema: 'none' | 'object-root' | 'any-root';
  readonly toolAnnotations: boolean;
  readonly toolTitle: boolean;
  readonly icons: boolean;
  /** Tool name SHOULDs (1–128 chars of `[A-Za-z0-9_.-]`) from SEP-986. */
  readonly toolNameRules: boolean;
  /** `ttlMs` and `cacheScope` are required on list results. */
  readonly cacheableLists: boolean;
  readonly handshake: 'initialize' | 'server/discover';
  /** Default JSON Schema dialect when a schema has no `$schema`. */
  readonly defaultSchemaDialect: 'draft-07' | '2020-12';
  /** An error response may omit `id`. */
  readonly errorIdOptional: boolean;
  readonly batching: boolean;
  /** A task-augmented request may be answered with a CreateTaskResult `{ task }` (experimental tasks). */
  readonly createTaskResult: boolean;
}

const V2024_11_05: VersionFeatures = {
  blockTypes: ['text', 'image', 'resource'],
  structuredContent: 'none',
  resultTypeRequired: false,
  blockMeta: false,
  annotationsLastModified: false,
  outputSchema: 'none',
  toolAnnotations: false,
  toolTitle: false,
  icons: false,
  toolNameRules: false,
  cacheableLists: false,
  handshake: 'initialize',
  defaultSchemaDialect: 'draft-07',
  errorIdOptional: false,
  batching: false,
  createTaskResult: false,
};

const V2025_03_26: VersionFeatures = {
  ...V2024_11_05,
  blockTypes: ['text', 'image', 'audio', 'resource'],
  toolAnnotations: true,
  batching: true,
};

const V2025_06_18: VersionFeatures = {
  ...V2025_03_26,
  blockTypes: BLOCK_TYPES,
  structuredContent: 'object',
  blockMeta: true,
  annotationsLastModified: true,
  outputSchema: 'object-root',
  toolTitle: true,
  batching: false,
};

const V2025_11_25: VersionFeatures = {
  ...V2025_06_18,
  icons: true,
  toolNameRules: true,
  defaultSchemaDialect: '2020-12',
  errorIdOptional: true,
  createTaskResult: true,
};

const V2026_07_28: VersionFeatures = {
  ...V2025_11_25,
  structuredContent: 'any',
  resultTypeRequired: true,
  outputSchema: 'any-root',
  cacheableLists: true,
  handshake: 'server/discover',
  // Tasks moved to an extension, whose results say `resultType: "task"` (SEP-2663).
  createTaskResult: false,
};

const FEATURES: Record<ProtocolVersion, VersionFeatures> = {
  '2024-11-05': V2024_11_05,
  '2025-03-26': V2025_03_26,
  '2025-06-18': V2025_06_18,
  '2025-11-25': V2025_11_25,
  '2026-07-28': V2026_07_28,
};

export function features(version: ProtocolVersion): VersionFeatures {
  return FEATURES[version];
}

/** The first version whose content union includes `type`, if any. */
export function blockTypeSince(type: BlockType): ProtocolVersion {
  return PROTOCOL_VERSIONS.find((v) => FEATURES[v].blockTypes.includes(type)) ?? LATEST_PROTOCOL_VERSION;
}

/** `resultType` values defined by the spec; extensions may add more (the Tasks extension adds `task`). */
export const KNOWN_RESULT_TYPES: readonly string[] = ['complete', 'input_required', 'task'];
