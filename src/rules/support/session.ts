/** Shared by the `session` rules, which judge what an audit observed on a live connection. */

import { features, PROTOCOL_VERSIONS, type ProtocolVersion, versionsFrom } from '../../spec/versions.js';
import type { CheckContext, SessionEvent } from '../types.js';

/** Versions negotiated with `initialize`; 2026-07-28 has `server/discover` instead. */
export const INITIALIZE_VERSIONS: readonly ProtocolVersion[] = versionsFrom('2024-11-05', '2026-07-28');

/** Versions negotiated with `server/discover`. */
export const DISCOVER_VERSIONS: readonly ProtocolVersion[] = versionsFrom('2026-07-28');

/**
 * The version an initialize result negotiates, or undefined when it names none a client could speak
 * after `initialize`. The audit uses it to go on; `audit-version-unknown` reports the undefined case.
 */
export function initializeVersion(answered: unknown): ProtocolVersion | undefined {
  const known = PROTOCOL_VERSIONS.find((v) => v === answered);
  return known && features(known).handshake === 'initialize' ? known : undefined;
}

/**
 * The check of a rule that judges one kind of event as a whole: it reports the event, with the named
 * facts as message data. Rules that look inside an event (initialize results) have their own check.
 */
export function reportEvent(event: string, facts: readonly string[]) {
  return (node: unknown, ctx: CheckContext): void => {
    const observed = node as SessionEvent;
    if (observed.event !== event) return;
    const data: Record<string, string | number> = {};
    for (const fact of facts) {
      const value = observed[fact];
      data[fact] = typeof value === 'number' ? value : String(value ?? '');
    }
    ctx.report({ data });
  };
}
