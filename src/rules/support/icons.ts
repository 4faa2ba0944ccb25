/**
 * The `Icon` shape (2025-11-25 on), shared by resource_link blocks and the 2026-07-28 serverInfo in
 * `result._meta`. Whether `src` is a URI is reported separately where a rule cares.
 */

import { isObject } from '../../core/json.js';
import { describeType } from './call-tool-result.js';

const THEMES = ['light', 'dark'];

/** What is wrong with one `icons` entry, if anything, as a phrase ("has no "src""). */
export function iconProblem(icon: unknown): string | undefined {
  if (!isObject(icon)) return `is ${describeType(icon)}, not an object`;
  if (typeof icon.src !== 'string') return icon.src === undefined ? 'has no "src"' : '"src" is not a string';
  if (icon.mimeType !== undefined && typeof icon.mimeType !== 'string') return '"mimeType" is not a string';
  if (
    icon.sizes !== undefined &&
    !(Array.isArray(icon.sizes) && icon.sizes.every((s) => typeof s === 'string'))
  ) {
    return '"sizes" is not an array of strings';
  }
  if (icon.theme !== undefined && !THEMES.includes(icon.theme as string))
    return '"theme" is not "light" or "dark"';
  return undefined;
}
