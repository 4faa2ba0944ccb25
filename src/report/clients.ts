/**
 * The clients a finding breaks, as reporters name them. A rule lists every client it can break; a
 * finding may narrow that to the ones it really breaks (audit-timeout names exactly the clients
 * whose timeout the latency exceeds) with `data.affected`, a comma-separated list of client ids.
 */

import { CLIENTS, type ClientEffect, type ClientImpact } from '../clients/catalog.js';
import type { Finding } from '../core/finding.js';
import { getRule } from '../rules/catalog.js';

export const EFFECT_WORDS: Record<ClientEffect, string> = {
  'rejects-call': 'rejects the call',
  'drops-message': 'drops the message: the call hangs',
  'drops-content': 'drops content',
  misreads: 'misreads it',
  limits: 'over its limit',
};

/** The client impacts of a finding: its rule's, narrowed to `data.affected` when the finding names them. */
export function affectedClients(finding: Pick<Finding, 'rule'> & { data?: unknown }): ClientImpact[] {
  const rule = getRule(finding.rule);
  if (!rule) return [];
  const data = finding.data as { affected?: unknown } | undefined;
  if (typeof data?.affected !== 'string') return [...rule.clients];
  const ids = new Set(data.affected.split(','));
  return rule.clients.filter((c) => ids.has(c.client));
}

/**
 * `Goose, Zed (rejects the call), Cline / Roo Code (drops content) +4 more`: at most `max` clients,
 * runs of the same effect said once.
 */
export function breaksLine(finding: Pick<Finding, 'rule'> & { data?: unknown }, max = 3): string | undefined {
  const clients = affectedClients(finding);
  if (clients.length === 0) return undefined;
  const shown = clients.slice(0, max);
  const parts: string[] = [];
  shown.forEach((c, i) => {
    const next = shown[i + 1];
    const name = CLIENTS[c.client].name;
    parts.push(next?.effect === c.effect ? name : `${name} (${EFFECT_WORDS[c.effect]})`);
  });
  const more = clients.length - shown.length;
  return `${parts.join(', ')}${more > 0 ? ` +${more} more` : ''}`;
}

/** Every client a finding breaks, `Name (effect)`, for reports with room for all of them. */
export function clientsText(finding: Pick<Finding, 'rule'> & { data?: unknown }): string | undefined {
  const clients = affectedClients(finding);
  if (clients.length === 0) return undefined;
  return clients.map((c) => `${CLIENTS[c.client].name} (${EFFECT_WORDS[c.effect]})`).join(', ');
}
