/**
 * The protocol's own members of a result and of its blocks, where a class instance keeps them as
 * accessors on its prototype (`class TextBlock { get text() { … } }`). JSON.stringify sends only own
 * members, so judged as JSON the block had no `text` and was dropped. The official SDK v1 McpServer
 * does not send the handler's object as it is: it parses it with its CallToolResultSchema first, which
 * reads each member the schema names (a getter on the prototype included) and sends what it read, so
 * without mcp-shape the client got the text. Each such member is read here, once, and the block becomes
 * a plain object holding it, which every transport sends whole. Anything else of the value (what
 * structuredContent holds, members the protocol does not name) is still read as JSON reads it.
 */

/** The members of a CallToolResult (2024-11-05's `toolResult` included). */
export const RESULT_KEYS: ReadonlySet<string> = new Set([
  'content',
  'structuredContent',
  'isError',
  '_meta',
  'resultType',
  'toolResult',
]);

/** Members every block may have, and those of each block type (as the SDK's schemas name them). */
const COMMON_MEMBERS = ['type', 'annotations', '_meta'];
const BLOCK_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name', 'title', 'description', 'mimeType', 'size', 'icons'],
  resource: ['resource'],
};
const RESOURCE_MEMBERS = ['uri', 'mimeType', 'text', 'blob', '_meta'];

/**
 * An instance of a class (an object whose prototype is neither Object's nor null) without toJSON,
 * whose members JSON may not send all of. Plain objects and arrays are sent as they are.
 */
function isInstance(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return (
    proto !== Object.prototype &&
    proto !== null &&
    typeof (value as { toJSON?: unknown }).toJSON !== 'function'
  );
}

/** `value` with each of `names` it has but JSON would not send made an own member; itself when none. */
function withMembers(value: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const name of names) {
    if (Object.prototype.propertyIsEnumerable.call(value, name) || !(name in value)) continue;
    const member = value[name];
    // JSON leaves these out, as the SDK's schemas read them (absent).
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    copy ??= { ...value };
    copy[name] = member;
  }
  return copy ?? value;
}

function blockWithMembers(block: unknown): unknown {
  if (!isInstance(block)) return block;
  const type = block.type;
  const own =
    typeof type === 'string' && Object.hasOwn(BLOCK_MEMBERS, type) ? BLOCK_MEMBERS[type] : undefined;
  if (own === undefined) return block;
  const copy = withMembers(block, [...COMMON_MEMBERS, ...own]);
  if (type !== 'resource' || !isInstance(copy.resource)) return copy;
  const resource = withMembers(copy.resource, RESOURCE_MEMBERS);
  if (resource === copy.resource) return copy;
  return copy === block ? { ...block, resource } : Object.assign(copy, { resource });
}

/** The blocks of `content` with their members made own, or `content` itself when none changed. */
function blocksWithMembers(content: readonly unknown[]): readonly unknown[] {
  let copy: unknown[] | undefined;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    const made = blockWithMembers(block);
    if (made === block) continue;
    copy ??= content.slice();
    copy[i] = made;
  }
  return copy ?? content;
}

/**
 * What a handler returned (a result, a block or an array of blocks), with the protocol members its
 * class instances keep as prototype accessors made own members (see the module comment); the value
 * itself when there are none. Never throws: a member that throws when read leaves the value as it was,
 * for the JSON walk to say what it could not read.
 */
export function withProtocolMembers(value: unknown): unknown {
  try {
    if (Array.isArray(value)) return blocksWithMembers(value);
    if (typeof value !== 'object' || value === null) return value;
    let result = value as Record<string, unknown>;
    if (isInstance(result)) {
      const made = withMembers(result, [...RESULT_KEYS]);
      // A domain object that merely has a `content` getter stays data: only a value whose every member
      // is a result's is a result.
      const isResult = Array.isArray(made.content) && Object.keys(made).every((key) => RESULT_KEYS.has(key));
      if (!isResult) return blockWithMembers(value);
      result = made;
    }
    const content = result.content;
    if (!Array.isArray(content)) return result;
    const blocks = blocksWithMembers(content);
    if (blocks === content) return result;
    return result === value ? { ...result, content: blocks } : Object.assign(result, { content: blocks });
  } catch {
    return value;
  }
}
