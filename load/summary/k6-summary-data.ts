// The shape of what k6 hands to handleSummary (the format k6 v0.48 through v2.x pass by default; the engine passes the
// same). Only the fields the harness reads; the CLI turns k6 v2's opt-in "new machine-readable summary" off.

export interface K6SummaryMetric {
  readonly type: 'counter' | 'rate' | 'trend' | 'gauge';
  readonly contains?: string;
  /** counter: count, rate; rate: rate, passes, fails; trend: the summaryTrendStats; gauge: value, min, max. */
  readonly values: Readonly<Record<string, number>>;
  readonly thresholds?: Readonly<Record<string, { readonly ok: boolean }>>;
}

export interface K6SummaryCheck {
  readonly name: string;
  readonly path?: string;
  readonly passes: number;
  readonly fails: number;
}

export interface K6SummaryGroup {
  readonly name: string;
  readonly path?: string;
  readonly groups?: readonly K6SummaryGroup[];
  readonly checks?: readonly K6SummaryCheck[];
}

export interface K6SummaryData {
  readonly metrics: Readonly<Record<string, K6SummaryMetric>>;
  readonly root_group?: K6SummaryGroup;
  readonly state?: { readonly testRunDurationMs?: number };
  readonly options?: unknown;
  readonly setup_data?: unknown;
}

/** Every check of the run, groups flattened; a check of the same name in several groups is summed. */
export function allChecks(group: K6SummaryGroup | undefined): K6SummaryCheck[] {
  const byName = new Map<string, { passes: number; fails: number }>();
  const walk = (g: K6SummaryGroup): void => {
    for (const c of g.checks ?? []) {
      const seen = byName.get(c.name) ?? { passes: 0, fails: 0 };
      byName.set(c.name, { passes: seen.passes + c.passes, fails: seen.fails + c.fails });
    }
    for (const child of g.groups ?? []) walk(child);
  };
  if (group !== undefined) walk(group);
  return [...byName.entries()].map(([name, counts]) => ({ name, ...counts }));
}
