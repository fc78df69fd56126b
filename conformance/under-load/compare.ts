// `--under-load`: the suite's idle pass and its pass under load compared case by case (by id), into the conformance
// section's `underLoad` part. A case that passed idle and fails under load fails the section; one the loaded pass could
// not judge beside the load (not run, skipped, no load in flight, shared state) is not verified under load, with why.
import { TIMED_OUT_RECEIVED } from '../../api/describe.ts';
import { combineVerdicts } from '../../reports/verdict.ts';
import type { ConformanceSection, ReportCase, UnderLoadComparison } from '../../reports/model.ts';

/**
 * What the caller knows of the load that ran beside the loaded pass; `unwitnessed`: the cases that sent a request
 * while the load had no request in flight at the target or had ended (gate/load-witness.ts), each with why.
 */
export type UnderLoadRun = Pick<UnderLoadComparison, 'load' | 'passMs' | 'notes'> & { readonly unwitnessed?: ReadonlyMap<string, string> };

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

/**
 * Why a case that failed under load says nothing of the gateway there, or undefined: every error is on a shared-state
 * check or names a client timeout as what it received (the spec states no latency: an answer too slow under load
 * breaks no stated rule).
 */
function failedOnNothingStated(c: ReportCase): string | undefined {
  const errors = c.failures.filter((f) => f.severity === 'error');
  // Received as a client timeout, or naming one (a poll's last answer among others).
  const timedOut = (f: ReportCase['failures'][number]): boolean => f.received.includes(TIMED_OUT_RECEIVED);
  if (errors.length === 0 || !errors.every((f) => SHARED_STATE_CHECKS.has(f.check) || timedOut(f))) return undefined;
  const shared = [...new Set(errors.filter((f) => !timedOut(f)).map((f) => f.check))];
  return [
    ...(errors.some(timedOut) ? ['the client timed out under load (the spec states no latency)'] : []),
    ...(shared.length === 0
      ? []
      : [`failed only on state the load's own requests change (${shared.join(', ')}: the wallet's balance or the loan numbers' loans)`]),
  ].join('; ');
}

/** Why a case judged idle says nothing under load, or undefined when the loaded pass judged it beside the load. */
function notVerifiedReason(after: ReportCase | undefined, unwitnessed: ReadonlyMap<string, string> | undefined): string | undefined {
  if (after === undefined) return 'not run under load';
  if (!judged(after.status)) return `skipped under load: ${after.skipReason ?? 'skipped'}`;
  const witness = unwitnessed?.get(after.id);
  if (witness !== undefined) return witness;
  return after.status === 'failed' ? failedOnNothingStated(after) : undefined;
}

/** The cases whose status differs between the passes, among those judged (passed or failed) in both beside the load. */
export function compareUnderLoad(idle: ConformanceSection, loaded: ConformanceSection, run: UnderLoadRun): UnderLoadComparison {
  const underLoad = new Map(loaded.cases.map((c) => [c.id, c]));
  let compared = 0;
  const notVerified: NonNullable<UnderLoadComparison['notVerified']> = [];
  const failsOnlyUnderLoad: UnderLoadComparison['failsOnlyUnderLoad'] = [];
  const passesOnlyUnderLoad: UnderLoadComparison['passesOnlyUnderLoad'] = [];
  for (const before of idle.cases) {
    if (!judged(before.status)) continue;
    const after = underLoad.get(before.id);
    const reason = notVerifiedReason(after, run.unwitnessed);
    if (after === undefined || reason !== undefined) {
      notVerified.push({ id: before.id, title: before.title, reason: reason ?? 'not run under load' });
      continue;
    }
    compared += 1;
    if (before.status === 'passed' && after.status === 'failed')
      failsOnlyUnderLoad.push({ id: after.id, title: after.title, failures: after.failures });
    if (before.status === 'failed' && after.status === 'passed') passesOnlyUnderLoad.push({ id: after.id, title: after.title });
  }
  const shown = notVerified.slice(0, 10).map((c) => c.id);
  return {
    load: run.load,
    ...(run.passMs === undefined ? {} : { passMs: run.passMs }),
    compared,
    failsOnlyUnderLoad,
    passesOnlyUnderLoad,
    notVerified,
    notes: [
      ...run.notes,
      ...(notVerified.length === 0
        ? []
        : [
            `${notVerified.length} case(s) not verified under load (${shown.join(', ')}${notVerified.length > 10 ? ', …' : ''}), each with why`,
          ]),
    ],
  };
}

/** The idle pass's section with the comparison in it: a case failing only under load fails the section. */
export function withUnderLoad(idle: ConformanceSection, comparison: UnderLoadComparison): ConformanceSection {
  const differs = comparison.failsOnlyUnderLoad.length > 0 ? 'fail' : 'pass';
  return { ...idle, verdict: combineVerdicts([idle.verdict, differs]), underLoad: comparison };
}
