import { ALL_VERSIONS } from '../../spec/versions.js';
import type { SessionEvent } from '../types.js';
import { defineRule } from '../types.js';

export default defineRule({
  id: 'audit-arguments-rejected',
  subject: 'session',
  severity: 'info',
  title: 'The server rejected the arguments of an audit call',
  rationale: [
    'The audit calls each tool with arguments it synthesizes from the inputSchema (or the ones given',
    "with `--args`). When the server answers with a JSON-RPC -32602 about the input, or with its SDK's",
    'input check (`Input validation error: …` from the TypeScript and Python SDKs), the call never',
    'reached the tool, so nothing about its result was tested. Synthesized arguments may well be at',
    'fault: a schema that admits values the tool cannot use is common and not a protocol defect.',
    'Give real arguments with `--args FILE` to test the tool.',
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [],
  messages: {
    default:
      'tools/call {{tool}}: the server rejected the synthesized arguments ({{detail}}); they may be at fault, not the tool: give real ones with --args',
    given: 'tools/call {{tool}}: the server rejected the arguments from --args ({{detail}})',
  },
  fix: 'Give arguments the tool accepts with `--args FILE`, or make the inputSchema say what the tool accepts.',
  examples: {
    wrong: {
      value: {
        event: 'arguments-rejected',
        tool: 'get_weather',
        detail: 'arguments.city: missing (expected string)',
        from: 'synthesized',
      },
    },
    right: { value: { event: 'answered', method: 'tools/call get_weather', ms: 120 } },
  },
  check(node, ctx) {
    const observed = node as SessionEvent;
    if (observed.event !== 'arguments-rejected') return;
    ctx.report({
      messageId: observed.from === '--args' ? 'given' : 'default',
      data: { tool: String(observed.tool ?? ''), detail: String(observed.detail ?? '') },
    });
  },
});
