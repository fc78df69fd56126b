// Entry of the comparison's reading thread (run-samples-thread.ts bundles it and runs it without a TypeScript loader):
// one run read into its samples, answered as plain data.
import { parentPort, workerData } from 'node:worker_threads';
import { HarnessError } from '../api/errors.ts';
import { readRunSamples, toRunSamplesData, type ReportFacts } from './run-samples.ts';
import type { RunSamplesThreadMessage } from './run-samples-thread.ts';

async function main(): Promise<void> {
  const { dir, known } = workerData as { dir: string; known?: ReportFacts & { readonly files?: readonly string[] } };
  const post = (message: RunSamplesThreadMessage): void => parentPort?.postMessage(message);
  try {
    post({ type: 'done', data: toRunSamplesData(await readRunSamples(dir, known)) });
  } catch (error) {
    post({
      type: 'error',
      code: error instanceof HarnessError ? error.code : 'GH_ERR_INTERNAL',
      message: error instanceof Error ? error.message : String(error),
    });
  }
}

void main();
