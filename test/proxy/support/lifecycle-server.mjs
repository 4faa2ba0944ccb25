#!/usr/bin/env node
/**
 * A stdio server for the proxy's lifecycle tests, as stubborn as asked:
 *   --ignore-signals  SIGINT, SIGTERM and SIGHUP are caught and ignored
 *   --ignore-eof      the end of standard input is ignored (the process keeps running)
 *   --exit-after N    exit with --code (default 3) once N requests have arrived, answering none
 *   --grandchild      start a child process of its own (it must die with the server's group)
 *   --stop-reading    never read standard input (its stream destroyed at once) and keep running
 * Every other argument is a marker for `ps`. It says "lifecycle-server ready" on stderr once set up,
 * and "got SIGNAL" for each signal it ignores.
 */

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name, fallback) => {
  const i = args.indexOf(name);
  return i === -1 ? fallback : Number(args[i + 1]);
};

if (flag('--ignore-signals')) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => process.stderr.write(`lifecycle-server got ${signal}\n`));
  }
}
if (flag('--grandchild')) {
  const marker = args.find((a) => a.startsWith('marker-')) ?? 'marker-none';
  // Keeps itself alive; killing it is the process group's job, not this server's.
  spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', `${marker}-grandchild`], { stdio: 'ignore' });
}

if (flag('--stop-reading')) {
  process.stdin.destroy();
  setInterval(() => {}, 1000);
  process.stderr.write('lifecycle-server ready\n');
}

const exitAfter = value('--exit-after', 0);
const code = value('--code', 3);
let requests = 0;
const lines = flag('--stop-reading') ? undefined : createInterface({ input: process.stdin });
lines?.on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.id === undefined || typeof message.method !== 'string') return;
  requests++;
  if (exitAfter > 0 && requests >= exitAfter) process.exit(code);
});
lines?.on('close', () => {
  if (!flag('--ignore-eof')) process.exit(0);
  process.stderr.write('lifecycle-server: input ended, staying up\n');
});
if (lines) {
  setInterval(() => {}, 1000);
  process.stderr.write('lifecycle-server ready\n');
}
