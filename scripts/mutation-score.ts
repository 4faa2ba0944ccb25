/**
 * Scores a StrykerJS JSON report (the mutation-testing-report-schema Stryker writes) folder by folder,
 * after taking out the survivors listed as equivalent in test/mutation/equivalent-mutants.json. Pure, so
 * test/mutation/score.test.ts can check it without running Stryker.
 */

/** The part of Stryker's JSON report this reads. */
export interface MutationReport {
  readonly files: Readonly<Record<string, { readonly source: string; readonly mutants: readonly Mutant[] }>>;
}

export interface Mutant {
  readonly id: string;
  readonly mutatorName: string;
  readonly replacement?: string;
  readonly status: string;
  readonly location: {
    readonly start: { readonly line: number; readonly column: number };
    readonly end: { readonly line: number; readonly column: number };
  };
}

/**
 * A survivor no test can kill because the mutated program behaves the same. Matched on the code, not on
 * a line number, so it survives edits elsewhere in the file.
 */
export interface EquivalentMutant {
  /** Path from the repository root, e.g. `src/core/json.ts`. */
  readonly file: string;
  /** Stryker's mutator name, e.g. `ConditionalExpression`. */
  readonly mutator: string;
  /** The source text the mutant replaces. */
  readonly original: string;
  /** The text it puts there. */
  readonly replacement: string;
  /** Why no input can tell the two programs apart. */
  readonly why: string;
}

export interface FolderScore {
  readonly folder: string;
  readonly killed: number;
  readonly timeout: number;
  readonly survived: number;
  readonly noCoverage: number;
  readonly equivalent: number;
  /** Compile and runtime errors, and ignored (static) mutants: not in the score. */
  readonly excluded: number;
  /** Detected / (detected + undetected), in percent; `undefined` when there is nothing to score. */
  readonly score: number | undefined;
  /** Survivors and mutants no test covers, with where they are, for the report. */
  readonly undetected: readonly string[];
}

export interface Scored {
  readonly folders: readonly FolderScore[];
  /** Equivalence entries in scored folders that matched no surviving mutant: wrong or out of date. */
  readonly stale: readonly EquivalentMutant[];
}

/**
 * The text a mutant replaces. Lines and columns both start at 1, as mutation-testing-report-schema
 * defines a position and Stryker writes it.
 */
export function originalText(source: string, mutant: Mutant): string {
  const lines = source.split('\n');
  const offset = (line: number, column: number) =>
    lines.slice(0, line - 1).reduce((sum, l) => sum + l.length + 1, 0) + column - 1;
  const { start, end } = mutant.location;
  return source.slice(offset(start.line, start.column), offset(end.line, end.column));
}

function folderOf(file: string, folders: readonly string[]): string | undefined {
  const normalized = file.replaceAll('\\', '/');
  return folders.find((folder) => normalized === folder || normalized.startsWith(`${folder}/`));
}

function matches(entry: EquivalentMutant, file: string, source: string, mutant: Mutant): boolean {
  return (
    entry.file === file &&
    entry.mutator === mutant.mutatorName &&
    entry.replacement === (mutant.replacement ?? '') &&
    entry.original === originalText(source, mutant)
  );
}

export function scoreByFolder(
  report: MutationReport,
  folders: readonly string[],
  equivalents: readonly EquivalentMutant[],
): Scored {
  const used = new Set<EquivalentMutant>();
  const tallies = new Map(
    folders.map((folder) => [
      folder,
      {
        killed: 0,
        timeout: 0,
        survived: 0,
        noCoverage: 0,
        equivalent: 0,
        excluded: 0,
        undetected: [] as string[],
      },
    ]),
  );
  for (const [file, { source, mutants }] of Object.entries(report.files)) {
    const folder = folderOf(file, folders);
    const tally = folder === undefined ? undefined : tallies.get(folder);
    if (!tally) continue;
    for (const mutant of mutants) {
      const where = `${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} → ${JSON.stringify(mutant.replacement ?? '')}`;
      switch (mutant.status) {
        case 'Killed':
          tally.killed++;
          break;
        case 'Timeout':
          tally.timeout++;
          break;
        case 'Survived':
        case 'NoCoverage': {
          const entry = equivalents.find((e) => matches(e, file, source, mutant));
          if (entry) {
            used.add(entry);
            tally.equivalent++;
          } else {
            if (mutant.status === 'Survived') tally.survived++;
            else tally.noCoverage++;
            tally.undetected.push(`${mutant.status === 'Survived' ? 'survived' : 'no coverage'} ${where}`);
          }
          break;
        }
        default:
          tally.excluded++;
      }
    }
  }
  const scores = folders.map((folder): FolderScore => {
    const t = tallies.get(folder) as NonNullable<ReturnType<typeof tallies.get>>;
    const detected = t.killed + t.timeout;
    const total = detected + t.survived + t.noCoverage;
    return { folder, ...t, score: total === 0 ? undefined : (100 * detected) / total };
  });
  const stale = equivalents.filter((e) => folderOf(e.file, folders) !== undefined && !used.has(e));
  return { folders: scores, stale };
}

/** One line per folder, for the terminal and the issue note. */
export function formatScores(scored: Scored, threshold: number): string {
  const rows = scored.folders.map((f) => {
    const score = f.score === undefined ? '   n/a' : `${f.score.toFixed(1).padStart(5)}%`;
    const verdict = f.score === undefined ? '' : f.score >= threshold ? 'ok' : `below ${threshold}%`;
    return `${f.folder.padEnd(14)} ${score}  killed ${f.killed}, timeout ${f.timeout}, survived ${f.survived}, no coverage ${f.noCoverage}, equivalent ${f.equivalent}, excluded ${f.excluded}  ${verdict}`;
  });
  return rows.join('\n');
}
