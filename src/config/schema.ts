/**
 * The JSON Schema of `mcp-shape.config.json`, built from the rule catalog and the protocol model so
 * it names every rule id and version. `npm run generate` writes it to
 * schemas/mcp-shape.config.schema.json (shipped in the package, for `$schema` and editors); a test
 * fails when the file drifts. The loader validates against this same object.
 */

import { SEVERITIES } from '../core/finding.js';
import { FAIL_ON_VALUES, RULE_SETTINGS } from '../policy/severity.js';
import type { Rule } from '../rules/types.js';
import { PROTOCOL_VERSIONS } from '../spec/versions.js';

export const CONFIG_FILE_NAME = 'mcp-shape.config.json';
export const CONFIG_SCHEMA_PATH = 'schemas/mcp-shape.config.schema.json';
/** The key that holds the configuration inside package.json. */
export const PACKAGE_JSON_KEY = 'mcp-shape';

type JsonSchema = Record<string, unknown>;

const protocol: JsonSchema = {
  description: 'Protocol version to check against ("latest" and "draft" name the newest).',
  enum: [...PROTOCOL_VERSIONS, 'latest', 'draft'],
};

const stringList = (description: string): JsonSchema => ({
  description,
  type: 'array',
  items: { type: 'string', minLength: 1 },
});

/** Keys every command section accepts, and the top level too (a section's value wins). */
const common: Record<string, JsonSchema> = {
  failOn: {
    description: 'The least severity that fails the run (exit 1); "never" always exits 0. Default: error.',
    enum: [...FAIL_ON_VALUES],
  },
  minSeverity: {
    description: 'The least severity shown in reports. Default: info (everything).',
    enum: [...SEVERITIES],
  },
  baseline: {
    description:
      'Baseline file (relative to this file): findings recorded in it are hidden, and only new ones fail.',
    type: 'string',
    minLength: 1,
  },
};

function section(description: string, properties: Record<string, JsonSchema>): JsonSchema {
  return {
    description,
    type: 'object',
    additionalProperties: false,
    properties: { ...common, ...properties },
  };
}

export function configSchema(rules: readonly Rule[]): JsonSchema {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://mcp-shape.dev/schemas/mcp-shape.config.schema.json',
    title: 'mcp-shape configuration',
    description:
      'mcp-shape.config.json, or the "mcp-shape" key of package.json. Command-line flags override it; paths are relative to the file that holds them.',
    type: 'object',
    additionalProperties: false,
    properties: {
      $schema: { description: 'This schema, for editors.', type: 'string' },
      protocol: { ...protocol, description: `${protocol.description} Applies to every command.` },
      rules: {
        description: 'Severity per rule id: "error", "warning", "info", or "off" to drop the rule.',
        type: 'object',
        propertyNames: { enum: rules.map((r) => r.id).sort() },
        additionalProperties: { enum: [...RULE_SETTINGS] },
      },
      root: {
        description:
          'Repository root that SARIF URIs and fingerprints are relative to (default: the git top level).',
        type: 'string',
        minLength: 1,
      },
      ...common,
      check: section('Settings for `mcp-shape check`.', { protocol }),
      scan: section('Settings for `mcp-shape scan`.', {
        protocol,
        include: stringList('Globs of files to scan when walking directories (default: every source file).'),
        exclude: stringList('Globs of files and directories to leave out when walking directories.'),
        gitignore: { description: 'Leave out what .gitignore files ignore. Default: true.', type: 'boolean' },
        includeTests: {
          description:
            'Also scan test code, which a directory walk leaves out by default (`--include-tests`).',
          type: 'boolean',
        },
      }),
      audit: section('Settings for `mcp-shape audit`.', {
        protocol: {
          description: 'Audit only these protocol versions (default: every version the server accepts).',
          type: 'array',
          minItems: 1,
          items: protocol,
        },
        call: stringList('Tools to call even if not annotated read-only (`--call`).'),
        callAll: {
          description: 'Call every tool, including ones that may change data (`--call-all`).',
          type: 'boolean',
        },
        args: {
          description: 'JSON file of tool name → list of argument objects (`--args`).',
          type: 'string',
          minLength: 1,
        },
        explore: {
          description:
            'Explore enum and boolean parameters, up to --max-calls-per-tool calls per tool, never with consent or mutation values (`--explore`).',
          type: 'boolean',
        },
        source: {
          description:
            "The server's source directory: findings are placed at each tool's registration line (`--source`).",
          type: 'string',
          minLength: 1,
        },
      }),
    },
  };
}

export function renderConfigSchema(rules: readonly Rule[]): string {
  return `${JSON.stringify(configSchema(rules), null, 2)}\n`;
}
