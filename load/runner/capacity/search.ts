// The search for the highest VU count whose measurement still meets the accuracy goal: doubling from a start until one
// fails (or the ceiling), then halving the gap between the last good and the first bad, within a time budget.

/** One measurement: whether `vus` met the goal, and whatever the caller wants kept of it. */
export interface Measured<T> {
  readonly ok: boolean;
  readonly detail: T;
}

export interface SearchSettings<T> {
  readonly startVus: number;
  readonly maxVus: number;
  /** Stop once the bracket (first bad − last good) is within this share of the last good (and at most 1 VU otherwise). */
  readonly precision: number;
  /** Wall time the whole search may take, ms: a step is not started unless the slowest so far still fits. */
  readonly budgetMs: number;
  readonly measure: (vus: number) => Promise<Measured<T>>;
  /** Told of each step as it ends (progress lines). */
  readonly onStep?: (vus: number, result: Measured<T>, step: number) => void;
  readonly now?: () => number;
}

export interface SearchResult<T> {
  /** The highest VU count measured within the goal, with its measurement; undefined when even the first failed. */
  readonly capacity: { readonly vus: number; readonly detail: T } | undefined;
  /** The lowest VU count measured outside the goal; undefined when none was (the ceiling or the budget came first). */
  readonly firstBad: number | undefined;
  readonly steps: number;
  readonly stoppedBy: 'bracket' | 'ceiling' | 'floor' | 'budget';
}

/** The next VU count to measure, or why the search is over. */
function nextVus(
  good: number | undefined,
  bad: number | undefined,
  settings: Pick<SearchSettings<unknown>, 'maxVus' | 'precision'>,
): number | 'bracket' | 'ceiling' | 'floor' {
  if (bad === undefined) return good === undefined ? 'floor' : good >= settings.maxVus ? 'ceiling' : Math.min(settings.maxVus, good * 2);
  if (good === undefined) return bad <= 1 ? 'floor' : Math.max(1, Math.floor(bad / 2));
  if (bad - good <= Math.max(1, Math.floor(good * settings.precision))) return 'bracket';
  return Math.floor((good + bad) / 2);
}

/** Searches the boundary; never measures more than the budget allows, never the same VU count twice. */
export async function searchCapacity<T>(settings: SearchSettings<T>): Promise<SearchResult<T>> {
  const now = settings.now ?? Date.now;
  const started = now();
  let good: { vus: number; detail: T } | undefined;
  let bad: number | undefined;
  let steps = 0;
  let slowest = 0;
  let vus: number | 'bracket' | 'ceiling' | 'floor' = Math.max(1, Math.min(settings.maxVus, settings.startVus));
  while (typeof vus === 'number') {
    if (steps > 0 && now() - started + slowest > settings.budgetMs) return { capacity: good, firstBad: bad, steps, stoppedBy: 'budget' };
    const stepStart = now();
    const result = await settings.measure(vus);
    slowest = Math.max(slowest, now() - stepStart);
    steps += 1;
    settings.onStep?.(vus, result, steps);
    if (result.ok) good = { vus, detail: result.detail };
    else bad = vus;
    vus = nextVus(good?.vus, bad, settings);
  }
  return { capacity: good, firstBad: bad, steps, stoppedBy: vus };
}
