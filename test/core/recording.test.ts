import { describe, expect, it } from 'vitest';
import { isRecordedFrame, recordFrame, recordingLine } from '../../src/core/recording.js';

describe('session recording format', () => {
  const time = new Date('2026-11-22T10:00:00.000Z');

  it('records a JSON frame as its parsed message', () => {
    const entry = recordFrame('server', '{"jsonrpc":"2.0","id":1,"result":{}}', { connection: 'c1' }, time);
    expect(entry).toEqual({
      time: '2026-11-22T10:00:00.000Z',
      from: 'server',
      connection: 'c1',
      message: { jsonrpc: '2.0', id: 1, result: {} },
    });
    expect(isRecordedFrame(entry)).toBe(true);
  });

  it('records a frame that is not JSON as raw text', () => {
    const entry = recordFrame('server', 'Server listening on stdio', {}, time);
    expect(entry).toEqual({
      time: '2026-11-22T10:00:00.000Z',
      from: 'server',
      frame: 'Server listening on stdio',
    });
    expect(isRecordedFrame(entry)).toBe(true);
  });

  it('writes one line per frame that parses back to the entry', () => {
    const entry = recordFrame('client', '{"jsonrpc":"2.0","method":"x\\ny"}', {}, time);
    const line = recordingLine(entry);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1).includes('\n')).toBe(false);
    expect(JSON.parse(line)).toEqual(entry);
  });

  it('tells recorded frames from bare JSON-RPC messages', () => {
    expect(isRecordedFrame({ jsonrpc: '2.0', id: 1, result: {} })).toBe(false);
    expect(isRecordedFrame({ jsonrpc: '2.0', from: 'server', message: {} })).toBe(false);
    expect(isRecordedFrame({ from: 'elsewhere', message: {} })).toBe(false);
    expect(isRecordedFrame({ from: 'server' })).toBe(false);
    expect(isRecordedFrame({ from: 'server', message: null })).toBe(true);
    expect(isRecordedFrame({ from: 'client', frame: 'not json' })).toBe(true);
    expect(isRecordedFrame({ from: 'client', frame: 7 })).toBe(false);
    // A frame passed on unjudged is recorded by its length alone.
    expect(isRecordedFrame({ from: 'server', transport: 'stdio', passed: 600_000_000 })).toBe(true);
    expect(isRecordedFrame({ from: 'server', passed: '600000000' })).toBe(false);
    // So is a client request the proxy refused unread.
    expect(isRecordedFrame({ from: 'client', transport: 'http', dropped: 'refused', refused: 6e8 })).toBe(
      true,
    );
    expect(isRecordedFrame({ from: 'client', dropped: 'refused', refused: '600000000' })).toBe(false);
  });
});
