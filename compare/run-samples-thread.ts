// Reads a run for the comparison on a thread with a capped young generation, like merge-results' merge pass: the
// comparison's memory stays flat from a few MB to gigabytes of NDJSON on every Node (Node 24's V8 grows its nursery).
import { fileURLToPath } from 'node:url';
import { HarnessError, type HarnessErrorCode } from '../api/errors.ts';
import { startCappedThread } from '../distributed/merge/capped-thread.ts';
import { fromRunSamplesData, type ReportFacts, type RunSamples, type RunSamplesData } from './run-samples.ts';

const WORKER = fileURLToPath(new URL('./run-samples-worker.ts', import.meta.url));

export type RunSamplesThreadMessage =
  | { readonly type: 'done'; readonly data: RunSamplesData }
  | { readonly type: 'error'; readonly code: HarnessErrorCode; readonly message: string };

/** readRunSamples on its own capped thread (same arguments, same result). */
export function readRunSamplesInThread(dir: string, known?: ReportFacts & { readonly files?: readonly string[] }): Promise<RunSamples> {
  const worker = startCappedThread(WORKER, { dir, ...(known === undefined ? {} : { known }) });
  return new Promise<RunSamples>((resolve, reject) => {
    let settled = false;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      void worker.terminate();
      finish();
    };
    worker.on('message', (message: RunSamplesThreadMessage) => {
      if (message.type === 'done') settle(() => resolve(fromRunSamplesData(message.data)));
      else settle(() => reject(new HarnessError(message.code, message.message)));
    });
    worker.once('error', (error: Error) => settle(() => reject(new HarnessError('GH_ERR_INTERNAL', `compare: the reading thread failed: ${error.message}`, { cause: error }))));
    worker.once('exit', (code) => settle(() => reject(new HarnessError('GH_ERR_INTERNAL', `compare: the reading thread ended (exit ${code}) without a result`))));
  });
}
