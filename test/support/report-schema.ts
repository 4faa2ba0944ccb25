/** Validates a report against docs/report-schema.json, so every command's JSON output is held to it. */

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { REPO_ROOT } from './cli.js';

const schema = JSON.parse(readFileSync(join(REPO_ROOT, 'docs/report-schema.json'), 'utf8'));
export const validateReport = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true }).compile(
  schema,
);

export function expectValidReport(report: unknown): void {
  validateReport(report);
  expect(validateReport.errors ?? [], JSON.stringify(validateReport.errors)).toEqual([]);
}
