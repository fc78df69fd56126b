// The money host of the Node engine's threads, installed by the engine before the bundle is compiled (engine/run.ts
// `hostModules`): each thread appends ledger lines itself (O_APPEND + fsync before the request leaves) and reserves
// spend in one Int32 of a SharedArrayBuffer all threads share, so the cap holds across every VU and worker exactly.
import { createSharedBudget } from './budget.ts';
import { ENGINE_HOST_GLOBAL } from './bundle-host.ts';
import type { MoneyHost } from './hooks.ts';
import { openLedgerWriter } from './ledger-file.ts';

export interface EngineMoneyData {
  /** ledger.jsonl; absent = no ledger. */
  readonly ledgerPath?: string;
  /** The shared counter (ledger/budget.ts SHARED_BUDGET_BYTES) and its cap; absent = no cap. */
  readonly cells?: SharedArrayBuffer;
  readonly capCents?: number;
  /** Scrubbed from every line (the password, its Basic token). */
  readonly secrets?: readonly string[];
}

export const ENGINE_HOST_MODULE = new URL('./engine-host.ts', import.meta.url).href;

/** Called once per engine thread with the data the harness passed (a SharedArrayBuffer arrives shared, not copied). */
export function install(data: EngineMoneyData): void {
  const writer = data.ledgerPath === undefined ? undefined : openLedgerWriter(data.ledgerPath, { secrets: data.secrets ?? [] });
  const host: MoneyHost = {
    ...(data.cells === undefined || data.capCents === undefined
      ? {}
      : { budget: createSharedBudget(new Int32Array(data.cells), data.capCents) }),
    ...(writer === undefined ? {} : { append: (line) => writer.append(line) }),
  };
  (globalThis as Record<string, unknown>)[ENGINE_HOST_GLOBAL] = host;
  // Descriptors are per process, not per thread: the thread's own is closed when the thread ends.
  if (writer !== undefined) process.once('exit', () => writer.close());
}
