/** Option parsing shared by the commands. */

import { InvalidArgumentError } from 'commander';
import { REPORT_FORMATS, type ReportFormat, supportedFormats } from '../report/index.js';
import { PROTOCOL_VERSIONS, type ProtocolVersion, parseProtocolVersion } from '../spec/versions.js';

export function protocolOption(value: string): ProtocolVersion {
  const version = parseProtocolVersion(value);
  if (!version) {
    throw new InvalidArgumentError(`expected one of ${PROTOCOL_VERSIONS.join(', ')} (or "latest")`);
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

export const PROTOCOL_HELP = `protocol version: ${PROTOCOL_VERSIONS.join(', ')}`;

export function formatHelp(): string {
  return `output format: ${supportedFormats().join(', ')}`;
}
