/**
 * TypeScript types of tool results, per protocol version. They follow `src/spec/versions.ts` (and so the
 * official schema.json of each version): audio from 2025-03-26; resource_link, `_meta` on blocks,
 * `lastModified` and structuredContent from 2025-06-18; icons from 2025-11-25; any-JSON structuredContent
 * and a required `resultType` in 2026-07-28.
 *
 * `V` is a protocol version literal; `ContentBlock<'2024-11-05'>` has no audio, `CallToolResult<'2026-07-28'>`
 * requires `resultType`, and so on. Without `V` the types describe DEFAULT_PROTOCOL_VERSION (2025-11-25),
 * the version every entry point assumes when none is named.
 */

import type { ProtocolVersion } from '../spec/versions.js';

/** The latest version as a literal type (`LATEST_PROTOCOL_VERSION` is typed as the whole union). */
export type LatestProtocolVersion = '2026-07-28';
/**
 * `DEFAULT_PROTOCOL_VERSION` as a literal type: what toolResult(), repair() and these types assume when
 * no version is named, so a result built without one type-checks as the same version it was built for.
 */
export type DefaultProtocolVersion = '2025-11-25';
type Default = DefaultProtocolVersion;

/** Versions that define a feature, as type-level unions. */
type From2025_03_26 = Exclude<ProtocolVersion, '2024-11-05'>;
type From2025_06_18 = Exclude<From2025_03_26, '2025-03-26'>;
type From2025_11_25 = Exclude<From2025_06_18, '2025-06-18'>;
type From2026_07_28 = Exclude<From2025_11_25, '2025-11-25'>;

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export type Role = 'user' | 'assistant';

export type Annotations<V extends ProtocolVersion = Default> = {
  audience?: Role[];
  /** 0 (least important) to 1 (most important). */
  priority?: number;
} & (V extends From2025_06_18 ? { /** ISO 8601 date-time with offset. */ lastModified?: string } : unknown);

/** `_meta` on content blocks exists from 2025-06-18. */
type BlockMeta<V extends ProtocolVersion> = V extends From2025_06_18
  ? { _meta?: { [key: string]: unknown } }
  : unknown;

type Annotated<V extends ProtocolVersion> = { annotations?: Annotations<V> } & BlockMeta<V>;

export type TextContent<V extends ProtocolVersion = Default> = { type: 'text'; text: string } & Annotated<V>;

export type ImageContent<V extends ProtocolVersion = Default> = {
  type: 'image';
  /** Base64 (RFC 4648, padded), never a `data:` URI. */
  data: string;
  mimeType: string;
} & Annotated<V>;

export type AudioContent<V extends ProtocolVersion = Default> = {
  type: 'audio';
  data: string;
  mimeType: string;
} & Annotated<V>;

export interface Icon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: 'light' | 'dark';
}

export type ResourceLink<V extends ProtocolVersion = Default> = {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Size of the raw content in bytes, before base64 encoding. */
  size?: number;
} & Annotated<V> &
  (V extends From2025_11_25 ? { icons?: Icon[] } : unknown);

type ContentsMeta<V extends ProtocolVersion> = BlockMeta<V>;

export type TextResourceContents<V extends ProtocolVersion = Default> = {
  uri: string;
  mimeType?: string;
  text: string;
} & ContentsMeta<V>;

export type BlobResourceContents<V extends ProtocolVersion = Default> = {
  uri: string;
  mimeType?: string;
  /** Base64 of the raw bytes. */
  blob: string;
} & ContentsMeta<V>;

export type EmbeddedResource<V extends ProtocolVersion = Default> = {
  type: 'resource';
  resource: TextResourceContents<V> | BlobResourceContents<V>;
} & Annotated<V>;

/** The blocks `CallToolResult.content` may hold in version `V`. */
export type ContentBlock<V extends ProtocolVersion = Default> =
  | TextContent<V>
  | ImageContent<V>
  | EmbeddedResource<V>
  | (V extends From2025_03_26 ? AudioContent<V> : never)
  | (V extends From2025_06_18 ? ResourceLink<V> : never);

type StructuredContent<V extends ProtocolVersion> = V extends From2026_07_28
  ? { structuredContent?: JsonValue }
  : V extends From2025_06_18
    ? { structuredContent?: JsonObject }
    : unknown;

type ResultType<V extends ProtocolVersion> = V extends From2026_07_28
  ? { /** `"complete"` for a finished call; extensions add more. */ resultType: string }
  : unknown;

export type CallToolResult<V extends ProtocolVersion = Default> = {
  content: ContentBlock<V>[];
  isError?: boolean;
  _meta?: { [key: string]: unknown };
} & StructuredContent<V> &
  ResultType<V>;

/** A block of any version: what builders return before a version is chosen. */
export type AnyContentBlock = ContentBlock<Default>;
