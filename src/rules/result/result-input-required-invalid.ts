import { isObject } from '../../core/json.js';
import { versionsFrom } from '../../spec/versions.js';
import { describeType } from '../support/call-tool-result.js';
import { requestClientCapabilities } from '../support/request-capabilities.js';
import { defineRule } from '../types.js';

/** The client capability each input request needs (ClientCapabilities in 2026-07-28 schema.json). */
const CAPABILITY_OF: Readonly<Record<string, string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** The requests a server may ask the client to fulfil (`InputRequest` in 2026-07-28 schema.json). */
const INPUT_METHODS = ['elicitation/create', 'sampling/createMessage', 'roots/list'];
/** Methods whose request schema requires `params`. */
const PARAMS_REQUIRED = ['elicitation/create', 'sampling/createMessage'];

/** What is wrong with one entry of `inputRequests`, as a phrase, if anything. */
function inputRequestProblem(request: unknown): string | undefined {
  if (!isObject(request)) return `is ${describeType(request)}, not a request object`;
  if (typeof request.method !== 'string') return 'has no string "method"';
  if (!INPUT_METHODS.includes(request.method))
    return `asks for "${request.method}", which is not one of ${INPUT_METHODS.join(', ')}`;
  if (request.params === undefined && PARAMS_REQUIRED.includes(request.method)) return 'has no "params"';
  if (request.params !== undefined && !isObject(request.params)) return '"params" is not an object';
  return undefined;
}

export default defineRule({
  id: 'result-input-required-invalid',
  subject: 'result',
  severity: 'error',
  title: 'An `input_required` result needs `inputRequests` or `requestState`',
  rationale: [
    'In 2026-07-28 a tools/call may answer with an `InputRequiredResult` (`resultType: "input_required"`)',
    'instead of a CallToolResult: the server asks the client for input and retries the call with the',
    'answers. "At least one of `inputRequests` or `requestState` MUST be present" (InputRequiredResult in',
    'schema.ts): without either the client has nothing to answer and nothing to send back, so the call',
    'cannot continue. `inputRequests` maps ids to `elicitation/create`, `sampling/createMessage` or',
    '`roots/list` requests, and `requestState` is an opaque string. This rule checks those shapes down to',
    "each request's `method` and `params` object, not the params themselves. An empty `inputRequests`",
    'without `requestState` asks for nothing and keeps nothing: the TypeScript SDK v2 client rejects it',
    'as it rejects a result with neither.',
    '',
    '2026-07-28 declares client capabilities per request, and a server that needs one the request did not',
    'declare answers with a MissingRequiredClientCapability error (-32021). An input request for',
    '`roots/list`, `sampling/createMessage` or `elicitation/create` that the answered request did not',
    'declare `roots`, `sampling` or `elicitation` for cannot be answered: the client has no handler for it.',
  ].join('\n'),
  versions: versionsFrom('2026-07-28'),
  clients: [
    {
      client: 'ts-sdk-v2',
      effect: 'rejects-call',
      detail:
        "SdkError INVALID_RESULT `input_required carries neither inputRequests nor requestState` when inputRequests is missing or empty and requestState is not a string; an input request for a capability the call did not declare: `Cannot fulfil input request '…': no handler is registered for 'roots/list' on this client`",
      source:
        '@modelcontextprotocol/client 2.4.0 (the 2026-07-28 codec, decodeResult; the undeclared capability reproduced over InMemoryTransport pinned to 2026-07-28)',
    },
  ],
  messages: {
    default:
      'the input_required result has neither "inputRequests" nor "requestState"; the client has nothing to answer',
    empty:
      'the input_required result has an empty "inputRequests" and no "requestState"; the client has nothing to answer',
    inputRequests: '"inputRequests" is {{actual}}; it must be an object mapping ids to requests',
    request: 'input request "{{key}}" {{problem}}',
    requestState: '"requestState" is {{actual}}; it must be an opaque string',
    undeclared:
      'input request "{{key}}" asks for {{method}}, but the request it answers did not declare the "{{capability}}" capability, so the client cannot answer it; return a MissingRequiredClientCapability error (-32021) instead',
  },
  fix: 'Send the requests the client must answer in `inputRequests`, or the state to resume from in `requestState`; a finished call answers `"resultType": "complete"` with content.',
  examples: {
    wrong: { value: { resultType: 'input_required' } },
    right: {
      value: {
        resultType: 'input_required',
        inputRequests: {
          city: {
            method: 'elicitation/create',
            params: {
              message: 'Which city?',
              requestedSchema: { type: 'object', properties: { city: { type: 'string' } } },
            },
          },
        },
        requestState: 'step-2',
      },
    },
  },
  check(result, ctx) {
    if (!isObject(result) || result.resultType !== 'input_required') return;
    const { inputRequests, requestState } = result;
    if (inputRequests === undefined && requestState === undefined) {
      ctx.report({});
      return;
    }
    // An empty map asks nothing: with no state beside it, the call cannot continue either.
    if (isObject(inputRequests) && Object.keys(inputRequests).length === 0 && requestState === undefined) {
      ctx.report({ messageId: 'empty', path: ['inputRequests'] });
      return;
    }
    if (requestState !== undefined && typeof requestState !== 'string') {
      ctx.report({
        messageId: 'requestState',
        path: ['requestState'],
        data: { actual: describeType(requestState) },
      });
    }
    if (inputRequests === undefined) return;
    if (!isObject(inputRequests)) {
      ctx.report({
        messageId: 'inputRequests',
        path: ['inputRequests'],
        data: { actual: describeType(inputRequests) },
      });
      return;
    }
    const declared = requestClientCapabilities(ctx);
    for (const [key, request] of Object.entries(inputRequests)) {
      const problem = inputRequestProblem(request);
      if (problem) {
        ctx.report({ messageId: 'request', path: ['inputRequests', key], data: { key, problem } });
        continue;
      }
      // A request the client's declared capabilities do not cover cannot be answered (see
      // support/request-capabilities.ts); where they are not known, nothing is claimed.
      const method = (request as { method: string }).method;
      const capability = CAPABILITY_OF[method] as string;
      if (declared !== undefined && !isObject(declared[capability])) {
        ctx.report({
          messageId: 'undeclared',
          path: ['inputRequests', key, 'method'],
          data: { key, method, capability },
        });
      }
    }
  },
});
