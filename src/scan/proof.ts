/**
 * What "typed" means for the verdict: the result a client receives is proven to carry a content
 * array whose every block has a type the protocol version allows and the members that type needs,
 * each of the right JSON type. The rule engine says what is wrong; this says whether what is right
 * was shown, so a value the analysis cannot see is "unresolved" (with why), never "typed". A
 * declared type (TypeScript's, or a Python annotation) proves an unknown value: "typed by declaration".
 */

import { isObject } from '../core/json.js';
import { isOpaque, isOpen } from '../core/opaque.js';
import { features, type ProtocolVersion } from '../spec/versions.js';
import { UnknownValue } from './values.js';

export type Proof =
  | { readonly proven: true; readonly byDeclaration: boolean }
  | { readonly proven: false; readonly reason: string };

const PROVEN: Proof = { proven: true, byDeclaration: false };
const BY_DECLARATION: Proof = { proven: true, byDeclaration: true };

/** The members each block type needs, and whether each must be a string or an object. */
const REQUIRED: Record<string, readonly (readonly [string, 'string' | 'object'])[]> = {
  text: [['text', 'string']],
  image: [
    ['data', 'string'],
    ['mimeType', 'string'],
  ],
  audio: [
    ['data', 'string'],
    ['mimeType', 'string'],
  ],
  resource_link: [
    ['uri', 'string'],
    ['name', 'string'],
  ],
  resource: [['resource', 'object']],
};

function describe(value: UnknownValue): string {
  return value.source && value.source !== value.reason
    ? `\`${value.source}\` (${value.reason})`
    : value.reason;
}

function notProven(reason: string): Proof {
  return { proven: false, reason };
}

/** Whether `value` is shown to be of `kind`: a literal, or an unknown of that type. */
function hasKind(value: unknown, kind: 'string' | 'object'): boolean | UnknownValue {
  if (value instanceof UnknownValue) return value.kind === kind || value;
  if (isOpaque(value)) return false;
  return kind === 'string' ? typeof value === 'string' : isObject(value);
}

function both(a: Proof, b: Proof): Proof {
  if (!a.proven) return a;
  if (!b.proven) return b;
  return a.byDeclaration || b.byDeclaration ? BY_DECLARATION : PROVEN;
}

/** Proves one block of `content`. */
export function proveBlock(block: unknown, version: ProtocolVersion, where: string): Proof {
  if (block instanceof UnknownValue) {
    if (block.declared?.proves === 'block') return BY_DECLARATION;
    return notProven(`${where} is ${describe(block)}`);
  }
  if (!isObject(block) || isOpaque(block)) return notProven(`${where} is not an object`);
  const type = block.type;
  if (type instanceof UnknownValue) return notProven(`the type of ${where} is ${describe(type)}`);
  if (typeof type !== 'string' || !(features(version).blockTypes as readonly string[]).includes(type)) {
    return notProven(`${where} has no type this protocol version allows`);
  }
  let proof = PROVEN;
  for (const [member, kind] of REQUIRED[type] ?? []) {
    if (!Object.hasOwn(block, member)) {
      return notProven(
        isOpen(block)
          ? `${where} may get "${member}" from a value known only at run time`
          : `${where} has no "${member}"`,
      );
    }
    const shown = hasKind(block[member], kind);
    if (shown instanceof UnknownValue) return notProven(`"${member}" of ${where} is ${describe(shown)}`);
    if (!shown) return notProven(`"${member}" of ${where} is not a ${kind}`);
    if (type === 'resource' && member === 'resource')
      proof = both(proof, proveResource(block.resource, where));
  }
  return proof;
}

function proveResource(resource: unknown, where: string): Proof {
  if (!isObject(resource) || isOpaque(resource))
    return notProven(`the resource of ${where} is not an object`);
  const uri = hasKind(resource.uri, 'string');
  if (uri !== true) return notProven(`the resource of ${where} has no string "uri"`);
  const text = Object.hasOwn(resource, 'text') ? hasKind(resource.text, 'string') : false;
  const blob = Object.hasOwn(resource, 'blob') ? hasKind(resource.blob, 'string') : false;
  if (text === true || blob === true) return PROVEN;
  return notProven(`the resource of ${where} has no string "text" or "blob"`);
}

/**
 * Proves a CallToolResult as the client receives it (after the framework's wrapping). `declared`:
 * the type the handler's source declares for what it returns.
 */
export function proveResult(result: unknown, version: ProtocolVersion): Proof {
  if (result instanceof UnknownValue) {
    if (result.declared?.proves === 'result') return BY_DECLARATION;
    return notProven(`the result is ${describe(result)}`);
  }
  if (!isObject(result) || isOpaque(result)) return notProven('the result is not an object');
  const content = result.content;
  if (content === undefined) {
    // A CreateTaskResult answers a task-augmented call; the content comes later through tasks/result.
    if (Object.hasOwn(result, 'task')) return PROVEN;
    return notProven(
      isOpen(result)
        ? 'the result may get "content" from a value known only at run time'
        : 'the result has no content',
    );
  }
  if (content instanceof UnknownValue) {
    if (content.declared?.proves === 'blocks' || content.declared?.proves === 'block') return BY_DECLARATION;
    return notProven(`content is ${describe(content)}`);
  }
  if (!Array.isArray(content)) return notProven('content is not an array');
  if (isOpen(content)) return notProven('content may hold items the analysis cannot see');
  let proof = PROVEN;
  content.forEach((block, i) => {
    if (proof.proven) proof = both(proof, proveBlock(block, version, `content[${i}]`));
  });
  return proof;
}
