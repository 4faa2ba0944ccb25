/**
 * The judges of the repair guarantee that are not our own validator: the official schema.json of each
 * version (read at run time from ../shared, never copied) and the official SDK client parsers.
 */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CallToolResultSchema as V2CallToolResultSchema } from '@modelcontextprotocol/core';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { ProtocolVersion } from '../../../src/spec/versions.js';

export const sharedDir = join(import.meta.dirname, '../../../../shared');
export const hasShared = existsSync(join(sharedDir, 'spec'));

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv | Ajv2020) => void;

export type Verdict = { ok: true } | { ok: false; errors: string };

const validators = new Map<ProtocolVersion, (value: unknown) => Verdict>();

/** The official schema's verdict on a CallToolResult, with formats (uri, byte) checked. */
export function officialSchema(version: ProtocolVersion): (value: unknown) => Verdict {
  let validator = validators.get(version);
  if (!validator) {
    const schema = JSON.parse(readFileSync(join(sharedDir, 'spec', version, 'schema.json'), 'utf8'));
    const modern = '$defs' in schema;
    const ajv = modern
      ? new Ajv2020({ strict: false, allErrors: true })
      : new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    const { $id: _id, ...anonymous } = schema;
    ajv.addSchema(anonymous, 'mcp');
    const defs = `mcp#/${modern ? '$defs' : 'definitions'}`;
    // In 2026-07-28 a tools/call may also answer an InputRequiredResult (`CallToolResultResponse.result`
    // is their union); repair rightly leaves such a result alone.
    const definitions = (modern ? schema.$defs : schema.definitions) as Record<string, unknown>;
    const validate = ajv.compile(
      'InputRequiredResult' in definitions
        ? { anyOf: [{ $ref: `${defs}/InputRequiredResult` }, { $ref: `${defs}/CallToolResult` }] }
        : { $ref: `${defs}/CallToolResult` },
    );
    validator = (value) =>
      validate(value) ? { ok: true } : { ok: false, errors: ajv.errorsText(validate.errors) };
    validators.set(version, validator);
  }
  return validator;
}

/** The SDK v1 client's parse of a tools/call result (what `client.callTool()` applies). */
export function sdkV1Parse(value: unknown): Verdict {
  const parsed = CallToolResultSchema.safeParse(value);
  return parsed.success ? { ok: true } : { ok: false, errors: parsed.error.message };
}

/** The SDK v2 schema for tools/call results. */
export function sdkV2Parse(value: unknown): Verdict {
  const parsed = V2CallToolResultSchema.safeParse(value);
  return parsed.success ? { ok: true } : { ok: false, errors: parsed.error.message };
}

/** The SDK v1 speaks every version up to 2025-11-25. */
export function sdkV1Speaks(version: ProtocolVersion): boolean {
  return version <= '2025-11-25';
}
