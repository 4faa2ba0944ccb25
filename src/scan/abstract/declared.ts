/**
 * Declared types that prove what an unknown value is. A TypeScript `Promise<CallToolResult>` or a
 * Python `-> list[TextContent]` is checked by the compiler or by pydantic at run time, so when the
 * analysis cannot see the value, the declaration is the proof ("typed by declaration"). A declaration
 * never overrides a value the analysis can see: `{ type: 'object' } as CallToolResult` is still wrong.
 */

import { sourceText } from './concretize.js';
import { type Heap, newArray } from './heap.js';
import { type Declared, ref, unknown, type Value, type Variant } from './value.js';

const BLOCK_TYPES = new Set([
  'TextContent',
  'ImageContent',
  'AudioContent',
  'ResourceLink',
  'EmbeddedResource',
  'ContentBlock',
  'Content',
]);

/** `types.TextContent`, `mcp.types.TextContent` → `TextContent`. */
function bare(name: string): string {
  return name.slice(name.lastIndexOf('.') + 1);
}

/** The members of a union (`A | B`, `Union[A, B]`), or the type itself. */
function unionMembers(type: string): string[] {
  const union = /^(?:typing\.)?Union\[(.*)\]$/.exec(type);
  const inner = union?.[1] ?? type;
  return splitTopLevel(inner, union ? ',' : '|');
}

function splitTopLevel(text: string, separator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '<' || ch === '[' || ch === '(') depth++;
    else if (ch === '>' || ch === ']' || ch === ')') depth--;
    if (ch === separator && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

function isBlockType(type: string): boolean {
  const members = unionMembers(type);
  return members.length > 0 && members.every((m) => BLOCK_TYPES.has(bare(m)));
}

/**
 * What a declared type (TypeScript or Python annotation text) proves, or undefined when it proves
 * nothing the verdict needs (`any`, `object`, `dict`, a type of the project).
 */
export function declaredType(text: string | undefined): Declared | undefined {
  if (!text) return undefined;
  let type = text.replace(/\s+/g, '').replace(/^:/, '').replace(/^->/, '');
  // Awaited wrappers do not change what the value is once awaited.
  for (;;) {
    const ts = /^(?:Promise|PromiseLike|Awaited)<(.*)>$/.exec(type);
    const py = /^(?:typing\.)?(?:Awaitable|Coroutine)\[(.*)\]$/.exec(type);
    const inner = ts?.[1] ?? (py?.[1] ? splitTopLevel(py[1], ',').at(-1) : undefined);
    if (!inner) break;
    type = inner;
  }
  const shown = text.trim().replace(/^(:|->)\s*/, '');
  if (/^(?:[\w.]+\.)?CallToolResult$/.test(type)) return { type: shown, proves: 'result' };
  if (/^(?:[\w.]+\.)?CallToolResult\[['"]content['"]\]$/.test(type)) return { type: shown, proves: 'blocks' };
  if (isBlockType(type)) return { type: shown, proves: 'block' };
  const array =
    /^(?:readonly)?\(?(.*?)\)?\[\]$/.exec(type) ??
    /^(?:Readonly)?Array<(.*)>$/.exec(type) ??
    /^(?:typing\.)?(?:list|List|Sequence|Iterable|tuple|Tuple)\[(.*?)(?:,\.\.\.)?\]$/.exec(type);
  const item = array?.[1];
  if (item && isBlockType(item)) return { type: shown, proves: 'blocks' };
  return undefined;
}

/**
 * `value` with its unknown variants proven by a declared type (the annotation's text), when the
 * annotation names an MCP type; known variants are judged by what they are.
 */
export function provenBy(value: Value, annotation: string | undefined): Value {
  const declared = declaredType(annotation);
  if (!declared) return value;
  return value.map((v) => (v.k === 'unknown' && !v.declared && !v.untyped ? { ...v, declared } : v));
}

/**
 * `provenBy`, where a list of blocks the analysis cannot see (`blocks: TextContent[] = await
 * load()`, a helper's `-> list[TextContent]`) becomes a list, in `heap`, of blocks the declaration
 * proves: what code adds to it later (`blocks.push(x as any)`, `blocks.append({...})`) is judged by
 * what it is, not proven by a declaration that never checked it.
 */
export function provenIn(heap: Heap, value: Value, annotation: string | undefined): Value {
  const declared = declaredType(annotation);
  if (declared?.proves !== 'blocks') return provenBy(value, annotation);
  const block: Declared = { type: `an item of ${declared.type}`, proves: 'block' };
  return value.map((v): Variant => {
    if (v.k !== 'unknown' || v.declared || v.untyped) return v;
    const rest = unknown(v.site, `an item of ${sourceText(v.site)}`, undefined, block);
    return ref(v.site, heap.alloc({ ...newArray(v.site), rest }))[0] as Variant;
  });
}
