// The --dry-run plan of a load run: the scenario's charging operations and the most requests the profile's schedule
// can make of each (every flow sends at most one charging request per iteration). Nothing is sent to compute it.
import { describeScenario, iterationBound, parseScenario } from '../../engine/executors/registry.ts';
import type { TargetConfig } from '../../api/target-config.ts';
import { createGatewayClient } from '../../client/gateway-client.ts';
import { harnessClientConfig } from '../../ledger/money-session.ts';
import { assertCapCurrency, type MoneySettings } from '../../ledger/money-settings.ts';
import type { MoneyPlan } from '../../ledger/plan.ts';
import { readWalletCurrency } from '../../ledger/read-prices.ts';
import { OPERATIONS } from '../../api/operations.ts';
import type { FundsLine, FundsPlan } from '../../ledger/funds.ts';
import { mixEntries, mixSchedule } from '../mix.ts';
import { buildK6Options, type K6Options } from '../profiles.ts';
import { scenarioNameOf, scenarioOperations } from '../scenarios.ts';
import type { LoadFlags } from './load-options.ts';

/** The k6 options the run's bundle will export for these flags (thresholds aside from their budgets): its executors. */
export function plannedOptions(flags: LoadFlags): K6Options {
  return buildK6Options({
    scenario: flags.scenario,
    profile: flags.profile,
    api: flags.api,
    overrides: {
      ...(flags.vus === undefined ? {} : { vus: flags.vus }),
      ...(flags.durationSec === undefined ? {} : { durationSec: flags.durationSec }),
      ...(flags.rate === undefined ? {} : { rate: flags.rate }),
      ...(flags.iterations === undefined ? {} : { iterations: flags.iterations }),
    },
    thresholdOverrides: flags.thresholds,
    schemaChecks: true,
    timeToFinalBudgetMs: 0,
    iterationGraceMs: 0,
  });
}

/** The most iterations the run's executors can start, with the executors in words (undefined: only time bounds them). */
function iterationsOf(flags: LoadFlags): { iterations?: number; executor: string } {
  const options = plannedOptions(flags);
  // The executor table's own bound: the same semantics the engine runs the scenario with.
  const scenarios = Object.entries(options.scenarios).map(([name, raw]) => parseScenario(name, raw));
  const bounds = scenarios.map(iterationBound);
  const iterations = bounds.some((b) => b === undefined) ? undefined : bounds.reduce<number>((sum, b) => sum + (b ?? 0), 0);
  const executor = scenarios.map((s) => `${s.executor} (${describeScenario(s)})`).join(', ');
  return { ...(iterations === undefined ? {} : { iterations }), executor };
}

export function loadMoneyPlan(flags: LoadFlags, target: string): MoneyPlan {
  const { iterations, executor } = iterationsOf(flags);
  const note =
    iterations === undefined
      ? `at most 1 per iteration; ${executor}: bounded by time`
      : `at most 1 per iteration; ${executor}: at most ${iterations} iterations`;
  return {
    what: `load ${scenarioNameOf(flags.scenario)} (${flags.profile})`,
    target,
    ...(iterations === undefined ? {} : { total: iterations }),
    items: scenarioOperations(flags.scenario, flags.api)
      .filter((op) => op.charges)
      .map((operation) => ({ operation, ...(iterations === undefined ? {} : { count: iterations }), note })),
  };
}

/**
 * A capped dry run against a real target reads the wallet currency from the target's catalog (a read): a cap in
 * another currency would refuse the real run, so the dry run is refused the same way (exit 2) instead of passing.
 */
export async function checkDryRunCap(config: TargetConfig, money: MoneySettings, plan: MoneyPlan): Promise<MoneyPlan> {
  if (money.cap === undefined || config.baseUrl === undefined || plan.items.length === 0) return plan;
  const client = createGatewayClient(harnessClientConfig({ ...config, baseUrl: config.baseUrl }));
  try {
    assertCapCurrency(money.cap, await readWalletCurrency(client));
  } finally {
    await client.close();
  }
  return { ...plan, read: "its catalog was read for the wallet's currency" };
}

/** The elastic part of a load that may run fewer iterations to fit the wallet (the gate's smoke load). */
export const LOAD_ITERATIONS = 'smoke load';

/** Charging requests per operation id of the mixed schedule's first `iterations` iterations (iteration i runs cycle[i % length]). */
function mixedCounts(cycle: ReturnType<typeof mixSchedule>, iterations: number): Map<string, number> {
  const counts = new Map<string, number>();
  cycle.forEach((entry, slot) => {
    const times = Math.floor(iterations / cycle.length) + (slot < iterations % cycle.length ? 1 : 0);
    for (const id of entry.operations) counts.set(id, (counts.get(id) ?? 0) + times);
  });
  return counts;
}

/**
 * The load's charges before it starts (ledger/funds.ts): at most one charging request per iteration, at the smallest
 * valid amount of one of the builder's first candidates (among which the flows pick at random, api/inputs.ts CHARGING_PICKS). The mixed scenario's schedule is deterministic (iteration i runs cycle[i %
 * length], load/mix.ts), so its charging writes are counted per operation; other flows count every iteration as one.
 * `elastic` (the gate's smoke load): the mixed scenario's iterations are an elastic part that fills what the rest of the
 * plan leaves (down to none: the load does not run), its lines' counts following the schedule's first iterations.
 */
export function loadFundsPlan(flags: LoadFlags, elastic = false): FundsPlan {
  const what = `load ${scenarioNameOf(flags.scenario)} (${flags.profile})`;
  const charging = scenarioOperations(flags.scenario, flags.api).filter((op) => op.charges);
  const { iterations, executor } = iterationsOf(flags);
  const smaller = 'fewer iterations (--vus, --duration, --rate) or one version (--api v2)';
  if (charging.length === 0) return { what, lines: [], unbounded: [] };
  if (iterations === undefined)
    return { what, lines: [], unbounded: [`${what}: ${executor} is bounded by time only, so its charges are not priced`], smaller };
  if (flags.scenario !== 'mixed')
    return { what, lines: [{ operations: charging, count: iterations, amount: 'smallest', what }], unbounded: [], smaller };
  const cycle = mixSchedule(mixEntries(flags.api === 'both' ? ['v1', 'v2'] : [flags.api]));
  const counts = mixedCounts(cycle, iterations);
  const lines: FundsLine[] = OPERATIONS.filter((op) => op.charges && (counts.get(op.id) ?? 0) > 0).map((op) => ({
    operations: [op],
    count: counts.get(op.id) ?? 0,
    amount: 'smallest',
    what,
    ...(elastic ? { elastic: { part: LOAD_ITERATIONS, count: (n: number) => mixedCounts(cycle, n).get(op.id) ?? 0 } } : {}),
  }));
  const part = { part: LOAD_ITERATIONS, full: iterations, min: 0, unit: 'iterations', fill: true };
  return { what, lines, unbounded: [], smaller, ...(elastic ? { elastic: [part] } : {}) };
}
