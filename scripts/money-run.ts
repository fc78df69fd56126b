// How a Node command (migrate, baseline) runs with the money guard: refuse before anything starts, print the plan on
// --dry-run, give the target session's client the guard's hooks, and at the end reconcile, print and attach the ledger.
import type { TargetConfig } from '../api/target-config.ts';
import { coreSettingsFor } from '../client/gateway-client.ts';
import type { TargetSession } from '../drift/target-session.ts';
import { allowanceLine, assertChargesAllowed } from '../ledger/guard.ts';
import { createMoneySession, type MoneySession } from '../ledger/money-session.ts';
import type { MoneySettings } from '../ledger/money-settings.ts';
import { planLines, type MoneyPlan } from '../ledger/plan.ts';
import { attachFaultCounts, attachLedgerSection } from '../ledger/report.ts';
import type { ClientHooks } from '../api/client-core.ts';
import { createFaultTally, faultLine, type FaultTally } from '../api/faults.ts';
import { composeHooks } from '../ledger/hooks.ts';
import { credentialSecrets } from '../reports/redact-report.ts';
import { combineVerdicts, type Verdict } from '../reports/verdict.ts';
import { moneySettingsFrom, type MoneyOptions } from './money-options.ts';

const err = (line: string): void => {
  process.stderr.write(`${line}\n`);
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
  assertChargesAllowed(plan.what, plan.items.map((i) => i.operation), settings);
  return settings;
}

export function openCommandMoney(settings: MoneySettings, run: { readonly command: string; readonly runId: string; readonly reportDir: string; readonly config: TargetConfig }): CommandMoney {
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
export async function armMoney(money: CommandMoney, target: TargetSession): Promise<void> {
  const line = allowanceLine(money.settings);
  if (line !== undefined) err(line);
  await money.session.prepare(target.client, { label: target.label, mapping: target.config.fieldMapping, status: coreSettingsFor(target.config).status });
}

/**
 * End of the run: unresolved transactions reconciled, the ledger's lines printed, its section added to the reports the
 * command wrote in `reportDir`; returns the command's verdict combined with the ledger's.
 */
export async function settleMoney(
  money: CommandMoney,
  target: TargetSession,
  verdict: Verdict,
  options: { readonly allowSkips: boolean; readonly reportDir: string; readonly files: Parameters<typeof attachLedgerSection>[2] },
): Promise<Verdict> {
  const finish = await money.session.finish(target.client, { allowSkips: options.allowSkips });
  for (const line of finish.lines) process.stdout.write(`${line}\n`);
  process.stdout.write(`faults seen: ${faultLine(money.faults.counts())}\n`);
  attachFaultCounts(options.reportDir, money.faults.counts(), { json: options.files.json ?? [], md: options.files.md ?? [] });
  if (finish.section === undefined) return verdict;
  attachLedgerSection(options.reportDir, finish.section, options.files);
  return combineVerdicts([verdict, finish.section.verdict]);
}
