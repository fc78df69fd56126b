// Entry of the merge thread (merge-thread.ts bundles it, like the engine's sync HTTP helper, and runs it without a
// TypeScript loader): the merge pass on the files it is given, progress in MB-sized steps, the merged run as plain data.
import { parentPort, workerData } from 'node:worker_threads';
import { readerError } from './reader-error.ts';
import { runMergePass, toPassData, type MergePassRequest } from './merge-pass.ts';
import type { MergeThreadMessage } from './merge-thread.ts';

/** Progress is posted once per this many bytes read: a message per stream chunk would cost more than it tells. */
const PROGRESS_STEP_BYTES = 1 << 20;

async function main(): Promise<void> {
  const { request } = workerData as { request: MergePassRequest };
  const post = (message: MergeThreadMessage): void => parentPort?.postMessage(message);
  let unreported = 0;
  try {
    const result = await runMergePass(request, (bytes) => {
      unreported += bytes;
      if (unreported < PROGRESS_STEP_BYTES) return;
      post({ type: 'bytes', bytes: unreported });
      unreported = 0;
    });
    if (unreported > 0) post({ type: 'bytes', bytes: unreported });
    post({ type: 'done', data: toPassData(result) });
  } catch (error) {
    post(readerError(error));
  }
}

void main();
