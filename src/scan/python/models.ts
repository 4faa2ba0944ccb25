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

/** Where the class a name of a module is bound to is defined (after the module ran), if it is one. */
export type ClassLocator = (name: string, mod: PyModule) => { node: PyNode; module: PyModule } | undefined;

/** Classes read within one another's fields at most this deep. */
const MAX_CLASS_CHAIN = 32;

/** Classes read so far, by their definition: a class imported by several modules is read once. */
const readClasses = new WeakMap<PyNode, ModelType | undefined>();

/**
 * The classes `mod`'s names are bound to, as pydantic validates them: defined in the module or
 * imported from another file of the project (`from .models import Weather`), each read once.
 */
export function moduleClasses(mod: PyModule, locate: ClassLocator): ClassResolver {
  const reading = new Set<PyNode>();
  const resolveIn =
    (scope: PyModule): ClassResolver =>
    (name) => {
      const found = locate(name, scope);
      if (!found) return undefined;
      if (readClasses.has(found.node)) return readClasses.get(found.node);
      // A class naming itself (a tree of nodes): the inner use is not checked; nor is a chain of
      // classes deeper than any hand-written one.
      if (reading.has(found.node) || reading.size > MAX_CLASS_CHAIN) return undefined;
      reading.add(found.node);
      const model = readClass(found.node, found.module, resolveIn(found.module));
      reading.delete(found.node);
      readClasses.set(found.node, model);
      return model;
    };
  return resolveIn(mod);
}

/**
 * The class as pydantic validates it: undefined when pydantic does not validate it field by field
 * (not a model), without fields when it is one this module cannot read.
 */
function readClass(node: PyNode, mod: PyModule, resolve: ClassResolver): ModelType | undefined {
  const text = (n: PyNode) => mod.tree.source.slice(n.start, n.end);
  const named = field(node, 'name');
  // The class's own name: the one its instances carry (an import may bind it to another).
  const name = named ? text(named) : '';
  const decorated = node.parent?.type === 'decorated_definition' ? node.parent : undefined;
  const decorators = (decorated?.children ?? [])
    .filter((c) => c.type === 'decorator')
    .map((d) => text(d).replace(/\s+/g, ''));
  const superclasses = field(node, 'superclasses');
  const bases = superclasses ? superclasses.children.map((b) => text(b).replace(/\s+/g, '')) : [];
  const dataclass = decorators.some((d) => DATACLASS.test(d));
  const families = bases.map((base) => BASES[base]);
  // A subclass of a model of the project is validated too, with the fields of both.
  const validated = dataclass || families.some(Boolean) || bases.some((base) => resolve(base) !== undefined);
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
    // A BaseModel's names with a leading underscore are private attributes, not fields: never required,
    // never validated, never sent. (A TypedDict's or a dataclass's are fields like any other.)
    if (family === 'BaseModel' && text(target).startsWith('_')) continue;
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
  return family === 'BaseModel'
    ? { kind: 'model', name, fields, validatedWhenBuilt: true }
    : { kind: 'model', name, fields };
}

/** The class defined at `node` in `mod`, as pydantic validates it (see moduleClasses). */
export function classModel(node: PyNode, mod: PyModule, locate: ClassLocator): ModelType | undefined {
  const named = field(node, 'name');
  if (!named) return undefined;
  const name = mod.tree.source.slice(named.start, named.end);
  // Its own name is the class at `node`, whatever the module binds that name to when it ends.
  const own: ClassLocator = (wanted, scope) =>
    wanted === name && scope === mod ? { node, module: mod } : locate(wanted, scope);
  return moduleClasses(mod, own)(name);
}

const ROUTE = /\.(?:get|post|put|patch|delete|api_route)\(/;
const RESPONSE_MODEL = /\bresponse_model\s*=\s*([A-Za-z_][\w.]*)/;

/**
 * The response model of the FastAPI route `fn` (a `def` under `@app.post(…)`), by name: its decorator's
 * `response_model=Model`, else its return annotation (`-> Model`), which FastAPI takes for one when
 * the decorator names none. FastAPI validates what the route returns into the model and sends the
 * model's fields (fastapi/routing.py, serialize_response), so a dict returned is not sent as written.
 */
export function routeResponseModel(source: string, fn: PyNode): string | undefined {
  const decorated = fn.parent;
  if (decorated?.type !== 'decorated_definition') return undefined;
  for (const decorator of decorated.children) {
    if (decorator.type !== 'decorator') continue;
    const text = source.slice(decorator.start, decorator.end);
    if (!ROUTE.test(text)) continue;
    const named = RESPONSE_MODEL.exec(text)?.[1];
    if (named) return named === 'None' ? undefined : named;
    const annotation = field(fn, 'return_type');
    return annotation?.type === 'type' &&
      /^[A-Za-z_]\w*$/.test(source.slice(annotation.start, annotation.end))
      ? source.slice(annotation.start, annotation.end)
      : annotation?.type === 'identifier'
        ? source.slice(annotation.start, annotation.end)
        : undefined;
  }
  return undefined;
}
