/**
 * Findings about the run itself rather than about a document: a call that timed out, a server that
 * crashed, a response over the size cap, a version the server refused. They cannot be rules of the
 * catalog (there is no document to check), but they are findings like any other so every reporter and
 * the exit code treat them alike. Their ids all start with `audit-`.
 */

import type { Finding, Location, Severity } from '../core/finding.js';
import { formatTemplate } from '../validate/engine.js';

export interface AuditEventDefinition {
  readonly severity: Severity;
  readonly title: string;
  readonly message: string;
  readonly fix?: string;
}

export const AUDIT_EVENTS = {
  'audit-timeout': {
    severity: 'error',
    title: 'Every request gets a response before the client gives up',
    message: 'no response to {{method}} within {{ms}} ms',
    fix: 'Answer every request, with an error result (`isError: true`) if the work fails or takes too long.',
  },
  'audit-server-exited': {
    severity: 'error',
    title: 'The server must not exit while a request is pending',
    message: 'the server {{detail}} while {{method}} was pending',
    fix: 'Catch failures in the handler and return them as a result with `isError: true`.',
  },
  'audit-response-too-large': {
    severity: 'error',
    title: 'Responses must stay under the size cap',
    message: 'a response of more than {{bytes}} bytes exceeds the {{limit}}-byte cap; it was not parsed',
    fix: 'Return large data as a resource_link, paginate it, or summarise it (Claude Desktop rejects results over 1 MiB).',
  },
  'audit-http-error': {
    severity: 'error',
    title: 'HTTP requests must succeed',
    message: 'HTTP {{status}} for {{method}}{{body}}',
  },
  'audit-response-unmatched': {
    severity: 'warning',
    title: 'Every response answers a request that was sent',
    message: 'a response with id {{id}} matches no pending request',
  },
  'audit-version-refused': {
    severity: 'info',
    title: 'The server refuses a protocol version',
    message:
      'initialize with protocol {{version}} was refused: {{detail}}; clients that speak only {{version}} cannot connect',
  },
  'audit-version-unknown': {
    severity: 'error',
    title: 'initialize must answer with a published protocol version',
    message:
      'asked for {{requested}}, the server answered protocolVersion {{answered}}, which is no published version',
    fix: 'Answer with the requested version when you support it, else with the newest version you support.',
  },
  'audit-initialize-invalid': {
    severity: 'error',
    title: 'The initialize result must carry protocolVersion, capabilities and serverInfo',
    message: 'the initialize result for {{version}} {{problem}}',
  },
  'audit-discover-unsupported': {
    severity: 'info',
    title: 'The server does not speak protocol 2026-07-28',
    message: 'server/discover failed ({{detail}}): the server does not speak 2026-07-28',
  },
  'audit-discover-invalid': {
    severity: 'error',
    title: 'The server/discover result must list 2026-07-28 in supportedVersions',
    message: 'server/discover answered, but {{problem}}',
  },
  'audit-tools-capability-missing': {
    severity: 'error',
    title: 'Servers that offer tools must declare the tools capability',
    message: 'tools/list answered with {{count}} tools, but the server declared no "tools" capability',
    fix: 'Add `"tools": {}` to the capabilities in the initialize (or server/discover) result.',
  },
  'audit-tools-list-failed': {
    severity: 'error',
    title: 'tools/list must succeed when the tools capability is declared',
    message: 'tools/list failed: {{detail}}',
  },
  'audit-pagination-loop': {
    severity: 'error',
    title: 'tools/list cursors must make progress',
    message: 'tools/list returned cursor {{cursor}} a second time; stopped paging',
  },
  'audit-call-error': {
    severity: 'info',
    title: 'A tools/call was answered with a JSON-RPC error',
    message: 'tools/call {{tool}} answered with JSON-RPC error {{code}}: {{detail}}',
  },
} as const satisfies Record<string, AuditEventDefinition>;

export type AuditEventId = keyof typeof AUDIT_EVENTS;

export function auditFinding(
  id: AuditEventId,
  data: Readonly<Record<string, string | number>>,
  location: Location,
  pointer = '',
): Finding {
  const event: AuditEventDefinition = AUDIT_EVENTS[id];
  return {
    rule: id,
    severity: event.severity,
    message: formatTemplate(event.message, data),
    pointer,
    location,
    ...(event.fix ? { fix: { description: event.fix, automatic: false } } : {}),
  };
}
