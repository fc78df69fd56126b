// The States and transitions table as the money sequences' model (gen/money.ts): what every known transaction must show
// after each step — its final result, its follow-up reads, an unknown id never a success, the balance moved by successes only.
import type { ApiVersion, Operation } from '../../api/operations.ts';
import { describeResponse } from '../../api/describe.ts';
import { StepFailed, type CaseContext, type Failure } from '../types.ts';
import { expectFinalHolds } from '../cases/final.ts';

/** The spec's rows the model checks, quoted (States and transitions; Per-operation rules; Errors; Balance). */
export const STATE_RULES = [
  "| Submitted | Response received | HTTP 200 and responseCode '000' | Successful | payLoad carries the result; the account is charged |",
  "| Submitted | Response received | HTTP 200 and responseCode not '000' and not '852' | Failed | payLoad is null; responseMessage explains |",
  '| Submitted | Response received | HTTP status other than 200 | Failed | Treated as failed by the client |',
  "| Submitted | Gift card response | responseCode '852' | In progress | Client must poll the status endpoint with the correlationId |",
  "| Unknown / In progress | Status check | responseCode '852' | In progress | Poll again until final |",
  "| Unknown / In progress | Status check | responseCode '000' | Successful | |",
  '| Unknown / In progress | Status check | any other responseCode | Failed | |',
  "Status check: returns the final status of an earlier RTR or PIN (and gift card) transaction identified by its correlationId. '852' means in progress; poll repeatedly until another code is returned. '000' means success.",
  "Gift card: ... Any other code is final ('000' success, otherwise failure). The gift card fetch operation then returns gift card information for the transaction id received from the gift card operation.",
  'Balance: real-time balance of the wallet.',
  "A transaction is successful only if HTTP status is 200 and responseCode is '000'.",
] as const;

/** The writes whose final result the Status check rule names ("RTR or PIN (and gift card)"). */
export const STATUS_PURPOSES: readonly string[] = ['transaction.topup', 'transaction.pin', 'transaction.giftcard'];

/** The read (its operation id after the version) that names a succeeded transaction of a write, by the id its result carries. */
export const FOLLOW_UP: Readonly<
  Record<string, { readonly read: string; readonly param: string; readonly field: 'transactionId' | 'esimIccid' }>
> = {
  'transaction.giftcard': { read: 'transaction.giftcard-fetch', param: 'id', field: 'transactionId' },
  'transaction.sim-portin': { read: 'transaction.sim-portin-status', param: 'id', field: 'transactionId' },
  'transaction.esim': { read: 'esim.status', param: 'Iccid', field: 'esimIccid' },
};

/** A transaction the model knows: its final outcome and the ids its result carries. */
export interface Known {
  readonly op: Operation;
  readonly correlationId: string;
  readonly outcome: 'Successful' | 'Failed';
  /** The code that made it final. */
  readonly code?: string;
  readonly ids: { readonly transactionId?: string | number; readonly esimIccid?: string };
}

/** What the spec lets a client predict: the balance after every success, and each transaction's final outcome. */
export interface Model {
  balance: number | undefined;
  /** Successes since the balance was last read (each charged amount as the result states it may be rounded to the cent). */
  unread: number;
  /** Writes sent so far (the sequence's bound: GEN_MONEY_MAX_WRITES). */
  writes: number;
  readonly known: Known[];
}

/** Ends the sequence at its first broken rule: the failure is on record, the rest would only lengthen the reproduction. */
export function broken(probe: CaseContext, failure: Omit<Failure, 'caseId' | 'severity'>): never {
  probe.fail(failure);
  throw new StepFailed(failure.check);
}

const followUpOf = (version: ApiVersion, tx: Known): { operationId: string; path: Record<string, string | number> } | undefined => {
  const link = FOLLOW_UP[tx.op.purpose];
  const value = link === undefined ? undefined : tx.ids[link.field];
  return link === undefined || value === undefined || tx.outcome !== 'Successful'
    ? undefined
    : { operationId: `${version}.${link.read}`, path: { [link.param]: value } };
};

/** The status of a known transaction is its final result (cases/final.ts, the rule every re-read shares). */
export async function checkStatus(probe: CaseContext, version: ApiVersion, tx: Known): Promise<void> {
  const final = { outcome: tx.outcome, ...(tx.code === undefined ? {} : { code: tx.code }) };
  const again = (await expectFinalHolds(probe, version, tx.correlationId, final, `${tx.op.id}, read again after a later step`)).response;
  if (again.httpStatus !== 200 || again.envelope === undefined || again.classification.outcome !== tx.outcome)
    throw new StepFailed('final-stays-final');
}

/** The read that names a succeeded gift card, port-in or eSIM answers for it. */
export async function checkFollowUp(probe: CaseContext, version: ApiVersion, tx: Known): Promise<void> {
  const read = followUpOf(version, tx);
  if (read === undefined) return;
  const got = await probe.call(read.operationId, { path: read.path });
  if (got.response.classification.outcome === 'Successful') return;
  broken(probe, {
    check: 'follow-up-answers',
    operation: read.operationId,
    message: `${read.operationId} of the succeeded ${tx.op.id} (${Object.values(read.path).join('')}) does not answer`,
    expected: "HTTP 200, responseCode '000'",
    received: describeResponse(got.response),
    request: got.request,
  });
}

/** The balance equals the start moved by the charged amount of every success since, and by nothing else. */
export async function checkBalance(probe: CaseContext, version: ApiVersion, model: Model): Promise<void> {
  const balance = await probe.balance(version);
  if (balance === undefined) throw new StepFailed('balance');
  // BAL-CHARGE's tolerance (a cent and a bit) for each charge since the last read.
  const tolerance = 0.011 * Math.max(1, model.unread);
  if (model.balance !== undefined && Math.abs(balance - model.balance) > tolerance) {
    broken(probe, {
      check: 'balance-follows-charges',
      operation: `${version}.account.balance`,
      message:
        'the balance does not equal the start balance moved by the charged amount of every successful transaction (and by nothing else)',
      expected: `balance ${Math.round(model.balance * 100) / 100} (± ${tolerance.toFixed(3)})`,
      received: `balance ${balance}`,
    });
  }
  model.balance = balance;
  model.unread = 0;
}

/** After every step: every known transaction's status (where the spec names it) and follow-up read, then the balance. */
export async function checkEveryKnown(probe: CaseContext, version: ApiVersion, model: Model): Promise<void> {
  // Reads only: the first broken rule ends the step (the others' answers change nothing).
  await Promise.all(
    model.known.map(async (tx) => {
      if (STATUS_PURPOSES.includes(tx.op.purpose)) await checkStatus(probe, version, tx);
      await checkFollowUp(probe, version, tx);
    }),
  );
  await checkBalance(probe, version, model);
}

/** A correlationId no write of the run sent (long enough to be unknown to the target): its status is never a success. */
export async function checkUnknownId(probe: CaseContext, version: ApiVersion, correlationId: string): Promise<void> {
  const status = await probe.call(`${version}.transaction.status`, { path: { correlationId } });
  const outcome = status.response.classification.outcome;
  if (outcome !== 'Successful') return;
  broken(probe, {
    check: 'unknown-id-not-success',
    operation: status.request.operationId,
    message: `the status of a correlationId no transaction was sent with (${correlationId.length} characters) answers a success`,
    expected: "not '000': no transaction has this correlationId",
    received: describeResponse(status.response),
    request: status.request,
  });
}
