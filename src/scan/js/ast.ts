/**
 * ESTree helpers shared by the scanner (oxc-parser) and the ESLint plugin (espree, typescript-eslint).
 * Both produce ESTree with TS-ESTree extensions; the differences that matter here are positions
 * (oxc: `start`, ESLint parsers: `range`) and parent links (ESLint only), so neither is relied on
 * beyond `offsetOf`.
 */

import type {
  ArrowFunctionExpression,
  Expression,
  Function as FunctionNode,
  Node,
  PropertyKey,
} from 'oxc-parser';

export type { Expression, Node };
export type FunctionLike = FunctionNode | ArrowFunctionExpression;

/** Keys that hold no runtime code (types, decorators) or point back up the tree. */
const SKIPPED_KEYS = new Set([
  'parent',
  'loc',
  'range',
  'typeAnnotation',
  'returnType',
  'typeParameters',
  'typeArguments',
  'superTypeArguments',
  'implements',
  'decorators',
]);

/** Type-only declarations: nothing inside them runs. */
const TYPE_ONLY = new Set([
  'TSInterfaceDeclaration',
  'TSTypeAliasDeclaration',
  'TSDeclareFunction',
  'TSModuleDeclaration',
  'TSImportEqualsDeclaration',
]);

export function isNode(value: unknown): value is Node {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

/** Child nodes in source order, without type annotations. */
export function forEachChild(node: Node, visit: (child: Node) => void): void {
  const record = node as unknown as Record<string, unknown>;
  for (const key in record) {
    if (SKIPPED_KEYS.has(key)) continue;
    const value = record[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item) && !TYPE_ONLY.has(item.type)) visit(item);
    } else if (isNode(value) && !TYPE_ONLY.has(value.type)) {
      visit(value);
    }
  }
}

/** 0-based UTF-16 offset of a node's start in the source text. */
export function offsetOf(node: Node): number {
  const withRange = node as { range?: [number, number]; start?: number };
  return withRange.range?.[0] ?? withRange.start ?? 0;
}

export function endOf(node: Node): number {
  const withRange = node as { range?: [number, number]; end?: number };
  return withRange.range?.[1] ?? withRange.end ?? 0;
}

export function isFunction(node: Node | null | undefined): node is FunctionLike {
  return (
    node?.type === 'ArrowFunctionExpression' ||
    node?.type === 'FunctionExpression' ||
    node?.type === 'FunctionDeclaration'
  );
}

/** Strips what does not change a value at run time: TS assertions, parentheses, `?.` chains. */
export function unwrap(node: Expression): Expression {
  let current: Expression = node;
  for (;;) {
    switch (current.type) {
      case 'TSAsExpression':
      case 'TSSatisfiesExpression':
      case 'TSNonNullExpression':
      case 'TSTypeAssertion':
      case 'TSInstantiationExpression':
      case 'ParenthesizedExpression':
      case 'ChainExpression':
        current = current.expression as Expression;
        break;
      default:
        return current;
    }
  }
}

/** The static name of a non-computed or literal property key, else undefined. */
export function staticKey(key: PropertyKey, computed: boolean): string | undefined {
  if (!computed && key.type === 'Identifier') return key.name;
  if (key.type === 'Literal' && (typeof key.value === 'string' || typeof key.value === 'number')) {
    return String(key.value);
  }
  if (key.type === 'TemplateLiteral' && key.expressions.length === 0)
    return key.quasis[0]?.value.cooked ?? undefined;
  return undefined;
}

/** The property name of `a.b` / `a['b']`, else undefined. */
export function memberName(node: Expression): string | undefined {
  const target = unwrap(node);
  if (target.type !== 'MemberExpression') return undefined;
  if (target.property.type === 'PrivateIdentifier') return undefined;
  return staticKey(target.property, target.computed);
}
