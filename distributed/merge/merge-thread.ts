// Runs the merge pass in a worker thread whose young generation is capped. V8 grows its nursery while a long merge makes
// garbage (Node 24's V8 up to 128 MB): without the cap, peak memory followed the input's size until that ceiling.
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { buildSync } from 'esbuild';
import { HarnessError, type HarnessErrorCode } from '../../api/errors.ts';
import { STDIN } from './input.ts';
import { fromPassData, type MergePassData, type MergePassRequest, type MergePassResult } from './merge-pass.ts';

/**
 * The merge thread's young generation. V8 sizes it as three semi-spaces (two, plus as much for new large objects), so
 * 24 MB is an 8 MB semi-space. Without a limit Node 20 and 22 stop at 16 MB, while Node 24 (V8 13.6) grows a semi-space
 * to 64 MB (scavenger-max-new-space-capacity-mb 32, doubled without pointer compression) once enough has survived
 * scavenges, which a merge of a few hundred MB reaches: the live heap stayed ~10 MB, but garbage and the stream buffers
 * it holds waited in a nursery 4x larger (peak RSS 277 MB for 1.1 GB of input). With 8 MB the merge is as fast, and the
 * whole process stays at 147-176 MB from 60 MB to 1.1 GB of input on Node 20, 22 and 24 (distributed/README.md).
 */
export const MERGE_YOUNG_GENERATION_MB = 24;

const MERGE_WORKER = fileURLToPath(new URL('./merge-worker.ts', import.meta.url));

/**
 * The merge thread's code, bundled once per process into one script: a worker that registers a TypeScript loader
 * costs ~25 MB more (the loader's own thread and transforms) than the merge keeps in memory at all.
 */
let workerSource: string | undefined;
function workerCode(): string {
  workerSource ??= buildSync({ entryPoints: [MERGE_WORKER], bundle: true, platform: 'node', format: 'cjs', target: 'node20', write: false, logLevel: 'silent' }).outputFiles[0]?.text ?? '';
  return workerSource;
}

export type MergeThreadMessage =
  | { readonly type: 'bytes'; readonly bytes: number }
  | { readonly type: 'done'; readonly data: MergePassData }
  | { readonly type: 'error'; readonly code: HarnessErrorCode; readonly message: string };

/** The merge pass on its own thread; `onBytes` gets the raw bytes read, in steps of about a MB. */
export function mergeInThread(request: MergePassRequest, onBytes: (bytes: number) => void = () => undefined): Promise<MergePassResult> {
  // A worker's process.stdin is its own stream: standard input ('-') is piped into it.
  const usesStdin = request.files.includes(STDIN);
  const worker = new Worker(workerCode(), {
    eval: true,
    workerData: { request },
    resourceLimits: { maxYoungGenerationSizeMb: MERGE_YOUNG_GENERATION_MB },
    stdin: usesStdin,
  });
  if (usesStdin && worker.stdin !== null) process.stdin.pipe(worker.stdin);
  return new Promise<MergePassResult>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      if (usesStdin && worker.stdin !== null) process.stdin.unpipe(worker.stdin);
      void worker.terminate();
      finish();
    };
    worker.on('message', (message: MergeThreadMessage) => {
      if (message.type === 'bytes') onBytes(message.bytes);
      else if (message.type === 'done') settle(() => resolve(fromPassData(message.data, request.submetrics)));
      else settle(() => reject(new HarnessError(message.code, message.message)));
    });
    worker.once('error', (error: Error) => settle(() => reject(new HarnessError('GH_ERR_INTERNAL', `merge-results: the merge thread failed: ${error.message}`, { cause: error }))));
    worker.once('exit', (code) => settle(() => reject(new HarnessError('GH_ERR_INTERNAL', `merge-results: the merge thread ended (exit ${code}) without a result`))));
  });
}
