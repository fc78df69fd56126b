// The mixed scenario's weighted table of actions (reads and transactions, v1 and v2) and its deterministic schedule.
// Data, so a test can prove from the catalog that the mix touches every operation; the schedule makes short runs cover it.
import { OPERATIONS, type ApiVersion } from '../api/operations.ts';

export type MixActionName =
  | 'balance'
  | 'countries'
  | 'skus'
  | 'sku-description'
  | 'sku-logos'
  | 'carriers'
  | 'operators'
  | 'products'
  | 'exchange-rate'
  | 'errors'
  | 'promotions'
  | 'giftcard-page'
  | 'lookup'
  | 'bundles'
  | 'billpay-detail'
  | 'topup'
  | 'pin'
  | 'billpay'
  | 'giftcard'
  | 'sim-activation'
  | 'sim-portin'
  | 'esim'
  | 'estimated-cost';

export interface MixAction {
  readonly action: MixActionName;
  /** Relative share of iterations (per version). Reads dominate, as in a storefront; every action runs at least once a cycle. */
  readonly weight: number;
  /** Catalog purposes the action sends; an action exists in the versions whose catalog has every one of them. */
  readonly purposes: readonly string[];
}

export const MIX_ACTIONS: readonly MixAction[] = Object.freeze([
  { action: 'balance', weight: 3, purposes: ['account.balance'] },
  { action: 'countries', weight: 2, purposes: ['catalog.countries'] },
  { action: 'skus', weight: 3, purposes: ['catalog.skus'] },
  { action: 'sku-description', weight: 1, purposes: ['catalog.sku-description'] },
  { action: 'sku-logos', weight: 1, purposes: ['catalog.sku-logos'] },
  { action: 'carriers', weight: 1, purposes: ['catalog.carriers'] },
  { action: 'operators', weight: 1, purposes: ['catalog.operators'] },
  { action: 'products', weight: 1, purposes: ['catalog.products'] },
  { action: 'exchange-rate', weight: 2, purposes: ['catalog.sku-exchange-rate'] },
  { action: 'errors', weight: 1, purposes: ['catalog.errors'] },
  { action: 'promotions', weight: 2, purposes: ['promotion.current', 'promotion.upcoming'] },
  { action: 'giftcard-page', weight: 1, purposes: ['catalog.skus-giftcards'] },
  { action: 'lookup', weight: 3, purposes: ['lookup.mobile'] },
  { action: 'bundles', weight: 1, purposes: ['catalog.bundles'] },
  { action: 'billpay-detail', weight: 1, purposes: ['billpay.fetch-account-detail'] },
  { action: 'topup', weight: 4, purposes: ['transaction.topup', 'transaction.status'] },
  { action: 'pin', weight: 1, purposes: ['transaction.pin'] },
  { action: 'billpay', weight: 1, purposes: ['transaction.billpay'] },
  { action: 'giftcard', weight: 1, purposes: ['transaction.giftcard', 'transaction.status', 'giftcard.fetch'] },
  { action: 'sim-activation', weight: 1, purposes: ['transaction.sim-activation'] },
  { action: 'sim-portin', weight: 1, purposes: ['transaction.sim-portin', 'sim.portin-status'] },
  { action: 'esim', weight: 1, purposes: ['transaction.esim', 'esim.status'] },
  { action: 'estimated-cost', weight: 1, purposes: ['transaction.estimated-cost'] },
]);

/** One action in one version, with the operation ids it sends. */
export interface MixEntry {
  readonly action: MixActionName;
  readonly version: ApiVersion;
  readonly weight: number;
  readonly operations: readonly string[];
}

function operationIdOf(version: ApiVersion, purpose: string): string | undefined {
  return OPERATIONS.find((op) => op.version === version && op.purpose === purpose)?.id;
}

/** The actions of the selected versions (an action whose purposes a version lacks is left out of that version). */
export function mixEntries(versions: readonly ApiVersion[]): MixEntry[] {
  const entries: MixEntry[] = [];
  for (const version of versions) {
    for (const action of MIX_ACTIONS) {
      const ids = action.purposes.map((purpose) => operationIdOf(version, purpose));
      if (ids.some((id) => id === undefined)) continue;
      entries.push({ action: action.action, version, weight: action.weight, operations: ids as string[] });
    }
  }
  return entries;
}

/** Every operation id the mix sends for the selected versions. */
export function mixOperations(versions: readonly ApiVersion[]): string[] {
  return [...new Set(mixEntries(versions).flatMap((entry) => entry.operations))];
}

/**
 * Smooth weighted round-robin (as nginx balances upstreams): one cycle of length sum(weights) holds every entry
 * `weight` times, spread out. Iteration i of the test runs cycle[i % length], so any `length` consecutive
 * iterations run every action, whatever the number of VUs.
 */
export function mixSchedule(entries: readonly MixEntry[]): MixEntry[] {
  const total = entries.reduce((sum, entry) => sum + entry.weight, 0);
  const current = entries.map(() => 0);
  const cycle: MixEntry[] = [];
  for (let step = 0; step < total; step++) {
    let best = 0;
    for (let i = 0; i < entries.length; i++) {
      current[i] = (current[i] as number) + (entries[i] as MixEntry).weight;
      if ((current[i] as number) > (current[best] as number)) best = i;
    }
    current[best] = (current[best] as number) - total;
    cycle.push(entries[best] as MixEntry);
  }
  return cycle;
}
