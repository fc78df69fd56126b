// Planted-bug profiles: each breaks exactly one documented rule so the conformance meta-test can prove a case fires.
// Owned by the conformance suite (it fills this list); the sandbox only imports it into the profile registry.
import { OPERATIONS } from '../../api/operations.ts';
import { SPEC_TRIGGERS, type TriggerRule } from '../behaviour.ts';
import type { ProfileEnvelopeContext, ProfileRequest, SandboxProfile } from './registry.ts';

const both = (...stems: string[]): string[] => stems.flatMap((stem) => [`${stem}-V1`, `${stem}-V2`]);

/** The spec's trigger table with one row replaced. */
function triggersWith(id: string, change: (rule: TriggerRule) => TriggerRule): TriggerRule[] {
  return SPEC_TRIGGERS.map((rule) => (rule.id === id ? change(rule) : rule));
}

/** A request hook that only touches the body of the named write operations. */
function onBody(purposeSuffix: string, change: (body: Record<string, unknown>) => void): (req: ProfileRequest) => void {
  return (req) => {
    if (req.operationId?.endsWith(purposeSuffix) !== true) return;
    if (req.body !== null && typeof req.body === 'object' && !Array.isArray(req.body)) change(req.body as Record<string, unknown>);
  };
}

const isOp = (ctx: ProfileEnvelopeContext, ...ids: string[]): boolean => ids.includes(ctx.operationId);

export const PLANTED_BUG_PROFILES: SandboxProfile[] = [
  {
    name: 'bug-auth-not-required',
    description: 'Planted bug: serves every operation without checking credentials.',
    behaviour: { requireAuth: false },
    plantedBug: {
      rule: 'The header is required on every request, including every catalog and lookup call.',
      specSection: 'Authentication',
      expectedFailingCases: OPERATIONS.flatMap((op) => [`AUTH-NONE-${op.id}`, `AUTH-WRONG-${op.id}`]),
    },
  },
  {
    name: 'bug-payload-on-failure',
    description: "Planted bug: a top-up refused with '510' still carries a payLoad.",
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v1.transaction.topup', 'v2.transaction.topup') || ctx.envelope.responseCode !== '510') return;
        return { envelope: { ...ctx.envelope, payLoad: { transactionId: 0, status: 'failed' } } };
      },
    },
    plantedBug: {
      rule: "payLoad | Carries the result only when responseCode is '000'; otherwise always null",
      specSection: 'Resources and their fields / Response envelope',
      expectedFailingCases: both('TRG-510', 'POLL-MIXED', 'BAL-NOCHARGE-510'),
    },
  },
  {
    name: 'bug-message-on-success',
    description: "Planted bug: v2 catalog/countries answers '000' with a responseMessage.",
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v2.catalog.countries') || ctx.envelope.responseCode !== '000') return;
        return { envelope: { ...ctx.envelope, responseMessage: 'OK' } };
      },
    },
    plantedBug: {
      rule: 'responseMessage | string or null | null on success',
      specSection: 'Resources and their fields / Response envelope',
      expectedFailingCases: ['ENV-v2.catalog.countries'],
    },
  },
  {
    name: 'bug-payload-kind',
    description: 'Planted bug: v2 promotion/current returns an object instead of an array.',
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v2.promotion.current') || ctx.envelope.responseCode !== '000') return;
        return { envelope: { ...ctx.envelope, payLoad: { promotions: ctx.envelope.payLoad } } };
      },
    },
    plantedBug: {
      rule: '/api/v2/promotion/current | none | array of active promotions',
      specSection: 'Endpoints / Version v2 read operations (GET)',
      expectedFailingCases: ['ENV-v2.promotion.current'],
    },
  },
  {
    name: 'bug-trigger-510-code',
    description: "Planted bug: numbers ending 510 answer '500' instead of '510'.",
    behaviour: { triggers: triggersWith('TRG-510', (rule) => ({ ...rule, effect: { respond: 'accountNotActivated' } })) },
    plantedBug: {
      rule: 'Mobile number ends with 510 | responseCode 510',
      specSection: 'Errors / Sandbox simulation triggers (top-up operation)',
      expectedFailingCases: both('TRG-510', 'POLL-MIXED'),
    },
  },
  {
    name: 'bug-trigger-555555-no-delay',
    description: 'Planted bug: numbers ending 555555 answer at once instead of after 90 s.',
    behaviour: { triggers: SPEC_TRIGGERS.filter((rule) => rule.id !== 'TRG-555555') },
    plantedBug: {
      rule: 'Mobile number ends with 555555 | Response delayed 90 seconds',
      specSection: 'Errors / Sandbox simulation triggers (top-up operation)',
      expectedFailingCases: both('TRG-555555'),
    },
  },
  {
    name: 'bug-trigger-666666-never-final',
    description: "Planted bug: numbers ending 666666 stay '852' far beyond the 2-minute service-side timeout.",
    behaviour: { triggers: triggersWith('TRG-666666', (rule) => ({ ...rule, effect: { delayMs: 3_600_000 } })) },
    plantedBug: {
      rule: 'Service-side transaction timeout | 2 minutes; Mobile number ends with 666666 | Response delayed about 120 seconds (the final result is read via the status endpoint)',
      specSection: 'Limits; Errors / Sandbox simulation triggers (top-up operation)',
      expectedFailingCases: both('TRG-666666', 'POLL-MIXED'),
    },
  },
  {
    name: 'bug-status-forgets-in-progress',
    // A final failure code, not 'No record found': "not found" before the service-side timeout is rightly Unknown.
    description: "Planted bug: while a transaction is in progress, the status endpoint answers a final failure ('999') instead of '852'.",
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v1.transaction.status', 'v2.transaction.status') || ctx.envelope.responseCode !== '852') return;
        return { envelope: { responseCode: '999', responseMessage: 'Internal error', payLoad: null } };
      },
    },
    plantedBug: {
      rule: "Status check: '852' means in progress; poll repeatedly until another code is returned. Any other code is final.",
      specSection: 'Endpoints / Write operations (Per-operation rules: Status check, Gift card); States and transitions',
      expectedFailingCases: [
        ...both('TRG-555555', 'TRG-666666', 'GIFT-852-FINAL'),
        'ENV-v1.transaction.giftcard',
        'ENV-v2.transaction.giftcard',
        'ENV-v1.transaction.giftcard-fetch',
        'ENV-v2.transaction.giftcard-fetch',
      ],
    },
  },
  {
    name: 'bug-001-message',
    description: "Planted bug: the '001' message does not name the denomination's bounds.",
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v1.transaction.topup', 'v2.transaction.topup') || ctx.envelope.responseCode !== '001') return;
        return { envelope: { ...ctx.envelope, responseMessage: 'Amount outside the allowed range of the denomination' } };
      },
    },
    plantedBug: {
      rule: "001 | Message has the shape 'The charge amount for Denomination <name> should be between <min> <currency> and <max> <currency>'",
      specSection: 'Errors / Codes named in the interface',
      expectedFailingCases: both('TRG-001'),
    },
  },
  {
    name: 'bug-giftcard-default-page-50',
    description: 'Planted bug: the gift card list without cursor and pageSize returns 50 SKUs.',
    behaviour: { giftcardPageDefault: 50 },
    plantedBug: {
      rule: 'when neither cursor nor pageSize is given, only 100 gift card SKUs are returned',
      specSection: 'Endpoints / Version v2 read operations (Gift card SKU list paging rules); Limits',
      expectedFailingCases: ['PAGE-DEFAULT-100'],
    },
  },
  {
    name: 'bug-giftcard-page-size-200',
    description: 'Planted bug: the gift card list accepts pageSize up to 200.',
    behaviour: { giftcardPageMax: 200 },
    plantedBug: {
      rule: 'pageSize must be at least 1 and at most 100',
      specSection: 'Endpoints / Version v2 read operations (Gift card SKU list paging rules); Limits',
      expectedFailingCases: ['PAGE-SIZE-101'],
    },
  },
  {
    name: 'bug-giftcard-cursor-skips',
    description: 'Planted bug: next_cursor points one SKU too far, so a walk skips the first SKU of every page.',
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v2.catalog.skus-giftcards') || ctx.envelope.responseCode !== '000') return;
        const next = ctx.envelope.next_cursor;
        if (typeof next !== 'number' || next === 0) return;
        return { envelope: { ...ctx.envelope, next_cursor: next + 1 } };
      },
    },
    plantedBug: {
      rule: 'cursor selects the SKUs starting from that skuId value, limited by pageSize (a walk with cursor/pageSize sees every SKU once)',
      specSection: 'Endpoints / Version v2 read operations (Gift card SKU list paging rules)',
      expectedFailingCases: ['PAGE-WALK'],
    },
  },
  {
    name: 'bug-giftcard-next-not-integer',
    description: 'Planted bug: the gift card list envelope carries next and next_cursor as strings.',
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v2.catalog.skus-giftcards') || ctx.envelope.responseCode !== '000') return;
        return { envelope: { ...ctx.envelope, next: String(ctx.envelope.next), next_cursor: String(ctx.envelope.next_cursor) } };
      },
    },
    plantedBug: {
      rule: 'The gift card SKU list (v2) adds two envelope-level integer fields: next and next_cursor.',
      specSection: 'Resources and their fields / Response envelope',
      expectedFailingCases: [
        'ENV-v2.catalog.skus-giftcards',
        'PAGE-DEFAULT-100',
        'PAGE-SIZE-1',
        'PAGE-SIZE-100',
        'PAGE-WALK',
        'CAT-FILTER-V2-GIFTCARDS-PRODUCTID',
        'CAT-FILTER-V2-GIFTCARDS-SKUID',
        'LOC-GIFTCARDS',
      ],
    },
  },
  {
    name: 'bug-correlation-id-51',
    description: 'Planted bug: a correlationId longer than 50 characters is cut to 50 and the top-up goes through.',
    hooks: {
      onRequest: onBody('.transaction.topup', (body) => {
        if (typeof body.correlationId === 'string' && body.correlationId.length > 50) body.correlationId = body.correlationId.slice(0, 50);
      }),
    },
    plantedBug: {
      rule: 'correlationId | string, 1..50 chars (Limits: correlationId length 1 to 50 characters)',
      specSection: 'Resources and their fields / Top-up request; Limits',
      expectedFailingCases: both('LEN-CORR-51'),
    },
  },
  {
    name: 'bug-operator-pin-7',
    description: 'Planted bug: a 7-character operatorPin is cut to 6 and the top-up goes through.',
    hooks: {
      onRequest: onBody('.transaction.topup', (body) => {
        if (typeof body.operatorPin === 'string' && body.operatorPin.length > 6) body.operatorPin = body.operatorPin.slice(0, 6);
      }),
    },
    plantedBug: {
      rule: 'operatorPin | string or null, 0..6 chars (Limits: operatorPin length 0 to 6 characters)',
      specSection: 'Resources and their fields / Top-up request; Limits',
      expectedFailingCases: both('LEN-PIN-7'),
    },
  },
  {
    name: 'bug-billpay-currency-4',
    description: 'Planted bug: a bill payment transactionCurrencyCode of 4 characters is cut to 3 and accepted.',
    hooks: {
      onRequest: onBody('.transaction.billpay', (body) => {
        const code = body.transactionCurrencyCode;
        if (typeof code === 'string' && code.length > 3) body.transactionCurrencyCode = code.slice(0, 3);
      }),
    },
    plantedBug: {
      rule: 'Bill payment transactionCurrencyCode | string or null, max 3 chars',
      specSection: 'Resources and their fields / Bill payment request; Limits',
      expectedFailingCases: both('LEN-BILLCUR-4'),
    },
  },
  {
    name: 'bug-portin-area-code-4',
    description: 'Planted bug: a SIM port-in areaCode of 4 characters is cut to 3 and accepted.',
    hooks: {
      onRequest: onBody('.transaction.sim-portin', (body) => {
        if (typeof body.areaCode === 'string' && body.areaCode.length > 3) body.areaCode = body.areaCode.slice(0, 3);
      }),
    },
    plantedBug: {
      rule: 'SIM port-in: areaCode is at most 3 chars (Limits: areaCode (SIM port-in) at most 3 characters)',
      specSection: 'Resources and their fields / SIM port-in request; Limits',
      expectedFailingCases: both('LEN-AREA-4'),
    },
  },
  {
    name: 'bug-estimated-cost-lower-case',
    description: 'Planted bug: estimated cost upper-cases a lower-case transactionCurrencyCode instead of rejecting it.',
    hooks: {
      onRequest: onBody('.transaction.estimated-cost', (body) => {
        if (typeof body.transactionCurrencyCode === 'string') body.transactionCurrencyCode = body.transactionCurrencyCode.toUpperCase();
      }),
    },
    plantedBug: {
      rule: 'Estimated cost request: transactionCurrencyCode | Destination currency; must be upper case',
      specSection: 'Resources and their fields / Estimated cost request (v2)',
      expectedFailingCases: ['CUR-EST-LOWER'],
    },
  },
  {
    name: 'bug-topup-any-currency',
    description: "Planted bug: a top-up accepts any transactionCurrencyCode, not only the SKU's FaceValueCurrency.",
    behaviour: { checkCurrency: false },
    plantedBug: {
      rule: 'transactionCurrencyCode … allowed values are those in the FaceValueCurrency field of the SKU catalog',
      specSection: 'Resources and their fields / Top-up request',
      expectedFailingCases: both('CUR-TOPUP-OUTSIDE'),
    },
  },
  {
    name: 'bug-category-ids-swapped',
    description: 'Planted bug: getproducts treats categoryId 4 as Sim and 5 as Bill Pay.',
    hooks: {
      onRequest(req) {
        if (req.operationId !== 'v2.catalog.getproducts') return;
        const swap: Record<string, string> = { '4': '5', '5': '4' };
        const id = req.query.categoryId;
        if (id !== undefined && swap[id] !== undefined) req.query.categoryId = swap[id];
      },
    },
    plantedBug: {
      rule: 'Catalog category ids (categoryId parameter): Pin = 1, Rtr = 2, Bill Pay = 4, Sim = 5, Gift Card = 6, eSim = 7.',
      specSection: 'What the service does',
      expectedFailingCases: ['CAT-CATEGORY-4', 'CAT-CATEGORY-5'],
    },
  },
  {
    name: 'bug-skus-product-filter-ignored',
    description: 'Planted bug: v2 catalog/skus ignores the productId filter.',
    hooks: {
      onRequest(req) {
        if (req.operationId === 'v2.catalog.skus') delete req.query.productId;
      },
    },
    plantedBug: {
      rule: '/api/v2/catalog/skus | query productId int32, skuId int32, both optional (filters)',
      specSection: 'Endpoints / Version v2 read operations (GET)',
      expectedFailingCases: ['CAT-FILTER-V2-SKUS-PRODUCTID'],
    },
  },
  {
    name: 'bug-lookup-every-country',
    description: 'Planted bug: the sandbox lookup answers numbers of every country, not only Jamaica, India, Pakistan and Mexico.',
    behaviour: {
      lookupCountries: {
        sandbox: ['JM', 'IN', 'PK', 'MX', 'TT', 'BB', 'DO', 'HT', 'US', 'GT', 'SV', 'HN', 'CO', 'BR', 'ES', 'GB', 'BD', 'NP', 'PH', 'NG', 'GH', 'KE', 'EG', 'AE'],
        productionExcluded: ['US', 'ES'],
      },
    },
    plantedBug: {
      rule: 'Mobile number lookup support: sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico)',
      specSection: 'What the service does',
      expectedFailingCases: both('LOOKUP-OTHER'),
    },
  },
  {
    name: 'bug-number-format-unchecked',
    description: "Planted bug: top-ups accept numbers that break the country's format.",
    behaviour: { checkNumberFormat: false },
    plantedBug: {
      rule: "Mobile top-up in the sandbox accepts any number, but it must follow the country's format (example: Jamaica country code 1876 followed by 7 digits).",
      specSection: 'What the service does',
      expectedFailingCases: both('FMT-JM-SHORT', 'FMT-JM-LONG', 'FMT-JM-ALPHA'),
    },
  },
  {
    name: 'bug-no-localization',
    description: 'Planted bug: Accept-Language: ar is ignored (everything stays English).',
    behaviour: { localize: false },
    plantedBug: {
      rule: "The SKU list, gift card SKU list and mobile lookup accept the Accept-Language header … (for Arabic the code is 'ar'). The fields SkuName, ProductName, BenefitType, ProductDescription, OperatorName and AdditionalInformation are returned localized.",
      specSection: 'Versioning (2)',
      expectedFailingCases: ['LOC-SKUS', 'LOC-GIFTCARDS', 'LOC-LOOKUP'],
    },
  },
  {
    name: 'bug-charge-failures',
    description: 'Planted bug: failed transactions are charged too.',
    behaviour: { chargeFailures: true },
    plantedBug: {
      rule: "HTTP 200 and responseCode '000' → Successful, the account is charged; any other code → Failed (a transaction proceeds only with sufficient funds)",
      specSection: 'States and transitions; Endpoints / Write operations (Per-operation rules: Balance)',
      expectedFailingCases: both('BAL-NOCHARGE-510', 'BAL-NOCHARGE-500', 'BAL-NOCHARGE-001'),
    },
  },
  {
    name: 'bug-giftcard-fetch-missing',
    description: 'Planted bug: gift card fetch by transaction id finds nothing.',
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v1.transaction.giftcard-fetch', 'v2.transaction.giftcard-fetch') || ctx.envelope.responseCode !== '000') return;
        return { envelope: { responseCode: '027', responseMessage: 'No record found', payLoad: null } };
      },
    },
    plantedBug: {
      rule: 'The gift card fetch operation then returns gift card information for the transaction id received from the gift card operation.',
      specSection: 'Endpoints / Write operations (Per-operation rules: Gift card)',
      expectedFailingCases: ['ENV-v1.transaction.giftcard-fetch', 'ENV-v2.transaction.giftcard-fetch', ...both('GIFT-852-FINAL')],
    },
  },
  {
    name: 'bug-loan-not-reported',
    description: 'Planted bug: the bundles endpoint hides the outstanding loan of a number.',
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v2.catalog.bundles') || !Array.isArray(ctx.envelope.payLoad)) return;
        const hidden = (ctx.envelope.payLoad as unknown[]).map((record) =>
          record !== null && typeof record === 'object'
            ? { ...record, loanAmountInFaceValueCurrency: 0, loanAmountInDeliveryCurrency: 0, loanAmountInWalletCurrency: 0 }
            : record,
        );
        return { envelope: { ...ctx.envelope, payLoad: hidden } };
      },
    },
    plantedBug: {
      rule: 'Call the bundles endpoint (v2 GET catalog/bundles/{productId}/{mobileNumber}); it returns the bundles for the number and loan information if dues exist.',
      specSection: 'What the service does (Two-step bundle purchase with loan requirement)',
      expectedFailingCases: ['LOAN-TWO-STEP'],
    },
  },
  {
    name: 'bug-http-500-for-business-failure',
    description: "Planted bug: a top-up refused with '500' (account not activated) comes with HTTP 500 instead of HTTP 200.",
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v1.transaction.topup', 'v2.transaction.topup') || ctx.envelope.responseCode !== '500') return;
        return { httpStatus: 500 };
      },
    },
    plantedBug: {
      rule: 'Business outcomes are delivered with HTTP 200 and the envelope; the failure is in responseCode and responseMessage, and payLoad is null.',
      specSection: 'Errors / Delivery rules',
      // POLL-MIXED still sees '500' as a final failure (a non-200 is failed too): only the delivery rule is broken.
      expectedFailingCases: both('TRG-500'),
    },
  },
];
