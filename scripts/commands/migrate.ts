// `gateway-harness migrate`: the v1-to-v2 regression check — every v1/v2 pair of the catalog with the same inputs on
// both versions; writes the report set through reports/; exit 1 when v2 fails where v1 succeeds. Thin over migrate/.
import type { Command } from 'commander';
import { EXIT, HarnessError } from '../../api/errors.ts';
import { operationPairs, type OperationPair } from '../../api/operations.ts';
import { describeTarget, giftcardCursorOf } from '../../api/target-config.ts';
import { DEFAULT_LOAD, LOAD_LIMITS, type LoadSettings } from '../../migrate/latency.ts';
import { migrationReportSection, pairLine } from '../../migrate/report.ts';
import { chargingPairs, planMigration, runMigration, selectPairs, type PlannedCharge } from '../../migrate/run-migration.ts';
import { assertPlanCovered, planLines, pricePlan, type MoneyPlan, type PlanCoverage } from '../../ledger/plan.ts';
import type { OutgoingRequest } from '../../api/client-core.ts';
import type { TargetConfig } from '../../api/target-config.ts';
import type { TargetSessionOptions } from '../../target/session.ts';
import { chargingRefusal } from '../../ledger/guard.ts';
import { MoneyRefusal } from '../../ledger/hooks.ts';
import { assertCapCurrency, formatMoney, type MoneySettings, type SpendCap } from '../../ledger/money-settings.ts';
import type { PriceBook } from '../../ledger/price-book.ts';
import { readPriceBook } from '../../ledger/read-prices.ts';
import { addMoneyOptions, moneySettingsFrom } from '../money-options.ts';
import { checkSessionFunds, decideMoney } from '../money-run.ts';
import { fundsPlanOf } from '../../ledger/funds.ts';
import { configFromOptions } from '../target-options.ts';
import { addSessionOptions, judgeOnSession, sessionOptionsFrom, withSession, type SessionFlags } from './baseline.ts';

interface MigrateFlags extends SessionFlags {
  reportDir?: string;
  pairs?: string;
  requests: string;
  concurrency: string;
  allowSkips?: boolean;
  list?: boolean;
}

const usage = (message: string): HarnessError => new HarnessError('GH_ERR_USAGE', message);

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  if (!/^\d{1,7}$/.test(value) || Number(value) < min || Number(value) > max)
    throw usage(`${flag} must be a whole number from ${min} to ${max}`);
  return Number(value);
}

function parsePairs(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const known = operationPairs().map((p) => p.purpose);
  const wanted = value
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = wanted.filter((w) => !known.includes(w));
  if (wanted.length === 0 || unknown.length > 0)
    throw usage(`--pairs: unknown pair ${JSON.stringify(unknown[0] ?? value)} (known: ${known.join(', ')})`);
  return wanted;
}

/** What migrate sends that charges: each charging pair's transactions (1–2 inputs from the catalog) and its latency submissions. */
export function migratePlan(selected: readonly OperationPair[], requests: number, target: string): MoneyPlan {
  const ops = chargingPairs([...selected])
    .flatMap((p) => [p.v1, p.v2])
    .filter((op) => op.charges);
  return {
    what: 'migrate',
    target,
    items: ops.map((operation) => ({
      operation,
      count: 2 + 1 + requests,
      note: `at most 2 inputs from the catalog, then 1 warm-up and ${requests} latency submissions`,
    })),
  };
}

/** The migration's charges priced against the cap; names the largest --requests the cap covers when there is one. */
export function coverMigration(charges: readonly PlannedCharge[], prices: PriceBook, cap: SpendCap, load: LoadSettings): PlanCoverage {
  const smaller = (): string | undefined => {
    for (let requests = load.requests - 1; requests >= 1; requests--) {
      const fewer = charges.map((c) => ({ ...c, count: c.count > 1 ? requests + 2 : 1 }));
      const priced = pricePlan(fewer, prices, cap);
      if (priced.problem === undefined) return `lower --requests to ${requests} (worst case ${formatMoney(priced.worst, priced.currency)})`;
    }
    return undefined;
  };
  return pricePlan(charges, prices, cap, smaller);
}

/** The plan's items with the counts of the charges planned from the target's catalog (not the upper bound). */
export function plannedItems(plan: MoneyPlan, charges: readonly PlannedCharge[]): MoneyPlan['items'] {
  return plan.items.map((item) => {
    const count = charges.filter((c) => c.operation.id === item.operation.id).reduce((n, c) => n + c.count, 0);
    return { ...item, count, note: `${count} as planned from the target's catalog: ${item.note}` };
  });
}

/** --dry-run with a cap: reads the catalog and the price book (nothing charging is sent) and prints the priced plan. */
async function pricedDryRun(
  config: TargetConfig,
  sessionOptions: TargetSessionOptions,
  plan: MoneyPlan,
  settings: MoneySettings,
  purposes: string[] | undefined,
  load: LoadSettings,
): Promise<number> {
  const cap = settings.cap as SpendCap;
  // Nothing charging may leave a dry run, whatever happens inside it.
  const hooks = {
    beforeSend(request: OutgoingRequest): void {
      if (request.operation.charges)
        throw new MoneyRefusal('production', request.operation.id, `${request.operation.id} not sent: a dry run sends nothing charging`);
    },
  };
  return withSession(config, { ...sessionOptions, hooks, allowCharges: true }, async (session) => {
    const read = await readPriceBook(session.client, session.config.fieldMapping, giftcardCursorOf(session.config));
    assertCapCurrency(cap, read.book.wallet);
    const planned = await planMigration(session, { ...(purposes === undefined ? {} : { pairs: purposes }), load });
    // The counts of the plan as built from the catalog: the same requests the worst case is priced for.
    const priced = { ...plan, items: plannedItems(plan, planned.charges), priced: coverMigration(planned.charges, read.book, cap, load) };
    for (const line of planLines(priced, settings)) process.stdout.write(`${line}\n`);
    return EXIT.ok;
  });
}

async function runMigrate(opts: MigrateFlags): Promise<number> {
  const purposes = parsePairs(opts.pairs);
  const selected = selectPairs(purposes);
  if (opts.list === true) {
    for (const p of selected)
      process.stdout.write(`${p.purpose}\t${p.v1.id}\t${p.v2.id}\t${chargingPairs([p]).length > 0 ? 'charges' : 'read'}\n`);
    return EXIT.ok;
  }
  const load: LoadSettings = {
    requests: wholeNumber('--requests', opts.requests, 1, LOAD_LIMITS.requests),
    concurrency: wholeNumber('--concurrency', opts.concurrency, 1, LOAD_LIMITS.concurrency),
    maxMs: DEFAULT_LOAD.maxMs,
  };
  const config = configFromOptions(opts);
  const sessionOptions = sessionOptionsFrom(opts, config);
  const plan = migratePlan(selected, load.requests, describeTarget(config));
  const allowed = moneySettingsFrom(opts, config.environment);
  // A capped dry run of a plan that charges is priced from the target's catalog (reads only), so it can say whether
  // the cap covers a complete run; every other dry run sends nothing at all.
  if (
    opts.dryRun === true &&
    allowed.cap !== undefined &&
    plan.items.length > 0 &&
    chargingRefusal(
      plan.what,
      plan.items.map((i) => i.operation),
      allowed,
    ) === undefined
  ) {
    return pricedDryRun(config, sessionOptions, plan, allowed, purposes, load);
  }
  // Money safety (ledger/guard.ts): refused before anything starts when charging pairs meet a production target
  // without --allow-charges --max-spend; --dry-run prints the plan instead.
  const money = decideMoney(opts, config, plan);
  if (money === undefined) return EXIT.ok;
  return judgeOnSession(opts, config, sessionOptions, money, {
    moneyCommand: 'migrate',
    reportCommand: 'migrate',
    progressPrefix: 'migrate',
    run: (session, progress, cm, stop) =>
      runMigration(session, {
        ...(purposes === undefined ? {} : { pairs: purposes }),
        load,
        progress,
        stop,
        // Before anything charging leaves: a cap that cannot cover a complete comparison is refused (exit 2).
        beforeCharging: async (charges) => {
          if (money.cap !== undefined) assertPlanCovered('migrate', coverMigration(charges, cm.session.prices, money.cap, load));
          // And against the wallet: the same planned bodies priced against the balance read now (GH_ERR_FUNDS, exit 2).
          await checkSessionFunds(session, fundsPlanOf('migrate', charges), cm.faults, stop);
        },
      }),
    section: (result, allowSkips) => ({ migration: migrationReportSection(result, { allowSkips }) }),
    silence: (result) => result.silence,
    extra: (result) => [
      `Pairs (${result.pairs.length}; same inputs on both versions, latency under ${load.requests} requests per version, ${load.concurrency} in flight):`,
      ...result.pairs.map(pairLine),
    ],
  });
}

export function register(program: Command): void {
  const cmd = program
    .command('migrate')
    .description(
      'v1-to-v2 migration check: every v1/v2 pair of the catalog with the same inputs on both versions — outcomes (v2 must not fail where v1 succeeds),\n' +
        'payload content after declared normalizations, field correspondence, latency p50/p95 under the same small load.\n' +
        'With no --target it runs against the embedded sandbox. Exit 0 no regression, 1 a regression (or pairs not compared: incomplete), 2 usage/config error.',
    )
    .option('--report-dir <dir>', 'where summary.json, junit.xml, summary.md and report.html go (default reports/out/<run-id>/)')
    .option('--pairs <list>', 'comma-separated pair purposes to run (default: all; see --list)')
    .option(
      '--requests <n>',
      `requests per version in each pair's latency load (1..${LOAD_LIMITS.requests})`,
      String(DEFAULT_LOAD.requests),
    )
    .option(
      '--concurrency <n>',
      `requests in flight in each pair's latency load (1..${LOAD_LIMITS.concurrency})`,
      String(DEFAULT_LOAD.concurrency),
    )
    .option('--allow-skips', 'pass even when some pairs could not be compared')
    .option('--list', 'print the pairs (purpose, v1 operation, v2 operation, charges or read) and exit');
  addSessionOptions(cmd);
  addMoneyOptions(cmd);
  cmd.action(async (opts: MigrateFlags) => {
    process.exitCode = await runMigrate(opts);
  });
}
