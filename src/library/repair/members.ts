/**
 * The protocol's own members of a result and of its blocks, where JSON.stringify would not send them:
 * a class instance that keeps them as accessors on its prototype (`class TextBlock { get text() { … } }`),
 * or any object that holds them as non-enumerable members (`Object.defineProperty(block, 'text', {
 * value })`). JSON.stringify sends only own enumerable members, so judged as JSON the block had no
 * `text` and was dropped. The official SDK McpServers (v1 and v2) do not send the handler's object as it
 * is: they parse it with their CallToolResultSchema first, which reads each member the schema names (a
 * getter on the prototype or a non-enumerable member included) and sends what it read, so without
 * mcp-shape the client got the text. Each such member is read here, once, and the block becomes a plain
 * object holding it, which every transport sends whole. Anything else of the value (what
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
  text: [...COMMON_MEMBERS, 'text'],
  image: [...COMMON_MEMBERS, 'data', 'mimeType'],
  audio: [...COMMON_MEMBERS, 'data', 'mimeType'],
  resource_link: [...COMMON_MEMBERS, 'uri', 'name', 'title', 'description', 'mimeType', 'size', 'icons'],
  resource: [...COMMON_MEMBERS, 'resource'],
};
const RESULT_MEMBERS: readonly string[] = [...RESULT_KEYS];
const isEnumerable = Object.prototype.propertyIsEnumerable;
const RESOURCE_MEMBERS = ['uri', 'mimeType', 'text', 'blob', '_meta'];

/**
 * An instance of a class (an object whose prototype is neither Object's nor null) without toJSON,
 * whose members JSON may not send all of.
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

/**
 * An object (no array) without toJSON that may hold members JSON does not send: a class instance (its
 * prototype's), or a plain object with members that are not enumerable. JSON sends what a toJSON
 * answers, so such an object is left to it. Counting the names is the quick test: a plain object of
 * enumerable members only, which nearly all are, is then done with in two small lists.
 */
function mayHideMembers(value: unknown): value is Record<string, unknown> {
  if (isInstance(value)) return true;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  return Object.getOwnPropertyNames(value).length !== Object.keys(value).length;
}

/** `value` with each of `names` it has but JSON would not send made an own member; itself when none. */
function withMembers(value: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (let i = 0; i < names.length; i++) {
    const name = names[i] as string;
    // Absent first: most blocks have few of the names, and `in` answers that faster.
    if (!(name in value) || isEnumerable.call(value, name)) continue;
    const member = value[name];
    // JSON leaves these out, as the SDK's schemas read them (absent).
    if (member === undefined || typeof member === 'function' || typeof member === 'symbol') continue;
    copy ??= { ...value };
    copy[name] = member;
  }
  return copy ?? value;
}

function blockWithMembers(block: unknown): unknown {
  if (typeof block !== 'object' || block === null || Array.isArray(block)) return block;
  if (typeof (block as { toJSON?: unknown }).toJSON === 'function') return block;
  let copy = block as Record<string, unknown>;
  if (mayHideMembers(copy)) {
    const type = copy.type;
    const own =
      typeof type === 'string' && Object.hasOwn(BLOCK_MEMBERS, type) ? BLOCK_MEMBERS[type] : undefined;
    if (own === undefined) return block;
    copy = withMembers(copy, own);
  }
  // A plain block may hold contents that hide theirs.
  if (copy.type !== 'resource' || !mayHideMembers(copy.resource)) return copy;
  const resource = withMembers(copy.resource, RESOURCE_MEMBERS);
  if (resource === copy.resource) return copy;
  return copy === block ? { ...copy, resource } : Object.assign(copy, { resource });
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
 * What a handler returned (a result, a block or an array of blocks), with the protocol members JSON
 * would not send (a class instance's prototype accessors, members that are not enumerable) made own,
 * enumerable members (see the module comment); the value itself when there are none. Never throws: a member that throws when read leaves the value as it was,
 * for the JSON walk to say what it could not read.
 */
export function withProtocolMembers(value: unknown): unknown {
  try {
    if (Array.isArray(value)) return blocksWithMembers(value);
    if (typeof value !== 'object' || value === null) return value;
    let result = value as Record<string, unknown>;
    if (mayHideMembers(result)) {
      const made = withMembers(result, RESULT_MEMBERS);
      // A domain object that merely has a `content` getter stays data: only an instance whose every
      // member is a result's is a result. A plain object with a content array is one, as JSON reads it.
      const isResult =
        Array.isArray(made.content) &&
        (!isInstance(result) || Object.keys(made).every((key) => RESULT_KEYS.has(key)));
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
