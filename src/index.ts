/**
 * mcp-shape, the library: validators, the rule catalog, builders, toolResult(), repair(), shaped() and
 * the WebMCP converters. Everything exported here is pure (no I/O, no Node built-ins).
 */

export type { Finding, FixSuggestion, Location, Severity } from './core/finding.js';
export * from './library/index.js';
export { getRule, RULES, ruleIds } from './rules/catalog.js';
export type { Rule } from './rules/types.js';
export {
  assumedProtocolVersion,
  DEFAULT_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  parseProtocolVersion,
} from './spec/versions.js';
export {
  type ValidateMessageOptions,
  type ValidateOptions,
  type ValidateResultOptions,
  validateMessage,
  validateMessageSync,
  validateToolResult,
  validateToolResultSync,
  validateToolsList,
  validateToolsListSync,
} from './validate/index.js';
