// The end of a run's reporting: `--summary-export`, then handleSummary's outputs (or k6's text summary when the script
// has none, or it fails), written where k6 writes them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { renderTextSummary, summaryExport, type K6SummaryData } from '../summary.ts';
import { errorText } from './exit-codes.ts';

/** handleSummary gets 2 minutes, like k6. */
const HANDLE_SUMMARY_TIMEOUT_MS = 120_000;

export interface SummaryDestinations {
  readonly cwd: string;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
  readonly summaryExport: string | undefined;
  readonly logError: (text: string) => void;
}

export async function writeSummaries(summary: K6SummaryData, handleSummary: unknown, to: SummaryDestinations): Promise<void> {
  if (to.summaryExport !== undefined) {
    const path = resolve(to.cwd, to.summaryExport);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${JSON.stringify(summaryExport(summary), null, 2)}\n`);
  }
  if (typeof handleSummary === 'function') {
    try {
      const outputs = await withTimeout(
        (handleSummary as (d: K6SummaryData) => unknown)(JSON.parse(JSON.stringify(summary)) as K6SummaryData),
        HANDLE_SUMMARY_TIMEOUT_MS,
        'handleSummary()',
      );
      writeSummaryOutputs(outputs, to.cwd, to.stdout, to.stderr);
      return;
    } catch (error) {
      to.logError(`handleSummary() failed: ${errorText(error)}; printing the default summary instead`);
    }
  }
  to.stdout.write(renderTextSummary(summary));
}

/** Awaits a value that may be a promise, failing after `ms`. */
async function withTimeout<T>(value: T | Promise<T>, ms: number, what: string): Promise<T> {
  if (!(value instanceof Promise)) return value;
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      value,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what} execution timed out after ${ms / 1000} seconds`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Writes handleSummary's map like k6: 'stdout'/'stderr' to the streams, other keys as paths relative to cwd. */
function writeSummaryOutputs(outputs: unknown, cwd: string, stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): void {
  if (outputs === undefined || outputs === null) return;
  if (typeof outputs !== 'object') throw new Error('handleSummary() must return an object of destination → content');
  for (const [key, value] of Object.entries(outputs as Record<string, unknown>)) {
    const content = typeof value === 'string' ? value : value instanceof ArrayBuffer ? Buffer.from(value) : JSON.stringify(value);
    if (key === 'stdout') stdout.write(content);
    else if (key === 'stderr') stderr.write(content);
    else {
      const path = resolve(cwd, key);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, content);
    }
  }
}
