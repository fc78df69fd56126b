// mixed: the weighted mix of load/mix.ts — reads, transactions and their follow-ups on v1 and v2 — so one run touches
// every operation of the catalog. Iteration i runs entry i of the deterministic schedule; every input from the catalog's rules.
import { getOperation, type ApiVersion } from '../../api/operations.ts';
import { discoverCatalog, type CatalogData, type VersionCatalog } from '../catalog.ts';
import { mixEntries, mixSchedule, type MixEntry } from '../mix.ts';
import { confirmWithStatus, payloadOf, read, submit, type FlowContext, type LoadScenario } from './context.ts';
import { isNoInput, linkedInput, loadInput } from './inputs.ts';

/** The operation id of a purpose in a version (mixEntries lists only those a version has). */
function idOf(entry: MixEntry, purpose: string): string {
  return entry.operations[entry.purposes.indexOf(purpose)] as string;
}

/**
 * One action: its operation with an input from the catalog's input rule, then, after a write, the reads that link to it
 * with the values its result gives (a status read confirms the final outcome: spec "States and transitions").
 */
export async function runAction(ctx: FlowContext, catalog: VersionCatalog | undefined, entry: MixEntry): Promise<void> {
  const [purpose, ...follow] = entry.purposes as [string, ...string[]];
  const operationId = idOf(entry, purpose);
  const op = getOperation(operationId);
  const built = loadInput(ctx, catalog, operationId);
  if (isNoInput(built)) return ctx.record.warnOnce(`${operationId}`, `mixed: ${built.unavailable}`);
  // A write that charges is a transaction, followed to its final state; one that does not (estimated cost) is a plain call.
  if (op.method === 'GET' || !op.charges) return void (await read(ctx, operationId, built.input));
  const body = built.input.body as Record<string, unknown>;
  const result = await submit(ctx, operationId, body);
  const correlationId = String(body.correlationId);
  const txn = { version: entry.version, purpose, correlationId, result: payloadOf(result.finalExchange) };
  for (const next of follow) {
    const readId = idOf(entry, next);
    if (next === STATUS_PURPOSE) {
      await confirmWithStatus(ctx, result, correlationId);
      continue;
    }
    if (result.outcome !== 'Successful') continue;
    const input = await linkedInput(ctx, catalog, readId, txn);
    if (isNoInput(input)) {
      ctx.record.warnOnce(readId, `mixed: ${readId} ${input.unavailable}`);
      continue;
    }
    await read(ctx, readId, input.input);
  }
}

/** The status endpoint: after a transaction, it reads back the final outcome the flow saw. */
const STATUS_PURPOSE = 'transaction.status';

interface MixedData {
  readonly catalogs: CatalogData;
}

/** One schedule cycle per version selection, computed once per VU. */
const cycles = new Map<string, MixEntry[]>();

/** The schedule entry of an iteration for the selected versions. */
export function entryFor(versions: readonly ApiVersion[], iteration: number): MixEntry {
  const key = versions.join(',');
  let cycle = cycles.get(key);
  if (cycle === undefined) {
    cycle = mixSchedule(mixEntries(versions));
    cycles.set(key, cycle);
  }
  return cycle[iteration % cycle.length] as MixEntry;
}

export const mixed: LoadScenario<MixedData> = {
  name: 'mixed',
  async setup(ctx) {
    const catalogs: CatalogData = {};
    for (const version of ctx.versions) {
      catalogs[version] = await discoverCatalog(ctx.client, version, ctx.settings.fieldMapping, {
        skus: true,
        countries: true,
        giftcards: true,
      });
    }
    return { catalogs };
  },
  async iteration(ctx, data) {
    const entry = entryFor(ctx.versions, ctx.iteration);
    await runAction(ctx, data.catalogs[entry.version], entry);
  },
};
