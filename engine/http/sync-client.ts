// Synchronous HTTP for k6's blocking API: posts the requests to a helper thread and blocks this thread (Atomics.wait)
// until the answer is there. It blocks every VU of the thread, so scripts that want concurrency use http.asyncRequest.
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import { blockingOnPurpose } from '../loop-monitor.ts';
import type { HttpRequestSpec, RawHttpResult } from './perform.ts';

const HELPER = fileURLToPath(new URL('./sync-helper.ts', import.meta.url));

/**
 * The helper is bundled (undici included) into one self-contained script, once per thread: it starts without a
 * TypeScript loader, so it can never wait on a module loader while the thread that needs it is blocked.
 */
let helperSource: string | undefined;
/** The helper's bundled source (built once per thread; the controller passes it to workers so they skip the build). */
export function helperCode(): string {
  helperSource ??=
    buildSync({ entryPoints: [HELPER], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'silent' })
      .outputFiles[0]?.text ?? '';
  return helperSource;
}

export class SyncHttpClient {
  private worker: Worker | undefined;
  private port: MessagePort | undefined;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));

  constructor(private readonly settings: { noConnectionReuse: boolean; maxRedirects: number }) {}

  private loaded: Promise<void> | undefined;

  private start(): MessagePort {
    if (this.port !== undefined) return this.port;
    const channel = new MessageChannel();
    const worker = new Worker(helperCode(), {
      eval: true,
      workerData: { port: channel.port2, flag: this.flag, ...this.settings },
      transferList: [channel.port2],
    });
    this.loaded = new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
    // Awaited by warmUp; a helper started by a first request without warm-up shows its failure there instead.
    this.loaded.catch(() => undefined);
    worker.unref();
    this.worker = worker;
    this.port = channel.port1;
    this.port.unref();
    return this.port;
  }

  /**
   * Starts the helper thread now and resolves once it is loaded and listening (it then idles until the first
   * synchronous request). The init phase waits for it, so setup()'s timeout, like k6's, times setup() alone: a first
   * blocking request in setup() no longer waits on the helper's start-up (on a busy 2-core machine it passed a 1 s
   * setupTimeout).
   */
  async warmUp(): Promise<void> {
    this.start();
    await this.loaded;
  }

  /** Uses a helper source built elsewhere (the controller), so this thread does not bundle it again. */
  static useSource(source: string): void {
    helperSource = source;
  }

  /** Sends the requests (in parallel) and blocks until all answered. */
  requestMany(specs: HttpRequestSpec[]): RawHttpResult[] {
    const port = this.start();
    Atomics.store(this.flag, 0, 0);
    port.postMessage(specs);
    // The helper's own per-request timeouts bound this wait; the outer bound only guards against a dead helper.
    const longest = Math.max(...specs.map((s) => s.timeoutMs));
    // A wait the script asked for, not a saturated generator: the heartbeat says so (engine/loop-monitor.ts).
    const outcome = blockingOnPurpose(() => Atomics.wait(this.flag, 0, 0, longest + 30_000));
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
