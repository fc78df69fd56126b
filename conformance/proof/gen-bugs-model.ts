// Planted GEN bugs of the States and transitions model (conformance/gen/money.ts): a transition broken only after another
// call, beside other writes, for some ids, for a failure of a non-top-up write, or in v1 only — corners one-call cases miss.
import { DEFAULT_FIELD_MAPPING, readField } from '../../api/field-mapping.ts';
import { findOperation } from '../../api/operations.ts';
import { perSandbox } from './planted-bugs.ts';
import type { GenBug, SandboxProfile } from '../../sandbox/profiles/types.ts';
import type { ProfileEnvelopeContext, ProfileRequest } from '../../sandbox/profiles/hooks.ts';

type GenBugProfile = SandboxProfile & { readonly genBug: GenBug };

const both = (id: string): string[] => [`v1.${id}`, `v2.${id}`];
const MONEY_CASES = ['GEN-MONEY-SEQUENCE-V1', 'GEN-MONEY-SEQUENCE-V2'];
const STATUS = both('transaction.status');
const BALANCE = both('account.balance');
/** The status request's correlationId, carried from the request hook to the envelope hook (which sees no path). */
const STATUS_ID_HEADER = 'x-planted-gen-model-correlation-id';
const NOT_FOUND = { responseCode: '027', responseMessage: 'No record found', payLoad: null };

const bodyOf = (body: unknown): Record<string, unknown> | undefined =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
const isCharging = (operationId: string | undefined): boolean => operationId !== undefined && findOperation(operationId)?.charges === true;
const transactionIdOf = (payLoad: unknown): string | undefined => {
  const id = readField(payLoad, DEFAULT_FIELD_MAPPING.transaction.transactionId);
  return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined;
};
const lastSegment = (path: string): string => decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));

/** Marks a status request with its correlationId; `statusId` reads it back in the envelope hook. */
function markStatus(req: ProfileRequest): void {
  if (req.operationId !== undefined && STATUS.includes(req.operationId)) req.headers[STATUS_ID_HEADER] = lastSegment(req.path);
}
const statusId = (ctx: ProfileEnvelopeContext): string | undefined =>
  STATUS.includes(ctx.operationId) ? ctx.headers[STATUS_ID_HEADER] : undefined;

// ---------------------------------------------------------------------------------------------------------------
// A final result that flips after a fetch

const FETCHED = perSandbox(() => ({ giftcards: new Set<string>(), portins: new Set<string>() }));
const PORTIN_ID_HEADER = 'x-planted-gen-model-portin-id';
const FLIPPED = { responseCode: '500', responseMessage: 'Account not activated', payLoad: null };

const finalFlipsAfterFetch: GenBugProfile = {
  name: 'bug-gen-final-flips-after-fetch',
  description:
    "Planted GEN bug: once a succeeded gift card was fetched, its status answers '500' instead of '000'; once a port-in's status was read, the next reads of it answer '500'.",
  hooks: {
    onRequest(req) {
      markStatus(req);
      if (req.operationId !== undefined && both('transaction.giftcard-fetch').includes(req.operationId))
        FETCHED(req.headers).giftcards.add(lastSegment(req.path));
      if (req.operationId !== undefined && both('transaction.sim-portin-status').includes(req.operationId))
        req.headers[PORTIN_ID_HEADER] = lastSegment(req.path);
    },
    onEnvelope(ctx) {
      if (ctx.envelope.responseCode !== '000') return;
      const state = FETCHED(ctx.headers);
      const portin = both('transaction.sim-portin-status').includes(ctx.operationId) ? ctx.headers[PORTIN_ID_HEADER] : undefined;
      if (portin !== undefined) {
        if (state.portins.has(portin)) return { envelope: FLIPPED };
        state.portins.add(portin);
        return;
      }
      const transactionId = statusId(ctx) === undefined ? undefined : transactionIdOf(ctx.envelope.payLoad);
      if (transactionId !== undefined && state.giftcards.has(transactionId)) return { envelope: FLIPPED };
    },
  },
  genBug: {
    rule: "Gift card: ... Any other code is final ('000' success, otherwise failure). The gift card fetch operation then returns gift card information for the transaction id received from the gift card operation.",
    specSection: 'States and transitions; Endpoints / Write operations (Per-operation rules: Gift card, Status check)',
    expectedGenCases: MONEY_CASES,
    corner:
      'a status read after a gift card fetch, a port-in status read after another (the hand-written cases read each once, before any fetch)',
  },
};

// ---------------------------------------------------------------------------------------------------------------
// A transaction lost when made beside others

/** Charging writes in flight: a response latency keeps each in flight a few milliseconds, so concurrent writes overlap. */
const IN_FLIGHT = perSandbox(() => ({ writes: 0, lost: new Set<string>() }));

const lostBesideOthers: GenBugProfile = {
  name: 'bug-gen-lost-beside-others',
  description:
    "Planted GEN bug: a charging write that arrives while another is in flight succeeds, but its status then answers 'No record found'.",
  behaviour: { responseLatencyMs: 100 },
  hooks: {
    onRequest(req) {
      markStatus(req);
      if (!isCharging(req.operationId)) return;
      const state = IN_FLIGHT(req.headers);
      state.writes += 1;
      const correlationId = bodyOf(req.body)?.correlationId;
      if (state.writes > 1 && typeof correlationId === 'string') state.lost.add(correlationId);
    },
    onEnvelope(ctx) {
      const state = IN_FLIGHT(ctx.headers);
      if (isCharging(ctx.operationId)) state.writes -= 1;
      const id = statusId(ctx);
      if (id !== undefined && state.lost.has(id)) return { envelope: NOT_FOUND };
    },
  },
  genBug: {
    rule: "Status check: returns the final status of an earlier RTR or PIN (and gift card) transaction identified by its correlationId. '000' means success.",
    specSection: 'States and transitions; Endpoints / Write operations (Per-operation rules: Status check)',
    expectedGenCases: MONEY_CASES,
    corner: 'writes sent while another is in flight (every other case sends one write at a time)',
  },
};

// ---------------------------------------------------------------------------------------------------------------
// '852' that never ends

const NEVER_ENDS = perSandbox(() => new Set<string>());

const inProgressForever: GenBugProfile = {
  name: 'bug-gen-852-never-ends',
  description: "Planted GEN bug: a gift card purchase whose correlationId is all digits stays '852' on the status endpoint forever.",
  hooks: {
    onRequest(req) {
      markStatus(req);
      const correlationId =
        req.operationId !== undefined && both('transaction.giftcard').includes(req.operationId)
          ? bodyOf(req.body)?.correlationId
          : undefined;
      if (typeof correlationId === 'string' && /^\d+$/.test(correlationId)) NEVER_ENDS(req.headers).add(correlationId);
    },
    onEnvelope(ctx) {
      const id = statusId(ctx);
      if (id !== undefined && NEVER_ENDS(ctx.headers).has(id))
        return { envelope: { responseCode: '852', responseMessage: 'Transaction in progress', payLoad: null } };
    },
  },
  genBug: {
    rule: "| Unknown / In progress | Status check | responseCode '852' | In progress | Poll again until final |; '852' means in progress; poll repeatedly until another code is returned.",
    specSection: 'States and transitions; Endpoints / Write operations (Per-operation rules: Gift card, Status check)',
    expectedGenCases: [...MONEY_CASES, 'GEN-GIFTCARD-VALID-V1', 'GEN-GIFTCARD-VALID-V2'],
    corner: 'gift card correlationIds of digits only (the hand-written cases send alphanumeric ids)',
  },
};

// ---------------------------------------------------------------------------------------------------------------
// A failure that moves the balance

const TAKEN = perSandbox(() => ({ total: 0 }));
const NON_TOPUP_PRICED = [...both('transaction.billpay'), ...both('transaction.giftcard')];

const failureCharges: GenBugProfile = {
  name: 'bug-gen-failure-charges',
  description:
    "Planted GEN bug: a bill payment or gift card refused with '001' (amount outside the denomination's range) still takes its amount from the wallet.",
  hooks: {
    onEnvelope(ctx) {
      const taken = TAKEN(ctx.headers);
      const amount = bodyOf(ctx.body)?.amount;
      if (NON_TOPUP_PRICED.includes(ctx.operationId) && ctx.envelope.responseCode === '001' && typeof amount === 'number') {
        taken.total += Math.max(0.01, Math.abs(amount));
        return;
      }
      if (!BALANCE.includes(ctx.operationId) || ctx.envelope.responseCode !== '000' || typeof ctx.envelope.payLoad !== 'number') return;
      return { envelope: { ...ctx.envelope, payLoad: Math.round((ctx.envelope.payLoad + taken.total) * 100) / 100 } };
    },
  },
  genBug: {
    rule: "| Submitted | Response received | HTTP 200 and responseCode not '000' and not '852' | Failed | payLoad is null; responseMessage explains |; | Submitted | Response received | HTTP 200 and responseCode '000' | Successful | payLoad carries the result; the account is charged |",
    specSection: 'States and transitions; Endpoints / Write operations (Per-operation rules: Balance)',
    expectedGenCases: MONEY_CASES,
    corner: "'001' refusals of bill payments and gift cards (the BAL-NOCHARGE and AMOUNT cases refuse top-ups)",
  },
};

// ---------------------------------------------------------------------------------------------------------------
// A v1 transition that differs from v2's

const V1_REFUSED = perSandbox(() => new Set<string>());

const v1FailureTurnsSuccess: GenBugProfile = {
  name: 'bug-gen-v1-failed-becomes-successful',
  description: "Planted GEN bug: in v1 only, the status of a gift card refused with '001' answers '000' (v2 answers the failure).",
  hooks: {
    onRequest: markStatus,
    onEnvelope(ctx) {
      const correlationId = bodyOf(ctx.body)?.correlationId;
      if (ctx.operationId === 'v1.transaction.giftcard' && ctx.envelope.responseCode === '001' && typeof correlationId === 'string')
        V1_REFUSED(ctx.headers).add(correlationId);
      const id = ctx.operationId === 'v1.transaction.status' ? statusId(ctx) : undefined;
      if (id !== undefined && V1_REFUSED(ctx.headers).has(id))
        return { envelope: { responseCode: '000', responseMessage: null, payLoad: { correlationId: id } } };
    },
  },
  genBug: {
    rule: "| Unknown / In progress | Status check | any other responseCode | Failed | |; Gift card: ... Any other code is final ('000' success, otherwise failure).",
    specSection: 'States and transitions; Endpoints / Write operations (Per-operation rules: Gift card, Status check)',
    expectedGenCases: ['GEN-MONEY-SEQUENCE-V1'],
    corner: "v1 gift cards refused with '001' (no hand-written case refuses a gift card's amount)",
  },
};

export const MODEL_GEN_BUG_PROFILES: readonly GenBugProfile[] = [
  finalFlipsAfterFetch,
  lostBesideOthers,
  inProgressForever,
  failureCharges,
  v1FailureTurnsSuccess,
];
