// Planted-bug profiles: each breaks one documented rule so the conformance meta-test can prove its cases fire.
// They live with the proof that uses them; the CLI adds them to the sandbox's registry by name (addProfiles).
import { OPERATIONS, findOperation, type RequestBodyName } from '../../api/operations.ts';
import { bodyFacts, categoryCaseIds, reqCaseIds } from '../request-rules.ts';
import { SPEC_TRIGGERS, type TriggerRule } from '../../sandbox/behaviour.ts';
import type { SandboxProfile } from '../../sandbox/profiles/types.ts';
import type { ProfileEnvelopeContext, ProfileRequest } from '../../sandbox/profiles/hooks.ts';

const both = (...stems: string[]): string[] => stems.flatMap((stem) => [`${stem}-V1`, `${stem}-V2`]);
const envOf = (...ids: string[]): string[] => ids.map((id) => `ENV-${id}`);
const CATEGORY_IDS_CASES = ['CAT-CATEGORY-1', 'CAT-CATEGORY-2', 'CAT-CATEGORY-4', 'CAT-CATEGORY-5', 'CAT-CATEGORY-6', 'CAT-CATEGORY-7'];
const FILTERS_V1 = [
  'SKUS-PRODUCTID',
  'SKUDESC-SKUID',
  'SKUDESC-PRODUCTID',
  'LOGOS-SKUID',
  'LOGOS-PRODUCTID',
  'CARRIERS-COUNTRYCODE',
  'CARRIERS-CURRENCYCODE',
].map((s) => `FILTERS-V1-${s}`);
const FILTERS_V2 = [
  'OPERATORS-OPERATORID',
  'OPERATORS-COUNTRYCODE',
  'PRODUCTS-OPERATORID',
  'PRODUCTS-COUNTRYCODE',
  'SKUS-PRODUCTID',
  'SKUS-SKUID',
  'GIFTCARDS-PRODUCTID',
  'GIFTCARDS-SKUID',
  'GIFTCARDS-COUNTRYCODE',
].map((s) => `FILTERS-V2-${s}`);
const AMOUNT_OUTSIDE = both('AMOUNT-WALLET-BELOW-MIN', 'AMOUNT-WALLET-ABOVE-MAX', 'AMOUNT-FACE-BELOW-MIN', 'AMOUNT-FACE-ABOVE-MAX');

/** Every case that reads the balance (they run alone, after the others): a broken balance fails all of them. */
const BALANCE_READERS: string[] = [
  ...both('LEN-CORR-0', 'LEN-CORR-51', 'LEN-PIN-7', 'LEN-BILLCUR-4', 'LEN-AREA-4', 'CUR-TOPUP-OUTSIDE'),
  ...both('FMT-JM-SHORT', 'FMT-JM-LONG', 'FMT-JM-ALPHA', 'BAL-CHARGE', 'BAL-NOCHARGE-510', 'BAL-NOCHARGE-500', 'BAL-NOCHARGE-001'),
  ...reqCaseIds(),
  ...categoryCaseIds(),
  ...AMOUNT_OUTSIDE,
];

/** The request body of a write as an object, or undefined (reads, malformed bodies). */
function writeBody(operationId: string | undefined, body: unknown): { name: RequestBodyName; body: Record<string, unknown> } | undefined {
  const name = operationId === undefined ? undefined : findOperation(operationId)?.requestBody;
  if (name === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  return { name, body: body as Record<string, unknown> };
}

/**
 * A write refused as a gateway would refuse it: the body is replaced by this text (not an object, so the sandbox's
 * validation refuses it before anything is decided or charged) and the refusal's message says why.
 */
export function refuseWith(reason: string): {
  refuse: (req: ProfileRequest) => void;
  explain: (ctx: ProfileEnvelopeContext) => { envelope: Record<string, unknown> } | void;
} {
  const marker = `planted-bug refusal: ${reason}`;
  return {
    refuse: (req) => {
      req.body = marker;
    },
    explain: (ctx) => (ctx.body === marker ? { envelope: { ...ctx.envelope, responseMessage: `Invalid request: ${reason}` } } : undefined),
  };
}

/** Per-sandbox memory of a stateful bug: profiles are shared objects, the Host header tells sandboxes apart. */
export function perSandbox<T>(make: () => T): (headers: Record<string, string | undefined>) => T {
  const states = new Map<string, T>();
  return (headers) => {
    const host = headers.host ?? '';
    let state = states.get(host);
    if (state === undefined) {
      state = make();
      states.set(host, state);
    }
    return state;
  };
}

/**
 * Remembers the last accepted body of each write (per SKU too), so a bug can complete a broken body from it, the way
 * a gateway that fills gaps from a cached earlier request would.
 */
function acceptedBodies(): {
  remember: (ctx: ProfileEnvelopeContext) => void;
  lookup: (req: ProfileRequest, skuId: unknown) => Record<string, unknown> | undefined;
} {
  const state = perSandbox(() => new Map<string, Record<string, unknown>>());
  return {
    remember(ctx) {
      const write = writeBody(ctx.operationId, ctx.body);
      const code = ctx.envelope.responseCode;
      if (write === undefined || ctx.httpStatus !== 200 || (code !== '000' && code !== '852')) return;
      const bodies = state(ctx.headers);
      bodies.set(ctx.operationId, { ...write.body });
      bodies.set(`${ctx.operationId}|${String(write.body.skuId)}`, { ...write.body });
    },
    lookup(req, skuId) {
      const bodies = state(req.headers);
      return bodies.get(`${String(req.operationId)}|${String(skuId)}`) ?? bodies.get(String(req.operationId));
    },
  };
}

let generated = 0;
/** A correlationId a careless gateway would make up (unique per process). */
const madeUpCorrelationId = (): string => `gw-generated-${Date.now().toString(36)}-${(generated += 1)}`;

/** The payLoad in another kind than the documented one (array → object, object → array, number → object). */
function otherKind(payLoad: unknown): unknown {
  if (Array.isArray(payLoad)) return { items: payLoad };
  if (typeof payLoad === 'number') return { balance: payLoad };
  return [payLoad];
}

const INT32 = (value: number): number => value | 0;

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

/** A length bug's change: a string `field` longer than `max` is cut to `max` characters, and the request goes through. */
function cutTo(field: string, max: number): (body: Record<string, unknown>) => void {
  return (body) => {
    const value = body[field];
    if (typeof value === 'string' && value.length > max) body[field] = value.slice(0, max);
  };
}

const isOp = (ctx: ProfileEnvelopeContext, ...ids: string[]): boolean => ids.includes(ctx.operationId);

// ---------------------------------------------------------------------------------------------------------------
// Bugs that prove, case id by case id, the cases of every rule group (conformance/planted-bugs.test.ts checks that each
// case id of the plan fails under at least one profile).

const REFUSE_NEW_FIELD = refuseWith('email is required');
const REFUSE_WALLET_TOPUP = refuseWith('transactionCurrencyCode is required');
const REFUSE_FACE_TOPUP = refuseWith('transactionCurrencyCode is not supported');
const REMEMBERED_MISSING = acceptedBodies();
const REMEMBERED_EMPTY = acceptedBodies();
const FINAL_READS = perSandbox(() => new Map<string, number>());
const FIRST_BALANCE = perSandbox(() => new Map<string, unknown>());
const STATUS_ID_HEADER = 'x-planted-correlation-id';
/**
 * Bugs that let many refused requests through would empty the default wallet, and a refusal for want of funds would
 * then hide the bug from the cases that run later: these profiles start with a wallet that cannot run dry.
 */
const BIG_WALLET = 1_000_000_000;

/** Read operations whose payload kind the reads bug breaks: all but balance, status, gift card fetch, lookups and discovery. */
const KIND_BROKEN_READS = [
  'v1.catalog.skus',
  'v1.catalog.sku-description',
  'v1.catalog.promotion-current',
  'v1.catalog.promotion-upcoming',
  'v1.catalog.sku-exchange-rate',
  'v1.catalog.sku-logos',
  'v1.catalog.errors',
  'v1.catalog.carriers',
  'v1.catalog.countries',
  'v1.esim.status',
  'v1.transaction.billpay-fetch-account-detail',
  'v1.transaction.sim-portin-status',
  'v2.catalog.operators',
  'v2.catalog.getproducts',
  'v2.catalog.sku-exchange-rate',
  'v2.catalog.errors',
  'v2.catalog.bundles',
  'v2.esim.status',
  'v2.lookup.billpay-fetch-account-detail',
  'v2.promotion.current',
  'v2.promotion.upcoming',
  'v2.transaction.sim-portin-status',
];

/** Every filter parameter of the spec's read operations (paging and categoryId aside). */
const FILTER_PARAMS: Readonly<Record<string, readonly string[]>> = {
  'v1.catalog.skus': ['productid'],
  'v1.catalog.sku-description': ['skuId', 'productId'],
  'v1.catalog.sku-logos': ['skuId', 'productId'],
  'v1.catalog.carriers': ['countryCode', 'currencyCode'],
  'v2.catalog.operators': ['operatorId', 'countryCode'],
  'v2.catalog.getproducts': ['operatorId', 'countryCode'],
  'v2.catalog.skus': ['productId', 'skuId'],
  'v2.catalog.skus-giftcards': ['productId', 'skuId', 'countryCode'],
};

/** Writes that the new-required-field bug touches: all but top-up. */
const NEW_FIELD_WRITES = [
  'transaction.pin',
  'transaction.billpay',
  'transaction.giftcard',
  'transaction.sim-activation',
  'transaction.sim-portin',
  'transaction.esim',
  'transaction.estimated-cost',
];

const shift = (cents: number) =>
  onBody('.transaction.topup', (body) => {
    if (typeof body.amount === 'number') body.amount = Math.round(body.amount * 100 + cents) / 100;
  });

const PER_CASE_BUGS: SandboxProfile[] = [
  {
    name: 'bug-reads-payload-kind',
    description:
      'Planted bug: catalog, promotion, eSIM, bill detail and port-in reads answer their payLoad in another kind (array ↔ object).',
    hooks: {
      onEnvelope(ctx) {
        if (!KIND_BROKEN_READS.includes(ctx.operationId) || ctx.envelope.responseCode !== '000') return;
        return { envelope: { ...ctx.envelope, payLoad: otherKind(ctx.envelope.payLoad) } };
      },
    },
    plantedBug: {
      rule: 'All responses are the envelope described above with HTTP 200; payload shapes per operation are listed as kinds only (number, object, array).',
      specSection: 'Endpoints / Version v1 read operations (GET); Version v2 read operations (GET)',
      expectedFailingCases: [
        ...envOf(...KIND_BROKEN_READS),
        ...CATEGORY_IDS_CASES,
        'LOAN-TWO-STEP',
        ...FILTERS_V1,
        'FILTERS-V2-OPERATORS-OPERATORID',
        'FILTERS-V2-OPERATORS-COUNTRYCODE',
        'FILTERS-V2-PRODUCTS-OPERATORID',
        'FILTERS-V2-PRODUCTS-COUNTRYCODE',
      ],
    },
  },
  {
    name: 'bug-balance-as-text',
    description: 'Planted bug: the balance payLoad is a string instead of a number.',
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v1.account.balance', 'v2.account.balance') || ctx.envelope.responseCode !== '000') return;
        return { envelope: { ...ctx.envelope, payLoad: String(ctx.envelope.payLoad) } };
      },
    },
    plantedBug: {
      rule: 'Balance payLoad is a number (double).',
      specSection: 'Resources and their fields / Response envelope',
      expectedFailingCases: [...envOf('v1.account.balance', 'v2.account.balance'), ...BALANCE_READERS],
    },
  },
  {
    name: 'bug-balance-stale',
    description: 'Planted bug: the balance endpoint keeps answering its first figure (a stale cache), so charges never show.',
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v1.account.balance', 'v2.account.balance') || ctx.envelope.responseCode !== '000') return;
        const first = FIRST_BALANCE(ctx.headers);
        if (!first.has(ctx.operationId)) first.set(ctx.operationId, ctx.envelope.payLoad);
        return { envelope: { ...ctx.envelope, payLoad: first.get(ctx.operationId) } };
      },
    },
    plantedBug: {
      rule: 'Balance: real-time balance of the wallet.',
      specSection: 'Endpoints / Write operations (Per-operation rules: Balance)',
      expectedFailingCases: both('BAL-CHARGE'),
    },
  },
  {
    name: 'bug-status-forgets-successful-topups',
    description: "Planted bug: the status check answers 'No record found' for top-ups that succeeded.",
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v1.transaction.status', 'v2.transaction.status') || ctx.envelope.responseCode !== '000') return;
        const payLoad = ctx.envelope.payLoad as Record<string, unknown> | null;
        if (payLoad === null || typeof payLoad !== 'object' || payLoad.topupDetail === null || payLoad.topupDetail === undefined) return;
        return { envelope: { responseCode: '027', responseMessage: 'No record found', payLoad: null } };
      },
    },
    plantedBug: {
      rule: 'Status check: returns the final status of an earlier RTR or PIN (and gift card) transaction identified by its correlationId.',
      specSection: 'Endpoints / Write operations (Per-operation rules: Status check)',
      expectedFailingCases: [...envOf('v1.transaction.status', 'v2.transaction.status'), ...both('POLL-MIXED', 'STATUS-TOPUP-000')],
    },
  },
  {
    name: 'bug-status-final-reverts',
    description: "Planted bug: from the third read on, the status check of a final transaction answers '852' again.",
    hooks: {
      onRequest(req) {
        if (req.operationId !== 'v1.transaction.status' && req.operationId !== 'v2.transaction.status') return;
        req.headers[STATUS_ID_HEADER] = req.path.slice(req.path.lastIndexOf('/') + 1);
      },
      onEnvelope(ctx) {
        const id = ctx.headers[STATUS_ID_HEADER];
        const code = ctx.envelope.responseCode;
        if (id === undefined || ctx.httpStatus !== 200 || code === '852') return;
        const reads = FINAL_READS(ctx.headers);
        const count = (reads.get(id) ?? 0) + 1;
        reads.set(id, count);
        if (count < 3) return;
        return { envelope: { responseCode: '852', responseMessage: 'Transaction is in progress', payLoad: null } };
      },
    },
    plantedBug: {
      rule: "Unknown / In progress | Status check | any other responseCode | Failed ('852' means in progress; any other code is final)",
      specSection: 'States and transitions; Endpoints / Write operations (Per-operation rules: Status check)',
      expectedFailingCases: both(
        'STATUS-TOPUP-000',
        'STATUS-TOPUP-510',
        'STATUS-TOPUP-500',
        'STATUS-TOPUP-001',
        'STATUS-PIN-000',
        'STATUS-GIFTCARD-000',
      ),
    },
  },
  {
    name: 'bug-writes-require-new-field',
    description:
      'Planted bug: every write but the top-up refuses bodies without an `email` field (a required field added within a version).',
    hooks: {
      onRequest(req) {
        const op = req.operationId === undefined ? undefined : findOperation(req.operationId);
        const write = writeBody(req.operationId, req.body);
        if (op === undefined || write === undefined || !NEW_FIELD_WRITES.includes(op.purpose) || 'email' in write.body) return;
        REFUSE_NEW_FIELD.refuse(req);
      },
      onEnvelope: REFUSE_NEW_FIELD.explain,
    },
    plantedBug: {
      rule: 'Breaking changes are: … adding required request fields or headers … They appear only under a new version.',
      specSection: 'Versioning (4); Resources and their fields / Request objects',
      expectedFailingCases: [
        ...OPERATIONS.filter((op) => NEW_FIELD_WRITES.includes(op.purpose)).map((op) => `ENV-${op.id}`),
        // Their reads need a gift card / port-in / eSIM made first.
        ...envOf('v1.esim.status', 'v2.esim.status', 'v1.transaction.sim-portin-status', 'v2.transaction.sim-portin-status'),
        ...envOf('v1.transaction.giftcard-fetch', 'v2.transaction.giftcard-fetch'),
        ...both('LEN-BILLCUR-3', 'LEN-AREA-3', 'STATUS-PIN-000', 'STATUS-GIFTCARD-000', 'GIFT-852-FINAL'),
        'CUR-EST-UPPER',
      ],
    },
  },
  {
    name: 'bug-topup-wallet-amount-refused',
    description: 'Planted bug: a top-up without transactionCurrencyCode (amount in the wallet currency) is refused.',
    hooks: {
      onRequest(req) {
        const write = writeBody(req.operationId, req.body);
        if (write?.name !== 'topup') return;
        const code = write.body.transactionCurrencyCode;
        if (code === undefined || code === null || code === '') REFUSE_WALLET_TOPUP.refuse(req);
      },
      onEnvelope: REFUSE_WALLET_TOPUP.explain,
    },
    plantedBug: {
      rule: 'Top-up request: amount | number double | yes | In the customer wallet currency when transactionCurrencyCode is absent',
      specSection: 'Resources and their fields / Top-up request',
      expectedFailingCases: [
        ...envOf('v1.transaction.topup', 'v2.transaction.topup', 'v1.transaction.status', 'v2.transaction.status'),
        ...both('TRG-510', 'TRG-500', 'TRG-001', 'TRG-555555', 'TRG-666666', 'POLL-MIXED', 'BAL-CHARGE', 'STATUS-TOPUP-000'),
        ...both('LEN-CORR-1', 'LEN-CORR-50', 'LEN-PIN-6'),
        ...both('AMOUNT-WALLET-BELOW-MIN', 'AMOUNT-WALLET-AT-MIN', 'AMOUNT-WALLET-AT-MAX', 'AMOUNT-WALLET-ABOVE-MAX'),
      ],
    },
  },
  {
    name: 'bug-topup-face-currency-refused',
    description: "Planted bug: a top-up with transactionCurrencyCode (the SKU's FaceValueCurrency) is refused.",
    hooks: {
      onRequest(req) {
        const write = writeBody(req.operationId, req.body);
        if (write?.name !== 'topup') return;
        const code = write.body.transactionCurrencyCode;
        if (typeof code === 'string' && code !== '') REFUSE_FACE_TOPUP.refuse(req);
      },
      onEnvelope: REFUSE_FACE_TOPUP.explain,
    },
    plantedBug: {
      rule: 'transactionCurrencyCode | ISO currency code of the destination country, to send amount in destination currency; allowed values are those in the FaceValueCurrency field of the SKU catalog',
      specSection: 'Resources and their fields / Top-up request',
      expectedFailingCases: [
        ...both('CUR-TOPUP-FACE', 'AMOUNT-FACE-BELOW-MIN', 'AMOUNT-FACE-AT-MIN', 'AMOUNT-FACE-AT-MAX', 'AMOUNT-FACE-ABOVE-MAX'),
        'LOAN-TWO-STEP',
      ],
    },
  },
  {
    name: 'bug-lookup-only-jm-in',
    description: 'Planted bug: the sandbox lookup supports only Jamaica and India.',
    behaviour: { lookupCountries: { sandbox: ['JM', 'IN'], productionExcluded: ['US', 'ES'] } },
    plantedBug: {
      rule: 'Mobile number lookup support: sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico)',
      specSection: 'What the service does',
      expectedFailingCases: both('LOOKUP-PK', 'LOOKUP-MX'),
    },
  },
  {
    name: 'bug-lookup-wrong-countries',
    description: 'Planted bug: the sandbox lookup supports Pakistan, Mexico, the United States and Spain instead of the four.',
    behaviour: { lookupCountries: { sandbox: ['PK', 'MX', 'US', 'ES'], productionExcluded: [] } },
    plantedBug: {
      rule: 'Mobile number lookup support: sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico). Production supports all countries except the United States and Spain.',
      specSection: 'What the service does',
      expectedFailingCases: [
        ...envOf('v1.catalog.lookup-mobile', 'v2.lookup.mobile'),
        ...both('LOOKUP-JM', 'LOOKUP-IN', 'LOOKUP-US', 'LOOKUP-ES'),
        'LOC-LOOKUP',
      ],
    },
  },
  {
    name: 'bug-limits-one-short',
    description:
      'Planted bug: every length limit is one short (correlationId 2..49, operatorPin 5, bill payment currency 2, port-in areaCode 2).',
    hooks: {
      onRequest(req) {
        const write = writeBody(req.operationId, req.body);
        if (write === undefined) return;
        const b = write.body;
        if (
          write.name === 'topup' &&
          typeof b.correlationId === 'string' &&
          (b.correlationId.length === 1 || b.correlationId.length === 50)
        )
          b.correlationId = '';
        if (write.name === 'topup' && typeof b.operatorPin === 'string' && b.operatorPin.length === 6) b.operatorPin = `${b.operatorPin}0`;
        if (write.name === 'billpay' && typeof b.transactionCurrencyCode === 'string' && b.transactionCurrencyCode.length === 3)
          b.transactionCurrencyCode += 'X';
        if (write.name === 'sim-portin' && typeof b.areaCode === 'string' && b.areaCode.length === 3) b.areaCode += '0';
      },
    },
    plantedBug: {
      rule: 'Limits: correlationId length 1 to 50 characters; operatorPin length 0 to 6 characters; transactionCurrencyCode (bill payment) at most 3 characters; areaCode (SIM port-in) at most 3 characters',
      specSection: 'Limits; Resources and their fields / Request objects',
      expectedFailingCases: both('LEN-CORR-1', 'LEN-CORR-50', 'LEN-PIN-6', 'LEN-BILLCUR-3', 'LEN-AREA-3'),
    },
  },
  {
    name: 'bug-estimated-cost-case-inverted',
    description: 'Planted bug: estimated cost takes a lower-case transactionCurrencyCode and refuses the upper-case one.',
    hooks: {
      onRequest: onBody('.transaction.estimated-cost', (body) => {
        const code = body.transactionCurrencyCode;
        if (typeof code !== 'string') return;
        body.transactionCurrencyCode = [...code].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join('');
      }),
    },
    plantedBug: {
      rule: 'Estimated cost request: transactionCurrencyCode | Destination currency; must be upper case',
      specSection: 'Resources and their fields / Estimated cost request (v2)',
      expectedFailingCases: ['CUR-EST-LOWER', 'CUR-EST-UPPER'],
    },
  },
  {
    name: 'bug-giftcard-page-size-0-default',
    description: 'Planted bug: the gift card list treats pageSize 0 as "not given" and answers the default page.',
    hooks: {
      onRequest(req) {
        if (req.operationId === 'v2.catalog.skus-giftcards' && req.query.pageSize === '0') delete req.query.pageSize;
      },
    },
    plantedBug: {
      rule: 'pageSize must be at least 1 and at most 100',
      specSection: 'Endpoints / Version v2 read operations (Gift card SKU list paging rules); Limits',
      expectedFailingCases: ['PAGE-SIZE-0'],
    },
  },
  {
    name: 'bug-getproducts-category-empty',
    description: 'Planted bug: getproducts with any categoryId answers an empty list.',
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v2.catalog.getproducts') || ctx.query.categoryId === undefined || ctx.envelope.responseCode !== '000') return;
        return { envelope: { ...ctx.envelope, payLoad: [] } };
      },
    },
    plantedBug: {
      rule: 'Catalog category ids (categoryId parameter): Pin = 1, Rtr = 2, Bill Pay = 4, Sim = 5, Gift Card = 6, eSim = 7.',
      specSection: 'What the service does',
      expectedFailingCases: CATEGORY_IDS_CASES,
    },
  },
  {
    name: 'bug-localization-partial',
    description: 'Planted bug: with Accept-Language: ar, BenefitType comes back empty (not translated).',
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v2.catalog.skus', 'v2.catalog.skus-giftcards', 'v2.lookup.mobile') || !Array.isArray(ctx.envelope.payLoad)) return;
        if (!(ctx.headers['accept-language'] ?? '').toLowerCase().startsWith('ar')) return;
        const payLoad = (ctx.envelope.payLoad as unknown[]).map((r) =>
          r !== null && typeof r === 'object' ? { ...r, benefitType: '' } : r,
        );
        return { envelope: { ...ctx.envelope, payLoad } };
      },
    },
    plantedBug: {
      rule: 'The fields SkuName, ProductName, BenefitType, ProductDescription, OperatorName and AdditionalInformation are returned localized.',
      specSection: 'Versioning (2)',
      expectedFailingCases: ['LOC-SKUS', 'LOC-GIFTCARDS', 'LOC-LOOKUP'],
    },
  },
  {
    name: 'bug-catalog-filters-ignored',
    description: 'Planted bug: the catalog reads ignore their filter parameters (every record comes back).',
    hooks: {
      onRequest(req) {
        const params = FILTER_PARAMS[req.operationId ?? ''];
        if (params === undefined) return;
        for (const key of Object.keys(req.query)) if (params.some((p) => p.toLowerCase() === key.toLowerCase())) delete req.query[key];
      },
    },
    plantedBug: {
      rule: 'query productId int32, skuId int32, countryCode string, … optional (the filters of the catalog read operations)',
      specSection: 'Endpoints / Version v1 read operations (GET); Version v2 read operations (GET)',
      expectedFailingCases: [...FILTERS_V1, ...FILTERS_V2],
    },
  },
  {
    name: 'bug-required-fields-defaulted',
    description:
      'Planted bug: a write missing a required field is completed from the last accepted body of that operation (a missing correlationId is made up).',
    behaviour: { initialBalance: BIG_WALLET },
    hooks: {
      onRequest(req) {
        const write = writeBody(req.operationId, req.body);
        if (write === undefined) return;
        for (const field of bodyFacts(write.name).required) {
          if (field in write.body) continue;
          const value = field === 'correlationId' ? madeUpCorrelationId() : REMEMBERED_MISSING.lookup(req, write.body.skuId)?.[field];
          if (value !== undefined) write.body[field] = value;
        }
      },
      onEnvelope: REMEMBERED_MISSING.remember,
    },
    plantedBug: {
      rule: 'Request objects: the fields marked Required yes (e.g. Top-up request: skuId, amount, mobile, correlationId)',
      specSection: 'Resources and their fields / Request objects',
      expectedFailingCases: reqCaseIds((rule) => rule === 'MISSING'),
    },
  },
  {
    name: 'bug-empty-strings-accepted',
    description:
      'Planted bug: an empty required string is completed from the last accepted body of that operation (an empty correlationId is made up).',
    behaviour: { initialBalance: BIG_WALLET },
    hooks: {
      onRequest(req) {
        const write = writeBody(req.operationId, req.body);
        if (write === undefined) return;
        for (const field of [...bodyFacts(write.name).nonEmpty, 'correlationId']) {
          if (write.body[field] !== '') continue;
          const value = field === 'correlationId' ? madeUpCorrelationId() : REMEMBERED_EMPTY.lookup(req, write.body.skuId)?.[field];
          if (value !== undefined) write.body[field] = value;
        }
      },
      onEnvelope: REMEMBERED_EMPTY.remember,
    },
    plantedBug: {
      rule: 'mobile | string, non-empty | yes; accountNumber | string, non-empty | yes; simNumber | string, non-empty | yes; correlationId | string, 1..50 chars | yes',
      specSection: 'Resources and their fields / Request objects; Limits',
      expectedFailingCases: [...reqCaseIds((rule) => rule === 'EMPTY'), ...both('LEN-CORR-0')],
    },
  },
  {
    name: 'bug-types-coerced',
    description:
      'Planted bug: request fields of the wrong JSON type are coerced (digit strings and fractions to integers, values beyond int32 cut to 32 bits, numbers to strings).',
    behaviour: { initialBalance: BIG_WALLET },
    hooks: {
      onRequest(req) {
        const write = writeBody(req.operationId, req.body);
        if (write === undefined) return;
        const facts = bodyFacts(write.name);
        for (const field of facts.int32) {
          const value = write.body[field];
          if (typeof value === 'string' && /^-?\d+$/.test(value)) write.body[field] = Number(value);
          else if (typeof value === 'number' && Number.isFinite(value)) write.body[field] = INT32(Math.trunc(value));
        }
        if (typeof write.body.correlationId === 'number') write.body.correlationId = String(write.body.correlationId);
      },
    },
    plantedBug: {
      rule: 'skuId | integer int32 | yes; zipCode | integer int32 | yes; numberOfPlanMonths | integer int32 | no; correlationId | string, 1..50 chars | yes',
      specSection: 'Resources and their fields / Request objects',
      expectedFailingCases: reqCaseIds((rule) => rule.startsWith('INT32-') || rule === 'CORR-NUMBER'),
    },
  },
  {
    name: 'bug-category-unchecked',
    description: 'Planted bug: every write accepts a SKU of any category.',
    behaviour: { checkCategory: false, initialBalance: BIG_WALLET },
    plantedBug: {
      rule: 'skuId | integer int32 | yes | SKU whose category is RTR / PIN / billpay / Sim / eSIM; Gift card request: SKU of a gift card product',
      specSection: 'Resources and their fields / Request objects; Endpoints / Write operations (Per-operation rules: Top-up)',
      expectedFailingCases: categoryCaseIds(),
    },
  },
  {
    name: 'bug-amount-bounds-unchecked',
    description: "Planted bug: top-ups outside a denomination's bounds go through (only the sandbox trigger still answers '001').",
    behaviour: { checkAmountBounds: false, initialBalance: BIG_WALLET },
    plantedBug: {
      rule: 'Top-up amount bounds | per denomination, reported in the 001 message; 001 | Amount outside the allowed range of the denomination',
      specSection: 'Limits; Errors / Codes named in the interface',
      expectedFailingCases: AMOUNT_OUTSIDE,
    },
  },
  {
    name: 'bug-amount-cent-down',
    description: 'Planted bug: a top-up amount loses a cent before the bounds check, so an amount at the minimum is refused.',
    hooks: { onRequest: shift(-1) },
    plantedBug: {
      rule: 'Top-up amount bounds | per denomination (an amount at the minimum lies within them)',
      specSection: 'Limits; Resources and their fields / Top-up request',
      // Every valid top-up sends its SKU's smallest valid amount (api/catalog-facts.ts validAmount): each one meets the bug.
      expectedFailingCases: [
        ...envOf('v1.transaction.status', 'v1.transaction.topup', 'v2.transaction.status', 'v2.transaction.topup'),
        ...both('TRG-555555', 'TRG-666666', 'LEN-CORR-1', 'LEN-CORR-50', 'LEN-PIN-6', 'POLL-MIXED', 'BAL-CHARGE', 'STATUS-TOPUP-000'),
        ...both('AMOUNT-WALLET-AT-MIN', 'AMOUNT-FACE-AT-MIN'),
        'LOAN-TWO-STEP',
      ],
    },
  },
  {
    name: 'bug-amount-cent-up',
    description: 'Planted bug: a top-up amount gains a cent before the bounds check, so an amount at the maximum is refused.',
    hooks: { onRequest: shift(1) },
    plantedBug: {
      rule: 'Top-up amount bounds | per denomination (an amount at the maximum lies within them)',
      specSection: 'Limits; Resources and their fields / Top-up request',
      expectedFailingCases: [...both('AMOUNT-WALLET-AT-MAX', 'AMOUNT-FACE-AT-MAX'), 'LOAN-TWO-STEP'],
    },
  },
];

const HAND_WRITTEN_BUGS: SandboxProfile[] = [
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
      expectedFailingCases: both('TRG-510', 'POLL-MIXED', 'BAL-NOCHARGE-510', 'STATUS-TOPUP-510'),
    },
  },
  {
    name: 'bug-message-on-success',
    description: "Planted bug: v2 catalog/countries and catalog/skus answer '000' with a responseMessage.",
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v2.catalog.countries', 'v2.catalog.skus') || ctx.envelope.responseCode !== '000') return;
        return { envelope: { ...ctx.envelope, responseMessage: 'OK' } };
      },
    },
    plantedBug: {
      rule: 'responseMessage | string or null | null on success',
      specSection: 'Resources and their fields / Response envelope',
      expectedFailingCases: [
        'ENV-v2.catalog.countries',
        'ENV-v2.catalog.skus',
        'LOC-SKUS',
        'FILTERS-V2-SKUS-PRODUCTID',
        'FILTERS-V2-SKUS-SKUID',
      ],
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
    // Not "answers at once": on a starved CPU a fast answer can still miss a 1 s client timeout, so that bug could
    // not fail reliably. The client-timeout check itself is shown failing in checks.test.ts.
    name: 'bug-trigger-555555-never-final',
    description: "Planted bug: numbers ending 555555 stay '852' far beyond the 90 s delay and the 2-minute service-side timeout.",
    behaviour: { triggers: triggersWith('TRG-555555', (rule) => ({ ...rule, effect: { delayMs: 3_600_000 } })) },
    plantedBug: {
      rule: 'Mobile number ends with 555555 | Response delayed 90 seconds (same purpose: the final result is read via the status endpoint); Service-side transaction timeout | 2 minutes',
      specSection: 'Errors / Sandbox simulation triggers (top-up operation); Limits',
      expectedFailingCases: both('TRG-555555', 'POLL-MIXED'),
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
      expectedFailingCases: [...both('TRG-001'), ...AMOUNT_OUTSIDE],
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
    description: 'Planted bug: a page asked for with a cursor leaves out the first SKU at or after that skuId.',
    hooks: {
      onEnvelope(ctx) {
        if (!isOp(ctx, 'v2.catalog.skus-giftcards') || ctx.envelope.responseCode !== '000' || ctx.query.cursor === undefined) return;
        const payload = ctx.envelope.payLoad;
        if (!Array.isArray(payload) || payload.length === 0) return;
        return { envelope: { ...ctx.envelope, payLoad: payload.slice(1) } };
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
        'FILTERS-V2-GIFTCARDS-PRODUCTID',
        'FILTERS-V2-GIFTCARDS-SKUID',
        'FILTERS-V2-GIFTCARDS-COUNTRYCODE',
        'LOC-GIFTCARDS',
      ],
    },
  },
  {
    name: 'bug-correlation-id-51',
    description: 'Planted bug: a correlationId longer than 50 characters is cut to 50 and the top-up goes through.',
    hooks: {
      onRequest: onBody('.transaction.topup', cutTo('correlationId', 50)),
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
      onRequest: onBody('.transaction.topup', cutTo('operatorPin', 6)),
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
      onRequest: onBody('.transaction.billpay', cutTo('transactionCurrencyCode', 3)),
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
      onRequest: onBody('.transaction.sim-portin', cutTo('areaCode', 3)),
    },
    plantedBug: {
      rule: 'SIM port-in: areaCode is at most 3 chars (Limits: areaCode (SIM port-in) at most 3 characters)',
      specSection: 'Resources and their fields / SIM port-in request; Limits',
      expectedFailingCases: both('LEN-AREA-4'),
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
    name: 'bug-lookup-every-country',
    description: 'Planted bug: the sandbox lookup answers numbers of every country, not only Jamaica, India, Pakistan and Mexico.',
    behaviour: {
      lookupCountries: {
        sandbox: [
          'JM',
          'IN',
          'PK',
          'MX',
          'TT',
          'BB',
          'DO',
          'HT',
          'US',
          'GT',
          'SV',
          'HN',
          'CO',
          'BR',
          'ES',
          'GB',
          'BD',
          'NP',
          'PH',
          'NG',
          'GH',
          'KE',
          'EG',
          'AE',
        ],
        productionExcluded: ['US', 'ES'],
      },
    },
    plantedBug: {
      rule: 'Mobile number lookup support: sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico)',
      specSection: 'What the service does',
      expectedFailingCases: both('LOOKUP-OTHER', 'LOOKUP-US', 'LOOKUP-ES'),
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
      expectedFailingCases: [...both('BAL-NOCHARGE-510', 'BAL-NOCHARGE-500', 'BAL-NOCHARGE-001'), ...AMOUNT_OUTSIDE],
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
  ...PER_CASE_BUGS,
];

/**
 * A bug for each trigger row no hand-written profile proves (a write's own trigger table, as a new operation brings):
 * the sandbox ignores that row, so the write goes through and the row's TRG cases fail. Derived from the catalog, so a
 * trigger added as catalog data (api/triggers.ts) is proven without an edit here.
 */
function ignoredTriggerBugs(written: readonly SandboxProfile[]): SandboxProfile[] {
  const proven = new Set(written.flatMap((profile) => profile.plantedBug?.expectedFailingCases ?? []));
  return SPEC_TRIGGERS.filter((row) => !proven.has(`${row.id}-V1`) && !proven.has(`${row.id}-V2`)).map((row) => ({
    name: `bug-${row.id.toLowerCase()}-ignored`,
    description: `Planted bug: the sandbox ignores the trigger ${row.id} of ${row.purpose}; the request is processed as an ordinary one.`,
    behaviour: { triggers: SPEC_TRIGGERS.filter((other) => other !== row) },
    plantedBug: { rule: row.rule, specSection: 'Errors / Sandbox simulation triggers', expectedFailingCases: both(row.id) },
  }));
}

export const PLANTED_BUG_PROFILES: SandboxProfile[] = [...HAND_WRITTEN_BUGS, ...ignoredTriggerBugs(HAND_WRITTEN_BUGS)];
