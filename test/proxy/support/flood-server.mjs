#!/usr/bin/env node
/**
 * A server for the proxy's flow-control tests.
 *   --flood N        writes N log notifications of ~1 KB as fast as its standard output takes them,
 *                    and reports on stderr how many the pipe has accepted ("flood accepted K"), every
 *                    50 ms and at the end ("flood done").
 *   --read-on-signal leaves its standard input unread until it gets SIGUSR1 (it says "flood-server pid
 *                    P" on stderr first), then reads it all and reports "read B bytes" every 50 ms.
 */

const args = process.argv.slice(2);
const value = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : Number(args[i + 1]);
};

const flood = value('--flood');
if (flood !== undefined) {
  let accepted = 0;
  let queued = 0;
  const padding = 'p'.repeat(1000);
  const report = setInterval(() => process.stderr.write(`flood accepted ${accepted}\n`), 50);
  const pump = () => {
    while (queued < flood) {
      const n = queued++;
      const line = `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `${n} ${padding}` } })}\n`;
      const more = process.stdout.write(line, () => {
        accepted++;
      });
      if (!more) {
        process.stdout.once('drain', pump);
        return;
      }
    }
    process.stdout.write('', () => {
      clearInterval(report);
      process.stderr.write(`flood accepted ${accepted}\nflood done\n`);
    });
  };
  pump();
}

if (args.includes('--read-on-signal')) {
  let bytes = 0;
  process.once('SIGUSR1', () => {
    process.stdin.on('data', (chunk) => {
      bytes += chunk.length;
    });
    setInterval(() => process.stderr.write(`read ${bytes} bytes\n`), 50);
  });
  process.stderr.write(`flood-server pid ${process.pid}\n`);
} else {
  process.stdin.resume();
}
setInterval(() => {}, 1000);
