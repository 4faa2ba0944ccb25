/** Reading HTTP bodies with a byte cap, shared by both HTTP channels. */

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { systemErrorWords } from '../core/system-error.js';
import { OversizeError, StartError } from './channel.js';

export type HeaderMap = Readonly<Record<string, string>>;

/** Hands each chunk of a body to `onChunk`; a throw from it cancels the body and propagates. */
async function pump(response: Response, onChunk: (chunk: Uint8Array) => void): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    try {
      onChunk(value);
    } catch (error) {
      await reader.cancel().catch(() => {});
      throw error;
    }
  }
}

/**
 * Reads a whole body as UTF-8, aborting once it passes `limit` bytes. `activity` hears of every
 * chunk, so a slow body still counts as a server that is answering.
 */
export async function readCapped(
  response: Response,
  limit: number,
  abort: () => void,
  activity: () => void = () => {},
): Promise<string> {
  const decoder = new TextDecoder();
  let bytes = 0;
  let text = '';
  await pump(response, (chunk) => {
    activity();
    bytes += chunk.byteLength;
    if (bytes > limit) {
      abort();
      throw new OversizeError(bytes, limit);
    }
    text += decoder.decode(chunk, { stream: true });
  });
  return text + decoder.decode();
}

/**
 * Feeds an SSE body through eventsource-parser, calling `onEvent` for each event. `limit` caps the
 * bytes of any single event (a stream may legitimately run long; one event may not be huge).
 */
export async function readEventStream(
  response: Response,
  limit: number,
  onEvent: (event: EventSourceMessage) => void,
  abort: () => void,
  activity: () => void = () => {},
  /** Hears each `retry:` field, the milliseconds the server asks a client to wait before resuming. */
  onRetry?: (ms: number) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let sinceLastEvent = 0;
  const parser = createParser({
    onEvent(event) {
      sinceLastEvent = 0;
      onEvent(event);
    },
    onRetry,
  });
  await pump(response, (chunk) => {
    activity();
    sinceLastEvent += chunk.byteLength;
    if (sinceLastEvent > limit) {
      abort();
      throw new OversizeError(sinceLastEvent, limit);
    }
    parser.feed(decoder.decode(chunk, { stream: true }));
  });
}

/** fetch() failures (refused, DNS, TLS) as a one-line StartError. */
export function unreachable(url: string, error: unknown): StartError {
  return new StartError(`${systemErrorWords(error)}: ${url}`, 'reach');
}

/** Splits `Name: value` strings from --header into a header map. */
export function parseHeaders(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`--header "${line}" is not "Name: value"`);
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}
