/**
 * The audit's stdio channel against a real process that stops reading: a write into a pipe nobody
 * reads any more fails with EPIPE, and that must never become the audit's error. The process's exit
 * says what went wrong (CI once saw `mcp-shape: write EPIPE` instead of "no handshake completed").
 */

import { describe, expect, it } from 'vitest';
import type { ChannelEvent } from '../../src/audit/channel.js';
import { StdioChannel } from '../../src/audit/stdio-channel.js';

/** A server that closes its input at once and then lives a little while, or exits at once. */
function server(script: string): StdioChannel {
  return new StdioChannel({ command: 'sh', args: ['-c', script] }, 1 << 20);
}

/** More than a pipe holds, so the write cannot complete before the reader is known to be gone. */
const LARGE = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { pad: 'x'.repeat(200_000) } };

describe('StdioChannel.send to a server that does not read', () => {
  it('resolves when the server closed its input and is still running', async () => {
    const channel = server('exec 0<&-; sleep 2');
    await channel.open();
    // Give the shell time to close its end of the pipe.
    await new Promise((resolve) => setTimeout(resolve, 200));
    try {
      await expect(channel.send(LARGE)).resolves.toBeUndefined();
      await expect(channel.send({ jsonrpc: '2.0', id: 2, method: 'ping' })).resolves.toBeUndefined();
    } finally {
      await channel.close();
    }
  });

  it('resolves when the server already exited, and the exit is reported as the channel closing', async () => {
    const channel = server('exec 0<&-; exit 2');
    const events: ChannelEvent[] = [];
    channel.onEvent((event) => events.push(event));
    await channel.open();
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(channel.send(LARGE)).resolves.toBeUndefined();
    await channel.close();
    expect(events).toContainEqual({ kind: 'closed', detail: 'exited with code 2' });
  });
});
