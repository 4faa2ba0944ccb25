#!/usr/bin/env node
/**
 * A stdio server that starts processes outside its own process group, for the proxy's tests that
 * nothing is left behind. The last argument is a marker for `ps`; each flag starts one process, whose
 * arguments end with `<marker>-<flag>`:
 *   --setsid       `setsid node …`: a new session and process group
 *   --detached     a Node child spawned `detached: true`
 *   --double-fork  `sh -c 'setsid node … &'`: the shell exits at once, so the process is init's child
 *   --clean-env    `env -i node …`, spawned `detached`: no environment inherited
 *   --deaf         (with any of the above) the processes ignore SIGTERM
 * It says "escaping-server ready <flag>=<pid> …" on stderr once every process has started (pids read
 * from the processes themselves), and exits when its input ends.
 */

import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

const args = process.argv.slice(2);
const marker = args.at(-1);
const deaf = args.includes('--deaf');
// Says its pid on its stdout, then lives a minute at most: a failed test leaves nothing for long.
const body = `${deaf ? "process.on('SIGTERM', () => {});" : ''}
process.stdout.write(process.pid + '\\n'); setTimeout(() => {}, 60000);`;
const node = [process.execPath, '-e', body];
const commands = {
  '--setsid': (tag) => ['setsid', [...node, tag], {}],
  '--detached': (tag) => [process.execPath, ['-e', body, tag], { detached: true }],
  '--double-fork': (tag) => ['sh', ['-c', `setsid "$@" &`, 'sh', ...node, tag], {}],
  '--clean-env': (tag) => ['env', ['-i', ...node, tag], { detached: true }],
};

const started = [];
for (const flag of args.filter((arg) => arg in commands)) {
  const [command, commandArgs, options] = commands[flag](`${marker}${flag.slice(1)}`);
  const child = spawn(command, commandArgs, { ...options, stdio: ['ignore', 'pipe', 'ignore'] });
  started.push(
    new Promise((resolve) => {
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (text) => {
        out += text;
        if (out.includes('\n')) {
          resolve(`${flag.slice(2)}=${out.trim()}`);
          child.stdout.destroy();
        }
      });
    }),
  );
}
const pids = await Promise.all(started);
process.stderr.write(`escaping-server ready ${pids.join(' ')}\n`);
createInterface({ input: process.stdin }).on('close', () => process.exit(0));
