// How a Node command (migrate, baseline) runs with the money guard: refuse before anything starts, print the plan on
// --dry-run, give the target session's client the guard's hooks, and at the end reconcile and hand the ledger to the report.
import { giftcardCursorOf, type TargetConfig } from '../api/target-config.ts';
import { coreSettingsFor } from '../client/gateway-client.ts';
import type { TargetSession } from '../target/session.ts';
import { allowanceLine, assertChargesAllowed } from '../ledger/guard.ts';
import { createMoneySession, type MoneySession } from '../ledger/money-session.ts';
import type { MoneySettings } from '../ledger/money-settings.ts';
import { planLines, type MoneyPlan } from '../ledger/plan.ts';
import { checkTargetFunds } from '../ledger/funds-check.ts';
import type { FundsPlan } from '../ledger/funds.ts';
import type { ClientHooks } from '../api/client-core.ts';
import { createFaultTally, type FaultCounts, type FaultTally } from '../api/faults.ts';
import { printable } from '../api/printable.ts';
import { composeHooks } from '../ledger/hooks.ts';
import { credentialSecrets } from '../reports/redact-report.ts';
import type { LedgerSection } from '../reports/model.ts';
import { INTERRUPT_RECONCILE_MS, reconcileCommand, stillOpenLine } from '../reports/interruption.ts';
import { moneySettingsFrom, type MoneyOptions } from './money-options.ts';

const err = (line: string): void => {
  process.stderr.write(`${printable(line)}\n`);
};

export interface CommandMoney {
  readonly settings: MoneySettings;
  readonly session: MoneySession;
  /** Every response of the command's client, tallied by fault kind (api/faults.ts) for the reports. */
  readonly faults: FaultTally;
  /** For the command's client: the money guard, then the fault tally. */
  readonly hooks: ClientHooks;
}

/**
 * The guard's decision for a command before anything starts: throws GH_ERR_CHARGES (exit 2) when the plan charges a
 * production target without the allowance; prints the plan and returns undefined on --dry-run (nothing is started).
 */
export function decideMoney(opts: MoneyOptions, config: TargetConfig, plan: MoneyPlan): MoneySettings | undefined {
  const settings = moneySettingsFrom(opts, config.environment);
  if (opts.dryRun === true) {
    for (const line of planLines(plan, settings)) process.stdout.write(`${line}\n`);
    return undefined;
  }
  assertChargesAllowed(
    plan.what,
    plan.items.map((i) => i.operation),
    settings,
  );
  return settings;
}

export function openCommandMoney(
  settings: MoneySettings,
  run: { readonly command: string; readonly runId: string; readonly reportDir: string; readonly config: TargetConfig },
): CommandMoney {
  const session = createMoneySession({
    settings,
    command: run.command,
    runId: run.runId,
    reportDir: run.reportDir,
    secrets: credentialSecrets(run.config.user, run.config.password),
    info: err,
  });
  const faults = createFaultTally();
  return { settings, session, faults, hooks: composeHooks(session.hooks, { afterResponse: (exchange) => faults.add(exchange.response) }) };
}

/** Arms the guard on the command's target (reads the price book and balance for a capped run). */
/**
 * Before the first charge of a session command (baseline record/check, migrate): its charging plan priced against the
 * balance read now, as conformance, gate and load do (ledger/funds.ts fitPlan); GH_ERR_FUNDS (exit 2) when the wallet
 * cannot cover it, else the line said.
 */
export async function checkSessionFunds(target: TargetSession, plan: FundsPlan, faults: FaultTally, stop?: AbortSignal): Promise<void> {
  if (plan.lines.length === 0) return;
  try {
    // The one funds check (ledger/funds-check.ts): its reads end after 3 unanswered (GH_ERR_TARGET naming the funds
    // check) and at a signal, when the run stops before any charge, so there is nothing left to price.
    // Its answers count with the command's (the fault tally of the report).
    err((await checkTargetFunds(target.config, plan, 'v2', (response) => faults.add(response), stop)).line);
  } catch (error) {
    if (stop?.aborted === true) return;
    throw error;
  }
}

export async function armMoney(money: CommandMoney, target: TargetSession): Promise<void> {
  await money.session.prepare(target.client, {
    label: target.label,
    mapping: target.config.fieldMapping,
    giftcardCursor: giftcardCursorOf(target.config),
    status: coreSettingsFor(target.config).status,
  });
  const line = allowanceLine(money.settings);
  if (line !== undefined) err(line);
}

/** What the money side adds to a command's report: the ledger section (when anything was recorded or refused), the fault tally, and the ledger's lines for the output. */
export interface MoneyOutcome {
  readonly report: { readonly ledger?: LedgerSection; readonly faults: FaultCounts };
  readonly lines: readonly string[];
  /** An interrupted run's charges still open after the short reconcile: the command that finishes them. */
  readonly reconcile?: string;
}

/** A ledger worth a report section: something was recorded, or the guard refused something. */
export function ledgerToReport(section: LedgerSection | undefined): LedgerSection | undefined {
  return section !== undefined && (section.entries > 0 || (section.refused ?? 0) > 0) ? section : undefined;
}

/**
 * End of the run: unresolved transactions reconciled; returns what goes into the command's report
 * (reports/assemble.ts combines the ledger's verdict with the command's own) and the lines to print after the verdict.
 */
export async function settleMoney(
  money: CommandMoney,
  target: TargetSession,
  options: { readonly allowSkips: boolean; readonly interrupted?: boolean },
): Promise<MoneyOutcome> {
  // Interrupted (SIGINT/SIGTERM): each open charge is polled for a short bounded time, as the load does; what stays
  // open gets the command that finishes it.
  const interrupted = options.interrupted === true;
  const finish = await money.session.finish(target.client, {
    allowSkips: options.allowSkips,
    ...(interrupted ? { deadlineMs: INTERRUPT_RECONCILE_MS } : {}),
  });
  const ledger = ledgerToReport(finish.section);
  const ledgerPath = money.session.ledgerPath;
  const open =
    interrupted && ledger !== undefined && ledger.unresolved.length > 0 && ledgerPath !== undefined ? ledger.unresolved.length : 0;
  const reconcile = open > 0 && ledgerPath !== undefined ? reconcileCommand(ledgerPath) : undefined;
  const lines = ledger === undefined ? [] : [...finish.lines, ...(reconcile === undefined ? [] : [stillOpenLine(open, reconcile)])];
  return {
    report: { ...(ledger === undefined ? {} : { ledger }), faults: money.faults.counts() },
    lines,
    ...(reconcile === undefined ? {} : { reconcile }),
  };
}
