/**
 * The classes of a module that pydantic validates field by field when FastMCP checks a return value
 * against them (src/scan/pydantic-lax.ts): `BaseModel` subclasses, `TypedDict`s and dataclasses
 * whose fields are plain annotated names.
 *
 * A class is read only when nothing in it can change what pydantic accepts beyond its fields' types:
 * a validator, a `model_config` or `class Config` (strict mode, forbidden extras), an alias, a base
 * class other than the three, or a body line that is not a field, a docstring, a method or `pass`
 * makes it unreadable: an instance of it still passes, anything else is left to run time.
 */

import type { ClassResolver, ModelField, ModelType } from '../pydantic-lax.js';
import { parseAnnotation } from '../pydantic-lax.js';
import type { PyModule } from './interpret.js';
import { field, type PyNode } from './parser.js';

type Family = 'BaseModel' | 'TypedDict' | 'dataclass';

const BASES: Record<string, Family> = {
  BaseModel: 'BaseModel',
  'pydantic.BaseModel': 'BaseModel',
  TypedDict: 'TypedDict',
  'typing.TypedDict': 'TypedDict',
  'typing_extensions.TypedDict': 'TypedDict',
};
const DATACLASS = /^@(?:dataclasses\.)?dataclass(?:\(\))?$/;
/** Method decorators and members that change validation. */
const CHANGES_VALIDATION =
  /\b(?:field_validator|model_validator|validator|root_validator|field_serializer|model_serializer|computed_field|model_config|__get_pydantic_core_schema__|alias)\b/;

const resolvers = new WeakMap<PyModule, ClassResolver>();

/** The module's classes as pydantic validates them, each read once (for every handler of the module). */
export function moduleClasses(mod: PyModule): ClassResolver {
  let resolver = resolvers.get(mod);
  if (!resolver) {
    resolver = classesOf(mod);
    resolvers.set(mod, resolver);
  }
  return resolver;
}

/** Reads classes on demand, with a guard against classes naming themselves. */
function classesOf(mod: PyModule): ClassResolver {
  const source = mod.tree.source;
  const text = (node: PyNode) => source.slice(node.start, node.end);
  const definitions = new Map<string, { node: PyNode; decorators: readonly string[] }>();
  for (const child of mod.tree.root.children) {
    const definition = child.type === 'decorated_definition' ? field(child, 'definition') : child;
    if (definition?.type !== 'class_definition') continue;
    const name = field(definition, 'name');
    if (!name) continue;
    const decorators =
      child.type === 'decorated_definition'
        ? child.children.filter((c) => c.type === 'decorator').map((d) => text(d).replace(/\s+/g, ''))
        : [];
    // A second class of the same name: which one an annotation means depends on the order of execution.
    definitions.set(
      text(name),
      definitions.has(text(name))
        ? { node: definition, decorators: ['?'] }
        : { node: definition, decorators },
    );
  }
  const read = new Map<string, ModelType | undefined>();
  const reading = new Set<string>();
  const resolve: ClassResolver = (name) => {
    if (read.has(name)) return read.get(name);
    const definition = definitions.get(name);
    if (!definition || reading.has(name)) return undefined;
    reading.add(name);
    const model = readClass(name, definition.node, definition.decorators);
    reading.delete(name);
    read.set(name, model);
    return model;
  };

  /**
   * The class as pydantic validates it: undefined when pydantic does not validate it field by field
   * (not a model, or two classes of the name), without fields when it is one this module cannot read.
   */
  function readClass(name: string, node: PyNode, decorators: readonly string[]): ModelType | undefined {
    if (decorators.includes('?')) return undefined;
    const superclasses = field(node, 'superclasses');
    const bases = superclasses ? superclasses.children.map((b) => text(b).replace(/\s+/g, '')) : [];
    const dataclass = decorators.some((d) => DATACLASS.test(d));
    const families = bases.map((base) => BASES[base]);
    // A subclass of a model of this module is validated too, with the fields of both.
    const validated =
      dataclass || families.some(Boolean) || bases.some((base) => resolve(base) !== undefined);
    if (!validated) return undefined;
    const unreadable: ModelType = { kind: 'model', name, fields: undefined };
    let family: Family | undefined = dataclass ? 'dataclass' : undefined;
    let total = true;
    if (decorators.length > (dataclass ? 1 : 0)) return unreadable;
    for (const [index, base] of bases.entries()) {
      if (base === 'total=False' && family === 'TypedDict') total = false;
      else if (families[index] && !family) family = families[index];
      else return unreadable;
    }
    const body = field(node, 'body');
    if (!family || !body || CHANGES_VALIDATION.test(text(body))) return unreadable;
    const fields: ModelField[] = [];
    for (const statement of body.children) {
      if (statement.type === 'pass_statement' || statement.type === 'function_definition') continue;
      if (statement.type === 'decorated_definition') {
        if (field(statement, 'definition')?.type === 'function_definition') continue;
        return unreadable;
      }
      const [only] = statement.children;
      if (statement.type !== 'expression_statement' || statement.children.length !== 1 || !only)
        return unreadable;
      if (only.type === 'string') continue; // a docstring
      const target = field(only, 'left');
      const annotation = field(only, 'type');
      if (only.type !== 'assignment' || target?.type !== 'identifier' || !annotation) return unreadable;
      let written = text(annotation).replace(/\s+/g, '');
      if (/^(?:typing\.)?ClassVar\b/.test(written)) continue;
      let required = !field(only, 'right');
      const wrapper = /^(?:typing\.)?(NotRequired|Required)\[(.*)\]$/.exec(written);
      if (wrapper && family === 'TypedDict') {
        required = wrapper[1] === 'Required';
        written = wrapper[2] as string;
      } else if (family === 'TypedDict') {
        required = total;
      }
      // A default made by a call (`Field(gt=0)`) may constrain the field beyond its type: not read.
      const constrained = field(only, 'right')?.type === 'call';
      fields.push({
        name: text(target),
        type: constrained ? undefined : parseAnnotation(written, resolve),
        required,
      });
    }
    return { kind: 'model', name, fields };
  }

  return resolve;
}
