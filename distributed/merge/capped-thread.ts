// Starts a streaming reader (merge-results' merge pass, the comparison's run reader) on a worker thread whose young
// generation is capped, from an entry file bundled once per process: constant memory whatever the input's size.
import { Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import { HarnessError, type HarnessErrorCode } from '../../api/errors.ts';

/**
 * The reading thread's young generation. V8 sizes it as three semi-spaces (two, plus as much for new large objects), so
 * 24 MB is an 8 MB semi-space. Without a limit Node 20 and 22 stop at 16 MB, while Node 24 (V8 13.6) grows a semi-space
 * to 64 MB (scavenger-max-new-space-capacity-mb 32, doubled without pointer compression) once enough has survived
 * scavenges, which a merge of a few hundred MB reaches: the live heap stayed ~10 MB, but garbage and the stream buffers
 * it holds waited in a nursery 4x larger (peak RSS 277 MB for 1.1 GB of input). With 8 MB the merge is as fast, and the
 * whole process stays at 147-176 MB from 60 MB to 1.1 GB of input on Node 20, 22 and 24 (distributed/README.md).
 */
export const READER_YOUNG_GENERATION_MB = 24;

/**
 * Each entry's code, bundled once per process into one script: a worker that registers a TypeScript loader costs
 * ~25 MB more (the loader's own thread and transforms) than a streaming reader keeps in memory at all.
 */
const bundles = new Map<string, string>();
function bundled(entryFile: string): string {
  let code = bundles.get(entryFile);
  if (code === undefined) {
    code =
      buildSync({
        entryPoints: [entryFile],
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        write: false,
        logLevel: 'silent',
      }).outputFiles[0]?.text ?? '';
    bundles.set(entryFile, code);
  }
  return code;
}

/** The entry (a .ts file) running on its own capped thread with `workerData`; `stdin` gives it a stream of its own. */
export function startCappedThread(entryFile: string, workerData: unknown, options: { readonly stdin?: boolean } = {}): Worker {
  return new Worker(bundled(entryFile), {
    eval: true,
    workerData,
    resourceLimits: { maxYoungGenerationSizeMb: READER_YOUNG_GENERATION_MB },
    stdin: options.stdin === true,
  });
}

/** What a reading thread posts: progress of its own (`M`), its result as plain data, or its error with the code. */
export type ReaderMessage<D, M = never> =
  M | { readonly type: 'done'; readonly data: D } | { readonly type: 'error'; readonly code: HarnessErrorCode; readonly message: string };

/**
 * The thread's one result: `done` resolves with `toResult(data)`, `error` rejects with its code, anything else goes to
 * `onOther` (progress); a crash or an exit without a result rejects, named after `who`. The thread is terminated and
 * `onSettled` runs once, whichever came first.
 */
export function readerResult<D, R, M extends { readonly type: string } = never>(
  worker: Worker,
  who: string,
  toResult: (data: D) => R,
  options: { readonly onOther?: (message: M) => void; readonly onSettled?: () => void } = {},
): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      options.onSettled?.();
      void worker.terminate();
      finish();
    };
    worker.on('message', (message: ReaderMessage<D, M>) => {
      if (message.type === 'done') settle(() => resolve(toResult((message as { data: D }).data)));
      else if (message.type === 'error')
        settle(() => reject(new HarnessError((message as { code: HarnessErrorCode }).code, (message as { message: string }).message)));
      else options.onOther?.(message as M);
    });
    worker.once('error', (error: Error) =>
      settle(() => reject(new HarnessError('GH_ERR_INTERNAL', `${who} failed: ${error.message}`, { cause: error }))),
    );
    worker.once('exit', (code) =>
      settle(() => reject(new HarnessError('GH_ERR_INTERNAL', `${who} ended (exit ${code}) without a result`))),
    );
  });
}
