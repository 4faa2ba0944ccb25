/**
 * The session recording format that `audit --record` and `proxy --record` write and `check` reads:
 * JSONL, one frame per line, in the order the frames were seen. Plain NDJSON of JSON-RPC messages
 * (a `tee` of a stdio server) is read as well; each line of it is a server or client message whose
 * direction follows from its shape.
 *
 * A recorded line is an object with `time` and `from`, and either the parsed `message` or, for a frame
 * that was not JSON (a start-up banner on stdout, a cut-off line), the raw `frame` text, so `check` can
 * report it where it happened. A proxy adds what it did: the `forwarded` message when it repaired one
 * (`message` stays what the server sent, so `check` judges the server) with its `fixes`, or why it
 * `dropped` a frame. Pure: writers and readers do the I/O.
 */

import { isObject, tryParseJson } from './json.js';

export type FrameSource = 'client' | 'server';

export interface RecordedFix {
  readonly rule: string;
  readonly description: string;
}

export interface RecordedFrame {
  /** ISO 8601 time the frame was read. */
  readonly time: string;
  /** Who sent the frame. */
  readonly from: FrameSource;
  /**
   * Which connection the frame belongs to, where a recording holds several: an audit opens one per
   * protocol version, an HTTP proxy serves one per `Mcp-Session-Id`. Requests and responses are paired,
   * and versions negotiated, per connection.
   */
  readonly connection?: string;
  readonly transport?: 'stdio' | 'http' | 'sse';
  /** The frame parsed as JSON. */
  readonly message?: unknown;
  /** The raw frame, when it was not JSON. */
  readonly frame?: string;
  /** Proxy: the message it forwarded instead of `message`. */
  readonly forwarded?: unknown;
  /** Proxy: `forwarded` is the messages of a batch, which it sent one by one. */
  readonly split?: true;
  /** Proxy: the repairs that turned `message` into `forwarded`. */
  readonly fixes?: readonly RecordedFix[];
  /** Proxy: why the frame was not forwarded. */
  readonly dropped?: string;
  /**
   * Proxy: the length in bytes of a frame longer than it holds, which it passed on as it came,
   * unjudged; its text is not recorded. The limit is `limit`, or where that is absent the longest text
   * a string can hold (no reader could hold the frame either).
   */
  readonly passed?: number;
  /** Proxy, with `passed`: the longest frame it held, in bytes (its `--max-message-mb`). */
  readonly limit?: number;
  /**
   * Proxy: a client request longer than any string can hold, refused (413) and not forwarded, with
   * `dropped` saying so: the bytes its Content-Length declared, or, when it declared none, those that
   * had come when it was refused (a lower bound). Its text is not recorded.
   */
  readonly refused?: number;
}

/**
 * The recorded line for a raw frame: `message` when the text parses as JSON, else `frame`.
 * `extra` carries the writer's own members (connection, transport, forwarded, fixes, dropped).
 */
export function recordFrame(
  from: FrameSource,
  text: string,
  extra: Omit<RecordedFrame, 'time' | 'from' | 'message' | 'frame'> = {},
  time: Date = new Date(),
): RecordedFrame {
  // Not JSON: recorded as its text.
  const parsed = tryParseJson(text);
  return {
    time: time.toISOString(),
    from,
    ...extra,
    ...(parsed ? { message: parsed.value } : { frame: text }),
  };
}

/** One JSONL line (with its newline) for a recorded frame. */
export function recordingLine(entry: RecordedFrame): string {
  return `${JSON.stringify(entry)}\n`;
}

/** Whether a parsed JSONL value is a recorded frame rather than a bare JSON-RPC message. */
export function isRecordedFrame(value: unknown): value is RecordedFrame {
  return (
    isObject(value) &&
    !Object.hasOwn(value, 'jsonrpc') &&
    (value.from === 'client' || value.from === 'server') &&
    (Object.hasOwn(value, 'message') ||
      typeof value.frame === 'string' ||
      typeof value.passed === 'number' ||
      typeof value.refused === 'number')
  );
}
