import { isObject, type JsonObject } from '../../core/json.js';
import { ALL_VERSIONS, KNOWN_RESULT_TYPES } from '../../spec/versions.js';
import { MIRRORED_WEATHER, serialize, subjectObject } from '../support/call-tool-result.js';
import { CLINE_REQUIRES_CONTENT, pythonRejectsResult } from '../support/clients.js';
import { type CheckContext, defineRule } from '../types.js';

/** CallToolResult members that are not payload. */
const RESERVED = new Set(['content', 'structuredContent', 'isError', 'resultType', '_meta', 'toolResult']);

const TASK_STATUSES: readonly unknown[] = ['cancelled', 'completed', 'failed', 'input_required', 'working'];

/**
 * What keeps `task` from being the Task of 2025-11-25's schema.json, if anything, and the member at fault
 * (relative to the task). The finding is placed there, so that a task `scan` cannot see into (an opaque
 * value, core/opaque.ts) is not judged by what it cannot see.
 */
function taskProblem(task: unknown): { why: string; at: string[] } | undefined {
  if (!isObject(task)) return { why: 'is not an object', at: [] };
  if (typeof task.taskId !== 'string') return { why: 'has no string taskId', at: ['taskId'] };
  if (!TASK_STATUSES.includes(task.status))
    return { why: `has no status of ${TASK_STATUSES.join(', ')}`, at: ['status'] };
  for (const key of ['createdAt', 'lastUpdatedAt'])
    if (typeof task[key] !== 'string') return { why: `has no string ${key}`, at: [key] };
  if (task.ttl !== null && !Number.isInteger(task.ttl))
    return { why: 'has no ttl (an integer, or null)', at: ['ttl'] };
  if (task.pollInterval !== undefined && !Number.isInteger(task.pollInterval))
    return { why: 'has a pollInterval that is not an integer', at: ['pollInterval'] };
  if (task.statusMessage !== undefined && typeof task.statusMessage !== 'string')
    return { why: 'has a statusMessage that is not a string', at: ['statusMessage'] };
  return undefined;
}

/**
 * Why a result without content is not a CreateTaskResult `{ task }` standing in for a CallToolResult,
 * and where that is seen: undefined when it is one, or has no `task` to be one. Only 2025-11-25 has
 * CreateTaskResult, and only as the answer to a task-augmented request (`params.task`); a v2 SDK client,
 * which has no tasks, rejects a tools/call result with `task` and no content in every version.
 */
function notCreateTaskResult(
  result: JsonObject,
  ctx: CheckContext,
): { why: string; at: string[] } | undefined {
  if (!Object.hasOwn(result, 'task')) return undefined;
  if (!ctx.features.createTaskResult)
    return { why: `protocol ${ctx.version} has no CreateTaskResult`, at: ['content'] };
  const params = ctx.request?.params;
  if (ctx.request !== undefined && !(isObject(params) && isObject(params.task)))
    return {
      why: 'a CreateTaskResult answers only a task-augmented request, and this request has no "task"',
      at: ['content'],
    };
  const problem = taskProblem(result.task);
  return problem === undefined
    ? undefined
    : { why: `its "task" ${problem.why}, so it is no CreateTaskResult either`, at: ['task', ...problem.at] };
}

/** An InputRequiredResult, or another known resultType, that a 2026-07-28 tools/call may return instead. */
function isOtherResultType(result: JsonObject, resultTypeRequired: boolean): boolean {
  // An unknown resultType proves no other kind: it is judged as the CallToolResult the schema holds it to.
  const { resultType } = result;
  return (
    resultTypeRequired &&
    typeof resultType === 'string' &&
    resultType !== 'complete' &&
    KNOWN_RESULT_TYPES.includes(resultType)
  );
}

export default defineRule({
  id: 'result-content-missing',
  subject: 'result',
  severity: 'error',
  title: 'A CallToolResult must have `content`',
  rationale: [
    '`content` is required on `CallToolResult` in every protocol version, even when the tool returns',
    '`structuredContent` (then it SHOULD carry the serialized JSON). The TypeScript SDK v1 client',
    'defaults a missing `content` to `[]`, so the model sees nothing; older SDK releases and Cline reject',
    'the result outright ("expected array … path [\\"content\\"] Required", cloudflare/mcp-server-cloudflare',
    '#12), and the Python SDK requires the field. In 2026-07-28 an `InputRequiredResult`',
    '(`resultType: "input_required"`) has no content, and is not reported; nor is a 2025-11-25',
    'CreateTaskResult `{ task }`, the answer to a task-augmented call. A `task` in another version, in',
    'answer to a request without `params.task`, or that is no valid Task, does not stand in for content:',
    'the TypeScript SDK v2 client, which has no tasks, rejects such a tools/call result ("content is',
    "required when the body carries 'task'\").",
  ].join('\n'),
  versions: ALL_VERSIONS,
  clients: [
    CLINE_REQUIRES_CONTENT,
    pythonRejectsResult('`content` field required'),
    {
      client: 'ts-sdk-v1',
      effect: 'drops-content',
      detail: '`content` defaults to `[]`: the call succeeds and shows nothing',
      source: 'modelcontextprotocol/typescript-sdk v1.29.0 src/types.ts (CallToolResultSchema); reproduced',
    },
    {
      client: 'ts-sdk-v2',
      effect: 'rejects-call',
      detail:
        "a result with `task` (or inputRequests, requestState) and no content: SdkError INVALID_RESULT `content is required when the body carries 'task'`",
      source:
        '@modelcontextprotocol/client 2.4.0 (CallToolResultWireSchema, TOOL_RESULT_FOREIGN_FAMILY_KEYS); reproduced on 2025-06-18 and 2025-11-25',
    },
  ],
  messages: {
    default: 'the result has no "content" array',
    task: 'the result has no "content" array; it has a "task", but {{why}}',
  },
  fix: 'Add `content`: a text block with the output (for structured output, its JSON).',
  examples: {
    wrong: { value: { structuredContent: { temperature: 22 } }, protocolVersion: '2025-06-18' },
    right: {
      value: MIRRORED_WEATHER,
      protocolVersion: '2025-06-18',
    },
  },
  check(result, ctx) {
    if (!isObject(result) || Object.hasOwn(result, 'content')) return;
    // A legacy `toolResult` envelope is reported, and repaired, by result-legacy-tool-result.
    if (Object.hasOwn(result, 'toolResult')) return;
    if (isOtherResultType(result, ctx.features.resultTypeRequired)) return;
    const not = notCreateTaskResult(result, ctx);
    if (not !== undefined) ctx.report({ messageId: 'task', path: not.at, data: { why: not.why } });
    else if (!Object.hasOwn(result, 'task')) ctx.report({ path: ['content'] });
  },
  repair(ctx) {
    const result = subjectObject(ctx);
    if (!result || Object.hasOwn(result, 'content')) return undefined;
    if (result.structuredContent !== undefined) {
      result.content = [{ type: 'text', text: serialize(result.structuredContent) }];
      return { description: 'added content with a text block carrying the JSON of structuredContent' };
    }
    const payload = Object.fromEntries(Object.entries(result).filter(([key]) => !RESERVED.has(key)));
    if (Object.keys(payload).length > 0) {
      result.content = [{ type: 'text', text: serialize(payload) }];
      return {
        description: `added content with a text block carrying the JSON of ${Object.keys(payload).join(', ')}`,
      };
    }
    result.content = [];
    return { description: 'added an empty content array' };
  },
});
