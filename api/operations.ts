// The operation catalog: every v1 and v2 operation of the gateway spec, as data.
// Everything else (sandbox routes, conformance matrix, load scenarios, README coverage table) derives from it.
import type { RequestBodyName } from '../schemas/generated/request-bodies.ts';
import type { InputRule, InputSource } from './input-rules.ts';
import { CATEGORY_IDS } from './categories.ts';
import { SPEC_TOPUP_TRIGGERS, type TriggerRow } from './triggers.ts';

/** API version prefix of an operation's path. */
export type ApiVersion = 'v1' | 'v2';
export type HttpMethod = 'GET' | 'POST';
/** The spec lists payloads "as kinds only": number, object or array. */
export type PayloadKind = 'number' | 'object' | 'array';
export type ParamLocation = 'path' | 'query' | 'header';
export type ParamType = 'int32' | 'int64' | 'string';

/** One path, query or header parameter, with the spec's optional/required and default. */
export interface ParamSpec {
  readonly name: string;
  readonly in: ParamLocation;
  readonly type: ParamType;
  readonly required: boolean;
  /** Default stated by the spec (only carriers' countryCode/currencyCode have one: empty string). */
  readonly default?: string | number;
  readonly description: string;
}

/** Request bodies of the write operations: one per `schemas/<name>-request.schema.json`, derived by `npm run gen`. */
export type { RequestBodyName };

/** Envelope shape: the gift card SKU list adds integer `next` and `next_cursor`. */
export type EnvelopeKind = 'standard' | 'giftcard-list';

export interface Operation {
  /** Stable id, `<version>.<group>.<name>`; used in reports, conformance case ids and config overrides. */
  readonly id: string;
  readonly version: ApiVersion;
  readonly method: HttpMethod;
  /** Path template relative to the base URL, with `{param}` placeholders (spelled exactly as the spec does). */
  readonly path: string;
  /** The endpoint group: one sandbox route module each. */
  readonly group: OperationGroup;
  /** Same-purpose key: a v1 and a v2 operation with the same purpose form a migration pair. */
  readonly purpose: string;
  readonly summary: string;
  readonly params: readonly ParamSpec[];
  /** Request body (writes only). */
  readonly requestBody?: RequestBodyName;
  readonly payloadKind: PayloadKind;
  readonly envelope: EnvelopeKind;
  /** True when a successful call can charge the agent's account (money safety hangs off this flag). */
  readonly charges: boolean;
  /** True when the spec does not show the path ("not shown"): the default comes from DESIGN.md and is overridable per target. */
  readonly pathAssumed: boolean;
  /** Accepts `Accept-Language` and localizes SkuName, ProductName, ... (spec: Versioning 2). */
  readonly localized: boolean;
  /** The spec section the operation is defined in. */
  readonly specSection: string;
  /**
   * Where a valid request's inputs come from (api/input-rules.ts): catalog SKUs, number plans, settings, links to an
   * earlier transaction's result. Conformance, drift, migrate and load build every request from it (api/inputs.ts).
   */
  readonly inputs?: InputRule;
  /**
   * Sandbox simulation triggers of a write (api/triggers.ts): the sandbox answers them, conformance checks each row
   * (TRG) and proves the check with a planted bug, and ordinary numbers avoid their suffixes.
   */
  readonly triggers?: readonly TriggerRow[];
}

export type OperationGroup =
  'account' | 'catalog' | 'lookup' | 'promotion' | 'esim' | 'billpay' | 'status' | 'giftcard' | 'sim' | 'topup' | 'pin' | 'estimated-cost';

const V1_READS = 'Endpoints / Version v1 read operations (GET)';
const V2_READS = 'Endpoints / Version v2 read operations (GET)';
const WRITES = 'Endpoints / Write operations (POST, JSON body, Content-Type application/json)';

// Small constructors keep the table below readable; they add nothing the table does not say.
const q = (name: string, type: ParamType, description: string, def?: string | number): ParamSpec =>
  def === undefined
    ? { name, in: 'query', type, required: false, description }
    : { name, in: 'query', type, required: false, default: def, description };
const p = (name: string, type: ParamType, description: string): ParamSpec => ({
  name,
  in: 'path',
  type,
  required: true,
  description,
});
const acceptLanguage: ParamSpec = {
  name: 'Accept-Language',
  in: 'header',
  type: 'string',
  required: false,
  description: "Language code of the localized fields (Arabic: 'ar'); default English",
};

interface ReadInput {
  id: string;
  path: string;
  group: OperationGroup;
  purpose: string;
  summary: string;
  params?: ParamSpec[];
  payloadKind: PayloadKind;
  envelope?: EnvelopeKind;
  localized?: boolean;
  inputs?: InputRule;
}

function read(version: ApiVersion, input: ReadInput): Operation {
  return {
    id: input.id,
    version,
    method: 'GET',
    path: input.path,
    group: input.group,
    purpose: input.purpose,
    summary: input.summary,
    params: input.params ?? [],
    payloadKind: input.payloadKind,
    envelope: input.envelope ?? 'standard',
    charges: false,
    pathAssumed: false,
    localized: input.localized ?? false,
    specSection: version === 'v1' ? V1_READS : V2_READS,
    ...(input.inputs === undefined ? {} : { inputs: input.inputs }),
  };
}

interface WriteInput {
  name: string;
  group: OperationGroup;
  body: RequestBodyName;
  summary: string;
  /** Path as the spec shows it; undefined when the spec says "not shown". */
  specPath?: string;
  /** Default for a path the spec does not show (DESIGN.md: what public client code of this gateway uses). */
  assumedPath?: string;
  charges: boolean;
  /** Where the body's values come from (api/input-rules.ts). */
  inputs: InputRule;
  /** Its sandbox simulation triggers (api/triggers.ts), if the spec states any. */
  triggers?: readonly TriggerRow[];
}

function write(version: ApiVersion, input: WriteInput): Operation {
  const path = input.specPath ?? input.assumedPath;
  if (path === undefined) throw new Error(`write ${version}.${input.name} has no path`);
  return {
    id: `${version}.transaction.${input.name}`,
    version,
    method: 'POST',
    path,
    group: input.group,
    purpose: `transaction.${input.name}`,
    summary: input.summary,
    params: [],
    requestBody: input.body,
    payloadKind: 'object',
    envelope: 'standard',
    charges: input.charges,
    pathAssumed: input.specPath === undefined,
    localized: false,
    specSection: WRITES,
    inputs: input.inputs,
    ...(input.triggers === undefined ? {} : { triggers: input.triggers }),
  };
}

const skuIdQ = q('skuId', 'int32', 'SKU id filter');
const productIdQ = q('productId', 'int32', 'Product id filter');
const statusParams = [p('correlationId', 'string', 'correlationId as sent in the original transaction')];
const giftcardFetchParams = [p('id', 'int64', 'Transaction id from the gift card operation')];
const portinStatusParams = [p('id', 'int64', 'Transaction id from the port-in response')];
const iccidParams = [p('Iccid', 'string', 'ICCID from the eSIM order response')];
const billpayDetailParams = [q('skuId', 'int32', 'SKU id'), q('accountNumber', 'string', 'Account number on the bill')];

export { CATEGORY_IDS, type CategoryName } from './categories.ts';

// Input rules shared by several entries (api/input-rules.ts): where each value of a valid request comes from.
const NONE: InputRule = {};
const AR: InputSource = { value: 'ar' };
const skuPath: InputRule = { sku: { category: 'any' }, params: { skuId: 'sku.skuId' } };
const byProduct = (param: string): InputRule => ({ sku: { category: 'any' }, filters: { [param]: 'sku.productId' } });
const byCountry: InputRule = { sku: { category: 'any' }, filters: { countryCode: 'sku.countryCode' } };
const billDetail: InputRule = {
  sku: { category: 'Bill Pay' },
  params: { skuId: 'sku.skuId', accountNumber: 'settings.billpayAccountNumber' },
};
/** Any charging write's correlationId (the first in catalog order, a top-up, when one is made for the purpose). */
const statusInputs: InputRule = { params: { correlationId: { from: '*', field: 'correlationId' } } };
const giftcardFetchInputs: InputRule = { params: { id: { from: 'transaction.giftcard', field: 'transactionId' } } };
const portinStatusInputs: InputRule = { params: { id: { from: 'transaction.sim-portin', field: 'transactionId' } } };
const esimStatusInputs: InputRule = { params: { Iccid: { from: 'transaction.esim', field: 'esimIccid' } } };

const V1_READ_OPERATIONS: Operation[] = [
  read('v1', {
    id: 'v1.account.balance',
    path: '/api/v1/account/balance',
    group: 'account',
    purpose: 'account.balance',
    summary: 'Wallet balance (prepaid terms: negative = available funds)',
    payloadKind: 'number',
    inputs: NONE,
  }),
  read('v1', {
    id: 'v1.catalog.skus',
    path: '/api/v1/catalog/skus',
    group: 'catalog',
    purpose: 'catalog.skus',
    summary: 'SKU catalog',
    params: [q('productid', 'int32', 'Product id filter (spelled productid in v1)')],
    payloadKind: 'array',
    inputs: byProduct('productid'),
  }),
  read('v1', {
    id: 'v1.catalog.sku-description',
    path: '/api/v1/catalog/sku/description',
    group: 'catalog',
    purpose: 'catalog.sku-description',
    summary: 'SKU descriptions',
    params: [skuIdQ, productIdQ],
    payloadKind: 'array',
    inputs: { sku: { category: 'any' }, filters: { skuId: 'sku.skuId' } },
  }),
  read('v1', {
    id: 'v1.catalog.lookup-mobile',
    path: '/api/v1/catalog/lookup/mobile/{mobile}',
    group: 'lookup',
    purpose: 'lookup.mobile',
    summary: 'Mobile number lookup (operator and products)',
    params: [p('mobile', 'int64', 'Mobile number with country code')],
    payloadKind: 'object',
    inputs: { params: { mobile: 'mobile' } },
  }),
  read('v1', {
    id: 'v1.catalog.promotion-current',
    path: '/api/v1/catalog/promotion/current',
    group: 'promotion',
    purpose: 'promotion.current',
    summary: 'Current promotions (destination time zone)',
    payloadKind: 'array',
    inputs: NONE,
  }),
  read('v1', {
    id: 'v1.catalog.promotion-upcoming',
    path: '/api/v1/catalog/promotion/upcoming',
    group: 'promotion',
    purpose: 'promotion.upcoming',
    summary: 'Upcoming promotions (destination time zone)',
    payloadKind: 'array',
    inputs: NONE,
  }),
  read('v1', {
    id: 'v1.catalog.sku-exchange-rate',
    path: '/api/v1/catalog/sku/exchangeRate/{skuId}',
    group: 'catalog',
    purpose: 'catalog.sku-exchange-rate',
    summary: 'Most current exchange rate of a denomination',
    params: [p('skuId', 'int32', 'SKU id')],
    payloadKind: 'object',
    inputs: skuPath,
  }),
  read('v1', {
    id: 'v1.catalog.sku-logos',
    path: '/api/v1/catalog/sku/logos',
    group: 'catalog',
    purpose: 'catalog.sku-logos',
    summary: 'Product logos',
    params: [skuIdQ, productIdQ],
    payloadKind: 'array',
    inputs: { sku: { category: 'any' }, filters: { skuId: 'sku.skuId', productId: 'sku.productId' } },
  }),
  read('v1', {
    id: 'v1.catalog.errors',
    path: '/api/v1/catalog/errors',
    group: 'catalog',
    purpose: 'catalog.errors',
    summary: 'Error-code list',
    payloadKind: 'array',
    inputs: NONE,
  }),
  read('v1', {
    id: 'v1.catalog.carriers',
    path: '/api/v1/catalog/carriers',
    group: 'catalog',
    purpose: 'catalog.carriers',
    summary: 'Carriers',
    params: [q('countryCode', 'string', 'Country code filter', ''), q('currencyCode', 'string', 'Currency code filter', '')],
    payloadKind: 'array',
    inputs: byCountry,
  }),
  read('v1', {
    id: 'v1.catalog.countries',
    path: '/api/v1/catalog/countries',
    group: 'catalog',
    purpose: 'catalog.countries',
    summary: 'Countries',
    payloadKind: 'array',
    inputs: NONE,
  }),
  read('v1', {
    id: 'v1.esim.status',
    path: '/api/v1/esim/status/{Iccid}',
    group: 'esim',
    purpose: 'esim.status',
    summary: 'eSIM status with remaining data balance',
    params: iccidParams,
    payloadKind: 'array',
    inputs: esimStatusInputs,
  }),
  read('v1', {
    id: 'v1.transaction.billpay-fetch-account-detail',
    path: '/api/v1/transaction/billpay/fetch-account-detail',
    group: 'billpay',
    purpose: 'billpay.fetch-account-detail',
    summary: 'Bill detail of an account',
    params: billpayDetailParams,
    payloadKind: 'object',
    inputs: billDetail,
  }),
  read('v1', {
    id: 'v1.transaction.status',
    path: '/api/v1/transaction/status/{correlationId}',
    group: 'status',
    purpose: 'transaction.status',
    summary: 'Status of an earlier transaction by correlationId',
    params: statusParams,
    payloadKind: 'object',
    inputs: statusInputs,
  }),
  read('v1', {
    id: 'v1.transaction.giftcard-fetch',
    path: '/api/v1/transaction/giftcard/fetch/{id}',
    group: 'giftcard',
    purpose: 'giftcard.fetch',
    summary: 'Gift card details by transaction id',
    params: giftcardFetchParams,
    payloadKind: 'object',
    inputs: giftcardFetchInputs,
  }),
  read('v1', {
    id: 'v1.transaction.sim-portin-status',
    path: '/api/v1/transaction/sim/portin/status/{id}',
    group: 'sim',
    purpose: 'sim.portin-status',
    summary: 'SIM port-in status by transaction id',
    params: portinStatusParams,
    payloadKind: 'object',
    inputs: portinStatusInputs,
  }),
];

const V2_READ_OPERATIONS: Operation[] = [
  read('v2', {
    id: 'v2.account.balance',
    path: '/api/v2/account/balance',
    group: 'account',
    purpose: 'account.balance',
    summary: 'Wallet balance (prepaid terms: negative = available funds)',
    payloadKind: 'number',
    inputs: NONE,
  }),
  read('v2', {
    id: 'v2.catalog.countries',
    path: '/api/v2/catalog/countries',
    group: 'catalog',
    purpose: 'catalog.countries',
    summary: 'Countries',
    payloadKind: 'array',
    inputs: NONE,
  }),
  read('v2', {
    id: 'v2.catalog.operators',
    path: '/api/v2/catalog/operators',
    group: 'catalog',
    purpose: 'catalog.operators',
    summary: 'Operators',
    params: [q('operatorId', 'int32', 'Operator id filter'), q('countryCode', 'string', 'Country code filter')],
    payloadKind: 'array',
    inputs: byCountry,
  }),
  read('v2', {
    id: 'v2.catalog.getproducts',
    path: '/api/v2/catalog/getproducts',
    group: 'catalog',
    purpose: 'catalog.products',
    summary: 'Products available to the agent',
    params: [
      q('operatorId', 'int32', 'Operator id filter'),
      q('categoryId', 'int32', 'Category id filter (Pin=1, Rtr=2, Bill Pay=4, Sim=5, Gift Card=6, eSim=7)'),
      q('countryCode', 'string', 'Country code filter'),
    ],
    payloadKind: 'array',
    inputs: { sku: { category: 'any' }, filters: { categoryId: { value: CATEGORY_IDS.Rtr }, countryCode: 'sku.countryCode' } },
  }),
  read('v2', {
    id: 'v2.catalog.skus',
    path: '/api/v2/catalog/skus',
    group: 'catalog',
    purpose: 'catalog.skus',
    summary: 'SKU catalog (all products except gift cards)',
    params: [productIdQ, skuIdQ, acceptLanguage],
    payloadKind: 'array',
    localized: true,
    inputs: { sku: { category: 'any' }, filters: { productId: 'sku.productId', 'Accept-Language': AR } },
  }),
  read('v2', {
    id: 'v2.catalog.sku-exchange-rate',
    path: '/api/v2/catalog/sku/exchangeRate/{skuId}',
    group: 'catalog',
    purpose: 'catalog.sku-exchange-rate',
    summary: 'Most current exchange rate of a denomination',
    params: [p('skuId', 'int32', 'SKU id')],
    payloadKind: 'object',
    inputs: skuPath,
  }),
  read('v2', {
    id: 'v2.catalog.errors',
    path: '/api/v2/catalog/errors',
    group: 'catalog',
    purpose: 'catalog.errors',
    summary: 'Error-code list',
    payloadKind: 'array',
    inputs: NONE,
  }),
  read('v2', {
    id: 'v2.catalog.bundles',
    path: '/api/v2/catalog/bundles/{productId}/{mobileNumber}',
    group: 'catalog',
    purpose: 'catalog.bundles',
    summary: 'Dynamic bundles of a number, with loan information where dues exist',
    params: [p('productId', 'int32', 'Product id'), p('mobileNumber', 'string', 'Mobile number')],
    payloadKind: 'array',
    inputs: {
      sku: { category: 'Rtr', lookupCountry: true, preferBundles: true },
      params: { productId: 'sku.productId', mobileNumber: 'mobile' },
    },
  }),
  read('v2', {
    id: 'v2.catalog.skus-giftcards',
    path: '/api/v2/catalog/skus/giftcards',
    group: 'catalog',
    purpose: 'catalog.skus-giftcards',
    summary: 'Gift card SKU list with cursor paging (envelope next/next_cursor)',
    params: [
      q('cursor', 'int32', 'skuId to start from'),
      q('pageSize', 'int32', 'Page size, 1..100'),
      productIdQ,
      skuIdQ,
      q('countryCode', 'string', 'ISO country code filter'),
      acceptLanguage,
    ],
    payloadKind: 'array',
    envelope: 'giftcard-list',
    localized: true,
    inputs: { sku: { category: 'Gift Card' }, filters: { pageSize: { value: 20 }, cursor: 'sku.skuId', 'Accept-Language': AR } },
  }),
  read('v2', {
    id: 'v2.esim.status',
    path: '/api/v2/esim/status/{Iccid}',
    group: 'esim',
    purpose: 'esim.status',
    summary: 'eSIM status with remaining data balance',
    params: iccidParams,
    payloadKind: 'array',
    inputs: esimStatusInputs,
  }),
  read('v2', {
    id: 'v2.lookup.mobile',
    path: '/api/v2/lookup/mobile/{mobile}',
    group: 'lookup',
    purpose: 'lookup.mobile',
    summary: 'Mobile number lookup (operator and product information)',
    params: [p('mobile', 'int64', 'Mobile number with country code'), acceptLanguage],
    payloadKind: 'array',
    localized: true,
    inputs: { params: { mobile: 'mobile' }, filters: { 'Accept-Language': AR } },
  }),
  read('v2', {
    id: 'v2.lookup.billpay-fetch-account-detail',
    path: '/api/v2/lookup/billpay/fetch-account-detail',
    group: 'billpay',
    purpose: 'billpay.fetch-account-detail',
    summary: 'Bill detail of an account',
    params: billpayDetailParams,
    payloadKind: 'object',
    inputs: billDetail,
  }),
  read('v2', {
    id: 'v2.promotion.current',
    path: '/api/v2/promotion/current',
    group: 'promotion',
    purpose: 'promotion.current',
    summary: 'Active promotions',
    payloadKind: 'array',
    inputs: NONE,
  }),
  read('v2', {
    id: 'v2.promotion.upcoming',
    path: '/api/v2/promotion/upcoming',
    group: 'promotion',
    purpose: 'promotion.upcoming',
    summary: 'Future promotions',
    payloadKind: 'array',
    inputs: NONE,
  }),
  read('v2', {
    id: 'v2.transaction.status',
    path: '/api/v2/transaction/status/{correlationId}',
    group: 'status',
    purpose: 'transaction.status',
    summary: 'Status of an earlier transaction by correlationId',
    params: statusParams,
    payloadKind: 'object',
    inputs: statusInputs,
  }),
  read('v2', {
    id: 'v2.transaction.giftcard-fetch',
    path: '/api/v2/transaction/giftcard/fetch/{id}',
    group: 'giftcard',
    purpose: 'giftcard.fetch',
    summary: 'Gift card details by transaction id',
    params: giftcardFetchParams,
    payloadKind: 'object',
    inputs: giftcardFetchInputs,
  }),
  read('v2', {
    id: 'v2.transaction.sim-portin-status',
    path: '/api/v2/transaction/sim/portin/status/{id}',
    group: 'sim',
    purpose: 'sim.portin-status',
    summary: 'SIM port-in status by transaction id',
    params: portinStatusParams,
    payloadKind: 'object',
    inputs: portinStatusInputs,
  }),
];

/** The top-up of a mobile number (RTR): the one write whose path the spec shows, with its sandbox trigger table. */
function topupWrites(version: ApiVersion, prefix: string): Operation[] {
  return [
    write(version, {
      name: 'topup',
      group: 'topup',
      body: 'topup',
      summary: 'Mobile top-up (RTR)',
      specPath: `${prefix}/transaction/topup`,
      charges: true,
      triggers: SPEC_TOPUP_TRIGGERS,
      inputs: {
        sku: { category: 'Rtr' },
        body: {
          skuId: 'sku.skuId',
          amount: 'sku.amount',
          transactionCurrencyCode: 'sku.currency',
          mobile: 'mobile',
          correlationId: 'new.correlationId',
        },
        samples: 2,
      },
    }),
  ];
}

/** One SKU bought outright (PIN, bill payment, gift card): paths the spec does not show, so assumed. */
function purchaseWrites(version: ApiVersion, prefix: string): Operation[] {
  return [
    write(version, {
      name: 'pin',
      group: 'pin',
      body: 'pin',
      summary: 'PIN purchase',
      assumedPath: `${prefix}/transaction/pin`,
      charges: true,
      inputs: { sku: { category: 'Pin' }, body: { skuId: 'sku.skuId', correlationId: 'new.correlationId' } },
    }),
    write(version, {
      name: 'billpay',
      group: 'billpay',
      body: 'billpay',
      summary: 'Bill payment',
      assumedPath: `${prefix}/transaction/billpay`,
      charges: true,
      inputs: {
        sku: { category: 'Bill Pay' },
        body: {
          skuId: 'sku.skuId',
          amount: 'sku.amount',
          transactionCurrencyCode: 'sku.currency',
          accountNumber: 'settings.billpayAccountNumber',
          correlationId: 'new.correlationId',
        },
      },
    }),
    write(version, {
      name: 'giftcard',
      group: 'giftcard',
      body: 'giftcard',
      summary: "Gift card purchase (may answer '852' while processing)",
      assumedPath: `${prefix}/transaction/giftcard/order`,
      charges: true,
      inputs: {
        sku: { category: 'Gift Card' },
        body: { skuId: 'sku.skuId', amount: 'sku.amount', transactionCurrencyCode: 'sku.currency', correlationId: 'new.correlationId' },
      },
    }),
  ];
}

const simBody: InputRule = {
  sku: { category: 'Sim' },
  body: { skuId: 'sku.skuId', simNumber: 'settings.simNumber', zipCode: 'settings.zipCode', correlationId: 'new.correlationId' },
};

/** SIM cards and eSIMs: activation, port-in and the eSIM order (paths assumed). */
function simWrites(version: ApiVersion, prefix: string): Operation[] {
  return [
    write(version, {
      name: 'sim-activation',
      group: 'sim',
      body: 'sim-activation',
      summary: 'SIM activation',
      assumedPath: `${prefix}/transaction/sim/activate`,
      charges: true,
      inputs: simBody,
    }),
    // DESIGN.md: public v2 clients post port-in to sim/port-in; v1's path is assumed to sit beside its port-in status path.
    write(version, {
      name: 'sim-portin',
      group: 'sim',
      body: 'sim-portin',
      summary: 'SIM port-in',
      assumedPath: version === 'v2' ? `${prefix}/sim/port-in` : `${prefix}/transaction/sim/portin`,
      charges: true,
      inputs: simBody,
    }),
    write(version, {
      name: 'esim',
      group: 'esim',
      body: 'esim',
      summary: 'eSIM purchase',
      assumedPath: `${prefix}/esim/order`,
      charges: true,
      inputs: { sku: { category: 'eSim' }, body: { skuId: 'sku.skuId', correlationId: 'new.correlationId' } },
    }),
  ];
}

/**
 * A version's writes in catalog order: top-up, purchases, SIM, then the v2-only ones. The recipe proof
 * (scripts/recipe/) adds its made-up writes at the head of the list below and of the v2-only push: keep both opening
 * lines as they are (its anchors; a line that quotes them here would be found first).
 */
function writesOf(version: ApiVersion): Operation[] {
  const prefix = `/api/${version}`;
  const ops = [
    // A group per kind of purchase (this comment also keeps the list on its own lines, where the recipe inserts).
    ...topupWrites(version, prefix),
    ...purchaseWrites(version, prefix),
    ...simWrites(version, prefix),
  ];
  // Writes of v2 only (no v1 counterpart: spec Versioning 5).
  if (version === 'v2') {
    ops.push(
      write(version, {
        name: 'estimated-cost',
        group: 'estimated-cost',
        body: 'estimated-cost',
        summary: 'Estimated cost of a transaction (v2 only)',
        assumedPath: `${prefix}/transaction/estimatecost`,
        charges: false,
        inputs: {
          sku: { category: 'any' },
          body: { skuId: 'sku.skuId', amount: 'sku.amount', transactionCurrencyCode: 'sku.currency' },
          samples: 2,
        },
      }),
    );
  }
  return ops;
}

/** Every operation, v1 then v2, reads before writes. */
export const OPERATIONS: readonly Operation[] = Object.freeze([
  ...V1_READ_OPERATIONS,
  ...writesOf('v1'),
  ...V2_READ_OPERATIONS,
  ...writesOf('v2'),
]);

const BY_ID: ReadonlyMap<string, Operation> = new Map(OPERATIONS.map((op) => [op.id, op]));

/** The operation with this id; throws on an unknown id so typos fail loudly. */
export function getOperation(id: string): Operation {
  const op = BY_ID.get(id);
  if (op === undefined) throw new Error(`unknown operation id '${id}'`);
  return op;
}

export function findOperation(id: string): Operation | undefined {
  return BY_ID.get(id);
}

export function operationsOf(version: ApiVersion): Operation[] {
  return OPERATIONS.filter((op) => op.version === version);
}

/** A v1/v2 migration pair: the same purpose in both versions. */
export interface OperationPair {
  readonly purpose: string;
  readonly v1: Operation;
  readonly v2: Operation;
}

/** Pairs derived from the catalog's `purpose` field; operations present in one version only are left out. */
export function operationPairs(): OperationPair[] {
  const pairs: OperationPair[] = [];
  for (const v1 of operationsOf('v1')) {
    const v2 = OPERATIONS.find((op) => op.version === 'v2' && op.purpose === v1.purpose);
    if (v2 !== undefined) pairs.push({ purpose: v1.purpose, v1, v2 });
  }
  return pairs;
}

/** A trigger row with the purpose of the writes it applies to (both versions share it). */
export interface CatalogTrigger extends TriggerRow {
  readonly purpose: string;
}

/** Every trigger row of the catalog, once per purpose, in catalog order. */
export const CATALOG_TRIGGERS: readonly CatalogTrigger[] = Object.freeze([
  ...new Map(
    OPERATIONS.flatMap((op) => (op.triggers ?? []).map((row) => [`${op.purpose}:${row.key}`, { ...row, purpose: op.purpose }] as const)),
  ).values(),
]);

/** Operations with no counterpart in the other version (spec: Versioning 5). */
export function unpairedOperations(): Operation[] {
  const paired = new Set(operationPairs().flatMap((pair) => [pair.v1.id, pair.v2.id]));
  return OPERATIONS.filter((op) => !paired.has(op.id));
}
