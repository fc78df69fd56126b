// GEN's stateful money sequences: top-ups, status checks and balance reads in generated order, with correlationIds of
// every valid length and class, against a model of the wallet (fast-check model-based commands); shrunk to the shortest sequence.
import fc from 'fast-check';
import { getOperation } from '../../api/operations.ts';
import { bodyFacts } from '../request-rules.ts';
import { describeResponse } from '../checks.ts';
import { SECTION, submitAndFinish, transactionOf } from '../cases/common.ts';
import type { Fixtures } from '../fixtures.ts';
import { StepFailed, type CaseContext, type ConformanceCase } from '../types.ts';
import { showWrite, uniqueId, usableSkus, validWrite, type ValidWrite } from './arbitraries.ts';
import type { GenOptions } from './options.ts';
import { genCase } from './property.ts';

const VERSION = 'v2';
const TOPUP = getOperation('v2.transaction.topup');

/** What the spec lets a client predict: the balance after every success, and each transaction's final outcome. */
interface Model {
  balance: number | undefined;
  readonly transactions: Array<{ readonly correlationId: string; readonly outcome: 'Successful' | 'Failed' }>;
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

class Topup implements Command {
  constructor(readonly write: ValidWrite) {}
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const body = { skuId: this.write.sku.skuId, mobile: real.fx.mobile(this.write.sku.countryCode as string), correlationId: uniqueId(this.write.id, real.fx), ...this.write.amount };
    const { submitted, final } = await submitAndFinish(real.probe, VERSION, TOPUP.id, body);
    // '852' always ends in a final code (submitAndFinish records it when it does not).
    if (final === undefined) throw new StepFailed('final');
    const outcome = final.response.classification.outcome;
    if (outcome !== 'Successful' && outcome !== 'Failed') throw new StepFailed('final');
    model.transactions.push({ correlationId: body.correlationId, outcome });
    if (outcome !== 'Successful') return;
    const charged = transactionOf(real.probe, final, submitted).chargedAmount;
    // Without a readable charge the model cannot predict the balance: the next read sets it again.
    model.balance = charged === undefined || model.balance === undefined ? undefined : Math.round((model.balance + charged) * 100) / 100;
  }
  toString(): string {
    return `topup(${showWrite(this.write)})`;
  }
}

class Balance implements Command {
  check(): boolean {
    return true;
  }
  async run(model: Model, real: Real): Promise<void> {
    const balance = await real.probe.balance(VERSION);
    if (balance === undefined) throw new StepFailed('balance');
    if (model.balance !== undefined && Math.abs(balance - model.balance) > 0.011) {
      broken(real, {
        check: 'balance-follows-charges',
        operation: `${VERSION}.account.balance`,
        message: 'the balance does not equal the start balance moved by the charged amount of every successful transaction (and by nothing else)',
        expected: `balance ${model.balance}`,
        received: `balance ${balance}`,
      });
    }
    model.balance = balance;
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
  return genCase<Iterable<Command>>(options, {
    id: 'GEN-MONEY-SEQUENCE-V2',
    title: 'top-ups, status checks and balance reads in any order: every transaction is found by its correlationId and stays final, the balance moves with every success and never with a failure',
    specSection: `${SECTION.writes} (Balance; Status check); ${SECTION.states}`,
    rule:
      "Balance: real-time balance of the wallet. Status check: returns the final status of an earlier RTR or PIN (and gift card) transaction identified by its correlationId. '852' means in progress; poll repeatedly until another code is returned. A transaction is successful only if HTTP status is 200 and responseCode is '000'.",
    api: VERSION,
    exclusive: true,
    assumed: ['charged amount read from the result at fieldMapping.transaction.chargedAmount'],
    arbitrary(ctx, fx) {
      const skus = usableSkus(fx, bodyFacts('topup')).filter((s) => s.countryCode !== undefined && fx.mobile(s.countryCode) !== undefined);
      if (skus.length === 0) ctx.skip('the catalog has no RTR SKU with readable amount bounds in a country with a number plan');
      return fc.commands(
        [validWrite(skus, 50).map((w) => new Topup(w) as Command), fc.constant(new Balance() as Command), fc.nat(20).map((n) => new Status(n) as Command)],
        { maxCommands: 8 },
      );
    },
    show: (commands) => [...commands].map(String).join(' → '),
    async run(probe, commands, fx) {
      const start = await probe.balance(VERSION);
      if (start === undefined) throw new StepFailed('balance');
      await fc.asyncModelRun(() => ({ model: { balance: start, transactions: [] }, real: { probe, fx } }), commands);
    },
  });
}
