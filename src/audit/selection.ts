/**
 * Which tools an audit may call. Calling a tool can change the world, so by default only tools that
 * say they do not (`readOnlyHint: true`, and `destructiveHint` not `true`) are called; the user opts
 * others in by name (--call), with --call-all, or by giving arguments for them in --args. A tool that
 * claims both read-only and destructive contradicts itself, or read-only in one version's listing and
 * not in another's, so it is called only when named (--call or --args), never by --call-all. Annotations are looked up across every version's listing, because
 * 2024-11-05 has no annotations at all and the tools are the same.
 */

import { isObject, type JsonObject } from '../core/json.js';

export interface CallPolicy {
  readonly call: readonly string[];
  readonly callAll: boolean;
  /** From --args: tool name → argument objects, each sent as one call. */
  readonly args: ReadonlyMap<string, readonly JsonObject[]>;
}

export type ToolDecision =
  | {
      readonly name: string;
      readonly called: true;
      readonly because: 'readOnlyHint' | '--call' | '--call-all' | '--args';
    }
  | { readonly name: string; readonly called: false; readonly reason: string };

function hint(tool: JsonObject, name: string): unknown {
  return isObject(tool.annotations) ? tool.annotations[name] : undefined;
}

/** `listings` are the tools/list results of each audited version, in version order. */
export function decideCalls(
  listings: readonly (readonly JsonObject[])[],
  policy: CallPolicy,
): ToolDecision[] {
  const byName = new Map<string, JsonObject[]>();
  for (const tools of listings) {
    for (const tool of tools) {
      if (typeof tool.name !== 'string') continue;
      const seen = byName.get(tool.name) ?? [];
      seen.push(tool);
      byName.set(tool.name, seen);
    }
  }
  const decisions: ToolDecision[] = [];
  for (const [name, versions] of byName) {
    const readOnly = versions.some((t) => hint(t, 'readOnlyHint') === true);
    const destructive = versions.some((t) => hint(t, 'destructiveHint') === true);
    // One version's listing says read-only, another's says not: the lie is the server's, and the call
    // may change the world.
    const denied = readOnly && versions.some((t) => hint(t, 'readOnlyHint') === false);
    if (policy.args.has(name)) decisions.push({ name, called: true, because: '--args' });
    else if (policy.call.includes(name)) decisions.push({ name, called: true, because: '--call' });
    else if (readOnly && destructive)
      decisions.push({
        name,
        called: false,
        reason: `annotated readOnlyHint: true and destructiveHint: true, which contradict each other; use --call ${name} or --args to call it`,
      });
    else if (denied)
      decisions.push({
        name,
        called: false,
        reason: `annotated readOnlyHint: true in one version's listing and false in another's, which contradict each other; use --call ${name} or --args to call it`,
      });
    else if (policy.callAll) decisions.push({ name, called: true, because: '--call-all' });
    else if (readOnly) decisions.push({ name, called: true, because: 'readOnlyHint' });
    else {
      const declared = versions.map((t) => hint(t, 'readOnlyHint')).find((v) => v !== undefined);
      const why =
        declared === false
          ? destructive
            ? 'annotated readOnlyHint: false, destructiveHint: true'
            : 'annotated readOnlyHint: false'
          : 'not annotated readOnlyHint: true';
      decisions.push({
        name,
        called: false,
        reason: `${why}; use --call ${name}, --call-all or --args to call it`,
      });
    }
  }
  return decisions.sort((a, b) => a.name.localeCompare(b.name));
}

/** --call names that no listing has, so the user learns about a typo. */
export function unknownCallNames(decisions: readonly ToolDecision[], policy: CallPolicy): string[] {
  const names = new Set(decisions.map((d) => d.name));
  return [...policy.call, ...policy.args.keys()].filter((n) => !names.has(n));
}
