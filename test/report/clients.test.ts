/**
 * The clients a finding breaks, as the reporters name them (src/report/clients.ts): the rule's clients
 * from the catalog, narrowed to the ones a finding names in `data.affected` (audit-timeout names the
 * clients whose timeout the latency exceeds), in the catalog's order, with runs of one effect said once.
 */

import { describe, expect, it } from 'vitest';
import { affectedClients, breaksLine, clientsText } from '../../src/report/clients.js';
import { getRule } from '../../src/rules/catalog.js';

const ids = (finding: Parameters<typeof affectedClients>[0]) => affectedClients(finding).map((c) => c.client);

describe('affectedClients', () => {
  it("is every client of the finding's rule when the finding names none", () => {
    const rule = getRule('audit-timeout');
    expect(rule?.clients.length).toBeGreaterThan(2);
    expect(ids({ rule: 'audit-timeout' })).toEqual(rule?.clients.map((c) => c.client));
    // `affected` that is not a list of ids narrows nothing.
    expect(ids({ rule: 'audit-timeout', data: { affected: ['zed'] } })).toEqual(
      rule?.clients.map((c) => c.client),
    );
  });

  it('narrows to the clients named in data.affected, in catalog order, ignoring ids the rule lacks', () => {
    expect(ids({ rule: 'audit-timeout', data: { affected: 'zed,ts-sdk-v1,no-such-client' } })).toEqual([
      'ts-sdk-v1',
      'zed',
    ]);
    expect(ids({ rule: 'audit-timeout', data: { affected: '' } })).toEqual([]);
  });

  it('is none for a rule outside the catalog', () => {
    expect(affectedClients({ rule: 'no-such-rule' })).toEqual([]);
  });
});

describe('breaksLine', () => {
  it('says a run of one effect once, after its last client, and counts the clients past max', () => {
    expect(breaksLine({ rule: 'result-content-missing' })).toBe(
      'Cline / Roo Code, Python SDK client (rejects the call), TypeScript SDK v1 client (drops content) +1 more',
    );
    expect(breaksLine({ rule: 'result-content-missing' }, 2)).toBe(
      'Cline / Roo Code, Python SDK client (rejects the call) +2 more',
    );
    expect(breaksLine({ rule: 'audit-timeout', data: { affected: 'zed,ts-sdk-v1' } })).toBe(
      'TypeScript SDK v1 client, Zed (rejects the call)',
    );
  });

  it('is undefined when the finding breaks no client', () => {
    expect(breaksLine({ rule: 'no-such-rule' })).toBeUndefined();
    expect(breaksLine({ rule: 'audit-timeout', data: { affected: '' } })).toBeUndefined();
  });
});

describe('clientsText', () => {
  it('names every client with its effect', () => {
    expect(clientsText({ rule: 'result-content-missing' })).toBe(
      'Cline / Roo Code (rejects the call), Python SDK client (rejects the call), TypeScript SDK v1 client (drops content), TypeScript SDK v2 client (rejects the call)',
    );
    expect(clientsText({ rule: 'result-over-client-limits', data: { affected: 'claude-code' } })).toBe(
      'Claude Code (over its limit)',
    );
  });

  it('is undefined when the finding breaks no client', () => {
    expect(clientsText({ rule: 'no-such-rule' })).toBeUndefined();
    expect(clientsText({ rule: 'audit-timeout', data: { affected: 'no-such-client' } })).toBeUndefined();
  });
});
