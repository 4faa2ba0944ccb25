/** A scratch directory for a test file's inputs, with a writer that takes text or a JSON value. */

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Scratch {
  readonly dir: string;
  /** Writes `content` (a string as is, anything else as JSON) to `name` and returns its path. */
  file(name: string, content: unknown): string;
}

export function scratchDir(prefix: string): Scratch {
  const dir = mkdtempSync(join(tmpdir(), `mcp-shape-${prefix}-`));
  return {
    dir,
    file(name, content) {
      const path = join(dir, name);
      writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    },
  };
}
