// GEN's reach in a run, for summary.md and report.html alike: per generated case, its inputs, the requests they sent
// and which items of its space (keyword breaks, credential kinds, transitions × operation) they covered.
import type { ReportCase } from './model.ts';

export interface GenCoverageRow {
  readonly id: string;
  readonly inputs: number;
  readonly requests: number;
  readonly charging: number;
  readonly covered: number;
  readonly of: number;
  /** The items of the space this run did not reach (another seed or a larger budget may). */
  readonly missing: readonly string[];
}

/** One row per GEN case that reported its reach, in the run's case order. */
export function genCoverageRows(cases: readonly ReportCase[]): GenCoverageRow[] {
  return cases.flatMap((c) => {
    if (c.gen === undefined) return [];
    const covered = new Set(c.gen.covered);
    return [
      {
        id: c.id,
        inputs: c.gen.inputs,
        requests: c.gen.requests,
        charging: c.gen.charging,
        covered: covered.size,
        of: c.gen.space.length,
        missing: c.gen.space.filter((item) => !covered.has(item)),
      },
    ];
  });
}

/** "GEN coverage: 212 of 240 items reached by 40 generated cases (1,234 requests, 310 charging)". */
export function genCoverageHeadline(rows: readonly GenCoverageRow[]): string {
  const sum = (pick: (r: GenCoverageRow) => number): number => rows.reduce((n, r) => n + pick(r), 0);
  return (
    `GEN coverage: ${sum((r) => r.covered)} of ${sum((r) => r.of)} items reached by ${rows.length} generated case(s) ` +
    `(${sum((r) => r.inputs)} inputs, ${sum((r) => r.requests)} requests, ${sum((r) => r.charging)} charging)`
  );
}
