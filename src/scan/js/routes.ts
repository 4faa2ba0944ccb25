import type { CallExpression } from 'oxc-parser';
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
