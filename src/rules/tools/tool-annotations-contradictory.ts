import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'tool-annotations-contradictory',
  subject: 'tool',
  severity: 'warning',
  title: 'A tool cannot be both read-only and destructive',
  rationale: [
    'ToolAnnotations (2025-03-26 on): `readOnlyHint: true` says "the tool does not modify its environment";',
    '`destructiveHint: true` says it "may perform destructive updates", and the schema adds that',
    '`destructiveHint` "is meaningful only when `readOnlyHint == false`". A tool that claims both tells',
    'clients two opposite things: one that auto-approves read-only tools runs it without asking, one',
    'that asks before destructive tools asks every time, and nobody can tell which claim is the true one.',
    'Since the destructive claim may be the true one, `mcp-shape audit` does not call such a tool unless',
    'it is named with `--call` (or given arguments with `--args`), even with `--call-all`.',
  ].join('\n'),
  versions: versionsFrom('2025-03-26'),
  clients: [],
  messages: {
    default:
      'annotations say readOnlyHint: true and destructiveHint: true; a read-only tool modifies nothing',
  },
  fix: 'Keep the claim that is true: `readOnlyHint: true` alone for a tool that only reads, or `readOnlyHint: false` with `destructiveHint: true` for one that may delete or overwrite.',
  examples: {
    wrong: {
      value: {
        name: 'prune_cache',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: true, destructiveHint: true },
      },
    },
    right: {
      value: {
        name: 'prune_cache',
        inputSchema: { type: 'object' },
        annotations: { readOnlyHint: false, destructiveHint: true },
      },
    },
  },
  check(tool, ctx) {
    if (!isObject(tool) || !isObject(tool.annotations)) return;
    const { readOnlyHint, destructiveHint } = tool.annotations;
    if (readOnlyHint === true && destructiveHint === true) ctx.report({ path: ['annotations'] });
  },
});
