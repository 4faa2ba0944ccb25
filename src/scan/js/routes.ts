import type { CallExpression, Expression } from 'oxc-parser';
import { memberName, unwrap } from './ast.js';

const ROUTE_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'all', 'use']);

/**
 * The route a call registers its callbacks for (`app.post('/mcp', …)`: `POST /mcp`), or
 * `createServer handler`: the framework calls them for each request, later.
 */
export function routeName(call: CallExpression): string | undefined {
  const callee = unwrap(call.callee);
  const method = callee.type === 'Identifier' ? callee.name : memberName(callee);
  if (method === 'createServer') return 'createServer handler';
  const [path] = call.arguments;
  if (!method || !ROUTE_METHODS.has(method) || path?.type !== 'Literal' || typeof path.value !== 'string')
    return undefined;
  return `${method === 'all' || method === 'use' ? '*' : method.toUpperCase()} ${path.value}`;
}

/**
 * SDK methods that register a function the SDK calls later, on its own, for each request of its kind
 * (`server.setRequestHandler(GetTaskPayloadRequestSchema, …)`): not a callback the code that makes
 * the registration runs.
 */
const HANDLER_REGISTRATIONS = new Set([
  'setRequestHandler',
  'setNotificationHandler',
  'registerTool',
  'registerPrompt',
  'registerResource',
]);

export function registersHandler(call: CallExpression): boolean {
  return HANDLER_REGISTRATIONS.has(memberName(unwrap(call.callee)) ?? '');
}

/**
 * A route registration that hands the framework a callback, by value or by name (`app.post('/mcp',
 * onRpc)`, `createServer(handler)`): not a lookup of the same name (`headers.get('accept')`).
 */
export function registersRoute(call: CallExpression): boolean {
  if (!routeName(call)) return false;
  const callbacks = routeName(call) === 'createServer handler' ? call.arguments : call.arguments.slice(1);
  return callbacks.some((a) => {
    const bare = unwrap(a as Expression);
    return bare.type !== 'Literal' && bare.type !== 'ObjectExpression' && bare.type !== 'TemplateLiteral';
  });
}
