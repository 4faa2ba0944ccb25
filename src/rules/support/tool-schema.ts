/** Shape checks shared by the inputSchema and outputSchema rules. */

import { isObject, type JsonObject } from '../../core/json.js';
import type { PathSegment } from '../../core/pointer.js';
import type { Report } from '../types.js';
import { describeType } from './call-tool-result.js';

/**
 * Problems with the root of a tool schema as the SDK v1 `ToolSchema` sees it: `type: "object"`,
 * `properties` a record of schema objects, `required` an array of strings. Paths are relative to the tool.
 */
export function objectRootProblems(
  schema: JsonObject,
  field: 'inputSchema' | 'outputSchema',
  options: { readonly strictProperties: boolean },
): Report[] {
  const problems: Report[] = [];
  const at = (...path: PathSegment[]): PathSegment[] => [field, ...path];
  if (!Object.hasOwn(schema, 'type')) {
    problems.push({ messageId: 'typeMissing', path: at('type'), data: { field } });
  } else if (schema.type !== 'object') {
    problems.push({
      messageId: 'type',
      path: at('type'),
      data: { field, actual: JSON.stringify(schema.type) },
    });
  }
  if (Object.hasOwn(schema, 'properties')) {
    const properties = schema.properties;
    if (!isObject(properties)) {
      problems.push({
        messageId: 'properties',
        path: at('properties'),
        data: { field, actual: describeType(properties) },
      });
    } else if (options.strictProperties) {
      for (const [name, sub] of Object.entries(properties)) {
        if (!isObject(sub)) {
          problems.push({
            messageId: 'property',
            path: at('properties', name),
            data: { field, name, actual: describeType(sub) },
          });
        }
      }
    }
  }
  if (Object.hasOwn(schema, 'required')) {
    const required = schema.required;
    if (!Array.isArray(required) || !required.every((r) => typeof r === 'string')) {
      problems.push({ messageId: 'required', path: at('required'), data: { field } });
    }
  }
  return problems;
}

/** Message templates for `objectRootProblems`. */
export const OBJECT_ROOT_MESSAGES = {
  typeMissing: '{{field}} has no "type"; its root must be `"type": "object"`',
  type: '{{field}} has "type" {{actual}}; its root must be `"type": "object"`',
  properties: '{{field}}.properties is {{actual}}; it must be an object of schemas',
  property: '{{field}}.properties.{{name}} is {{actual}}; clients built on SDK v1 require a schema object',
  required: '{{field}}.required must be an array of property names',
} as const;

/**
 * The SDK v2 convention for a non-object output under a 2025-era peer: `{ result: <value> }`. Keywords
 * that belong to the document root (`$schema`, `$id`, `$defs`, `definitions`) stay at the root so that
 * `#/$defs/…` references still resolve.
 */
export function wrapOutputSchema(schema: JsonObject): JsonObject {
  const { $schema, $id, $defs, definitions, ...inner } = schema;
  const root: JsonObject = {};
  if ($schema !== undefined) root.$schema = $schema;
  if ($id !== undefined) root.$id = $id;
  Object.assign(root, { type: 'object', properties: { result: inner }, required: ['result'] });
  if ($defs !== undefined) root.$defs = $defs;
  if (definitions !== undefined) root.definitions = definitions;
  return root;
}
