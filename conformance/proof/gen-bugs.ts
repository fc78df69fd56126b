// Planted bugs that live in a corner of the input space: each breaks one spec rule for part of the values only, so the
// hand-written cases (one chosen value per rule) pass and only GEN (conformance/gen/) finds them. They live with the
// proof (conformance/gen/gen-proof.test.ts), like planted-bugs.ts; the CLI adds them to the sandbox's registry by name.
import { DEFAULT_FIELD_MAPPING, readNumber } from '../../api/field-mapping.ts';
import { perSandbox, refuseWith } from './planted-bugs.ts';
import { SCHEMA_GEN_BUG_PROFILES } from './gen-bugs-schema.ts';
import { MODEL_GEN_BUG_PROFILES } from './gen-bugs-model.ts';
import type { GenBug, SandboxProfile } from '../../sandbox/profiles/types.ts';
import type { ProfileEnvelopeContext, ProfileRequest } from '../../sandbox/profiles/hooks.ts';

const TOPUPS = ['v1.transaction.topup', 'v2.transaction.topup'];
const STATUS = ['v1.transaction.status', 'v2.transaction.status'];
const BALANCE = ['v1.account.balance', 'v2.account.balance'];
const GIFTCARDS = 'v2.catalog.skus-giftcards';

const bodyOf = (body: unknown): Record<string, unknown> | undefined =>
  body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;

const topupBody = (operationId: string | undefined, body: unknown): Record<string, unknown> | undefined =>
  operationId !== undefined && TOPUPS.includes(operationId) ? bodyOf(body) : undefined;

const hasCents = (amount: unknown): amount is number => typeof amount === 'number' && Math.round(amount * 100) % 100 !== 0;

const REFUSE_CENTS = refuseWith('amount must be a whole number');
const LAST_SUCCESS = perSandbox(() => ({ payLoad: undefined as unknown }));
const HIDDEN_CHARGES = perSandbox(() => ({ total: 0 }));
const STATUS_ID_HEADER = 'x-planted-gen-correlation-id';

export type GenBugProfile = SandboxProfile & { readonly genBug: GenBug };

export const GEN_BUG_PROFILES: readonly GenBugProfile[] = [
  {
    name: 'bug-gen-correlation-id-52',
    description:
      'Planted GEN bug: a correlationId of 51 characters is refused, but one of 52 or more is cut to 50 and the top-up goes through.',
    hooks: {
      onRequest(req) {
        const body = topupBody(req.operationId, req.body);
        if (body !== undefined && typeof body.correlationId === 'string' && body.correlationId.length >= 52)
          body.correlationId = body.correlationId.slice(0, 50);
      },
    },
    genBug: {
      rule: 'correlationId | string, 1..50 chars | yes | Unique id from the client system (Limits: correlationId length 1 to 50 characters)',
      specSection: 'Resources and their fields / Request objects (Top-up request); Limits',
      expectedGenCases: ['GEN-TOPUP-LENGTH-V2'],
      corner: 'correlationIds of 52+ characters (LEN-CORR-51 sends 51)',
    },
  },
  {
    name: 'bug-gen-negative-amount',
    description:
      "Planted GEN bug: amounts outside a denomination's bounds are refused with '001', except negative ones, which are answered as a success.",
    hooks: {
      onEnvelope(ctx: ProfileEnvelopeContext) {
        const body = topupBody(ctx.operationId, ctx.body);
        if (body === undefined || ctx.httpStatus !== 200) return;
        if (ctx.envelope.responseCode === '000') LAST_SUCCESS(ctx.headers).payLoad = ctx.envelope.payLoad;
        if (typeof body.amount !== 'number' || body.amount >= 0 || ctx.envelope.responseCode === '000') return;
        const last = LAST_SUCCESS(ctx.headers).payLoad;
        const payLoad =
          last !== null && typeof last === 'object'
            ? { ...(last as Record<string, unknown>), correlationId: body.correlationId }
            : { correlationId: body.correlationId };
        return { envelope: { responseCode: '000', responseMessage: null, payLoad } };
      },
    },
    genBug: {
      rule: 'Top-up amount bounds | per denomination, reported in the 001 message; 001 | Amount outside the allowed range of the denomination',
      specSection: 'Errors; Limits',
      expectedGenCases: ['GEN-TOPUP-AMOUNT-OUTSIDE-V2'],
      corner: 'negative amounts (AMOUNT-*-BELOW-MIN sends one cent below the minimum)',
    },
  },
  {
    name: 'bug-gen-walk-skips-some-page-sizes',
    description:
      'Planted GEN bug: for page sizes of 3, 8, 13, … (pageSize mod 5 = 3) a page asked for with a cursor leaves out the first SKU at or after it, so a walk skips a SKU per page.',
    hooks: {
      onEnvelope(ctx) {
        if (
          ctx.operationId !== GIFTCARDS ||
          ctx.envelope.responseCode !== '000' ||
          Number(ctx.query.pageSize) % 5 !== 3 ||
          ctx.query.cursor === undefined
        )
          return;
        // A page asked for with a cursor leaves out the first SKU at or after that skuId ("starting from that skuId value").
        const payload = ctx.envelope.payLoad;
        if (!Array.isArray(payload) || payload.length === 0) return;
        return { envelope: { ...ctx.envelope, payLoad: payload.slice(1) } };
      },
    },
    genBug: {
      rule: 'cursor selects the SKUs starting from that skuId value, limited by pageSize (a walk with cursor/pageSize sees every SKU once)',
      specSection: 'Endpoints / Version v2 read operations (Gift card SKU list paging rules)',
      expectedGenCases: ['GEN-PAGE-WALK'],
      corner: 'page sizes with pageSize mod 5 = 3 (PAGE-WALK walks with 100 and 37)',
    },
  },
  {
    name: 'bug-gen-operator-filter-late-countries',
    description: 'Planted GEN bug: the v2 operators countryCode filter works for countries up to O and is ignored for later ones (P…Z).',
    hooks: {
      onRequest(req: ProfileRequest) {
        if (req.operationId !== 'v2.catalog.operators') return;
        const code = req.query.countryCode;
        if (code !== undefined && code.toUpperCase() >= 'P') delete req.query.countryCode;
      },
    },
    genBug: {
      rule: '/api/v2/catalog/operators | query operatorId int32, countryCode string, both optional | array',
      specSection: 'Endpoints / Version v2 read operations (GET)',
      expectedGenCases: ['GEN-FILTERS-V2-OPERATORS-COUNTRYCODE'],
      corner: "country codes from P on (FILTERS-V2-OPERATORS-COUNTRYCODE filters by the first record's country)",
    },
  },
  {
    name: 'bug-gen-status-loses-long-ids',
    description:
      "Planted GEN bug: the status check answers 'No record found' for transactions whose correlationId is longer than 40 characters.",
    hooks: {
      onRequest(req) {
        if (req.operationId === undefined || !STATUS.includes(req.operationId)) return;
        req.headers[STATUS_ID_HEADER] = decodeURIComponent(req.path.slice(req.path.lastIndexOf('/') + 1));
      },
      onEnvelope(ctx) {
        const id = ctx.headers[STATUS_ID_HEADER];
        if (id === undefined || id.length <= 40 || ctx.envelope.responseCode !== '000') return;
        return { envelope: { responseCode: '027', responseMessage: 'No record found', payLoad: null } };
      },
    },
    genBug: {
      rule: 'Status check: returns the final status of an earlier RTR or PIN (and gift card) transaction identified by its correlationId.',
      specSection: 'Endpoints / Write operations (Per-operation rules: Status check)',
      expectedGenCases: ['GEN-TOPUP-VALID-V2', 'GEN-MONEY-SEQUENCE-V2'],
      corner: 'correlationIds of 41..50 characters (the STATUS cases use 36)',
    },
  },
  {
    name: 'bug-gen-balance-misses-cents',
    description: 'Planted GEN bug: the balance leaves out the charges of top-ups whose amount has cents.',
    hooks: {
      onEnvelope(ctx) {
        const hidden = HIDDEN_CHARGES(ctx.headers);
        const body = topupBody(ctx.operationId, ctx.body);
        if (body !== undefined && ctx.envelope.responseCode === '000' && hasCents(body.amount)) {
          hidden.total += readNumber(ctx.envelope.payLoad, DEFAULT_FIELD_MAPPING.transaction.chargedAmount) ?? 0;
          return;
        }
        if (!BALANCE.includes(ctx.operationId) || ctx.envelope.responseCode !== '000' || typeof ctx.envelope.payLoad !== 'number') return;
        return { envelope: { ...ctx.envelope, payLoad: Math.round((ctx.envelope.payLoad - hidden.total) * 100) / 100 } };
      },
    },
    genBug: {
      rule: 'Balance: real-time balance of the wallet.',
      specSection: 'Endpoints / Write operations (Per-operation rules: Balance)',
      expectedGenCases: ['GEN-MONEY-SEQUENCE-V2'],
      corner: 'charges with cents (BAL-CHARGE charges a whole amount)',
    },
  },
  {
    name: 'bug-gen-page-size-over-150',
    description: 'Planted GEN bug: the gift card list refuses pageSize 101..150 but answers a larger pageSize as if it were 100.',
    hooks: {
      onRequest(req) {
        if (req.operationId === GIFTCARDS && Number(req.query.pageSize) > 150) req.query.pageSize = '100';
      },
    },
    genBug: {
      rule: 'pageSize must be at least 1 and at most 100',
      specSection: 'Endpoints / Version v2 read operations (Gift card SKU list paging rules); Limits',
      expectedGenCases: ['GEN-PAGE-SIZE-OUTSIDE'],
      corner: 'page sizes above 150 (PAGE-SIZE-101 sends 101)',
    },
  },
  {
    name: 'bug-gen-wallet-amount-cents-refused',
    description:
      "Planted GEN bug: a top-up amount in the wallet currency with cents is refused, although it lies within the denomination's bounds.",
    hooks: {
      onRequest(req) {
        const body = topupBody(req.operationId, req.body);
        if (body !== undefined && body.transactionCurrencyCode === undefined && hasCents(body.amount)) REFUSE_CENTS.refuse(req);
      },
      onEnvelope: REFUSE_CENTS.explain,
    },
    genBug: {
      rule: 'amount | number double | yes | In the customer wallet currency when transactionCurrencyCode is absent; Top-up amount bounds | per denomination',
      specSection: 'Resources and their fields / Request objects (Top-up request); Limits',
      expectedGenCases: ['GEN-TOPUP-VALID-V2'],
      corner: 'wallet amounts with cents inside the bounds (the AMOUNT-*-AT-MIN/MAX cases send the bounds themselves)',
    },
  },
  ...SCHEMA_GEN_BUG_PROFILES,
  ...MODEL_GEN_BUG_PROFILES,
];
