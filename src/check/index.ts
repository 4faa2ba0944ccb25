/**
 * What `mcp-shape check` does with a parsed input, without touching files or the process, so the same
 * logic can run in a browser or another tool.
 */

import { inClientOrder } from '../core/client-tools.js';
import type { Finding } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import { FactScope } from '../core/run-memo.js';
import type { FailOn } from '../policy/severity.js';
import type { InvalidUtf8 } from '../rules/types.js';
import {
  ALL_VERSIONS,
  assumedProtocolVersion,
  DEFAULT_PROTOCOL_VERSION,
  type ProtocolVersion,
} from '../spec/versions.js';
import {
  validateParsedMessageSync,
  validateParsedToolResultSync,
  validateParsedToolsListSync,
} from '../validate/index.js';
import { classifyDocument } from './classify.js';
import type { ParsedInput } from './parse.js';
import { checkSession, isClientMessage, notUtf8, type SessionResult } from './session.js';
import {
  VerdictTally,
  type VersionMatrix,
  type VersionVerdict,
  versionVerdict,
  versionVerdictLine,
} from './versions.js';

export { classifyDocument } from './classify.js';
export {
  InputError,
  isSessionFileName,
  type ParsedInput,
  parseInput,
  type SessionLine,
} from './parse.js';
export { type VersionMatrix, type VersionVerdict, versionList, versionVerdictLine } from './versions.js';

export interface CheckOptions {
  /**
   * The version to check against; a session's initialize or server/discover overrides it from there on.
   * Default: what the input says (2026-07-28 for a result with `resultType`), else
   * DEFAULT_PROTOCOL_VERSION.
   */
  readonly protocolVersion?: ProtocolVersion;
  /** Label for `location.file`. */
  readonly file?: string;
  /** Tool definitions by name, from `--tools`. */
  readonly tools?: ReadonlyMap<string, JsonObject>;
  /** The tool a single result belongs to, from `--tool`. */
  readonly tool?: JsonObject;
  /**
   * The facts of a single document's values, shared by its checks for each version (checkWithMatrix):
   * an unchanged scope (core/run-memo.ts). Default: each check makes its own.
   */
  readonly scope?: FactScope;
  /** The first bad byte of each line whose bytes are not UTF-8, by line number (src/io/utf8.ts). */
  readonly invalidUtf8?: ReadonlyMap<number, InvalidUtf8>;
  /** A session's findings, each as it is found, instead of in the outcome's (SessionOptions.emit). */
  readonly emit?: (finding: Finding, frame: boolean) => void;
  /** A session's frame findings left out (SessionOptions.skipFrames). */
  readonly skipFrames?: boolean;
}

export interface CheckOutcome {
  readonly findings: Finding[];
  readonly checked: number;
  readonly kind: string;
  readonly protocolVersions: ProtocolVersion[];
  /** Nothing checked was sent by a server: the input holds only a client's requests. */
  readonly noServerMessage?: true;
}

export async function checkInput(input: ParsedInput, options: CheckOptions): Promise<CheckOutcome> {
  const outcome = await checkParsed(input, options);
  // A session judges each line's bytes as it reads the line (session.ts); a document's are judged here,
  // each bad line where it is.
  const bad = options.invalidUtf8;
  if (input.kind === 'jsonl' || bad === undefined || bad.size === 0) return outcome;
  const version = outcome.protocolVersions[0] ?? DEFAULT_PROTOCOL_VERSION;
  const file = options.file ? { file: options.file } : {};
  const found = [...bad].flatMap(([line, at]) =>
    notUtf8('', at, version, { ...file, line, protocolVersion: version }),
  );
  return { ...outcome, findings: [...found, ...outcome.findings] };
}

async function checkParsed(input: ParsedInput, options: CheckOptions): Promise<CheckOutcome> {
  const version =
    options.protocolVersion ?? assumedProtocolVersion(input.kind === 'json' ? input.value : undefined);
  const locate = (findings: Finding[], line?: number): Finding[] =>
    findings.map((f) => ({
      ...f,
      location: {
        ...(options.file ? { file: options.file } : {}),
        ...(line ? { line } : {}),
        protocolVersion: version,
        ...(options.tool && typeof options.tool.name === 'string' ? { tool: options.tool.name } : {}),
      },
    }));

  if (input.kind === 'jsonl') {
    const session = await checkSession(input.lines, {
      fallbackVersion: options.protocolVersion,
      file: options.file,
      tools: options.tools,
      ...(options.invalidUtf8 ? { invalidUtf8: options.invalidUtf8 } : {}),
      ...(options.emit ? { emit: options.emit } : {}),
      ...(options.skipFrames ? { skipFrames: true } : {}),
    });
    return { ...sessionOutcome(session), kind: 'session' };
  }
  const value = input.value;
  const kind = classifyDocument(value);
  switch (kind) {
    case 'batch': {
      // A JSON array of messages: a 2025-03-26 batch, or a session saved as one array. The batch rules
      // judge the array, then each message is checked in order, as in a session.
      const line = { line: 1, text: '', json: true, value };
      const session = await checkSession([line], {
        fallbackVersion: options.protocolVersion,
        file: options.file,
        tools: options.tools,
      });
      return { ...sessionOutcome(session), checked: (value as unknown[]).length, kind: 'session' };
    }
    case 'message': {
      const request =
        options.tool && typeof options.tool.name === 'string'
          ? { method: 'tools/call', params: { name: options.tool.name } }
          : undefined;
      const findings = validateParsedMessageSync(
        value,
        { protocolVersion: version, request, tools: options.tools ? [...options.tools.values()] : undefined },
        options.scope,
      );
      return {
        findings: locate(findings),
        checked: 1,
        kind: 'response',
        protocolVersions: [version],
        ...(isClientMessage(value) ? { noServerMessage: true as const } : {}),
      };
    }
    case 'tools-list':
      return {
        findings: locate(validateParsedToolsListSync(value, { protocolVersion: version }, options.scope)),
        checked: 1,
        kind: 'tools/list result',
        protocolVersions: [version],
      };
    case 'tool-result':
      return {
        findings: locate(
          validateParsedToolResultSync(
            value,
            { protocolVersion: version, tool: options.tool },
            options.scope,
          ),
        ),
        checked: 1,
        kind: 'tool result',
        protocolVersions: [version],
      };
  }
}

function sessionOutcome({ fromServer, ...session }: SessionResult): Omit<CheckOutcome, 'kind'> {
  return {
    ...session,
    ...(session.checked > 0 && fromServer === 0 ? { noServerMessage: true as const } : {}),
  };
}

/** The run's policy, for the verdict of each version (src/cli/policy.ts matrixPolicy). */
export interface MatrixPolicy {
  /**
   * The findings the run counts: after the configuration's rule settings and the baseline. Absent when
   * there are none to apply: every finding counts as it is.
   */
  readonly counted?: (findings: readonly Finding[]) => readonly Finding[];
  readonly failOn: FailOn;
}

export interface MatrixCheckOutcome extends CheckOutcome {
  readonly matrix: VersionMatrix;
  /** The one line saying which versions the input passes and fails, when they differ. */
  readonly versionVerdict?: string;
}

/**
 * checkInput() under every protocol version as well, for the version matrix. With `'all'` the findings
 * of every version are reported (each located by its version; a finding every version shares, such as
 * one after a recorded initialize, once); otherwise those of `protocolVersion` (or the assumed one).
 */
export async function checkWithMatrix(
  input: ParsedInput,
  options: Omit<CheckOptions, 'protocolVersion'> & {
    readonly protocolVersion?: ProtocolVersion | 'all';
    /** Without one, each version fails on its error findings (--fail-on error, no configuration). */
    readonly policy?: MatrixPolicy;
  },
): Promise<MatrixCheckOutcome> {
  const all = options.protocolVersion === 'all';
  const chosen = all ? undefined : (options.protocolVersion as ProtocolVersion | undefined);
  // One document, judged once per version: the JSON text of its structuredContent, its payloads' facts
  // and its size are made once. A session's lines are each judged once already.
  const scope = input.kind === 'json' ? new FactScope(true) : undefined;
  const shared = { ...options, ...(scope ? { scope } : {}) };
  const policy = options.policy;
  if (input.kind === 'jsonl' && !all && policy?.counted === undefined) {
    const { primary, verdicts } = await sessionMatrix(input, shared, chosen, policy?.failOn);
    const matrix: VersionMatrix = { all, versions: verdicts };
    const line = versionVerdictLine(verdicts);
    return { ...primary, matrix, ...(line ? { versionVerdict: line } : {}) };
  }
  const byVersion = new Map<ProtocolVersion, CheckOutcome>();
  const verdicts = new Map<ProtocolVersion, VersionVerdict>();
  // With --protocol all, each version's findings join the report as they are made, those an earlier
  // version found left out: a capture's findings are not held once for each version and then again.
  const reported = distinctFindings();
  for (const protocolVersion of ALL_VERSIONS) {
    const outcome = await checkInput(input, { ...shared, protocolVersion });
    verdicts.set(protocolVersion, verdictOf(protocolVersion, outcome.findings, policy));
    if (all) {
      for (const finding of outcome.findings) reported.add(finding);
      byVersion.set(protocolVersion, { ...outcome, findings: [] });
    } else if (protocolVersion === chosen) byVersion.set(protocolVersion, outcome);
  }
  const matrix: VersionMatrix = {
    all,
    versions: ALL_VERSIONS.map((v) => verdicts.get(v) as VersionVerdict),
  };
  const line = versionVerdictLine(matrix.versions);
  const extra = { matrix, ...(line ? { versionVerdict: line } : {}) };
  if (!all) {
    const primary = chosen
      ? byVersion.get(chosen)
      : await checkInput(input, { ...shared, protocolVersion: undefined });
    return { ...(primary as CheckOutcome), ...extra };
  }
  const outcomes = [...byVersion.values()];
  const findings = reported.findings;
  const first = outcomes[0] as CheckOutcome;
  const protocolVersions = ALL_VERSIONS.filter((v) => outcomes.some((o) => o.protocolVersions.includes(v)));
  const noServer = first.noServerMessage ? { noServerMessage: first.noServerMessage } : {};
  return { findings, checked: first.checked, kind: first.kind, protocolVersions, ...noServer, ...extra };
}

/**
 * A session's matrix when only one reading's findings are reported (no --protocol all, no rule settings
 * or baseline to apply): that reading is held, and each other version's verdict is counted as its
 * findings come, so a capture of a million bad lines is not held once for each version. The frame
 * findings (of a line's bytes, of a line that is no message) are the same under every version: judged
 * in the reported reading, they are counted into each other version's verdict, not judged again.
 */
async function sessionMatrix(
  input: ParsedInput,
  options: Omit<CheckOptions, 'protocolVersion'>,
  chosen: ProtocolVersion | undefined,
  failOn: FailOn | undefined,
): Promise<{ primary: CheckOutcome; verdicts: VersionVerdict[] }> {
  const findings: Finding[] = [];
  const frames = new VerdictTally(chosen ?? DEFAULT_PROTOCOL_VERSION, failOn);
  const held = heldOnce();
  const read = await checkInput(input, {
    ...options,
    protocolVersion: chosen,
    emit: (finding, frame) => {
      findings.push(held(finding));
      if (frame) frames.add(finding);
    },
  });
  const verdicts: VersionVerdict[] = [];
  for (const protocolVersion of ALL_VERSIONS) {
    if (protocolVersion === chosen) {
      verdicts.push(versionVerdict(protocolVersion, findings, failOn));
      continue;
    }
    const tally = new VerdictTally(protocolVersion, failOn);
    await checkInput(input, { ...options, protocolVersion, emit: tally.add, skipFrames: true });
    verdicts.push(tally.verdict(frames));
  }
  return { primary: { ...read, findings }, verdicts };
}

/**
 * Makes each finding it is given hold its message, fix and data as the first finding that said the same
 * held them: a flood of findings says the same thing many times (each of 300,000 bad lines its own copy
 * of one message, fix and data), and they are held until the report is written. Each is a finding of
 * its own, made for the caller, so it is changed in place.
 */
function heldOnce(): (finding: Finding) => Finding {
  // Findings that each say something else gain nothing: past this many distinct ones, no more are kept.
  const messages = new Map<string, string>();
  const values = new Map<string, unknown>();
  const same = <T>(value: T): T => {
    const key = JSON.stringify(value);
    const held = values.get(key);
    if (held !== undefined) return held as T;
    if (values.size < HELD_ONCE) values.set(key, value);
    return value;
  };
  return (finding) => {
    const mutable = finding as { -readonly [K in keyof Finding]: Finding[K] } & { data?: unknown };
    const message = messages.get(finding.message);
    if (message !== undefined) mutable.message = message;
    else if (messages.size < HELD_ONCE) messages.set(finding.message, finding.message);
    if (mutable.fix) mutable.fix = same(mutable.fix);
    if (mutable.data) mutable.data = same(mutable.data);
    return finding;
  };
}

const HELD_ONCE = 4096;

/**
 * Findings in the order added, each left out when one with the same rule, pointer, message and location
 * was added before; those kept are held once (heldOnce). The findings seen are found again by a hash
 * of that identity, not by a set of its text: 3,000,000 of them (300,000 bad lines under five
 * versions) would hold 3,000,000 strings more.
 */
function distinctFindings(): { readonly findings: Finding[]; add(finding: Finding): void } {
  const held = heldOnce();
  const findings: Finding[] = [];
  /** The index of each finding kept, by the hash of its identity (an array when hashes collide). */
  const byHash = new Map<number, number | number[]>();
  const identity = (f: Finding) => JSON.stringify([f.rule, f.pointer, f.message, f.location]);
  return {
    findings,
    add(finding) {
      const key = identity(finding);
      const hash = hash30(key);
      const at = byHash.get(hash);
      const kept = at === undefined ? [] : typeof at === 'number' ? [at] : at;
      if (kept.some((i) => identity(findings[i] as Finding) === key)) return;
      findings.push(held(finding));
      byHash.set(hash, at === undefined ? findings.length - 1 : [...kept, findings.length - 1]);
    },
  };
}

/** FNV-1a of the string's UTF-16 units, in 30 bits (a small integer to V8). */
function hash30(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 2) & 0x3fffffff;
}

/** A version's verdict on `findings`, after the policy's rule settings and baseline when it has any. */
function verdictOf(
  protocolVersion: ProtocolVersion,
  findings: readonly Finding[],
  policy: MatrixPolicy | undefined,
): VersionVerdict {
  const counted = policy?.counted ? policy.counted(findings) : findings;
  return versionVerdict(protocolVersion, counted, policy?.failOn);
}

/**
 * Tool definitions from a tools/list result or response (or a bare array of tools). A name listed twice
 * is the definition whose outputSchema the SDK clients check results by (src/core/client-tools.ts).
 */
export function toolsFromDocument(value: unknown): Map<string, JsonObject> | undefined {
  const result = isObject(value) && isObject(value.result) ? value.result : value;
  const list = isObject(result) ? result.tools : result;
  if (!Array.isArray(list)) return undefined;
  const tools = list.filter(isObject);
  const map = new Map<string, JsonObject>();
  // Named in the order listed; each name's definition then set in the clients' order.
  for (const tool of tools) if (typeof tool.name === 'string') map.set(tool.name, tool);
  for (const tool of inClientOrder(tools)) if (typeof tool.name === 'string') map.set(tool.name, tool);
  return map;
}
