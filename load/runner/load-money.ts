// The harness half of a load run's money safety: the plan priced against the wallet before the first charge, the
// guard armed for a charging run (ledger file, price book, balance read, the data every VU's hooks get), and the
// reconciliation after it. The bundle's half is ledger/hooks.ts in every VU.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FaultTally } from '../../api/faults.ts';
import { giftcardCursorOf, type ResolvedTargetConfig, type TargetConfig } from '../../api/target-config.ts';
import { createGatewayClient, coreSettingsFor, type GatewayClient } from '../../client/gateway-client.ts';
import { SHARED_BUDGET_BYTES } from '../../ledger/budget.ts';
import type { EngineMoneyData } from '../../ledger/engine-host.ts';
import { checkTargetFunds } from '../../ledger/funds-check.ts';
import { allowanceLine } from '../../ledger/guard.ts';
import { createMoneySession, harnessClientConfig, type MoneySession } from '../../ledger/money-session.ts';
import { startRecordingGate, type RecordingGate } from '../../ledger/recording-gate.ts';
import { toCents, type MoneySettings } from '../../ledger/money-settings.ts';
import type { K6SummaryData } from '../../reports/k6-summary.ts';
import type { LedgerSection } from '../../reports/model.ts';
import { INTERRUPT_RECONCILE_MS, reconcileCommand, stillOpenLine } from '../../reports/interruption.ts';
import { credentialSecrets } from '../../reports/redact-report.ts';
import { METRICS } from '../metric-names.ts';
import { scenarioOperations } from '../scenarios.ts';
import type { LoadFlags } from './load-options.ts';
import { loadFundsPlan } from './money-plan.ts';
import { PRICES_FILE } from './report-files.ts';

/** What a guarded run holds open: the harness's own client and the money session (the run closes both, whatever happens). */
export interface MoneyParts {
  harness?: GatewayClient;
  session?: MoneySession;
  /** A guarded k6 run's recording gate (ledger/recording-gate.ts): closed after k6, once every request it took is answered. */
  gate?: RecordingGate;
  /** Set by the k6 step: what stops k6 when the gate refused a request whose line could not be made durable. */
  onGateRefused?: (why: string) => void;
}

export interface ArmedMoney {
  /** The scenario charges and the run keeps a ledger or a cap. */
  readonly guarded: boolean;
  /** The price book every VU reads (a guarded run). */
  readonly pricesFile?: string;
  /** The Node engine threads' money host data (a guarded run). */
  readonly engineMoney?: EngineMoneyData;
  /** The recording gate's URL, a guarded k6 run's charging requests go through. */
  readonly recorder?: string;
}

export interface MoneyRun {
  readonly flags: LoadFlags;
  readonly config: TargetConfig;
  readonly resolved: ResolvedTargetConfig;
  readonly money: MoneySettings;
  readonly runId: string;
  readonly reportDir: string;
  readonly targetLabel: string;
  readonly harnessFaults: FaultTally;
  readonly say: (line: string) => void;
  readonly signal?: AbortSignal;
  /** k6 runs get the recording gate. */
  readonly engine: 'k6' | 'node';
}

/**
 * Before the first charge, a charging scenario's plan is priced against the balance (a wallet that cannot cover it
 * stops here, exit 2); a guarded run then gets its ledger, price book and balance read, held in `parts`.
 */
export async function armMoney(run: MoneyRun, parts: MoneyParts): Promise<ArmedMoney> {
  const version = run.flags.api === 'v1' ? 'v1' : 'v2';
  const charging = scenarioOperations(run.flags.scenario, run.flags.api).some((op) => op.charges);
  if (charging) {
    const funds = await checkTargetFunds(
      run.resolved,
      loadFundsPlan(run.flags),
      version,
      (response) => run.harnessFaults.add(response),
      run.signal,
    );
    run.say(funds.line);
  }
  const guarded = charging && (run.money.ledger || run.money.cap !== undefined);
  return guarded ? { guarded, ...(await openMoneySession(run, parts)) } : { guarded };
}

async function openMoneySession(
  run: MoneyRun,
  parts: MoneyParts,
): Promise<{ pricesFile: string; engineMoney: EngineMoneyData; recorder?: string }> {
  const { config, money } = run;
  const secrets = credentialSecrets(config.user, config.password);
  const harness = createGatewayClient(harnessClientConfig(run.resolved), {
    hooks: { afterResponse: (exchange) => run.harnessFaults.add(exchange.response) },
  });
  parts.harness = harness;
  const session = createMoneySession({
    settings: money,
    command: 'load',
    runId: run.runId,
    reportDir: run.reportDir,
    secrets,
    balanceVersion: run.flags.api === 'v1' ? 'v1' : 'v2',
    info: run.say,
  });
  parts.session = session;
  await session.prepare(harness, {
    label: run.targetLabel,
    mapping: config.fieldMapping,
    giftcardCursor: giftcardCursorOf(run.resolved),
    status: coreSettingsFor(run.resolved).status,
  });
  // Said once the allowance is known to hold (prepare refuses a cap in another currency than the wallet's).
  const line = allowanceLine(money);
  if (line !== undefined) run.say(line);
  // The price book (with a cap) and the wallet currency (always) for every VU's hooks.
  const pricesFile = join(run.reportDir, PRICES_FILE);
  writeFileSync(pricesFile, JSON.stringify(session.prices));
  const engineMoney: EngineMoneyData = {
    ...(session.ledgerPath === undefined ? {} : { ledgerPath: session.ledgerPath }),
    ...(money.cap === undefined ? {} : { cells: new SharedArrayBuffer(SHARED_BUDGET_BYTES), capCents: toCents(money.cap.amount) }),
    secrets,
  };
  // k6 cannot wait for its line to be durable, so its charging requests go through a gate here that writes and
  // fsyncs the line before forwarding, and refuses (stopping k6) when it cannot (ledger/recording-gate.ts).
  if (run.engine === 'k6' && session.writer !== undefined) {
    parts.gate = await startRecordingGate({
      origin: new URL(run.resolved.baseUrl).origin,
      writer: session.writer,
      timeoutMs: config.timeouts.connectMs + config.timeouts.responseMs,
      onRefused: (why) => parts.onGateRefused?.(why),
    });
    return { pricesFile, engineMoney, recorder: parts.gate.url };
  }
  return { pricesFile, engineMoney };
}

/** What the ledger section must show of the gate's refusals: charging requests not sent, their lines not durable. */
export function gateDefects(gate: RecordingGate | undefined): string[] {
  const refused = gate?.refused() ?? 0;
  return refused === 0 ? [] : [`${refused} charging request(s) not sent: their ledger line could not be written (${gate?.refusedWhy()})`];
}

/**
 * Every transaction not final is polled until final or the deadline (a short bounded one when the run was interrupted
 * or the ledger guard killed k6); what stays open is listed with the command that finishes it, and the run is incomplete.
 */
export async function reconcileRunLedger(
  parts: MoneyParts,
  end: {
    readonly summaryData: K6SummaryData | undefined;
    readonly defects: readonly string[];
    readonly cutShort: boolean;
    readonly say: (line: string) => void;
  },
): Promise<{ readonly ledger?: LedgerSection; readonly reconcile?: string }> {
  const { session, harness } = parts;
  if (session === undefined || harness === undefined) return {};
  // The bundle's refusals (cap, unbounded charge), and the recording gate's (a line not durable: not sent), counted by the gate.
  const refused = (end.summaryData?.metrics[METRICS.chargesRefused]?.values.count ?? 0) + (parts.gate?.refused() ?? 0);
  const finish = await session.finish(harness, {
    allowSkips: false,
    refused,
    defects: end.defects,
    ...(end.cutShort ? { deadlineMs: INTERRUPT_RECONCILE_MS } : {}),
  });
  // A ledger worth reporting: something was recorded or refused (a read-only production run has none).
  const ledger =
    finish.section !== undefined && (finish.section.entries > 0 || (finish.section.refused ?? 0) > 0) ? finish.section : undefined;
  if (ledger === undefined) return {};
  for (const line of finish.lines) end.say(line);
  if (ledger.unresolved.length === 0 || session.ledgerPath === undefined) return { ledger };
  const reconcile = reconcileCommand(session.ledgerPath);
  end.say(stillOpenLine(ledger.unresolved.length, reconcile));
  return { ledger, reconcile };
}
