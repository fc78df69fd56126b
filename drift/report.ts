// The drift check's part of a run report: its findings (breaking first), what was compared and what was not, as the
// `drift` section of reports/ (schemas/summary.schema.json); the verdict rules live in reports/sections.ts.
import { driftSection } from '../reports/sections.ts';
import type { DriftSection } from '../reports/model.ts';
import type { DriftCheckResult } from './check.ts';

/** Breaking first, then by operation and path: the order a reader needs. */
function readingOrder<T extends { readonly kind: string; readonly operationId: string; readonly path: string }>(
  findings: readonly T[],
): T[] {
  return [...findings].sort(
    (a, b) =>
      Number(a.kind !== 'breaking') - Number(b.kind !== 'breaking') ||
      (a.operationId < b.operationId ? -1 : a.operationId > b.operationId ? 1 : 0) ||
      (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}

/**
 * fail: a breaking change (spec: Versioning rule 4). incomplete: nothing compared, or an operation the baseline
 * describes not checked now (unless skips are accepted). pass otherwise; non-breaking findings are reported, never failed.
 */
export function driftReportSection(result: DriftCheckResult, options: { readonly allowSkips: boolean }): DriftSection {
  return driftSection(
    {
      baselineDir: result.baselineDir,
      compared: result.checked,
      findings: readingOrder(result.findings).map((f) => ({
        operationId: f.operationId,
        path: f.path,
        kind: f.kind,
        change: f.change,
        detail: f.detail,
      })),
      notChecked: result.notChecked.map((n) => ({ operationId: n.operationId, reason: n.reason, skipped: n.skipped })),
    },
    options,
  );
}
