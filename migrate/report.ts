// The migration check's part of a run report: every compared v1/v2 pair (outcomes, content differences, field
// correspondence, latency) and every pair not compared, as the `migration` section of reports/; verdict rules there.
import type { MigrationPair, MigrationSection } from '../reports/model.ts';
import { migrationSection } from '../reports/sections.ts';
import type { MigrationResult, PairResult } from './run-migration.ts';

/** Only a pair whose v1 side succeeded can show a regression: the others are not compared (not verified). */
function compared(p: PairResult): boolean {
  return p.v1Outcome === 'Successful';
}

function pairOf(p: PairResult): MigrationPair {
  return {
    purpose: p.purpose,
    v1: p.v1,
    v2: p.v2,
    // compared() guarantees v1 ran; a v2 side that was not run beside a successful v1 did not finish: Unknown.
    v1Outcome: p.v1Outcome === 'NotRun' ? 'Unknown' : p.v1Outcome,
    v2Outcome: p.v2Outcome === 'NotRun' ? 'Unknown' : p.v2Outcome,
    regression: p.regression,
    ...(p.regression && p.reason !== undefined ? { regressionReason: p.reason } : {}),
    contentDiffs: p.contentDiffs.map((d) => `${d.change} ${d.path}: ${d.count} of ${d.of} (${d.detail})`),
    fieldCorrespondence: p.fieldCorrespondence.map((f) => ({ v1Field: f.v1Field, v2Field: f.v2Field })),
    latency: {
      v1:
        p.latency === null
          ? { p50: null, p95: null }
          : { p50: p.latency.v1.p50, p95: p.latency.v1.p95, p50Ci: [...p.latency.v1.p50Ci], p95Ci: [...p.latency.v1.p95Ci] },
      v2:
        p.latency === null
          ? { p50: null, p95: null }
          : { p50: p.latency.v2.p50, p95: p.latency.v2.p95, p50Ci: [...p.latency.v2.p50Ci], p95Ci: [...p.latency.v2.p95Ci] },
      ...(p.latency === null ? {} : { p95PValue: p.latency.p95PValue }),
    },
  };
}

function notComparedReason(p: PairResult): string {
  if (p.v1Outcome === 'NotRun') return p.reason ?? 'not run';
  return `v1 ${p.v1Outcome}, v2 ${p.v2Outcome}: no successful v1 answer to compare v2 with${p.reason === undefined ? '' : ` (${p.reason})`}`;
}

/**
 * fail: a regression (v2 fails where v1 succeeds). incomplete: no pair compared, or a selected pair not compared
 * (unless skips are accepted). pass otherwise.
 */
export function migrationReportSection(result: MigrationResult, options: { readonly allowSkips: boolean }): MigrationSection {
  return migrationSection(result.pairs.filter(compared).map(pairOf), {
    notCompared: result.pairs
      .filter((p) => !compared(p))
      .map((p) => ({ purpose: p.purpose, v1: p.v1, v2: p.v2, reason: notComparedReason(p) })),
    allowSkips: options.allowSkips,
  });
}

/** One line per pair for the command's output. */
export function pairLine(p: PairResult): string {
  const lat =
    p.latency === null ? '' : `  p50/p95 v1 ${p.latency.v1.p50}/${p.latency.v1.p95} ms, v2 ${p.latency.v2.p50}/${p.latency.v2.p95} ms`;
  const unmatched = p.fieldCorrespondence.filter((f) => f.v2Field === null).length;
  const flag = p.regression ? 'REGRESSION ' : p.v1Outcome === 'NotRun' ? 'not run    ' : '           ';
  const extra =
    p.v1Outcome === 'NotRun'
      ? `: ${p.reason ?? ''}`
      : `; ${p.contentDiffs.length} content difference${p.contentDiffs.length === 1 ? '' : 's'}, ${unmatched} v1 field${unmatched === 1 ? '' : 's'} without a v2 counterpart`;
  return `${flag}${p.purpose}: v1 ${p.v1Outcome}, v2 ${p.v2Outcome}${extra}${lat}`;
}
