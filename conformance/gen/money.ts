// GEN's stateful money sequences (one per version): every charging write of the catalog, valid or refused, alone or in
// concurrent groups with reads of known transactions, against the States and transitions model (gen/money-checks.ts).
import fc from 'fast-check';
import { cheapestSkus } from '../../api/catalog-facts.ts';
import { OPERATIONS, type ApiVersion, type Operation, type RequestBodyName } from '../../api/operations.ts';
import { bodyFacts, type BodyFacts } from '../request-rules.ts';
import { SECTION, V, submitAndFinish, transactionOf } from '../cases/common.ts';
import type { Fixtures, SkuFixture } from '../../target/fixtures.ts';
import { StepFailed, type CaseContext, type ConformanceCase } from '../types.ts';
import { bodyForSku } from '../bodies.ts';
import { GEN_MONEY_SKUS, amountChoices, idShape, usableSkus, type IdShape } from './arbitraries.ts';
import { FRESH_CHECK_BELOW } from '../fresh-id.ts';
import {
  STATE_RULES,
  STATUS_PURPOSES,
  checkEveryKnown,
  checkFollowUp,
  checkStatus,
  checkUnknownId,
  type Known,
  type Model,
} from './money-checks.ts';
import { chargingRuns, type GenOptions } from './options.ts';
import { genCase, type GenProbe } from './property.ts';
import { showInput, validBody, writeInput, type WriteInput } from './writes.ts';

/** Most writes of one generated sequence (a group counts each of its writes). */
const MAX_WRITES = 8;

/**
 * Valid writes of each kind one case may send per run of its budget, so the case's spend is known in advance
 * (conformance/money-plan.ts prices moneyQuota per operation): cheap kinds often, SIM activations and port-ins (the
 * dearest SKUs, ~36 USD on the sandbox's catalog) rarely. Refused writes charge nothing and are not counted; nor is a
 * failing property's shrinking (bounded by its time limit, as every GEN case's). A share is rounded down: a budget of
 * few runs (a small wallet) sends no valid write of a kind whose share is under one (it is still sent refused), so the
 * case's price is what it sends (before: rounded up, one of each kind at one run, ~75 USD priced for ~6 spent).
 */
const QUOTA_PER_RUN: Readonly<Record<string, number>> = {
  'transaction.topup': 1.5,
  'transaction.pin': 0.7,
  'transaction.billpay': 0.7,
  'transaction.giftcard': 0.7,
  'transaction.esim': 0.2,
  'transaction.sim-activation': 0.1,
  'transaction.sim-portin': 0.1,
};

/** The valid writes of this operation one money sequence case sends at most (before a failure is found). */
export function moneyQuota(options: GenOptions, op: Operation): number {
  return Math.floor(chargingRuns(options) * (QUOTA_PER_RUN[op.purpose] ?? 0.1) + 1e-9);
}

/** What a case may still spend, per operation id; lifted while a failure shrinks. */
interface Quota {
  readonly left: Map<string, number>;
  shrinking: boolean;
}
/** Most steps of one sequence; after each, every known transaction is read again. */
const MAX_STEPS = 8;
/** Most actions sent together in one step. */
const MAX_GROUP = 3;

/** The charging writes of a version with a request body: every one joins the sequences (money-plan.ts prices them). */
export const chargingWrites = (version: ApiVersion): Operation[] =>
  OPERATIONS.filter((op) => op.version === version && op.charges && op.requestBody !== undefined);

const IN_PROGRESS = 'Submitted → In progress → final';
const BESIDE = 'sent beside other writes';

/** The transitions of the States and transitions table each charging write of the version can take, as the coverage table counts them. */
const transitionSpace = (version: ApiVersion): string[] =>
  chargingWrites(version).flatMap((op) =>
    ['Submitted → Successful', 'Submitted → Failed', IN_PROGRESS, BESIDE].map((t) => `${op.id}: ${t}`),
  );

/** How a refused write breaks its body: an amount below its minimum, or a SKU of another category (both stated refusals). */
type Refusal = { readonly amount: number } | { readonly sku: SkuFixture };

type Action =
  | { readonly kind: 'write'; readonly op: Operation; readonly facts: BodyFacts; readonly input: WriteInput; readonly refusal?: Refusal }
  | { readonly kind: 'read'; readonly pick: number; readonly what: 'status' | 'follow-up' };

interface Real {
  readonly probe: GenProbe;
  readonly fx: Fixtures;
  readonly version: ApiVersion;
  readonly quota: Quota;
}

type Command = fc.AsyncCommand<Model, Real, false>;

const showRefusal = (r: Refusal): string =>
  'amount' in r ? `amount ${r.amount} below the minimum` : `SKU ${r.sku.skuId} of another category`;

function showAction(a: Action): string {
  if (a.kind === 'read') return `${a.what}(#${a.pick})`;
  const name = a.op.id.slice(a.op.id.indexOf('transaction.') + 'transaction.'.length);
  return `${name}(${a.refusal === undefined ? '' : `refused: ${showRefusal(a.refusal)}; `}${showInput(a.input)})`;
}

/** The body of a write as the step sends it: valid, or with its refusal applied. */
async function bodyOfWrite(real: Real, a: Extract<Action, { kind: 'write' }>): Promise<Record<string, unknown>> {
  const valid = await validBody(real.probe, real.fx, a.op, a.facts, a.input);
  return a.refusal === undefined
    ? valid
    : 'amount' in a.refusal
      ? { ...valid, amount: a.refusal.amount }
      : { ...valid, skuId: a.refusal.sku.skuId };
}

/** Sends one write and follows it to its final result ('852' polled on the status endpoint); the model learns it. */
async function sendWrite(
  real: Real,
  a: Extract<Action, { kind: 'write' }>,
  body: Record<string, unknown>,
): Promise<{ known: Known; charged?: number }> {
  const { probe, version } = real;
  const { submitted, final, code } = await submitAndFinish(probe, version, a.op.id, body);
  // "'852' ... poll repeatedly until another code is returned": submitAndFinish recorded a poll that never ended.
  const outcome = final?.response.classification.outcome;
  if (final === undefined || (outcome !== 'Successful' && outcome !== 'Failed')) throw new StepFailed('final');
  const view = transactionOf(probe, final, submitted);
  const ids = {
    ...(view.transactionId === undefined ? {} : { transactionId: view.transactionId }),
    ...(view.esimIccid === undefined ? {} : { esimIccid: view.esimIccid }),
  };
  probe.cover(`${a.op.id}: ${final === submitted ? `Submitted → ${outcome}` : IN_PROGRESS}`);
  const known: Known = { op: a.op, correlationId: body.correlationId as string, outcome, ...(code === undefined ? {} : { code }), ids };
  return { known, ...(outcome === 'Successful' && view.chargedAmount !== undefined ? { charged: view.chargedAmount } : {}) };
}

/** Every action of a step settled before the step ends (a write still in flight would move the next run's balance); then its first error. */
async function settleAll<T>(work: ReadonlyArray<Promise<T>>): Promise<T[]> {
  const settled = await Promise.allSettled(work);
  const rejected = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (rejected !== undefined) throw rejected.reason;
  return settled.map((r) => (r as PromiseFulfilledResult<T>).value);
}

/** A read of a transaction known before the step: its status (where the spec names one) or its follow-up read. */
async function readKnown(real: Real, known: readonly Known[], a: Extract<Action, { kind: 'read' }>): Promise<void> {
  const tx = known[a.pick % Math.max(1, known.length)];
  if (tx === undefined) return;
  if (a.what === 'status' && STATUS_PURPOSES.includes(tx.op.purpose)) await checkStatus(real.probe, real.version, tx);
  else await checkFollowUp(real.probe, real.version, tx);
}

/** One step: its actions sent together (writes beside each other and beside reads of earlier transactions); then every known transaction checked. */
class Step implements Command {
  constructor(
    readonly actions: readonly Action[],
    private readonly quota: Quota,
  ) {}
  private writes(): number {
    return this.actions.filter((a) => a.kind === 'write').length;
  }
  /** Valid writes of the step per operation id (what the quota counts). */
  private charging(): Map<string, number> {
    const by = new Map<string, number>();
    for (const a of this.actions) if (a.kind === 'write' && a.refusal === undefined) by.set(a.op.id, (by.get(a.op.id) ?? 0) + 1);
    return by;
  }
  check(model: Readonly<Model>): boolean {
    const within = this.quota.shrinking || [...this.charging()].every(([id, n]) => (this.quota.left.get(id) ?? 0) >= n);
    return within && model.writes + this.writes() <= MAX_WRITES;
  }
  async run(model: Model, real: Real): Promise<void> {
    model.writes += this.writes();
    for (const [id, n] of this.charging()) this.quota.left.set(id, (this.quota.left.get(id) ?? 0) - n);
    const before = [...model.known];
    // Bodies first (a generated id may be unusable: the input is skipped before anything is sent), then all at once.
    if (this.writes() > 1) for (const a of this.actions) if (a.kind === 'write') real.probe.cover(`${a.op.id}: ${BESIDE}`);
    const bodies: Array<Record<string, unknown> | undefined> = [];
    for (const a of this.actions) bodies.push(a.kind === 'write' ? await bodyOfWrite(real, a) : undefined);
    const done = await settleAll(
      this.actions.map((a, i) =>
        a.kind === 'write' ? sendWrite(real, a, bodies[i] as Record<string, unknown>) : readKnown(real, before, a).then(() => undefined),
      ),
    );
    for (const result of done) {
      if (result === undefined) continue;
      model.known.push(result.known);
      if (result.known.outcome !== 'Successful') continue;
      // Without a readable charge the model cannot predict the balance: the next read sets it again.
      model.balance = result.charged === undefined || model.balance === undefined ? undefined : model.balance + result.charged;
      model.unread += 1;
    }
    await checkEveryKnown(real.probe, real.version, model);
  }
  toString(): string {
    return this.actions.length === 1 ? showAction(this.actions[0] as Action) : `together(${this.actions.map(showAction).join(', ')})`;
  }
}

/** The status of a correlationId no write sent: never a success. */
class UnknownStatus implements Command {
  constructor(readonly shape: IdShape) {}
  check(): boolean {
    return true;
  }
  async run(_model: Model, real: Real): Promise<void> {
    await checkUnknownId(real.probe, real.version, real.probe.correlationId(this.shape.length, this.shape.chars));
  }
  toString(): string {
    return `unknown-status(${this.shape.length} ${this.shape.chars})`;
  }
}

/** The writes of the version a valid body can be built for, each among its category's cheapest SKUs. */
function writeSpaces(ctx: CaseContext, fx: Fixtures, version: ApiVersion): Array<{ op: Operation; facts: BodyFacts; skus: SkuFixture[] }> {
  return chargingWrites(version).flatMap((op) => {
    const facts = bodyFacts(op.requestBody as RequestBodyName);
    const skus = cheapestSkus(
      usableSkus(fx, facts).filter((s) => bodyForSku(ctx, fx, facts, s) !== undefined),
      GEN_MONEY_SKUS,
    );
    return skus.length === 0 ? [] : [{ op, facts, skus }];
  });
}

/** A stated refusal of the write: below the minimum amount when the body has one, else a SKU of another write's category. */
function refusalOf(
  space: { facts: BodyFacts; skus: SkuFixture[] },
  others: ReadonlyArray<{ sku: SkuFixture; category?: number }>,
  input: WriteInput,
): fc.Arbitrary<Refusal> | undefined {
  const currency = input.write.amount.transactionCurrencyCode;
  const min = amountChoices(input.write.sku).find((b) => b.transactionCurrencyCode === currency)?.min;
  if (space.facts.properties.includes('amount') && min !== undefined) {
    const minCents = Math.round(min * 100);
    return fc.integer({ min: 1, max: minCents + 500 }).map((d) => ({ amount: (minCents - d) / 100 }));
  }
  const foreign = others.filter((o) => o.category !== space.facts.skuCategory).map((o) => o.sku);
  return foreign.length === 0 ? undefined : fc.constantFrom(...foreign).map((sku) => ({ sku }));
}

function actionArbitrary(ctx: CaseContext, fx: Fixtures, version: ApiVersion): fc.Arbitrary<Action> {
  const spaces = writeSpaces(ctx, fx, version);
  if (spaces.length === 0) ctx.skip(`the catalog has no SKU a valid ${version} charging write can be built for`);
  const others = spaces.map((s) => ({
    sku: s.skus[0] as SkuFixture,
    ...(s.facts.skuCategory === undefined ? {} : { category: s.facts.skuCategory }),
  }));
  const writes = spaces.map(({ op, facts, skus }) =>
    writeInput(facts, skus).chain((input) => {
      const refusal = refusalOf({ facts, skus }, others, input);
      const valid = fc.constant<Action>({ kind: 'write', op, facts, input });
      // One write in four is refused: a failure must not move the balance, and its final result stays a failure.
      return refusal === undefined
        ? valid
        : fc.oneof(
            { weight: 3, arbitrary: valid },
            { weight: 1, arbitrary: refusal.map((r): Action => ({ kind: 'write', op, facts, input, refusal: r })) },
          );
    }),
  );
  const read = fc.record({
    kind: fc.constant('read' as const),
    pick: fc.nat(20),
    what: fc.constantFrom('status' as const, 'follow-up' as const),
  });
  return fc.oneof({ weight: 3, arbitrary: fc.oneof(...writes) }, { weight: 1, arbitrary: read });
}

export function moneyCase(options: GenOptions, version: ApiVersion): ConformanceCase {
  const quota: Quota = { left: new Map(), shrinking: false };
  // A wallet too small for the whole plan cuts the charging runs (conformance/money-plan.ts fits them to the balance).
  return genCase<Iterable<Command>>(
    { ...options, budget: { ...options.budget, runs: chargingRuns(options) } },
    {
      id: `GEN-MONEY-SEQUENCE-${V(version)}`,
      title: `every ${version} charging write (valid or refused), alone or beside others, with status and follow-up reads in any order: each transaction's final result stays final, '852' ends, an unknown correlationId is never a success, the balance moves with every success and never with a failure`,
      specSection: `${SECTION.states}; ${SECTION.writes} (Per-operation rules: Gift card, Status check, Balance); ${SECTION.errors}`,
      rule: STATE_RULES.join(' '),
      api: version,
      exclusive: true,
      assumed: [
        'charged amount read from the result at fieldMapping.transaction.chargedAmount',
        'a succeeded port-in and eSIM answer their status read, a succeeded gift card its fetch (the reads the spec links to their ids)',
      ],
      arbitrary(ctx, fx) {
        quota.shrinking = false;
        for (const op of chargingWrites(version)) quota.left.set(op.id, moneyQuota(options, op));
        const step = fc
          .array(actionArbitrary(ctx, fx, version), { minLength: 1, maxLength: MAX_GROUP })
          .map((actions) => new Step(actions, quota) as Command);
        const unknown = idShape(FRESH_CHECK_BELOW, 50).map((shape) => new UnknownStatus(shape) as Command);
        // fast-check picks among the listed arbitraries alike: steps are listed thrice, so a sequence mostly moves money.
        return fc.commands([step, step, step, unknown], {
          maxCommands: MAX_STEPS,
          size: 'max',
          ...(options.replay?.commands === undefined ? {} : { replayPath: options.replay.commands }),
        });
      },
      show: (commands) => [...commands].map(String).join(' → '),
      space: () => transitionSpace(version),
      // fast-check replays a shrunk command sequence from its replay path (in the sequence's own rendering).
      replayTail: (commands) => /replayPath="([^"]*)"/.exec(String(commands))?.[1],
      async run(probe, commands, fx) {
        const start = await probe.balance(version);
        if (start === undefined) throw new StepFailed('balance');
        try {
          await fc.asyncModelRun(
            () => ({ model: { balance: start, unread: 0, writes: 0, known: [] }, real: { probe, fx, version, quota } }),
            commands,
          );
        } catch (error) {
          // A broken rule: the property now shrinks, which may send more than the quota (bounded by its time limit).
          if (error instanceof StepFailed) quota.shrinking = true;
          throw error;
        }
      },
    },
  );
}
