// `--under-load`: the suite's idle pass and its pass under load compared case by case (by id), into the conformance
// section's `underLoad` part. A case that passed idle and fails under load fails the section; skipped or not run is no difference.
import { combineVerdicts } from '../../reports/verdict.ts';
import type { ConformanceSection, UnderLoadComparison } from '../../reports/model.ts';

/** What the caller knows of the load that ran beside the loaded pass. */
export type UnderLoadRun = Pick<UnderLoadComparison, 'load' | 'passMs' | 'notes'>;

const judged = (status: string): boolean => status === 'passed' || status === 'failed';

/** The cases whose status differs between the passes, among those judged (passed or failed) in both. */
export function compareUnderLoad(idle: ConformanceSection, loaded: ConformanceSection, run: UnderLoadRun): UnderLoadComparison {
  const underLoad = new Map(loaded.cases.map((c) => [c.id, c]));
  let compared = 0;
  const failsOnlyUnderLoad: UnderLoadComparison['failsOnlyUnderLoad'] = [];
  const passesOnlyUnderLoad: UnderLoadComparison['passesOnlyUnderLoad'] = [];
  for (const before of idle.cases) {
    const after = underLoad.get(before.id);
    if (after === undefined || !judged(before.status) || !judged(after.status)) continue;
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
    notes: [...run.notes],
  };
}

/** The idle pass's section with the comparison in it: a case failing only under load fails the section. */
export function withUnderLoad(idle: ConformanceSection, comparison: UnderLoadComparison): ConformanceSection {
  const differs = comparison.failsOnlyUnderLoad.length > 0 ? 'fail' : 'pass';
  return { ...idle, verdict: combineVerdicts([idle.verdict, differs]), underLoad: comparison };
}
