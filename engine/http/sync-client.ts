// Synchronous HTTP for k6's blocking API: posts the requests to a helper thread and blocks this thread (Atomics.wait)
// until the answer is there. It blocks every VU of the thread, so scripts that want concurrency use http.asyncRequest.
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { HttpRequestSpec, RawHttpResult } from './perform.ts';

const BOOT = new URL('../worker-boot.mjs', import.meta.url);
const HELPER = new URL('./sync-helper.ts', import.meta.url).href;

export class SyncHttpClient {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));

  constructor(private readonly settings: { noConnectionReuse: boolean; maxRedirects: number }) {}

  private start(): MessagePort {
    if (this.port !== undefined) return this.port;
    const channel = new MessageChannel();
    this.worker = new Worker(BOOT, {
      workerData: { entry: HELPER, port: channel.port2, flag: this.flag, ...this.settings },
      transferList: [channel.port2],
    });
    this.worker.unref();
    this.port = channel.port1;
    this.port.unref();
    return this.port;
  }

  /** Starts the helper thread now (it idles until the first synchronous request). */
  warmUp(): void {
    this.start();
  }

  /** Sends the requests (in parallel) and blocks until all answered. */
  requestMany(specs: HttpRequestSpec[]): RawHttpResult[] {
    const port = this.start();
    Atomics.store(this.flag, 0, 0);
    port.postMessage(specs);
    // The helper's own per-request timeouts bound this wait; the outer bound only guards against a dead helper.
    const longest = Math.max(...specs.map((s) => s.timeoutMs));
    const outcome = Atomics.wait(this.flag, 0, 0, longest + 30_000);
    const received = receiveMessageOnPort(port);
    if (outcome === 'timed-out' || received === undefined) throw new Error('the synchronous HTTP helper thread did not answer');
    return received.message as RawHttpResult[];
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.port?.close();
    this.port = undefined;
    if (w !== undefined) await w.terminate();
  }
}
