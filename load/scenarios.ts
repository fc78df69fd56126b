// The load scenarios as data: name, what each does, and which catalog operations it sends per API selection.
// Runtime-neutral: the k6 bundles build per-operation thresholds from it, the CLI validates names and refuses charges with it.
import { OPERATIONS, type ApiVersion, type Operation } from '../api/operations.ts';
import { mixEntries, mixOperations } from './mix.ts';

export type ApiSelection = ApiVersion | 'both';
export const API_SELECTIONS: readonly ApiSelection[] = ['v1', 'v2', 'both'];

export type ScenarioName = 'catalog-browse' | 'topup-flow' | 'giftcard-flow' | 'lookup' | 'mixed' | 'v1-v2';

export interface ScenarioMeta {
  /** A built-in scenario's name, or a user script's (`load --script`, load/script-api.ts `defineScript`). */
  readonly name: string;
  readonly description: string;
  /** 'both' when the scenario only makes sense across versions (v1-v2 pairs). */
  readonly requiresBothVersions: boolean;
  /** True when it submits transactions and follows them to a final state (time-to-final, unresolved count). */
  readonly followsTransactions: boolean;
  /** True when a flow reads a final transaction back from the status endpoint (the 'status confirms the outcome' check). */
  readonly readsBackStatus: boolean;
  /** Iterations of the smoke profile: enough that every operation of the scenario is sent at least once. */
  readonly smokeIterations: number;
  /**
   * Catalog purposes (api/operations.ts `purpose`) the scenario sends, per version; a purpose a version does not
   * have (v1 has no operators) is simply absent from that version's operations.
   */
  readonly purposes: Readonly<Record<ApiVersion, readonly string[]>>;
}

const same = (purposes: readonly string[]): Record<ApiVersion, readonly string[]> => ({ v1: purposes, v2: purposes });

export function versionsOf(api: ApiSelection): ApiVersion[] {
  return api === 'both' ? ['v1', 'v2'] : [api];
}

const CATALOG_BROWSE = [
  'catalog.countries',
  'catalog.operators',
  'catalog.products',
  'catalog.carriers',
  'catalog.skus',
  'catalog.sku-description',
  'catalog.sku-logos',
  'catalog.sku-exchange-rate',
  'catalog.skus-giftcards',
  'promotion.current',
  'promotion.upcoming',
  'catalog.errors',
];

/**
 * v1/v2 pairs the v1-v2 scenario compares: reads that need no id from an earlier transaction (status, gift card fetch,
 * port-in status and eSIM status do, so they stay with the flows and the mixed scenario).
 */
export const V1_V2_PURPOSES: readonly string[] = [
  'account.balance',
  'catalog.countries',
  'catalog.skus',
  'catalog.sku-exchange-rate',
  'catalog.errors',
  'lookup.mobile',
  'promotion.current',
  'promotion.upcoming',
  'billpay.fetch-account-detail',
];

export const SCENARIOS: Readonly<Record<ScenarioName, ScenarioMeta>> = Object.freeze({
  'catalog-browse': {
    name: 'catalog-browse',
    description:
      'Browse the catalog like a storefront: countries, operators, products, SKUs, gift card paging, promotions, exchange rates, errors.',
    requiresBothVersions: false,
    followsTransactions: false,
    readsBackStatus: false,
    smokeIterations: 4,
    purposes: same(CATALOG_BROWSE),
  },
  'topup-flow': {
    name: 'topup-flow',
    description:
      "Mobile top-up with an RTR SKU read from the catalog in setup(); a client timeout or '852' is followed on the status endpoint until final; the status endpoint then confirms the outcome.",
    requiresBothVersions: false,
    followsTransactions: true,
    readsBackStatus: true,
    smokeIterations: 4,
    purposes: same(['catalog.countries', 'catalog.skus', 'transaction.topup', 'transaction.status']),
  },
  'giftcard-flow': {
    name: 'giftcard-flow',
    description: "Gift card purchase: '852' → status until final → gift card fetch by the transaction id.",
    requiresBothVersions: false,
    followsTransactions: true,
    readsBackStatus: false,
    smokeIterations: 4,
    // Gift card SKUs come from the v2 gift card list for both versions (load/catalog.ts), as conformance takes them:
    // v1 has no such list, so a v1 run reads v2's in setup() and sends no v1 catalog read.
    purposes: {
      v1: ['transaction.giftcard', 'transaction.status', 'giftcard.fetch'],
      v2: ['catalog.skus-giftcards', 'transaction.giftcard', 'transaction.status', 'giftcard.fetch'],
    },
  },
  lookup: {
    name: 'lookup',
    description: 'Mobile number lookup (sandbox lookup countries), dynamic bundles of the number, bill detail of an account.',
    requiresBothVersions: false,
    followsTransactions: false,
    readsBackStatus: false,
    smokeIterations: 4,
    purposes: same(['catalog.countries', 'catalog.skus', 'lookup.mobile', 'catalog.bundles', 'billpay.fetch-account-detail']),
  },
  mixed: {
    name: 'mixed',
    description: 'A weighted mix of reads and transactions that touches every operation of the catalog.',
    requiresBothVersions: false,
    followsTransactions: true,
    readsBackStatus: true,
    // One whole cycle of the weighted schedule (mix.ts) runs every action of both versions.
    smokeIterations: mixEntries(['v1', 'v2']).reduce((sum, entry) => sum + entry.weight, 0),
    purposes: same([...new Set(OPERATIONS.map((op) => op.purpose))]),
  },
  'v1-v2': {
    name: 'v1-v2',
    description: 'The same reads on v1 and v2 side by side (paired calls, tagged by version) for migration checks.',
    requiresBothVersions: true,
    followsTransactions: false,
    readsBackStatus: false,
    smokeIterations: 2,
    purposes: same(V1_V2_PURPOSES),
  },
});

export const SCENARIO_NAMES = Object.freeze(Object.keys(SCENARIOS)) as readonly ScenarioName[];

/** Where a user script's defineScript (load/script-api.ts) leaves its description, read by `load --script` from one init run. */
export const SCRIPT_DECLARATION_GLOBAL = '__gatewayHarnessScript';

/** A built-in scenario by name, or the description of a user script's (what its `defineScript` declared). */
export type ScenarioRef = ScenarioName | ScenarioMeta;

export function scenarioMetaOf(ref: ScenarioRef): ScenarioMeta {
  return typeof ref === 'string' ? SCENARIOS[ref] : ref;
}

export function scenarioNameOf(ref: ScenarioRef): string {
  return typeof ref === 'string' ? ref : ref.name;
}

/** Every operation a scenario sends for an API selection (setup reads included), in catalog order. */
export function scenarioOperations(ref: ScenarioRef, api: ApiSelection): Operation[] {
  const versions = versionsOf(api);
  if (ref === 'mixed' || ref === SCENARIOS.mixed) {
    const ids = new Set(mixOperations(versions));
    return OPERATIONS.filter((op) => ids.has(op.id));
  }
  const purposes = scenarioMetaOf(ref).purposes;
  return OPERATIONS.filter((op) => versions.includes(op.version) && purposes[op.version].includes(op.purpose));
}

/** True when any operation the scenario sends can charge the agent's account (api/operations.ts `charges`). */
export function scenarioCharges(ref: ScenarioRef, api: ApiSelection): boolean {
  return scenarioOperations(ref, api).some((op) => op.charges);
}
