import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import {
  appendText,
  hasTextMirror,
  MIRRORED_WEATHER,
  serialize,
  subjectObject,
} from '../support/call-tool-result.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'structured-content-unsupported-version',
  subject: 'result',
  severity: 'warning',
  title: 'Before 2025-06-18, data only in structuredContent does not reach the client',
  rationale: [
    '`structuredContent` arrived in 2025-06-18 (PR #371). In 2024-11-05 and 2025-03-26 it is an unknown',
    'member that the schema tolerates but that no client of those versions reads: whatever the result',
    'carries only there never reaches the model or the user. That is a loss of output rather than a',
    'broken message, so the rule warns; it stays quiet when a text block already carries the same JSON.',
  ].join('\n'),
  versions: versionsFrom('2024-11-05', '2025-06-18'),
  clients: [],
  messages: {
    default: 'structuredContent does not exist in protocol {{version}} and no text block carries its data',
  },
  fix: 'Put the data in a text block (its JSON) for clients of this version.',
  examples: {
    wrong: { value: { content: [], structuredContent: { temperature: 22 } }, protocolVersion: '2025-03-26' },
    right: {
      value: MIRRORED_WEATHER,
      protocolVersion: '2025-03-26',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || result.structuredContent === undefined) return;
    if (hasTextMirror(result, result.structuredContent)) return;
    ctx.report({ path: ['structuredContent'], data: { version: ctx.version } });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    if (!result || result.structuredContent === undefined) return undefined;
    if (!appendText(result, serialize(result.structuredContent))) return undefined;
    return { description: 'added a text block carrying the JSON of structuredContent' };
  },
});
