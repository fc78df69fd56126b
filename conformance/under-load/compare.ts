// `--under-load`: the suite's idle pass and its pass under load compared case by case (by id), into the conformance
// section's `underLoad` part. A case that passed idle and fails under load fails the section; skipped or not run is no difference.
import { combineVerdicts } from '../../reports/verdict.ts';
import type { ConformanceSection, ReportCase, UnderLoadComparison } from '../../reports/model.ts';

/** What the caller knows of the load that ran beside the loaded pass. */
export type UnderLoadRun = Pick<UnderLoadComparison, 'load' | 'passMs' | 'notes'>;

const judged = (status: string): boolean => status === 'passed' || status === 'failed';

/**
 * Checks that read state the load's own requests change beside them: the wallet (a refusal charges nothing; the
 * balance moves by the charges) and the configured loan numbers' loans (the load's loan flows use the same numbers).
 * Under load they say nothing of the gateway (the harness's gap), so a case failing only on them is not verified there.
 */
const SHARED_STATE_CHECKS: ReadonlySet<string> = new Set([
  'no-charge',
  'balance-follows-charges',
  'balance-moves-by-charge',
  'balance-moves-on-success',
  'loan-information',
]);

/** A case that failed under load only on shared-state checks: not verified under load, never a difference. */
const walletOnly = (c: ReportCase): boolean => {
  const errors = c.failures.filter((f) => f.severity === 'error');
  return errors.length > 0 && errors.every((f) => SHARED_STATE_CHECKS.has(f.check));
};

/** The cases whose status differs between the passes, among those judged (passed or failed) in both. */
export function compareUnderLoad(idle: ConformanceSection, loaded: ConformanceSection, run: UnderLoadRun): UnderLoadComparison {
  const underLoad = new Map(loaded.cases.map((c) => [c.id, c]));
  let compared = 0;
  const unverified: string[] = [];
  const failsOnlyUnderLoad: UnderLoadComparison['failsOnlyUnderLoad'] = [];
  const passesOnlyUnderLoad: UnderLoadComparison['passesOnlyUnderLoad'] = [];
  for (const before of idle.cases) {
    const after = underLoad.get(before.id);
    if (after === undefined || !judged(before.status) || !judged(after.status)) continue;
    if (after.status === 'failed' && walletOnly(after)) {
      unverified.push(after.id);
      continue;
    }
    compared += 1;
    if (before.status === 'passed' && after.status === 'failed')
      failsOnlyUnderLoad.push({ id: after.id, title: after.title, failures: after.failures });
    if (before.status === 'failed' && after.status === 'passed') passesOnlyUnderLoad.push({ id: after.id, title: after.title });
  }
  return {
    load: run.load,
    ...(run.passMs === undefined ? {} : { passMs: run.passMs }),
    compared,
    failsOnlyUnderLoad,
    passesOnlyUnderLoad,
    notes: [
      ...run.notes,
      ...(unverified.length === 0
        ? []
        : [
            `${unverified.length} case(s) failed under load only on state the load's own requests change (the wallet's balance, the loan numbers' loans): not verified under load (${unverified.slice(0, 10).join(', ')}${unverified.length > 10 ? ', …' : ''})`,
          ]),
    ],
  };
}

/** The idle pass's section with the comparison in it: a case failing only under load fails the section. */
export function withUnderLoad(idle: ConformanceSection, comparison: UnderLoadComparison): ConformanceSection {
  const differs = comparison.failsOnlyUnderLoad.length > 0 ? 'fail' : 'pass';
  return { ...idle, verdict: combineVerdicts([idle.verdict, differs]), underLoad: comparison };
}
