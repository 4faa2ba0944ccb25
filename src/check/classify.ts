/** Decides what a checked JSON document is. */

import { isObject } from '../core/json.js';

export type DocumentKind = 'message' | 'tool-result' | 'tools-list' | 'batch';

export function classifyDocument(value: unknown): DocumentKind {
  if (Array.isArray(value)) return 'batch';
  if (!isObject(value)) return 'tool-result';
  if (
    Object.hasOwn(value, 'jsonrpc') ||
    (Object.hasOwn(value, 'id') && ('result' in value || 'error' in value))
  ) {
    return 'message';
  }
  if (Array.isArray(value.tools) && !Object.hasOwn(value, 'content')) return 'tools-list';
  return 'tool-result';
}
