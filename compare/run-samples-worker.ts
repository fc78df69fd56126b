// Entry of the comparison's reading thread (run-samples-thread.ts bundles it and runs it without a TypeScript loader):
// one run read into its samples, answered as plain data.
import { parentPort, workerData } from 'node:worker_threads';
import { readerError } from '../distributed/merge/reader-error.ts';
import { readRunSamples, toRunSamplesData, type ReportFacts } from './run-samples.ts';
import type { RunSamplesThreadMessage } from './run-samples-thread.ts';

async function main(): Promise<void> {
  const { dir, known } = workerData as { dir: string; known?: ReportFacts & { readonly files?: readonly string[] } };
  const post = (message: RunSamplesThreadMessage): void => parentPort?.postMessage(message);
  try {
    post({ type: 'done', data: toRunSamplesData(await readRunSamples(dir, known)) });
  } catch (error) {
    post(readerError(error));
  }
}

void main();
