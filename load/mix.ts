// The mixed scenario's actions, derived from the catalog (one per purpose, weights overridden where not 1), and its
// deterministic schedule: a new operation joins the mix by itself; the schedule makes short runs cover every action.
import { followUps, needsTransaction } from '../api/inputs.ts';
import { OPERATIONS, type ApiVersion } from '../api/operations.ts';

/** An action is named by the catalog purpose it starts with. */
export type MixActionName = string;

export interface MixAction {
  readonly action: MixActionName;
  /** Relative share of iterations (per version). Reads dominate, as in a storefront; every action runs at least once a cycle. */
  readonly weight: number;
  /** Catalog purposes the action sends: its own, then the reads that link to it (api/inputs.ts followUps). */
  readonly purposes: readonly string[];
}

/** The weights that are not 1: the storefront's most frequent reads, and the top-up as the busiest transaction. */
export const MIX_WEIGHTS: Readonly<Record<string, number>> = Object.freeze({
  'account.balance': 3,
  'catalog.countries': 2,
  'catalog.skus': 3,
  'catalog.sku-exchange-rate': 2,
  'lookup.mobile': 3,
  'transaction.topup': 4,
});

/**
 * One action per catalog purpose, derived from the catalog: every operation that needs no earlier transaction starts
 * one; a read that links to a transaction follows the write it links to. No hand-kept list of actions.
 */
export function deriveMixActions(operations = OPERATIONS, weights: Readonly<Record<string, number>> = MIX_WEIGHTS): MixAction[] {
  const actions = new Map<string, MixAction>();
  for (const op of operations) {
    if (needsTransaction(op) || actions.has(op.purpose)) continue;
    const follow = op.method === 'POST' ? followUps(op).map((read) => read.purpose) : [];
    actions.set(op.purpose, { action: op.purpose, weight: weights[op.purpose] ?? 1, purposes: [op.purpose, ...follow] });
  }
  return [...actions.values()];
}

export const MIX_ACTIONS: readonly MixAction[] = Object.freeze(deriveMixActions());

/** One action in one version, with the operation ids it sends. */
export interface MixEntry {
  readonly action: MixActionName;
  readonly version: ApiVersion;
  readonly weight: number;
  /** The action's purposes and, index for index, their operation ids in this version. */
  readonly purposes: readonly string[];
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
      entries.push({ action: action.action, version, weight: action.weight, purposes: action.purposes, operations: ids as string[] });
    }
  }
  return entries;
}

/** Every operation id the mix sends for the selected versions. */
export function mixOperations(versions: readonly ApiVersion[]): string[] {
  return [...new Set(mixEntries(versions).flatMap((entry) => entry.operations))];
}

/**
 * The operation ids the schedule's first `iterations` iterations send (every one of the mix from a whole cycle on): a
 * run of fewer iterations (the gate's smoke load cut to fit the wallet) holds thresholds for these only.
 */
export function scheduledOperations(versions: readonly ApiVersion[], iterations: number): string[] {
  const cycle = mixSchedule(mixEntries(versions));
  return [...new Set(cycle.slice(0, Math.max(0, iterations)).flatMap((entry) => entry.operations))];
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
