// `gateway-harness calibrate`: the highest VU count at which the Node engine's reported p95 stays within +3 ms + 5 % of
// what a measuring proxy in front of the target served, searched within a time budget, kept in the capacity cache.
import { capacityKey, writeCapacity, type Capacity } from './cache.ts';
import { probe, withinGoal, type ProbeResult } from './probe.ts';
import { startMeasuringProxy } from './proxy.ts';
import { searchCapacity, type SearchResult } from './search.ts';

export interface CalibrateSettings {
  readonly scenario: string;
  /** The target's base URL; undefined: the embedded sandbox (started behind the proxy). */
  readonly target: string | undefined;
  readonly startVus: number;
  readonly maxVus: number;
  /** Wall time for the whole search, ms. */
  readonly budgetMs: number;
  /** Each step's load duration (k6 syntax). */
  readonly stepDuration: string;
  /** The capacity cache file to keep the result in. */
  readonly cachePath: string;
}

export interface Calibration {
  readonly search: SearchResult<ProbeResult>;
  /** What was cached; undefined when not even the first step met the goal. */
  readonly capacity: Capacity | undefined;
}

function stepLine(step: number, r: ProbeResult, ok: boolean): string {
  const f = (v: number): string => v.toFixed(1);
  return `calibrate: step ${step}: ${r.vus} VUs, ${f(r.requestRate)} requests/s: reported p95 ${f(r.reported.p95)} ms, served ${f(r.served.p95)} ms: ${ok ? 'within' : 'outside'} +3 ms + 5 %${r.windows.length > 0 ? ` (generator saturated: ${r.windows[0]})` : ''}`;
}

export async function calibrate(settings: CalibrateSettings, line: (text: string) => void): Promise<Calibration> {
  const started = Date.now();
  const targetName = settings.target ?? 'embedded sandbox';
  line(`calibrate: ${settings.scenario} against ${targetName} through a measuring proxy, up to ${Math.round(settings.budgetMs / 1000)} s`);
  const proxy = await startMeasuringProxy(settings.target);
  try {
    const search = await searchCapacity({
      startVus: settings.startVus,
      maxVus: settings.maxVus,
      precision: 0.1,
      // The proxy's start-up counts against the budget too.
      budgetMs: settings.budgetMs - (Date.now() - started),
      measure: async (vus) => {
        const result = await probe(proxy, { scenario: settings.scenario, vus, duration: settings.stepDuration });
        return { ok: withinGoal(result), detail: result };
      },
      onStep: (_vus, result, step) => line(stepLine(step, result.detail, result.ok)),
    });
    const best = search.capacity;
    if (best === undefined) return { search, capacity: undefined };
    const capacity: Capacity = {
      vus: best.vus,
      requestRate: best.detail.requestRate,
      iterationRate: best.detail.iterationRate,
      measuredAt: new Date().toISOString(),
    };
    writeCapacity(settings.cachePath, capacityKey(settings.scenario, targetName), capacity);
    return { search, capacity };
  } finally {
    proxy.close();
  }
}
