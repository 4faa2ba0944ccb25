/** The library: build, convert and repair tool results. Pure: no I/O, runs in browsers too. */

export {
  type AnnotationsInput,
  annotations,
  audio,
  type BlockOptions,
  type EmbeddedResourceInput,
  embeddedResource,
  errorResult,
  image,
  type ResourceLinkInput,
  resourceLink,
  text,
} from './builders.js';
export type { BinaryInput } from './bytes.js';
export type { Fix } from './repair/engine.js';
export {
  type RepairMessageOptions,
  type RepairMessageResult,
  type RepairOptions,
  type RepairResult,
  repair,
  repairMessage,
  repairMessageSync,
  repairSync,
} from './repair/index.js';
export {
  DEFAULT_SHAPED_PROTOCOL_VERSION,
  negotiatedVersion,
  ShapedFindingsError,
  type ShapedOptions,
  shaped,
} from './shaped.js';
export {
  OutputSchemaInvalidError,
  OutputSchemaMismatchError,
  type ToolResultOptions,
  toolResult,
} from './tool-result.js';
export type * from './types.js';
export {
  convertWebMcp,
  DEFAULT_MAX_IMAGE_BYTES,
  type HtmlRemoval,
  markdownTable,
  type SanitizedHtml,
  sanitizeHtml,
  type WebMcpOptions,
  type WebMcpReport,
  type WebMcpResult,
} from './webmcp/index.js';
