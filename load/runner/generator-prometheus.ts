// The load generator's own measurements as Prometheus series (gateway_harness_generator_*), pushed during the run on
// either engine beside the run's other series, in batches every few seconds; a failed push is counted, never fatal.
import type { GeneratorPoint } from '../../reports/generator.ts';
import { pushTimeSeries, type PromTimeSeries, type RemoteWriteConfig } from '../run-node-engine.ts';
import { TEST_ID_TAG } from './prometheus-output.ts';

/** Series name and scale per figure: shares as 0..1, times in seconds (Prometheus' base unit). */
export const GENERATOR_SERIES: Readonly<Record<Exclude<keyof GeneratorPoint, 't'>, { readonly name: string; readonly scale: number }>> =
  Object.freeze({
    cpuShare: { name: 'gateway_harness_generator_cpu_share', scale: 1 },
    runQueueShare: { name: 'gateway_harness_generator_run_queue_share', scale: 1 },
    waitPerSliceMs: { name: 'gateway_harness_generator_cpu_wait_per_wakeup_seconds', scale: 1 / 1000 },
    loopDelayP99Ms: { name: 'gateway_harness_generator_event_loop_delay_p99_seconds', scale: 1 / 1000 },
    busyShare: { name: 'gateway_harness_generator_busy_share', scale: 1 },
    preemptedShare: { name: 'gateway_harness_generator_preempted_share', scale: 1 },
  });

/** The points as series: one per figure, labels `engine` (node or k6) and the run's testid, sorted by name. */
export function generatorSeries(points: readonly GeneratorPoint[], testid: string, engine: 'node' | 'k6'): PromTimeSeries[] {
  const out: PromTimeSeries[] = [];
  for (const [figure, { name, scale }] of Object.entries(GENERATOR_SERIES)) {
    const samples = points.flatMap((p) => {
      const value = p[figure as keyof typeof GENERATOR_SERIES];
      return value === undefined ? [] : [{ value: value * scale, timestamp: Math.round(p.t) }];
    });
    if (samples.length === 0) continue;
    const labels = [
      { name: '__name__', value: name },
      { name: 'engine', value: engine },
      { name: TEST_ID_TAG, value: testid },
    ];
    out.push({ labels, samples });
  }
  return out;
}

export interface GeneratorPusher {
  add(point: GeneratorPoint): void;
  /** Pushes what is left; the pushes made and failed. */
  finish(): Promise<{ pushes: number; failed: number; lastError?: string }>;
}

/** Batches points and pushes them every `everyMs` (an unref'd timer), one push at a time. */
export function startGeneratorPusher(config: RemoteWriteConfig, testid: string, engine: 'node' | 'k6', everyMs = 5_000): GeneratorPusher {
  let pending: GeneratorPoint[] = [];
  let pushes = 0;
  let failed = 0;
  let lastError: string | undefined;
  let chain = Promise.resolve();
  const flush = (): Promise<void> => {
    const batch = pending;
    pending = [];
    if (batch.length === 0) return chain;
    chain = chain.then(async () => {
      pushes += 1;
      try {
        await pushTimeSeries(config, generatorSeries(batch, testid, engine));
      } catch (error) {
        failed += 1;
        lastError = error instanceof Error ? error.message : String(error);
      }
    });
    return chain;
  };
  const timer = setInterval(() => void flush(), everyMs);
  timer.unref();
  return {
    add: (point) => void pending.push(point),
    async finish() {
      clearInterval(timer);
      await flush();
      return { pushes, failed, ...(lastError === undefined ? {} : { lastError }) };
    },
  };
}
