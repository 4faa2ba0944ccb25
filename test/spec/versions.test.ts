/**
 * The protocol model (src/spec/versions.ts) read back from each version's official schema.json: every
 * feature the schema can show is derived here from the schema itself and compared with the table. The
 * tool-name SHOULDs are prose only (tools.mdx), so they are not covered.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isObject, type JsonObject } from '../../src/core/json.js';
import {
  features,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  type VersionFeatures,
} from '../../src/spec/versions.js';

const sharedDir = join(import.meta.dirname, '../../../shared');

type Derived = Omit<VersionFeatures, 'toolNameRules'>;

function derive(version: ProtocolVersion): Derived {
  const schema = JSON.parse(
    readFileSync(join(sharedDir, 'spec', version, 'schema.json'), 'utf8'),
  ) as JsonObject;
  const defs = (schema.$defs ?? schema.definitions) as Record<string, JsonObject>;
  const def = (name: string): JsonObject => {
    const found = defs[name];
    if (!found) throw new Error(`${version}: no ${name}`);
    return found;
  };
  const resolve = (node: unknown): JsonObject => {
    if (!isObject(node)) throw new Error(`${version}: not a schema: ${JSON.stringify(node)}`);
    return typeof node.$ref === 'string' ? def(node.$ref.split('/').pop() ?? '') : node;
  };
  const props = (node: JsonObject): JsonObject => (isObject(node.properties) ? node.properties : {});
  const required = (node: JsonObject): unknown[] => (Array.isArray(node.required) ? node.required : []);

  const result = def('CallToolResult');
  const union = resolve(props(result).content && (props(result).content as JsonObject).items);
  const blockDefs = (union.anyOf as unknown[]).map(resolve);
  const text = def('TextContent');
  const annotations = resolve(props(text).annotations);
  const structured = props(result).structuredContent;
  const tool = def('Tool');
  const outputSchema = props(tool).outputSchema;
  const errorResponse = defs.JSONRPCErrorResponse ?? def('JSONRPCError');

  return {
    blockTypes: blockDefs.map((b) => (props(b).type as JsonObject).const) as VersionFeatures['blockTypes'],
    structuredContent:
      structured === undefined
        ? 'none'
        : isObject(structured) && structured.type === 'object'
          ? 'object'
          : 'any',
    resultTypeRequired: required(result).includes('resultType'),
    blockMeta: blockDefs.every((b) => props(b)._meta !== undefined),
    annotationsLastModified: props(annotations).lastModified !== undefined,
    outputSchema:
      outputSchema === undefined
        ? 'none'
        : required(resolve(outputSchema)).includes('type')
          ? 'object-root'
          : 'any-root',
    toolAnnotations: props(tool).annotations !== undefined,
    toolTitle: props(tool).title !== undefined,
    icons: props(tool).icons !== undefined,
    cacheableLists: required(def('ListToolsResult')).includes('ttlMs'),
    handshake: defs.InitializeRequest ? 'initialize' : 'server/discover',
    // schema.json is written in the dialect the version makes the default (SEP-1613, 2025-11-25).
    defaultSchemaDialect: schema.$defs ? '2020-12' : 'draft-07',
    errorIdOptional: !required(errorResponse).includes('id'),
    batching: defs.JSONRPCBatchResponse !== undefined,
    createTaskResult: defs.CreateTaskResult !== undefined,
  };
}

describe.skipIf(!existsSync(sharedDir))(
  'the protocol model matches the official schemas (skipped: ../shared is absent)',
  () => {
    it.each(PROTOCOL_VERSIONS)('%s', (version) => {
      const { toolNameRules: _prose, ...model } = features(version);
      const derived = derive(version);
      expect({ ...model, blockTypes: [...model.blockTypes].sort() }).toEqual({
        ...derived,
        blockTypes: [...derived.blockTypes].sort(),
      });
    });
  },
);
