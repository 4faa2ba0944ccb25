/** Project.exists answers import resolution from cached directory listings: right for every case. */

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Project } from '../../src/scan/project.js';

describe('Project.exists', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-shape-project-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'pkg/sub'), { recursive: true });
  writeFileSync(join(dir, 'pkg/__init__.py'), '');
  writeFileSync(join(dir, 'pkg/sub/tools.py'), '');
  symlinkSync(join(dir, 'pkg/sub/tools.py'), join(dir, 'pkg/linked.py'));

  it('finds files on disk, through links, and sources given in memory; nothing else', () => {
    const project = new Project({ cwd: dir, maxFileSize: 1024 });
    project.add('virtual/app.py', '/nowhere/virtual/app.py', '');
    expect(project.exists(join(dir, 'pkg/__init__.py'))).toBe(true);
    expect(project.exists(join(dir, 'pkg/sub/tools.py'))).toBe(true);
    expect(project.exists(join(dir, 'pkg/linked.py'))).toBe(true);
    expect(project.exists('/nowhere/virtual/app.py')).toBe(true);
    // A directory is not a file; absent names, and names under absent or file "directories", are not.
    expect(project.exists(join(dir, 'pkg/sub'))).toBe(false);
    expect(project.exists(join(dir, 'pkg/missing.py'))).toBe(false);
    expect(project.exists(join(dir, 'absent/deeper/x.py'))).toBe(false);
    expect(project.exists(join(dir, 'pkg/__init__.py/x.py'))).toBe(false);
    expect(project.exists('/nowhere/virtual/other.py')).toBe(false);
    // Asked again (answers are cached): the same.
    expect(project.exists(join(dir, 'pkg/sub/tools.py'))).toBe(true);
    expect(project.exists(join(dir, 'absent/deeper/x.py'))).toBe(false);
  });
});
