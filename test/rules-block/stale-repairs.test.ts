/**
 * Every block, tool and tools-list repair of the catalog, handed its own example's finding on a document
 * where that subject is gone: the repair engine re-validates between repairs of one batch, but a finding
 * of an earlier validation may outlive its subject (another repair rebuilt the content, say). A repair
 * must then decline and change nothing, not rebuild a block or a tool at a place that no longer holds one.
 * The same repairs are also handed a finding whose member alone is gone, and their own wrong example (a
 * repair that says it fixed something changed the document, and its finding there is gone). The
 * result-level repairs have their own table (test/rules-result/result.test.ts).
 */

import { afterAll, describe, expect, it } from 'vitest';
import type { JsonObject } from '../../src/core/json.js';
import { deleteIn, hasIn, type PathSegment } from '../../src/core/pointer.js';
import { repairContext } from '../../src/library/repair/engine.js';
import { RULES } from '../../src/rules/catalog.js';
import type { Rule } from '../../src/rules/types.js';
import type { ProtocolVersion } from '../../src/spec/versions.js';
import {
  type EngineFinding,
  payloadAt,
  runToolResult,
  runToolsList,
  sniffSync,
} from '../../src/validate/engine.js';
import { resultOf } from './support.js';

const STALE_SUBJECTS = ['block', 'tool', 'tools-list'] as const;

/** The document the rule's wrong example sits in, and where its subject's container is. */
function documentOf(rule: Rule): { document: JsonObject; version: ProtocolVersion } {
  const { value, protocolVersion } = rule.examples.wrong;
  const version = protocolVersion ?? (rule.versions[rule.versions.length - 1] as ProtocolVersion);
  if (rule.subject === 'block') return { document: resultOf([value], version), version };
  if (rule.subject === 'tool') return { document: { tools: [value] }, version };
  return { document: structuredClone(value) as JsonObject, version };
}

/** The findings of `rule` on a document of its subject. */
function findingsOn(rule: Rule, document: unknown, version: ProtocolVersion): EngineFinding[] {
  const findings =
    rule.subject === 'block'
      ? runToolResult(document, { version, sniff: sniffSync, tool: rule.examples.wrong.tool })
      : runToolsList(document, { version });
  return findings.filter((f) => f.rule === rule.id);
}

function findingOf(rule: Rule, document: JsonObject, version: ProtocolVersion): EngineFinding {
  const finding = findingsOn(rule, document, version)[0];
  if (!finding) throw new Error(`${rule.id}: its wrong example reports nothing`);
  return finding;
}

/**
 * The document with the finding's subject gone: the block or tool removed; a list (the subject of its
 * own rule, so never gone) replaced by the rule's right example, where the defect no longer holds.
 */
function withoutSubject(rule: Rule, document: JsonObject): JsonObject {
  if (rule.subject === 'block') return { ...document, content: [] };
  if (rule.subject === 'tool') return { tools: [] };
  return structuredClone(rule.examples.right.value) as JsonObject;
}

const repairable = RULES.filter(
  (rule) => rule.repair !== undefined && (STALE_SUBJECTS as readonly string[]).includes(rule.subject),
);

describe('a block or tool repair handed a finding whose subject is gone', () => {
  it('covers the repairs of every such rule of the catalog', () => {
    // A floor, so that a catalog this test no longer reads cannot pass it by having nothing to test.
    expect(repairable.filter((r) => r.subject === 'block').length).toBeGreaterThan(15);
    expect(repairable.filter((r) => r.subject === 'tool').length).toBeGreaterThan(3);
  });

  it.each(repairable.map((rule) => [rule.id, rule] as const))(
    '%s declines and changes nothing',
    (_id, rule) => {
      const { document, version } = documentOf(rule);
      const finding = findingOf(rule, document, version);
      const staleDocuments = [
        withoutSubject(rule, document),
        ...(rule.subject === 'tools-list' ? [] : [{ content: 'gone', tools: 'gone' }]),
      ];
      for (const stale of staleDocuments) {
        const root = structuredClone(stale);
        const ctx = repairContext(
          finding,
          root,
          { version, tool: rule.examples.wrong.tool },
          () => undefined,
        );
        expect(rule.repair?.(ctx), JSON.stringify(stale)).toBeUndefined();
        expect(root).toEqual(stale);
      }
    },
  );
});

describe('a block or tool repair handed a finding whose member is gone', () => {
  // The subject is still there, but the member the finding points at was removed (another repair of
  // the same batch rewrote the block, say): nothing is left at that place to repair.
  // Only where the rule no longer reports there: a block whose "type" is gone is still defective at
  // that place (untyped), and its repair rightly acts on what it finds.
  const withMember = repairable.filter((rule) => {
    const { document, version } = documentOf(rule);
    const finding = findingOf(rule, document, version);
    if (finding.path.length <= finding.subjectPath.length || !hasIn(document, finding.path)) return false;
    const stale = structuredClone(document);
    deleteIn(stale, finding.path);
    return !findingsOn(rule, stale, version).some((f) => f.pointer === finding.pointer);
  });

  it('covers the repairs of most such rules', () => {
    expect(withMember.length).toBeGreaterThan(12);
  });

  it.each(withMember.map((rule) => [rule.id, rule] as const))(
    '%s declines and changes nothing',
    (_id, rule) => {
      const { document, version } = documentOf(rule);
      const finding = findingOf(rule, document, version);
      const stale = structuredClone(document);
      deleteIn(stale, finding.path);
      const root = structuredClone(stale);
      const ctx = repairContext(finding, root, { version, tool: rule.examples.wrong.tool }, () => undefined);
      expect(rule.repair?.(ctx), JSON.stringify(stale)).toBeUndefined();
      expect(root).toEqual(stale);
    },
  );
});

describe('a block or tool repair handed its own wrong example', () => {
  const declined: string[] = [];
  afterAll(() => {
    // Those whose wrong example holds nothing they could repair safely: an invalid URI, a schema that is
    // no object, data that is no base64, and a bare 8-byte PNG signature that neither sniffer nor
    // file-type can place (the repair engine's fallback then drops the block and says so). A repair
    // newly declining its own example shows here.
    expect(declined.sort()).toEqual([
      'block-data-invalid',
      'block-mime-type-missing',
      'block-uri-invalid',
      'tool-input-schema-invalid',
    ]);
  });

  it.each(repairable.map((rule) => [rule.id, rule] as const))(
    '%s changes the document when it says it fixed something, and its finding there is gone or another',
    (_id, rule) => {
      const { document, version } = documentOf(rule);
      const finding = findingOf(rule, document, version);
      const root = structuredClone(document);
      // Sniffed as the repair engine sniffs: the mimeType repairs go by the bytes.
      const sniffed = (path: readonly PathSegment[]) => {
        const payload = payloadAt(root, path);
        return payload && sniffSync(payload.holder, payload.key);
      };
      const ctx = repairContext(finding, root, { version, tool: rule.examples.wrong.tool }, sniffed);
      const outcome = rule.repair?.(ctx);
      if (outcome === undefined) {
        declined.push(rule.id);
        expect(root).toEqual(document);
        return;
      }
      expect(root, outcome.description).not.toEqual(document);
      const same = findingsOn(rule, root, version).find(
        (f) => f.pointer === finding.pointer && f.message === finding.message,
      );
      expect(same, outcome.description).toBeUndefined();
    },
  );
});
