/**
 * `audit --source DIR`: ties what a live server did to where its tools are registered in its source,
 * so an audit's SARIF can be placed by GitHub code scanning like a scan's. The registrations come
 * from the scan's handler index (every tool handler `scanPaths` finds, with its file and line).
 */

import type { Finding, Location } from '../core/finding.js';
import type { Report } from '../report/types.js';
import { type ScanOptions, scanPaths } from '../scan/index.js';

export interface Registration {
  readonly file: string;
  readonly line: number;
}

/** Tool name → where it is registered, from a scan of `dir`; the first registration of a name wins. */
export async function registrationIndex(
  dir: string,
  options: Pick<ScanOptions, 'filter' | 'cwd'> = {},
): Promise<Map<string, Registration>> {
  const { files } = await scanPaths([dir], options);
  const index = new Map<string, Registration>();
  for (const handler of files.flatMap((f) => f.handlers)) {
    if (!index.has(handler.tool)) index.set(handler.tool, { file: handler.file, line: handler.line });
  }
  return index;
}

export interface Placed {
  readonly report: Report;
  /** Tools with findings that no registration in the source names. */
  readonly unmatched: readonly string[];
}

/**
 * Findings about a tool get its registration's file and line. Findings about the server as a whole
 * (no tool) and tools the source does not name statically keep their logical location only. Pure.
 */
export function placeFindings(report: Report, index: ReadonlyMap<string, Registration>): Placed {
  const unmatched = new Set<string>();
  const place = (location: Location | undefined): Location | undefined => {
    const tool = location?.tool;
    if (tool === undefined) return location;
    const registration = index.get(tool);
    if (!registration) {
      unmatched.add(tool);
      return location;
    }
    return { ...location, file: registration.file, line: registration.line };
  };
  const findings = report.findings.map((finding): Finding => {
    const location = place(finding.location);
    // A folded finding's places are tools too (the same defect in several tools): each at its own line.
    const occurrences = finding.occurrences?.map((o) => {
      const at = place(o.location);
      return at ? { ...o, location: at } : o;
    });
    return {
      ...finding,
      ...(location ? { location } : {}),
      ...(occurrences ? { occurrences } : {}),
    };
  });
  return { report: { ...report, findings }, unmatched: [...unmatched].sort() };
}
