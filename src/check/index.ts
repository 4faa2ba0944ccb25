/**
 * What `mcp-shape check` does with a parsed input, without touching files or the process, so the same
 * logic can run in a browser or another tool.
 */

import type { Finding } from '../core/finding.js';
import { isObject, type JsonObject } from '../core/json.js';
import type { ProtocolVersion } from '../spec/versions.js';
import { validateMessageSync, validateToolResultSync, validateToolsListSync } from '../validate/index.js';
import { classifyDocument } from './classify.js';
import type { ParsedInput } from './parse.js';
import { checkSession } from './session.js';

export { classifyDocument } from './classify.js';
export { InputError, type ParsedInput, parseInput } from './parse.js';

export interface CheckOptions {
  readonly protocolVersion: ProtocolVersion;
  /** Label for `location.file`. */
  readonly file?: string;
  /** Tool definitions by name, from `--tools`. */
  readonly tools?: ReadonlyMap<string, JsonObject>;
  /** The tool a single result belongs to, from `--tool`. */
  readonly tool?: JsonObject;
}

export interface CheckOutcome {
  readonly findings: Finding[];
  readonly checked: number;
  readonly kind: string;
  readonly protocolVersions: ProtocolVersion[];
}

export async function checkInput(input: ParsedInput, options: CheckOptions): Promise<CheckOutcome> {
  const version = options.protocolVersion;
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
      fallbackVersion: version,
      file: options.file,
      tools: options.tools,
    });
    return { ...session, kind: 'session' };
  }
  const value = input.value;
  const kind = classifyDocument(value);
  switch (kind) {
    case 'batch': {
      // A JSON array of messages: a 2025-03-26 batch or a session saved as one array.
      const batchFindings = locate(validateMessageSync(value, { protocolVersion: version }));
      const items = (value as unknown[]).map((v) => ({ line: 1, value: v }));
      const session = await checkSession(items, {
        fallbackVersion: version,
        file: options.file,
        tools: options.tools,
      });
      return { ...session, findings: [...batchFindings, ...session.findings], kind: 'session' };
    }
    case 'message': {
      const request =
        options.tool && typeof options.tool.name === 'string'
          ? { method: 'tools/call', params: { name: options.tool.name } }
          : undefined;
      const findings = validateMessageSync(value, {
        protocolVersion: version,
        request,
        tools: options.tools ? [...options.tools.values()] : undefined,
      });
      return { findings: locate(findings), checked: 1, kind: 'response', protocolVersions: [version] };
    }
    case 'tools-list':
      return {
        findings: locate(validateToolsListSync(value, { protocolVersion: version })),
        checked: 1,
        kind: 'tools/list result',
        protocolVersions: [version],
      };
    case 'tool-result':
      return {
        findings: locate(validateToolResultSync(value, { protocolVersion: version, tool: options.tool })),
        checked: 1,
        kind: 'tool result',
        protocolVersions: [version],
      };
  }
}

/** Tool definitions from a tools/list result or response (or a bare array of tools). */
export function toolsFromDocument(value: unknown): Map<string, JsonObject> | undefined {
  const result = isObject(value) && isObject(value.result) ? value.result : value;
  const list = isObject(result) ? result.tools : result;
  if (!Array.isArray(list)) return undefined;
  const map = new Map<string, JsonObject>();
  for (const tool of list) if (isObject(tool) && typeof tool.name === 'string') map.set(tool.name, tool);
  return map;
}
