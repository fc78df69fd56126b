// The per-second aggregates made on a thread of their own (reports/metric-aggregates.ts runs there): parsing every
// sample line must not take the main thread, where the Node engine's controller and the embedded sandbox run.
import { Worker } from 'node:worker_threads';
import type { FromAggregateThread, ToAggregateThread } from './aggregate-thread-entry.ts';

/** engine/worker-boot.mjs: registers tsx in a clone (as every engine thread does), then imports the entry. */
const WORKER_BOOT = new URL('../../engine/worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./aggregate-thread-entry.ts', import.meta.url).href;

export interface AggregateThread {
  /** A chunk of k6 NDJSON text, cut anywhere. */
  addText(text: string): void;
  /** Writes what is left and ends the thread; rejects with the writer's error (a full disk). */
  close(): Promise<void>;
}

export function startAggregateThread(path: string): AggregateThread {
  const worker = new Worker(WORKER_BOOT, { workerData: { entry: ENTRY, path } });
  const closed = new Promise<void>((resolveClose, reject) => {
    worker.on('message', (m: FromAggregateThread) => (m.error === undefined ? resolveClose() : reject(new Error(m.error))));
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the aggregates' thread ended (exit ${code}) before it closed its file`)));
  });
  // Nobody waits before close(): a failure meanwhile is kept for it, not thrown unhandled.
  closed.catch(() => undefined);
  const send = (m: ToAggregateThread): void => worker.postMessage(m);
  return {
    addText: (text) => send({ type: 'text', text }),
    close: async () => {
      send({ type: 'close' });
      try {
        await closed;
      } finally {
        await worker.terminate();
      }
    },
  };
}
