import { isObject, jsonTypeOf } from '../../core/json.js';
import type { PathSegment } from '../../core/pointer.js';
import { isAbsoluteUri } from '../../core/uri.js';
import { versionsFrom } from '../../spec/versions.js';
import { describeType, subjectObject } from '../support/call-tool-result.js';
import { iconProblem } from '../support/icons.js';
import { defineRule } from '../types.js';

/** The `_meta` key 2026-07-28 reserves for the server's `Implementation` (ResultMetaObject). */
export const SERVER_INFO_KEY = 'io.modelcontextprotocol/serverInfo';

const REQUIRED_STRINGS = ['name', 'version'] as const;
const OPTIONAL_STRINGS = ['title', 'description'] as const;

export default defineRule({
  id: 'result-server-info-invalid',
  subject: 'result',
  severity: 'error',
  title: '`_meta["io.modelcontextprotocol/serverInfo"]` must be an Implementation',
  rationale: [
    'In 2026-07-28 there is no `initialize`, so servers identify themselves on every result instead:',
    '`ResultMetaObject` reserves `_meta["io.modelcontextprotocol/serverInfo"]` for an `Implementation`,',
    'which servers SHOULD include. The schema requires `name` and `version` strings; `title` and',
    '`description` are strings, `websiteUrl` a URI and `icons` an array of `Icon`. A value of another',
    'shape fails the official schema, and clients that display or log it get garbage. Leaving the key out',
    'is allowed; a malformed one is not.',
  ].join('\n'),
  versions: versionsFrom('2026-07-28'),
  clients: [],
  messages: {
    default: '_meta serverInfo is {{actual}}; it must be an object with string "name" and "version"',
    missing: '_meta serverInfo has no "{{field}}"; an Implementation needs string "name" and "version"',
    notString: '_meta serverInfo "{{field}}" must be a string, got {{actual}}',
    websiteUrl: '_meta serverInfo "websiteUrl" must be an absolute URI, got {{value}}',
    icons: '_meta serverInfo "icons" must be an array of icons, got {{actual}}',
    icon: '_meta serverInfo icon {{index}} {{problem}}',
  },
  fix: 'Send `"_meta": { "io.modelcontextprotocol/serverInfo": { "name": "my-server", "version": "1.2.0" } }`, or leave the key out.',
  examples: {
    wrong: {
      value: {
        resultType: 'complete',
        content: [{ type: 'text', text: 'done' }],
        _meta: { [SERVER_INFO_KEY]: { name: 'weather' } },
      },
    },
    right: {
      value: {
        resultType: 'complete',
        content: [{ type: 'text', text: 'done' }],
        _meta: { [SERVER_INFO_KEY]: { name: 'weather', version: '1.4.0' } },
      },
    },
  },
  check(result, ctx) {
    if (!isObject(result) || !isObject(result._meta) || !Object.hasOwn(result._meta, SERVER_INFO_KEY)) return;
    const info = result._meta[SERVER_INFO_KEY];
    const at = (...rest: PathSegment[]): PathSegment[] => ['_meta', SERVER_INFO_KEY, ...rest];
    if (!isObject(info)) {
      ctx.report({ path: at(), data: { actual: describeType(info) } });
      return;
    }
    for (const field of REQUIRED_STRINGS) {
      if (info[field] === undefined) ctx.report({ messageId: 'missing', path: at(field), data: { field } });
    }
    for (const field of [...REQUIRED_STRINGS, ...OPTIONAL_STRINGS, 'websiteUrl']) {
      const value = info[field];
      if (value !== undefined && typeof value !== 'string') {
        ctx.report({ messageId: 'notString', path: at(field), data: { field, actual: jsonTypeOf(value) } });
      }
    }
    if (typeof info.websiteUrl === 'string' && !isAbsoluteUri(info.websiteUrl)) {
      ctx.report({
        messageId: 'websiteUrl',
        path: at('websiteUrl'),
        data: { value: JSON.stringify(info.websiteUrl) },
      });
    }
    if (info.icons === undefined) return;
    if (!Array.isArray(info.icons)) {
      ctx.report({ messageId: 'icons', path: at('icons'), data: { actual: jsonTypeOf(info.icons) } });
      return;
    }
    info.icons.forEach((icon, index) => {
      const problem =
        iconProblem(icon) ??
        (isObject(icon) && typeof icon.src === 'string' && !isAbsoluteUri(icon.src)
          ? '"src" is not an absolute URI'
          : undefined);
      if (problem) ctx.report({ messageId: 'icon', path: at('icons', index), data: { index, problem } });
    });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    if (!result || !isObject(result._meta) || !Object.hasOwn(result._meta, SERVER_INFO_KEY)) return undefined;
    // The key is optional and only informative; a partial Implementation cannot be completed honestly.
    const before = result._meta[SERVER_INFO_KEY];
    delete result._meta[SERVER_INFO_KEY];
    return {
      description: `removed the malformed _meta serverInfo (${JSON.stringify(before) ?? 'undefined'})`,
      lossy: true,
    };
  },
});
