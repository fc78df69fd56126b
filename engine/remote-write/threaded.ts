// The controller's side of the remote-write thread (thread.ts): point lines and metric definitions go over, the push
// failures come back as log lines, and stop() answers with the output's counts once every push settled.
import { Worker } from 'node:worker_threads';
import type { MetricDef } from '../metrics/store.ts';
import type { RemoteWriteConfig } from './config.ts';
import type { RemoteWriteStats } from './output.ts';
import type { FromRemoteWriteThread, ToRemoteWriteThread } from './thread.ts';

const WORKER_BOOT = new URL('../worker-boot.mjs', import.meta.url);
const ENTRY = new URL('./thread.ts', import.meta.url).href;

export class RemoteWriteThread {
  private readonly worker: Worker;
  private readonly described = new Set<string>();
  private stopped: ((stats: RemoteWriteStats) => void) | undefined;

  constructor(
    config: RemoteWriteConfig,
    private readonly describe: (name: string) => MetricDef | undefined,
    logError: (text: string) => void,
  ) {
    this.worker = new Worker(WORKER_BOOT, { workerData: { entry: ENTRY, config }, stdout: false, stderr: false });
    this.worker.on('message', (m: FromRemoteWriteThread) => {
      if (m.type === 'log') logError(m.text);
      else this.stopped?.(m.stats);
    });
  }

  private send(m: ToRemoteWriteThread): void {
    this.worker.postMessage(m);
  }

  start(): void {
    this.send({ type: 'start' });
  }

  /** A chunk of NDJSON point lines and the metrics they name (their definitions go first, once). */
  addPointLines(metricNames: readonly string[], text: string): void {
    const fresh = metricNames.filter((n) => !this.described.has(n));
    if (fresh.length > 0) {
      for (const n of fresh) this.described.add(n);
      const defs = fresh.map((n) => this.describe(n)).filter((d): d is MetricDef => d !== undefined);
      this.send({ type: 'defs', defs });
    }
    this.send({ type: 'lines', text });
  }

  /** Pushes what is left (and stale markers when asked for), then ends the thread. */
  async stop(): Promise<RemoteWriteStats> {
    const stats = await new Promise<RemoteWriteStats>((resolveStats, reject) => {
      this.stopped = resolveStats;
      this.worker.once('error', reject);
      this.send({ type: 'stop' });
    });
    await this.worker.terminate();
    return stats;
  }
}
