// POLL: under concurrent load (≥ 50 top-ups mixing ordinary numbers and every trigger) every transaction reaches a
// final state through status polling within the deadline, each final outcome matches its trigger, none stays Unknown.
import type { ApiVersion } from '../../api/operations.ts';
import { describeResponse } from '../../api/describe.ts';
import { finalOf, type FinalResult } from './final.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import { ASSUMED, SECTION, V, VERSIONS, rtrTarget, topupBody } from './common.ts';
import { TRIGGERS, triggerBody, type TriggerSpec } from './trg.ts';
import { SANDBOX_LOOKUP_COUNTRIES } from '../../api/catalog-facts.ts';
import { mapWithLimit } from '../runner.ts';

/** One kind per slot: ordinary numbers of the four lookup countries and each trigger, round robin. */
type Kind = { readonly type: 'ordinary'; readonly country: string } | { readonly type: 'trigger'; readonly trigger: TriggerSpec };

const KINDS: readonly Kind[] = [
  ...SANDBOX_LOOKUP_COUNTRIES.map((country): Kind => ({ type: 'ordinary', country })),
  ...TRIGGERS.map((trigger): Kind => ({ type: 'trigger', trigger })),
];

const MAX_REPORTED = 8;

interface Tx {
  readonly kind: Kind;
  readonly body: Record<string, unknown>;
  submitted?: Exchange;
  submittedAt?: number;
  /** The final result: the direct answer when it was final, else the status answer that ended the polling. */
  result?: FinalResult;
  /** True when the direct answer was final (its code is the one the trigger table names). */
  answeredFinal: boolean;
  final: boolean;
  lastSeen?: Exchange;
}

/** What the trigger table calls for: ordinary → '000'; ends 510/500, the 001 trigger → their code; delays → any final. */
function expected(kind: Kind): FinalResult | undefined {
  if (kind.type === 'ordinary') return { outcome: 'Successful', code: '000' };
  return 'code' in kind.trigger.effect ? { outcome: 'Failed', code: kind.trigger.effect.code } : undefined;
}

/** A final result against the expectation: the code when the direct answer carried it, the outcome class otherwise. */
function matches(tx: Tx): boolean {
  const want = expected(tx.kind);
  if (want === undefined || tx.result === undefined) return true;
  return tx.answeredFinal ? tx.result.code === want.code : tx.result.outcome === want.outcome;
}

function label(kind: Kind): string {
  return kind.type === 'ordinary' ? `ordinary ${kind.country}` : `trigger ${kind.trigger.key}`;
}

async function build(ctx: CaseContext, kind: Kind): Promise<Record<string, unknown>> {
  if (kind.type === 'trigger') return triggerBody(ctx, kind.trigger);
  const fx = await ctx.fixtures();
  const { sku, mobile } = rtrTarget(ctx, fx, [kind.country, ...SANDBOX_LOOKUP_COUNTRIES]);
  return topupBody(ctx, sku, mobile);
}

/** The slots round robin over KINDS, each with its top-up body. */
async function buildTxs(ctx: CaseContext, n: number): Promise<Tx[]> {
  const txs: Tx[] = [];
  for (let i = 0; i < n; i++) {
    const kind = KINDS[i % KINDS.length] as Kind;
    txs.push({ kind, body: await build(ctx, kind), final: false, answeredFinal: false });
  }
  return txs;
}

/** All at once: the load is the point. Delayed triggers get the short client timeout, so they end Unknown. */
async function submitAll(ctx: CaseContext, version: ApiVersion, txs: readonly Tx[]): Promise<void> {
  await Promise.all(
    txs.map(async (tx) => {
      const delay = tx.kind.type === 'trigger' && 'delayMs' in tx.kind.trigger.effect ? tx.kind.trigger.effect.delayMs : undefined;
      const options = delay === undefined ? {} : { timeoutMs: ctx.timing.delayTimeoutMs(delay) };
      tx.submittedAt = Date.now();
      tx.submitted = await ctx.call(`${version}.transaction.topup`, { body: tx.body }, options);
      const result = finalOf(tx.submitted);
      if (result !== undefined) {
        tx.final = true;
        tx.answeredFinal = true;
        tx.result = result;
      }
    }),
  );
}

/** Reads one correlationId back through the status endpoint until final (the client's recovery path). */
async function pollBack(ctx: CaseContext, version: ApiVersion, tx: Tx, started: number): Promise<void> {
  const poll = await ctx.pollStatus(version, String(tx.body.correlationId), { submittedAt: tx.submittedAt ?? started });
  if (poll.last !== undefined) tx.lastSeen = poll.last;
  if (!poll.final) {
    tx.final = false;
    return;
  }
  const seen = finalOf(poll.last);
  if (tx.result !== undefined && seen !== undefined && seen.outcome !== tx.result.outcome) {
    ctx.fail({
      check: 'final-stays-final',
      operation: `${version}.transaction.status`,
      message: `${label(tx.kind)}: the status endpoint reports another outcome than the final response`,
      expected: `outcome ${tx.result.outcome}`,
      received: poll.last === undefined ? 'no status' : `${seen.outcome}: ${describeResponse(poll.last.response)}`,
      ...(poll.last === undefined ? {} : { request: poll.last.request }),
    });
  } else if (tx.result?.code !== undefined && seen?.code !== undefined && seen.code !== tx.result.code) {
    // The spec does not say the status check repeats the very code of the original answer.
    ctx.fail({
      check: 'status-code-differs',
      severity: 'warning',
      operation: `${version}.transaction.status`,
      message: `${label(tx.kind)}: the status reports the same outcome with another code than the final response`,
      expected: `responseCode '${tx.result.code}' (not required)`,
      received: poll.last === undefined ? 'no status' : describeResponse(poll.last.response),
      ...(poll.last === undefined ? {} : { request: poll.last.request }),
    });
  }
  tx.final = true;
  tx.result ??= seen;
}

/** None stays Unknown: every correlationId final within the poll deadline. */
function checkNoneUnknown(ctx: CaseContext, version: ApiVersion, txs: readonly Tx[]): void {
  const unknown = txs.filter((tx) => !tx.final);
  if (unknown.length === 0) return;
  ctx.fail({
    check: 'no-unknown-left',
    operation: `${version}.transaction.status`,
    message: `${unknown.length} of ${txs.length} transactions were not final within ${ctx.timing.pollDeadlineMs} ms`,
    expected: 'every correlationId final',
    received: unknown
      .slice(0, MAX_REPORTED)
      .map(
        (tx) =>
          `${label(tx.kind)} ${String(tx.body.correlationId)}: ${tx.lastSeen === undefined ? 'no status' : describeResponse(tx.lastSeen.response)}`,
      )
      .join('; '),
  });
}

/** Each final outcome is the one its trigger calls for. */
function checkOutcomesMatch(ctx: CaseContext, version: ApiVersion, txs: readonly Tx[]): void {
  const wrong = txs.filter((tx) => tx.final && !matches(tx));
  if (wrong.length === 0) return;
  ctx.fail({
    check: 'final-matches-trigger',
    operation: `${version}.transaction.topup`,
    message: `${wrong.length} of ${txs.length} transactions ended with another code than their trigger calls for`,
    expected:
      'ordinary → 000; ends 510 → 510; ends 500 → 500; 1876…888 with skuId 193 below minimum → 001 (the class only when the answer came through the status check)',
    received: wrong
      .slice(0, MAX_REPORTED)
      .map((tx) => `${label(tx.kind)} → ${tx.result?.outcome ?? '?'} '${tx.result?.code ?? '?'}'`)
      .join('; '),
  });
}

function pollCase(version: ApiVersion): ConformanceCase {
  return {
    kind: 'scenario',
    id: `POLL-MIXED-${V(version)}`,
    group: 'POLL',
    title: 'concurrent top-ups (ordinary numbers and every trigger) all reach the final state their trigger calls for',
    specSection: `${SECTION.states}; ${SECTION.triggers}; ${SECTION.overview} (Recommended integration flow 3)`,
    rule: "If the client times out, do not assume failure (the account may be charged). Poll the status endpoint with the correlationId until the result is final. '852' means in progress; poll repeatedly until another code is returned.",
    api: version,
    assumed: [ASSUMED.skuFields, 'ordinary valid top-ups end in success (000)'],
    async scenario(ctx) {
      const n = ctx.settings.pollLoadTransactions;
      const txs = await buildTxs(ctx, n);
      ctx.note(`${n} top-ups: ${KINDS.map((k) => `${txs.filter((t) => t.kind === k).length}× ${label(k)}`).join(', ')}`);
      const started = Date.now();
      await submitAll(ctx, version, txs);
      await mapWithLimit(txs, 16, (tx) => pollBack(ctx, version, tx, started));
      ctx.note(`all polled in ${Date.now() - started} ms`);
      checkNoneUnknown(ctx, version, txs);
      checkOutcomesMatch(ctx, version, txs);
    },
  };
}

export const POLL_CASES: readonly ConformanceCase[] = VERSIONS.map(pollCase);
