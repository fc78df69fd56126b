// Reads a run for the comparison on a thread with a capped young generation, like merge-results' merge pass: the
// comparison's memory stays flat from a few MB to gigabytes of NDJSON on every Node (Node 24's V8 grows its nursery).
import { fileURLToPath } from 'node:url';
import { readerResult, startCappedThread, type ReaderMessage } from '../distributed/merge/capped-thread.ts';
import { fromRunSamplesData, type ReportFacts, type RunSamples, type RunSamplesData } from './run-samples.ts';

const WORKER = fileURLToPath(new URL('./run-samples-worker.ts', import.meta.url));

export type RunSamplesThreadMessage = ReaderMessage<RunSamplesData>;

/** readRunSamples on its own capped thread (same arguments, same result). */
export function readRunSamplesInThread(dir: string, known?: ReportFacts & { readonly files?: readonly string[] }): Promise<RunSamples> {
  const worker = startCappedThread(WORKER, { dir, ...(known === undefined ? {} : { known }) });
  return readerResult<RunSamplesData, RunSamples>(worker, 'compare: the reading thread', fromRunSamplesData);
}
