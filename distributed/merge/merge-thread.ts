// Runs the merge pass in a worker thread whose young generation is capped. V8 grows its nursery while a long merge makes
// garbage (Node 24's V8 up to 128 MB): without the cap, peak memory followed the input's size until that ceiling.
import { fileURLToPath } from 'node:url';
import { startCappedThread } from './capped-thread.ts';
import { HarnessError, type HarnessErrorCode } from '../../api/errors.ts';
import { STDIN } from './input.ts';
import { fromPassData, type MergePassData, type MergePassRequest, type MergePassResult } from './merge-pass.ts';

const MERGE_WORKER = fileURLToPath(new URL('./merge-worker.ts', import.meta.url));

export type MergeThreadMessage =
  | { readonly type: 'bytes'; readonly bytes: number }
  | { readonly type: 'done'; readonly data: MergePassData }
  | { readonly type: 'error'; readonly code: HarnessErrorCode; readonly message: string };

/** The merge pass on its own thread; `onBytes` gets the raw bytes read, in steps of about a MB. */
export function mergeInThread(request: MergePassRequest, onBytes: (bytes: number) => void = () => undefined): Promise<MergePassResult> {
  // A worker's process.stdin is its own stream: standard input ('-') is piped into it.
  const usesStdin = request.files.includes(STDIN);
  const worker = startCappedThread(MERGE_WORKER, { request }, { stdin: usesStdin });
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
