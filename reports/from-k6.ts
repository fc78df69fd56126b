// Node side of a load run's report: the handleSummary data (object or summary-data JSON file) plus, when kept, the
// NDJSON metric stream read into time series. Either engine (k6 or the Node engine) produces both inputs.
import { readFile } from 'node:fs/promises';
import { HarnessError, parseJsonFile } from '../api/errors.ts';
import { buildLoadSection, reportFromK6Summary, type K6SummaryData, type LoadMeta, type LoadReportMeta } from './k6-summary.ts';
import { readK6Series, type SeriesOptions } from './k6-series.ts';
import type { LoadSection, LoadSeries, RunReport } from './model.ts';

export interface K6Inputs {
  /** The NDJSON stream of the same run (`--out json=FILE`, .gz accepted); omit when it was not kept. */
  readonly ndjsonPath?: string;
  readonly seriesOptions?: SeriesOptions;
}

/** Reads handleSummary data written as JSON (`JSON.stringify(data)`); checks the one field everything relies on. */
export async function readK6SummaryFile(path: string): Promise<K6SummaryData> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new HarnessError(
      'GH_ERR_CONFIG',
      `cannot read the k6 summary ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      { cause: error },
    );
  }
  const data = parseJsonFile(text, `the k6 summary ${path}`);
  if (data === null || typeof data !== 'object' || typeof (data as { metrics?: unknown }).metrics !== 'object') {
    throw new HarnessError('GH_ERR_PARSE', `the k6 summary ${path} has no "metrics" object (is it handleSummary data?)`);
  }
  return data as K6SummaryData;
}

async function seriesOf(inputs: K6Inputs): Promise<LoadSeries | undefined> {
  // readK6Series finds the stream's own time range first, so buckets fit the points (k6's testRunDurationMs also
  // counts setup and teardown) and no early, out-of-order point falls before bucket 0.
  return inputs.ndjsonPath === undefined ? undefined : readK6Series(inputs.ndjsonPath, inputs.seriesOptions ?? {});
}

/** The load section of a run, with series when the NDJSON stream is given. */
export async function loadSectionFromK6(data: K6SummaryData, meta: LoadMeta, inputs: K6Inputs = {}): Promise<LoadSection> {
  return buildLoadSection(data, meta, await seriesOf(inputs));
}

/** A whole report of one load run: `fromK6Summary(summaryData, { ...meta, ndjsonPath })`. */
export async function fromK6Summary(data: K6SummaryData, meta: LoadReportMeta & K6Inputs): Promise<RunReport> {
  const { ndjsonPath, seriesOptions, ...rest } = meta;
  const series = await seriesOf({
    ...(ndjsonPath === undefined ? {} : { ndjsonPath }),
    ...(seriesOptions === undefined ? {} : { seriesOptions }),
  });
  return reportFromK6Summary(data, rest, series);
}
