/** Validates SARIF logs against the official 2.1.0 schema in ../shared/spec/sarif. */

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { REPO_ROOT } from './cli.js';

// ajv-formats ships CJS with `exports.default`; under NodeNext the default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => void;

export const SHARED_DIR = join(REPO_ROOT, '../shared');
const schemaFile = join(SHARED_DIR, 'spec/sarif/sarif-schema-2.1.0.json');
export const HAS_SARIF_SCHEMA = existsSync(schemaFile);

/**
 * The official schema declares draft-04 (`$schema`, `id`). Ajv 8 has no draft-04 class, but the
 * schema uses nothing draft-04-specific (no boolean exclusiveMinimum/Maximum), so the draft-07 class
 * validates it once the top-level `id` is read as `$id`.
 */
export function sarifValidator() {
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as Record<string, unknown>;
  expect(schema.$schema).toBe('http://json-schema.org/draft-04/schema#');
  const { $schema: _draft, id, ...rest } = schema;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  return ajv.compile<unknown>({ ...rest, $id: String(id) });
}

export function expectValidSarif(log: unknown): void {
  const validate = sarifValidator();
  expect(validate(log), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
}
