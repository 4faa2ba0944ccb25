/** What the proxy tells its caller (the CLI's log and --report), the same for both transports. */

import type { Fix } from '../library/repair/index.js';
import type { InvalidUtf8 } from '../rules/types.js';
import type { ProtocolVersion } from '../spec/versions.js';
import type { Answering, ServerOutcome } from './session.js';

/** A repaired server message. */
export interface ProxyEvent {
  readonly fixes: readonly Fix[];
  readonly protocolVersion: ProtocolVersion;
  readonly method?: string;
  readonly tool?: string;
  /** The HTTP session (or sessionless request) the message belongs to. */
  readonly connection?: string;
}

export interface ProxyEvents {
  /** A server message was repaired. */
  readonly onRepaired?: (event: ProxyEvent) => void;
  /**
   * One line for the log: frames not forwarded, messages forwarded unchanged and why, lifecycle steps.
   * Server text in it is raw; the caller makes it safe for a terminal.
   */
  readonly onLog?: (line: string) => void;
}

export function repairEvent(
  outcome: { fixes: readonly Fix[]; protocolVersion: ProtocolVersion; answering?: Answering },
  connection?: string,
): ProxyEvent {
  return {
    fixes: outcome.fixes,
    protocolVersion: outcome.protocolVersion,
    ...(outcome.answering?.method ? { method: outcome.answering.method } : {}),
    ...(outcome.answering?.tool ? { tool: outcome.answering.tool } : {}),
    ...(connection ? { connection } : {}),
  };
}

/** The log line for a frame that was not forwarded, or was forwarded unchanged for a reason. */
export function outcomeLine(outcome: ServerOutcome, text: string, prefix = ''): string | undefined {
  if (outcome.kind === 'drop') return `${prefix}server sent ${outcome.reason}, not forwarded: ${text}`;
  if (outcome.reason === undefined) return undefined;
  const what = outcome.answering
    ? `${outcome.answering.method}${outcome.answering.tool ? ` ${outcome.answering.tool}` : ''}`
    : 'message';
  return `${prefix}[${outcome.protocolVersion}] ${what}: ${outcome.reason}`;
}

/** The log line for a server frame (`a line`, `a body`) whose bytes are not UTF-8, passed on as UTF-8. */
export function notUtf8Line(bad: InvalidUtf8, frame: string, prefix = ''): string {
  const byte = bad.byte.toString(16).toUpperCase().padStart(2, '0');
  return `${prefix}server sent ${frame} that is not UTF-8 (byte ${bad.offset} is 0x${byte}): passed on as UTF-8, with U+FFFD for each bad sequence`;
}
