/**
 * What the audit observes on a live connection that is no document: a request that got no answer, a
 * server that exited, a response over the size cap, a refused version, a looping cursor. Each event
 * goes through the catalog's `session` rules (src/rules/session/), like a frame goes through the
 * transport rules, so these findings have a rule with severity, rationale, affected clients, docs
 * (docs/rules/audit-*.md) and SARIF metadata like every other finding. The audit decides what
 * happened because it has to act on it; the rules decide what it means.
 */

import type { Finding, Location } from '../core/finding.js';
import type { JsonObject } from '../core/json.js';
import { DEFAULT_PROTOCOL_VERSION, parseProtocolVersion } from '../spec/versions.js';
import { runSession } from '../validate/engine.js';
import { publicFinding } from '../validate/index.js';

export type AuditEvent =
  | { readonly event: 'timeout'; readonly method: string; readonly ms: number }
  /** Every answer, with its latency: audit-timeout names the clients that would have given up. */
  | { readonly event: 'answered'; readonly method: string; readonly ms: number }
  | { readonly event: 'server-exited'; readonly method: string; readonly detail: string }
  | { readonly event: 'response-too-large'; readonly bytes: number; readonly limit: number }
  | {
      readonly event: 'http-error';
      readonly method: string;
      readonly status: number | 'request failed';
      readonly body: string;
    }
  /**
   * A response that answers no request in flight: `answered` when its request was answered already,
   * `waiting` names the requests that were waiting for an answer (JSON-encoded ids throughout).
   */
  | {
      readonly event: 'response-unmatched';
      readonly id: string;
      readonly answered?: boolean;
      readonly waiting?: string;
    }
  /** A response matched to its request only once its id was converted (a number sent back as a string). */
  | {
      readonly event: 'response-id-converted';
      readonly id: string;
      readonly request: string;
      readonly method: string;
    }
  | { readonly event: 'version-refused'; readonly version: string; readonly detail: string }
  /** Judged by audit-initialize-invalid and audit-version-unknown. */
  | { readonly event: 'initialize-result'; readonly version: string; readonly result: JsonObject }
  | { readonly event: 'discover-unsupported'; readonly detail: string }
  | { readonly event: 'discover-invalid'; readonly problem: string }
  | { readonly event: 'tools-capability-missing'; readonly count: number }
  /** `endless`: every page had a new cursor, up to MAX_TOOLS_LIST_PAGES. */
  | { readonly event: 'tools-list-failed'; readonly detail: string; readonly endless?: boolean }
  /**
   * A cursor given again: `earlier` leads back to a page before the one just taken, `same` is the one
   * the page was asked with, `page-repeated` that cursor with the tools of the page before.
   */
  | {
      readonly event: 'pagination-loop';
      readonly cursor: string;
      readonly loop: 'earlier' | 'same' | 'page-repeated';
    }
  /**
   * A name listed again on a later page of one listing (1-based pages; the first such), and which
   * definition clients use.
   */
  | {
      readonly event: 'tool-name-duplicate';
      readonly name: string;
      readonly page: number;
      readonly index: number;
      readonly firstPage: number;
      readonly firstIndex: number;
      /** Pages after `page` that list it too. */
      readonly more: number;
      readonly uses: string;
    }
  | { readonly event: 'call-error'; readonly tool: string; readonly code: string; readonly detail: string }
  /** The server refused the arguments of a call: a JSON-RPC -32602 about the input, or an SDK's input check. */
  | {
      readonly event: 'arguments-rejected';
      readonly tool: string;
      readonly detail: string;
      readonly from: 'synthesized' | '--args';
    };

/** The findings the catalog makes of an event, placed at `location` (and `pointer` in the response). */
export function auditFindings(event: AuditEvent, location: Location, pointer = ''): Finding[] {
  const version =
    (location.protocolVersion && parseProtocolVersion(location.protocolVersion)) || DEFAULT_PROTOCOL_VERSION;
  return runSession(event, { version }).map((f) => ({ ...publicFinding(f), pointer, location }));
}
