import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import { defineRule } from '../types.js';

const MAX_LENGTH = 128;
const ALLOWED = /^[A-Za-z0-9_.-]+$/;

export default defineRule({
  id: 'tool-name-format',
  subject: 'tool',
  severity: 'warning',
  title: 'Tool names should be 1–128 characters of `A-Z a-z 0-9 _ - .`',
  rationale: [
    'tools.mdx (2025-11-25 on, SEP-986): tool names SHOULD be between 1 and 128 characters and SHOULD use',
    'only ASCII letters, digits, underscore, hyphen and dot, with no spaces, commas or other special',
    'characters. LLM APIs restrict function names in similar ways, so clients must rename or skip tools',
    'with other names. The TypeScript SDK server warns about such names (`validateToolName`).',
  ].join('\n'),
  versions: versionsFrom('2025-11-25'),
  clients: [],
  messages: {
    default: 'tool name "{{name}}" contains {{chars}}; use only A-Z a-z 0-9 _ - .',
    empty: 'the tool name is empty',
    tooLong: 'the tool name is {{length}} characters long; the limit is 128',
  },
  fix: 'Rename the tool, e.g. `get weather` → `get_weather`.',
  examples: {
    wrong: { value: { name: 'get weather', inputSchema: { type: 'object' } } },
    right: { value: { name: 'get_weather', inputSchema: { type: 'object' } } },
  },
  check(tool, ctx) {
    if (!isObject(tool) || typeof tool.name !== 'string') return;
    const name = tool.name;
    if (name.length === 0) ctx.report({ messageId: 'empty', path: ['name'] });
    else if (name.length > MAX_LENGTH)
      ctx.report({ messageId: 'tooLong', path: ['name'], data: { length: name.length } });
    if (name.length > 0 && !ALLOWED.test(name)) {
      const bad = [...new Set(name.replace(/[A-Za-z0-9_.-]/g, ''))].map((c) => JSON.stringify(c)).join(', ');
      ctx.report({ path: ['name'], data: { name, chars: bad } });
    }
  },
});
