/**
 * Reading an input with a limit: an endless device or pipe, or a file longer than any string, is
 * refused with one line once the limit is passed, instead of being read until memory runs out.
 */

import { execFileSync, spawn } from 'node:child_process';
import { closeSync, ftruncateSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { InputTooLargeError, MAX_INPUT_BYTES, readTextFile, readTextStream } from '../../src/io/read-text.js';
import { CLI_TEST_TIMEOUT, runCli } from '../support/cli.js';
import { scratchDir } from '../support/scratch.js';

const { dir, file } = scratchDir('read-text');

describe('readTextFile', () => {
  it('reads a file whole, and a file of exactly the limit', () => {
    const path = file('exact.json', '{"a":"é"}');
    expect(readTextFile(path)).toBe('{"a":"é"}');
    expect(readTextFile(path, Buffer.byteLength('{"a":"é"}'))).toBe('{"a":"é"}');
    expect(() => readTextFile(path, 5)).toThrow(InputTooLargeError);
  });

  it('stops reading an endless device past the limit (it was read until memory ran out)', () => {
    expect(() => readTextFile('/dev/zero', 3 << 20)).toThrow(
      'larger than 3 MB, the most mcp-shape reads from one input',
    );
  });

  it('reads a pipe to its end, however its writer cuts it, up to exactly the limit', async () => {
    // A FIFO whose writer, another process, writes 300 bytes in three bursts: short reads mid-stream.
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = (bytes: number) =>
      spawn(process.execPath, [
        '-e',
        `const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(fifo)}, 'w');
         let left = ${bytes}; const step = () => { const n = Math.min(100, left); fs.writeSync(fd, 'é'.repeat(n / 2)); left -= n;
         if (left > 0) setTimeout(step, 30); else fs.closeSync(fd); }; step();`,
      ]);
    const exited = (child: ReturnType<typeof writer>) =>
      new Promise((resolve) => child.once('exit', resolve));
    let child = writer(300);
    expect(readTextFile(fifo, 300)).toBe('é'.repeat(150));
    await exited(child);
    child = writer(300);
    expect(() => readTextFile(fifo, 299)).toThrow(InputTooLargeError);
    child.kill();
    await exited(child);
  });

  it('closes what it opens, whether it reads or refuses', () => {
    const path = file('small.json', '{}');
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for (let i = 0; i < 20; i++) {
      readTextFile(path);
      expect(() => readTextFile(path, 1)).toThrow(InputTooLargeError);
      expect(() => readTextFile('/dev/zero', 1)).toThrow(InputTooLargeError);
    }
    expect(open()).toBe(before);
  });

  it('reads a device that ends, and throws what readFileSync throws for a missing file or a directory', () => {
    expect(readTextFile('/dev/null')).toBe('');
    expect(() => readTextFile(join(dir, 'missing.json'))).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
    expect(() => readTextFile(dir)).toThrow(expect.objectContaining({ code: 'EISDIR' }));
  });

  it('limits to the longest string, so that whatever it returns can be held as one', () => {
    expect(MAX_INPUT_BYTES).toBeGreaterThan(2 ** 28);
    expect(() => 'x'.repeat(MAX_INPUT_BYTES + 1)).toThrow();
  });
});

describe('readTextStream', () => {
  it('joins the chunks, a character split across two of them included', async () => {
    const bytes = Buffer.from('{"a":"é"}');
    const stream = Readable.from([bytes.subarray(0, 7), bytes.subarray(7)]);
    expect(await readTextStream(stream)).toBe('{"a":"é"}');
  });

  it('takes exactly the limit, and not a byte more', async () => {
    const chunks = () => Readable.from([Buffer.from('ab'), Buffer.from('cd')]);
    expect(await readTextStream(chunks(), 4)).toBe('abcd');
    await expect(readTextStream(chunks(), 3)).rejects.toThrow(InputTooLargeError);
  });

  it('stops past the limit and lets go of the stream', async () => {
    let destroyed = false;
    const endless = new Readable({
      read() {
        this.push(Buffer.alloc(1 << 16));
      },
      destroy(_error, callback) {
        destroyed = true;
        callback(null);
      },
    });
    await expect(readTextStream(endless, 1 << 20)).rejects.toThrow(InputTooLargeError);
    expect(destroyed).toBe(true);
  });
});

describe('check of an input too large to read', () => {
  it('exits 2 with one line, before reading a byte of a file larger than the limit', {
    timeout: CLI_TEST_TIMEOUT,
  }, async () => {
    // Sparse: its size is known at once, and nothing is written to disk.
    const path = join(dir, 'huge.json');
    const fd = openSync(path, 'w');
    ftruncateSync(fd, MAX_INPUT_BYTES + 1);
    closeSync(fd);
    const run = await runCli(['check', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `mcp-shape: larger than ${Math.floor(MAX_INPUT_BYTES / 2 ** 20)} MB, the most mcp-shape reads from one input: ${path}\n`,
    );
  });
});
