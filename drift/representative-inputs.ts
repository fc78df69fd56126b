// Representative inputs for every catalog operation, built from its input rule (api/inputs.ts) against the target's
// own catalog: several per read where the catalog offers them, so an inferred schema sees more than one record of each kind.
import type { FieldMapping } from '../api/field-mapping.ts';
import { buildInputs, isNoInput, needsTransaction as linksToTransaction, type EarlierTransaction, type NoInput } from '../api/inputs.ts';
import type { Operation } from '../api/operations.ts';
import type { RequestInput } from '../api/request-builder.ts';
import { fixturesWorld, type Fixtures } from '../target/fixtures.ts';
import type { ConformanceSettings } from '../target/settings.ts';

/** Why an operation gets no call: shown in reports, never counted as observed. */
export type Unavailable = NoInput;

export const isUnavailable = isNoInput;

export interface InputContext {
  readonly fixtures: Fixtures;
  readonly settings: ConformanceSettings;
  readonly mapping: FieldMapping;
  readonly newCorrelationId: () => string;
}

/**
 * The input context of one run against the session's target: correlationIds `gh-<command>-<tag>-<n>`, the tag the
 * run's (or a random one), at most 20 characters, so a run's transactions can be told apart in the target's records.
 */
export function runInputContext(
  session: { readonly settings: ConformanceSettings; readonly config: { readonly fieldMapping: FieldMapping } },
  fixtures: Fixtures,
  command: string,
  runTag: string | undefined,
): InputContext {
  const tag = (runTag ?? Math.random().toString(36).slice(2, 10)).slice(0, 20);
  let counter = 0;
  return {
    fixtures,
    settings: session.settings,
    mapping: session.config.fieldMapping,
    newCorrelationId: () => `gh-${command}-${tag}-${++counter}`,
  };
}

/**
 * How many inputs per operation unless its input rule says (`samples`): reads up to one per lookup country or SKU
 * category (they cost nothing); one body per write, since each charges money and a migration sends it again for its latency.
 */
export const SAMPLES = Object.freeze({ reads: 4, writes: 1 });

const samplesOf = (op: Operation, fallback: number): number => op.inputs?.samples ?? fallback;

/** True when the operation's input rule links to an earlier transaction (status, gift card fetch, port-in, eSIM). */
export function needsTransaction(op: Operation): boolean {
  return linksToTransaction(op);
}

/**
 * The order a pass over the catalog runs in: the reads that need no transaction, then the writes (which make the
 * transactions), then the reads of those transactions. `operationOf` names the operation that decides (migrate: a pair's v1).
 */
export function inPhases<T>(
  items: readonly T[],
  operationOf: (item: T) => Operation,
): { readonly plain: T[]; readonly writes: T[]; readonly dependent: T[] } {
  const read = (item: T): boolean => operationOf(item).method === 'GET';
  return {
    plain: items.filter((item) => read(item) && !needsTransaction(operationOf(item))),
    writes: items.filter((item) => operationOf(item).method === 'POST'),
    dependent: items.filter((item) => read(item) && needsTransaction(operationOf(item))),
  };
}

function worldOf(ctx: InputContext) {
  return fixturesWorld(ctx.fixtures, ctx.settings, ctx.mapping, ctx.newCorrelationId);
}

/** Inputs of a read that needs no earlier transaction (a list: one call each). */
export function readInputs(op: Operation, ctx: InputContext): RequestInput[] | Unavailable {
  const built = buildInputs(op, worldOf(ctx), { max: samplesOf(op, SAMPLES.reads) });
  return isNoInput(built) ? built : built.map((b) => b.input);
}

/** Valid bodies of a write (a list: one transaction each); each call gets a fresh correlationId. */
export function writeBodies(op: Operation, ctx: InputContext): Record<string, unknown>[] | Unavailable {
  const built = buildInputs(op, worldOf(ctx), { max: samplesOf(op, SAMPLES.writes) });
  return isNoInput(built) ? built : built.map((b) => b.input.body as Record<string, unknown>);
}

/** What a finished write leaves for the reads that need it. */
export type TransactionRef = EarlierTransaction;

/** Inputs of a transaction-dependent read from the writes made earlier in the same version. */
export function transactionReadInputs(op: Operation, refs: readonly TransactionRef[], ctx: InputContext): RequestInput[] | Unavailable {
  if (!needsTransaction(op)) return { unavailable: `${op.id} needs no transaction` };
  const built = buildInputs(op, worldOf(ctx), { max: Number.MAX_SAFE_INTEGER, transactions: refs });
  return isNoInput(built) ? built : built.map((b) => b.input);
}
