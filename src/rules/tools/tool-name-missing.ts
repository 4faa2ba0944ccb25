import { isObject } from '../../core/json.js';
import { ALL_VERSIONS } from '../../spec/versions.js';
import { describeType } from '../support/call-tool-result.js';
import { pythonRejectsResult, sdkV1RejectsToolsList } from '../support/clients.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'tool-name-missing',
  subject: 'tool',
  severity: 'error',
  title: 'Every tool needs a string `name`',
  rationale: [
    '`Tool.name` is a required string in every protocol version: it is how tools/call addresses the tool.',
    'A tool without one cannot be called, and the TypeScript SDK rejects the whole tools/list result.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [sdkV1RejectsToolsList('ZodError at `tools.N.name`'), pythonRejectsResult('`Tool.name: str`')],
  messages: {
    default: 'the tool has no "name"',
    notString: '"name" is {{actual}}; it must be a string',
  },
  fix: 'Give the tool a name such as `"get_weather"`.',
  examples: {
    wrong: {
      value: { description: 'Echo the input', inputSchema: { type: 'object' } },
      protocolVersion: '2025-06-18',
    },
    right: {
      value: { name: 'echo', description: 'Echo the input', inputSchema: { type: 'object' } },
      protocolVersion: '2025-06-18',
    },
  },
  check(tool, ctx) {
    if (!isObject(tool)) return;
    if (!Object.hasOwn(tool, 'name')) ctx.report({ path: ['name'] });
    else if (typeof tool.name !== 'string') {
      ctx.report({ messageId: 'notString', path: ['name'], data: { actual: describeType(tool.name) } });
    }
  },
});
