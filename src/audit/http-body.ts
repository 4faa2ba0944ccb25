/** Reading HTTP bodies with a byte cap, shared by both HTTP channels. */

import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { systemErrorCode, systemErrorWords } from '../core/system-error.js';
import { type DecodedFrame, EscapingUtf8Decoder, unescapeBytes, withProblem } from '../io/utf8.js';
import { oneLine } from '../report/terminal.js';
import type { Frame, InvalidUtf8 } from '../rules/types.js';
import { OversizeError, StartError } from './channel.js';

export type HeaderMap = Readonly<Record<string, string>>;

/** Hands each chunk of a body to `onChunk`; a throw from it cancels the body and propagates. */
async function pump(response: Response, onChunk: (chunk: Uint8Array) => void): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch (error) {
      // fetch says only "terminated"; its cause says why (a malformed chunk, a reset).
      if (error instanceof Error && error.name === 'AbortError') throw error;
      throw new Error(`the server's response broke off: ${httpFailureWords(error)}`, { cause: error });
    }
    const { done, value } = read;
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
 * Reads a whole body, aborting once it passes `limit` bytes. `activity` hears of every chunk, so a
 * slow body still counts as a server that is answering. The text is decoded as `fetch` decodes it (a
 * byte order mark dropped, U+FFFD for each bad sequence), with where the bytes stop being UTF-8.
 */
export async function readCappedFrame(
  response: Response,
  limit: number,
  abort: () => void,
  activity: () => void = () => {},
): Promise<DecodedFrame> {
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  await pump(response, (chunk) => {
    activity();
    bytes += chunk.byteLength;
    if (bytes > limit) {
      abort();
      throw new OversizeError(bytes, limit);
    }
    chunks.push(chunk);
  });
  const body = Buffer.concat(chunks, bytes);
  return withProblem(new TextDecoder().decode(body), body);
}

/** An SSE event as the SDK clients read it, with where its data's bytes stop being UTF-8. */
export interface SseEvent extends EventSourceMessage {
  readonly invalidUtf8?: InvalidUtf8;
}

/**
 * Feeds an SSE body through eventsource-parser, calling `onEvent` for each event. `limit` caps the
 * bytes of any single event (a stream may legitimately run long; one event may not be huge). The SDK
 * clients decode the stream leniently before parsing it (U+FFFD for each bad sequence); the bytes
 * that are not UTF-8 are kept through the parser, so that an event's data says where its first is.
 */
export async function readEventStream(
  response: Response,
  limit: number,
  onEvent: (event: SseEvent) => void,
  abort: () => void,
  activity: () => void = () => {},
  /** Hears each `retry:` field, the milliseconds the server asks a client to wait before resuming. */
  onRetry?: (ms: number) => void,
): Promise<void> {
  const decoder = new EscapingUtf8Decoder();
  let sinceLastEvent = 0;
  let stranded: EventSourceMessage | undefined;
  let ended = false;
  const parser = createParser({
    onEvent(event) {
      if (ended) {
        stranded = event;
        return;
      }
      sinceLastEvent = 0;
      onEvent(decoder.escaped ? asRead(event) : event);
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
    parser.feed(decoder.decode(chunk));
  });
  parser.feed(decoder.end());
  // A stream that ends on a CR leaves the parser waiting for the byte after it (an LF would make
  // the two one CRLF), as it leaves the SDK clients', which read with the same parser and nothing at
  // the end: an event whose blank line is that CR never reaches them. An LF fed here tells whether one
  // was left so: that event is reported, not taken.
  ended = true;
  parser.feed('\n');
  if (stranded !== undefined && stranded.data !== '') throw new StrandedEventError();
}

/** An event's data as the frame the transport rules judge. */
export function sseFrame(event: SseEvent): Frame & { readonly transport: 'sse' } {
  const { data: text, invalidUtf8 } = event;
  return { transport: 'sse', text, ...(invalidUtf8 ? { invalidUtf8 } : {}) };
}

/** An event parsed from escaped text, as the clients read it: each bad sequence a U+FFFD. */
function asRead(event: EventSourceMessage): SseEvent {
  const { text: data, invalidUtf8 } = unescapeBytes(event.data);
  return {
    ...event,
    data,
    ...(event.event !== undefined ? { event: unescapeBytes(event.event).text } : {}),
    ...(event.id !== undefined ? { id: unescapeBytes(event.id).text } : {}),
    ...(invalidUtf8 ? { invalidUtf8 } : {}),
  };
}

/** An SSE stream's last event ended on a CR that closed the stream: no client reads it. */
export class StrandedEventError extends Error {
  constructor() {
    super(
      "the server's SSE stream ended on a CR line ending: the SDK clients' parser waits for the byte after it, so they never read the stream's last event",
    );
  }
}

/**
 * The SSE stream a request opened ended without its response, and the clients cannot resume it (no
 * event id) or resuming failed: the SDK clients then wait out their own timeout (60 s), as a wait of
 * the audit's would, which told the user to rerun with a longer one.
 */
export class UnansweredStreamError extends Error {
  /**
   * `triedResuming`: the stream had an event id and the clients' resumption failed. `misnamed`: the
   * response came as an event of that name, which the clients do not read.
   */
  constructor(triedResuming: boolean, misnamed?: string) {
    const ended = misnamed
      ? `the server sent the response as an SSE event named ${JSON.stringify(oneLine(misnamed, { width: 40 }))}, which the clients do not read (only "message" or unnamed events), and ended the stream`
      : "the server ended the request's SSE stream without its response";
    const resume = triedResuming
      ? "the clients' attempts to resume it failed"
      : 'with no event id the clients cannot resume it';
    super(`${ended}, and ${resume}: they wait for the response until their own timeout`);
  }
}

/** fetch() failures (refused, DNS, TLS) as a one-line StartError. */
export function unreachable(url: string, error: unknown): StartError {
  return new StartError(`${httpFailureWords(error)}: ${url}`, 'reach');
}

/**
 * What the server did wrong when Node's HTTP parser (llhttp, under fetch() and node:http alike) refused
 * its response, by the parser's code: HPE_INVALID_HEADER_TOKEN alone told the user nothing.
 */
const MALFORMED_RESPONSE: Readonly<Record<string, string>> = {
  HPE_INVALID_HEADER_TOKEN: 'a header name or value holds a character HTTP forbids',
  HPE_UNEXPECTED_SPACE: 'a header line holds a space HTTP forbids',
  HPE_INVALID_CONSTANT: 'its status line does not start with HTTP/',
  HPE_INVALID_VERSION: 'its status line names no HTTP version a client reads',
  HPE_INVALID_STATUS: 'its status code is no three-digit number',
  HPE_INVALID_CONTENT_LENGTH: 'its Content-Length is no number, or is given twice',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'it gives both Content-Length and Transfer-Encoding',
  HPE_INVALID_TRANSFER_ENCODING: 'its Transfer-Encoding is not one a client reads',
  HPE_INVALID_CHUNK_SIZE: 'a chunk of its chunked body has no valid size',
  HPE_CR_EXPECTED: 'a line ends without the CR HTTP requires',
  HPE_LF_EXPECTED: 'a line ends without the LF HTTP requires',
  HPE_HEADER_OVERFLOW: 'its headers are larger than a client reads',
  UND_ERR_HEADERS_OVERFLOW: 'its headers are larger than a client reads',
  HPE_INVALID_EOF_STATE: 'the connection closed in the middle of it',
};

/**
 * A failure of an HTTP exchange in one line: a response the parser refused says what the server
 * sent wrong; anything else is a system error in words.
 */
export function httpFailureWords(error: unknown): string {
  const code = systemErrorCode(error) ?? parserErrorCode(error);
  if (code === undefined || !(code.startsWith('HPE_') || code in MALFORMED_RESPONSE))
    return systemErrorWords(error);
  const what = MALFORMED_RESPONSE[code] ?? 'it does not follow HTTP/1.1';
  return `the server sent a malformed HTTP response (${what})`;
}

/**
 * llhttp's reasons, as fetch's HTTPParserError words them, by code: from Node 24 on, fetch leaves the
 * error's code undefined and says only "Response does not match the HTTP/1.1 protocol (reason)".
 */
const PARSER_REASONS: Readonly<Record<string, string>> = {
  'invalid header token': 'HPE_INVALID_HEADER_TOKEN',
  'invalid header value char': 'HPE_INVALID_HEADER_TOKEN',
  'invalid character in chunk size': 'HPE_INVALID_CHUNK_SIZE',
  'invalid character in content-length': 'HPE_INVALID_CONTENT_LENGTH',
  'duplicate content-length': 'HPE_INVALID_CONTENT_LENGTH',
  "content-length can't be present with transfer-encoding": 'HPE_UNEXPECTED_CONTENT_LENGTH',
  'invalid http version': 'HPE_INVALID_VERSION',
  'invalid status code': 'HPE_INVALID_STATUS',
  'expected http/': 'HPE_INVALID_CONSTANT',
  'header overflow': 'HPE_HEADER_OVERFLOW',
};

/** The llhttp code of an HTTPParserError in `error`'s causes that carries none, read from its message. */
function parserErrorCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 4; depth++) {
    if (e.name === 'HTTPParserError') {
      const reason = /\(([^)]*)\)\s*$/.exec(e.message)?.[1]?.toLowerCase();
      return (reason !== undefined ? PARSER_REASONS[reason] : undefined) ?? 'HPE_UNKNOWN';
    }
    e = e.cause;
  }
  return undefined;
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
