/** Project.exists answers import resolution from cached directory listings: right for every case. */

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Project } from '../../src/scan/project.js';
import { resolvePythonImport } from '../../src/scan/python/modules.js';

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

describe('Python import resolution (answers cached per directory and import)', () => {
  it('finds a module added to the project after the same import found nothing', () => {
    const project = new Project({ cwd: '/nowhere', maxFileSize: 1024 });
    project.add('app/server.py', '/nowhere/app/server.py', '');
    expect(resolvePythonImport(project, '/nowhere/app/server.py', 'helpers', 0)).toBeUndefined();
    expect(resolvePythonImport(project, '/nowhere/app/server.py', 'helpers', 1)).toBeUndefined();
    project.add('app/helpers.py', '/nowhere/app/helpers.py', '');
    expect(resolvePythonImport(project, '/nowhere/app/server.py', 'helpers', 0)).toBe(
      '/nowhere/app/helpers.py',
    );
    expect(resolvePythonImport(project, '/nowhere/app/server.py', 'helpers', 1)).toBe(
      '/nowhere/app/helpers.py',
    );
    // From another file of the same directory: the same answer; from elsewhere, its own.
    expect(resolvePythonImport(project, '/nowhere/app/other.py', 'helpers', 1)).toBe(
      '/nowhere/app/helpers.py',
    );
    expect(resolvePythonImport(project, '/nowhere/lib/x.py', 'helpers', 1)).toBeUndefined();
    expect(resolvePythonImport(project, '/nowhere/lib/x.py', 'app.helpers', 0)).toBe(
      '/nowhere/app/helpers.py',
    );
  });
});

describe('Project.hasEntry', () => {
  it('knows the directories and files that in-memory sources occupy, and what is on disk', () => {
    const project = new Project({ cwd: '/nowhere', maxFileSize: 1024 });
    project.add('pkg/sub/tools.py', '/nowhere/pkg/sub/tools.py', '');
    expect(project.hasEntry('/nowhere', 'pkg')).toBe(true);
    expect(project.hasEntry('/nowhere/pkg', 'sub')).toBe(true);
    expect(project.hasEntry('/nowhere/pkg/sub', 'tools.py')).toBe(true);
    expect(project.hasEntry('/nowhere/pkg/sub', 'other.py')).toBe(false);
    expect(project.hasEntry('/nowhere', 'sub')).toBe(false);
    expect(project.hasEntry(import.meta.dirname, 'project.test.ts')).toBe(true);
  });
});
