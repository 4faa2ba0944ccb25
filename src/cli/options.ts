/** Option parsing shared by the commands. */

import { InvalidArgumentError } from 'commander';
import { REPORT_FORMATS, type ReportFormat, supportedFormats } from '../report/index.js';
import {
  DEFAULT_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  parseProtocolVersion,
} from '../spec/versions.js';

export function protocolOption(value: string): ProtocolVersion {
  const version = parseProtocolVersion(value);
  if (!version) {
    throw new InvalidArgumentError(`expected one of ${PROTOCOL_VERSIONS.join(', ')}, "latest" or "draft"`);
  }
  return version;
}

/** `check --protocol`: a version, or `all` for the whole matrix. */
export function protocolOrAllOption(value: string): ProtocolVersion | 'all' {
  if (value === 'all') return 'all';
  const version = parseProtocolVersion(value);
  if (!version) {
    throw new InvalidArgumentError(
      `expected one of ${PROTOCOL_VERSIONS.join(', ')}, "latest", "draft" or "all"`,
    );
  }
  return version;
}

export function formatOption(value: string): ReportFormat {
  if (
    !(REPORT_FORMATS as readonly string[]).includes(value) ||
    !supportedFormats().includes(value as ReportFormat)
  ) {
    throw new InvalidArgumentError(`expected one of ${supportedFormats().join(', ')}`);
  }
  return value as ReportFormat;
}

export const PROTOCOL_HELP = `protocol version: ${PROTOCOL_VERSIONS.join(', ')} ("latest" or "draft": ${LATEST_PROTOCOL_VERSION})`;

/** How every command picks its version when --protocol is not given (the README says the same). */
export const PROTOCOL_DEFAULT_HELP = `default: ${DEFAULT_PROTOCOL_VERSION}, unless the input says otherwise (a recorded initialize or server/discover; a resultType member means 2026-07-28)`;

export function formatHelp(): string {
  return `output format: ${supportedFormats().join(', ')}`;
}

/**
 * The longest delay Node's timers hold, in whole seconds (2^31 − 1 ms, about 24.8 days): a longer one
 * fires after 1 ms, with a TimeoutOverflowWarning each time, which a wait loop turns into a flood.
 */
export const MAX_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);
