// The files one load run writes in its report directory: where each lies, the metric stream kept apart from them, and
// the leftovers of an earlier run removed so they cannot pass for this one's.
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { HarnessError } from '../../api/errors.ts';
import { LEDGER_FILE } from '../../ledger/entry.ts';
import { K6_SPOOL_FILE } from '../../ledger/k6-spool.ts';
import { DIR_LOCK_FILE } from '../../reports/dir-lock.ts';
import { AGGREGATES_FILE } from '../../reports/metric-aggregates.ts';
import { REPORT_FILES } from '../../reports/model.ts';
import { sameFile } from '../../reports/same-file.ts';
import { K6_SUMMARY_FILE } from '../summary/handle-summary.ts';

/** The price book a capped run hands its VUs (ledger/price-book.ts), beside the reports. */
export const PRICES_FILE = 'prices.json';

export interface RunFiles {
  /** handleSummary's data (k6-summary.json). */
  readonly summaryFile: string;
  /** The raw NDJSON metric stream, only when asked for (`--out json=FILE`). */
  readonly ndjsonPath: string | undefined;
  /** The per-second aggregates the report reads (their size grows with the run's duration, not its request count). */
  readonly aggregatesPath: string;
}

/**
 * The run's files, the directory cleared of an earlier run's results. A metric stream that would be overwritten by (or
 * overwrite) a file the run itself writes there is refused before anything starts: compared as files, links followed (a
 * symlinked directory or a hard link is the same file).
 */
export function prepareRunFiles(reportDir: string, cwd: string, outJson: string | undefined): RunFiles {
  const ndjsonPath = outJson === undefined ? undefined : resolve(cwd, outJson);
  const ownFiles = [
    ...Object.values(REPORT_FILES),
    K6_SUMMARY_FILE,
    LEDGER_FILE,
    PRICES_FILE,
    K6_SPOOL_FILE,
    DIR_LOCK_FILE,
    AGGREGATES_FILE,
  ];
  const collision = ndjsonPath === undefined ? undefined : ownFiles.find((file) => sameFile(join(reportDir, file), ndjsonPath));
  if (collision !== undefined)
    throw new HarnessError(
      'GH_ERR_USAGE',
      `--out json=${outJson ?? ''}: ${collision} in the report directory is a file the run writes itself; name another file for the metric stream`,
    );
  // Results are read from these files: leftovers of an earlier run in the same directory must not pass for this one's.
  for (const file of [...Object.values(REPORT_FILES), K6_SUMMARY_FILE, AGGREGATES_FILE]) rmSync(join(reportDir, file), { force: true });
  if (ndjsonPath !== undefined) rmSync(ndjsonPath, { force: true });
  return { summaryFile: join(reportDir, K6_SUMMARY_FILE), ndjsonPath, aggregatesPath: join(reportDir, AGGREGATES_FILE) };
}
