// The aggregates' thread (aggregate-thread.ts starts it): k6 NDJSON text in, per-second aggregates written to the file
// named in workerData, one message back once the file is closed (with the error, if it could not be written whole).
import { parentPort, workerData } from 'node:worker_threads';
import { MetricAggregator } from '../../reports/metric-aggregates.ts';

export type ToAggregateThread = { readonly type: 'text'; readonly text: string } | { readonly type: 'close' };
export interface FromAggregateThread {
  readonly error?: string;
}

const aggregator = new MetricAggregator((workerData as { path: string }).path);
parentPort?.on('message', (m: ToAggregateThread) => {
  if (m.type === 'text') {
    aggregator.addText(m.text);
    return;
  }
  aggregator.close().then(
    () => parentPort?.postMessage({} satisfies FromAggregateThread),
    (error: unknown) =>
      parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) } satisfies FromAggregateThread),
  );
});
