// GEN's stateful money sequences: top-ups, status checks and balance reads in generated order, with correlationIds of
// every valid length and class, against a model of the wallet (fast-check model-based commands); shrunk to the shortest sequence.
import fc from 'fast-check';
import { cheapestSkus } from '../../api/catalog-facts.ts';
import { bodyFacts } from '../request-rules.ts';
import { describeResponse } from '../../api/describe.ts';
import { SECTION, submitAndFinish, transactionOf } from '../cases/common.ts';
import type { Fixtures } from '../../target/fixtures.ts';
import { StepFailed, type CaseContext, type ConformanceCase } from '../types.ts';
import { bodyForSku } from '../bodies.ts';
import { showId, showWrite, uniqueId, usableSkus, validWrite, type ValidWrite } from './arbitraries.ts';
import { chargingRuns, type GenOptions } from './options.ts';
import { genCase } from './property.ts';

const VERSION = 'v2';

/** SKUs of each kind a money sequence writes with: the cheapest (api/catalog-facts.ts cheapestSkus), priced in advance. */
export const GEN_MONEY_SKUS = 5;

/** Most commands of one generated sequence (every one may be a write): what conformance/money-plan.ts counts. */
export const GEN_MONEY_MAX_COMMANDS = 10;

/** What the spec lets a client predict: the balance after every success, and each transaction's final outcome. */
interface Model {
  balance: number | undefined;
  /** Successes since the balance was last read: each charged amount as the result states it may be rounded (to the cent). */
  unread: number;
  readonly transactions: Array<{ readonly correlationId: string; readonly outcome: 'Successful' | 'Failed' }>;
  /** Transaction ids of the succeeded gift card purchases (fieldMapping.transaction.transactionId). */
  readonly giftcards: Array<string | number>;
}

interface Real {
  readonly probe: CaseContext;
  readonly fx: Fixtures;
}

type Command = fc.AsyncCommand<Model, Real, false>;

/** Ends the sequence at its first broken rule: the failure is on record, the rest would only lengthen the reproduction. */
function broken(real: Real, failure: Parameters<CaseContext['fail']>[0]): never {
  real.probe.fail(failure);
  throw new StepFailed(failure.check);
}

/** One generated write of the sequence: a top-up (any SKU, amount, id shape), or a PIN or gift card purchase. */
export interface GenWrite {
  readonly kind: 'topup' | 'pin' | 'giftcard';
  readonly write: ValidWrite;
}

const WRITE_OPS: Readonly<Record<GenWrite['kind'], string>> = { topup: 'v2.transaction.topup', pin: 'v2.transaction.pin', giftcard: 'v2.transaction.giftcard' };

async function bodyOf(real: Real, w: GenWrite): Promise<Record<string, unknown> | undefined> {
  const correlationId = await uniqueId(w.write.id, real.probe, VERSION);
  if (w.kind === 'topup') return { skuId: w.write.sku.skuId, mobile: real.fx.mobile(w.write.sku.countryCode as string), correlationId, ...w.write.amount };
  // PIN and gift card bodies from their schemas' required fields (conformance/bodies.ts), with the generated id.
  const body = bodyForSku(real.probe, real.fx, bodyFacts(w.kind), w.write.sku);
  return body === undefined ? undefined : { ...body, correlationId };
}

const showGenWrite = (w: GenWrite): string => (w.kind === 'topup' ? `topup(${showWrite(w.write)})` : `${w.kind}(SKU ${w.write.sku.skuId}, ${showId(w.write.id)})`);

/**
 * Writes sent together, each followed to its final answer. The sequence sends one at a time: fast-check's command
 * shrinking does not shrink inside a command, so a group would keep a reproduction longer than it needs to be.
 */
class Writes implements Command {
  constructor(readonly writes: readonly GenWrite[]) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const done = await Promise.all(
      this.writes.map(async (w) => {
        const body = await bodyOf(real, w);
        if (body === undefined) return undefined;
        return { w, body, ...(await submitAndFinish(real.probe, VERSION, WRITE_OPS[w.kind], body)) };
      }),
    );
    for (const result of done) {
      if (result === undefined) continue;
      const { w, body, submitted, final } = result;
      // '852' always ends in a final code (submitAndFinish records it when it does not).
      if (final === undefined) throw new StepFailed('final');
      const outcome = final.response.classification.outcome;
      if (outcome !== 'Successful' && outcome !== 'Failed') throw new StepFailed('final');
      model.transactions.push({ correlationId: body.correlationId as string, outcome });
      if (outcome !== 'Successful') continue;
      const view = transactionOf(real.probe, final, submitted);
      if (w.kind === 'giftcard' && view.transactionId !== undefined) model.giftcards.push(view.transactionId);
      // Without a readable charge the model cannot predict the balance: the next read sets it again.
      model.balance = view.chargedAmount === undefined || model.balance === undefined ? undefined : model.balance + view.chargedAmount;
      model.unread += 1;
    }
  }
  toString(): string {
    return this.writes.length === 1 ? showGenWrite(this.writes[0] as GenWrite) : `together(${this.writes.map(showGenWrite).join(', ')})`;
  }
}

class GiftcardFetch implements Command {
  constructor(readonly pick: number) {}
  check(model: Readonly<Model>): boolean {
    return model.giftcards.length > 0;
  }
  async run(model: Model, real: Real): Promise<void> {
    const id = model.giftcards[this.pick % model.giftcards.length] as string | number;
    const fetched = await real.probe.call(`${VERSION}.transaction.giftcard-fetch`, { path: { id } });
    if (fetched.response.classification.outcome === 'Successful') return;
    broken(real, {
      check: 'giftcard-fetch-answers',
      operation: fetched.request.operationId,
      message: `the gift card of the succeeded purchase ${String(id)} could not be fetched`,
      expected: "HTTP 200, responseCode '000'",
      received: describeResponse(fetched.response),
      request: fetched.request,
    });
  }
  toString(): string {
    return `giftcard-fetch(#${this.pick})`;
  }
}

class Balance implements Command {
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const balance = await real.probe.balance(VERSION);
    if (balance === undefined) throw new StepFailed('balance');
    // BAL-CHARGE's tolerance (a cent and a bit) for each charge since the last read.
    if (model.balance !== undefined && Math.abs(balance - model.balance) > 0.011 * Math.max(1, model.unread)) {
      broken(real, {
        check: 'balance-follows-charges',
        operation: `${VERSION}.account.balance`,
        message: 'the balance does not equal the start balance moved by the charged amount of every successful transaction (and by nothing else)',
        expected: `balance ${Math.round(model.balance * 100) / 100} (± ${(0.011 * Math.max(1, model.unread)).toFixed(3)})`,
        received: `balance ${balance}`,
      });
    }
    model.balance = balance;
    model.unread = 0;
  }
  toString(): string {
    return 'balance()';
  }
}

class Status implements Command {
  constructor(readonly pick: number) {}
  check(model: Readonly<Model>): boolean {
    return model.transactions.length > 0;
  }
  async run(model: Model, real: Real): Promise<void> {
    const tx = model.transactions[this.pick % model.transactions.length] as Model['transactions'][number];
    const status = await real.probe.call(`${VERSION}.transaction.status`, { path: { correlationId: tx.correlationId } });
    const outcome = status.response.classification.outcome;
    if (outcome === tx.outcome) return;
    broken(real, {
      check: 'status-stays-final',
      operation: status.request.operationId,
      message: `the status of ${tx.correlationId} (${tx.correlationId.length} characters) is not its final result`,
      expected: tx.outcome === 'Successful' ? "'000' (the transaction succeeded)" : "a final failure (not '000', not '852')",
      received: describeResponse(status.response),
      request: status.request,
    });
  }
  toString(): string {
    return `status(#${this.pick})`;
  }
}

export function moneyCase(options: GenOptions): ConformanceCase {
  return genCase<Iterable<Command>>({ ...options, budget: { ...options.budget, runs: chargingRuns(options) } }, {
    id: 'GEN-MONEY-SEQUENCE-V2',
    title: 'top-ups, PINs and gift cards, status checks, gift card fetches and balance reads in any order: every transaction is found by its correlationId and stays final, the balance moves with every success and never with a failure',
    specSection: `${SECTION.writes} (Balance; Status check); ${SECTION.states}`,
    rule:
      "Balance: real-time balance of the wallet. Status check: returns the final status of an earlier RTR or PIN (and gift card) transaction identified by its correlationId. '852' means in progress; poll repeatedly until another code is returned. A transaction is successful only if HTTP status is 200 and responseCode is '000'.",
    api: VERSION,
    exclusive: true,
    assumed: ['charged amount read from the result at fieldMapping.transaction.chargedAmount'],
    arbitrary(ctx, fx) {
      const usable = usableSkus(fx, bodyFacts('topup')).filter((s) => s.countryCode !== undefined && fx.mobile(s.countryCode) !== undefined);
      const skus = cheapestSkus(usable, GEN_MONEY_SKUS);
      if (skus.length === 0) ctx.skip('the catalog has no RTR SKU with readable amount bounds in a country with a number plan');
      // PIN and gift card SKUs whose schema-required fields the catalog fills (the cheapest few, so a sequence stays cheap).
      const fillable = (kind: 'pin' | 'giftcard') => cheapestSkus(usableSkus(fx, bodyFacts(kind)).filter((s) => bodyForSku(ctx, fx, bodyFacts(kind), s) !== undefined), GEN_MONEY_SKUS);
      // Top-ups weigh most: their amounts (cents included) and ids span the space; PINs and gift cards join the sequence.
      const writes: Array<fc.WeightedArbitrary<GenWrite>> = [{ arbitrary: validWrite(skus, 50).map((write) => ({ kind: 'topup' as const, write })), weight: 6 }];
      for (const kind of ['pin', 'giftcard'] as const) {
        const own = fillable(kind);
        if (own.length > 0) writes.push({ arbitrary: validWrite(own, 50).map((write) => ({ kind, write })), weight: 1 });
      }
      const write = fc.oneof(...writes);
      // fast-check picks among the listed arbitraries alike: writes and balance reads are listed twice, so a sequence
      // mostly moves money and reads it (what the balance rule needs), with status checks and fetches between.
      const writeCommand = write.map((w) => new Writes([w]) as Command);
      const balance = fc.constant(new Balance() as Command);
      return fc.commands(
        [writeCommand, writeCommand, balance, balance, fc.nat(20).map((n) => new Status(n) as Command), fc.nat(20).map((n) => new GiftcardFetch(n) as Command)],
        { maxCommands: GEN_MONEY_MAX_COMMANDS, size: 'max', ...(options.replay?.commands === undefined ? {} : { replayPath: options.replay.commands }) },
      );
    },
    show: (commands) => [...commands].map(String).join(' → '),
    // fast-check replays a shrunk command sequence from its replay path (in the sequence's own rendering).
    replayTail: (commands) => /replayPath="([^"]*)"/.exec(String(commands))?.[1],
    async run(probe, commands, fx) {
      const start = await probe.balance(VERSION);
      if (start === undefined) throw new StepFailed('balance');
      await fc.asyncModelRun(() => ({ model: { balance: start, unread: 0, transactions: [], giftcards: [] }, real: { probe, fx } }), commands);
    },
  });
}
