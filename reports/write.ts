// Writes one run's report set into its report directory: summary.json, junit.xml, summary.md and report.html, all
// from the same (redacted) RunReport, so every file states the same verdict and nothing carries a credential.
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { diskFullError, HarnessError, isDiskFull } from '../api/errors.ts';
import { makeDirectory } from './make-dir.ts';
import { loadHtmlAssets, renderReportHtml, type HtmlAssets } from './html/report-html.ts';
import { reportJunitXml } from './junit-report.ts';
import { REPORT_FILES, type RunReport } from './model.ts';
import { scrubDistinctiveSecrets } from '../api/redact.ts';
import { redactReport } from './redact-report.ts';
import { renderSummaryMarkdown } from './summary-md.ts';

export type ReportFileKind = keyof typeof REPORT_FILES;

export interface WriteOptions {
  /** Secrets to scrub from every file (see credentialSecrets); headers and URL user info are redacted regardless. */
  readonly secrets?: readonly string[];
  /** Which files to write; default all four. */
  readonly files?: readonly ReportFileKind[];
  /** HTML assets (tests may pass their own); default read from this package and node_modules. */
  readonly htmlAssets?: HtmlAssets;
}

export interface WrittenReports {
  readonly dir: string;
  /** Absolute path of each file written. */
  readonly paths: Partial<Record<ReportFileKind, string>>;
  /** The report as written (redacted, artifacts filled in). */
  readonly report: RunReport;
}

const ALL_KINDS: readonly ReportFileKind[] = ['summaryJson', 'junitXml', 'summaryMd', 'reportHtml'];

/** Write then rename, so a reader (or a crash) never sees half a file; a failed write leaves no temporary file. */
function writeAtomic(path: string, text: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

export function writeReports(report: RunReport, dir: string, options: WriteOptions = {}): WrittenReports {
  const secrets = options.secrets ?? [];
  const kinds = options.files ?? ALL_KINDS;
  const absolute = resolve(dir);
  const artifacts: Record<string, string> = { ...report.artifacts };
  for (const kind of kinds) artifacts[kind] = REPORT_FILES[kind];
  const clean = redactReport({ ...report, artifacts }, secrets);
  try {
    makeDirectory(absolute);
  } catch (error) {
    throw new HarnessError(
      'GH_ERR_CONFIG',
      `cannot create the report directory ${absolute}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      { cause: error },
    );
  }
  const render: Record<ReportFileKind, () => string> = {
    summaryJson: () => `${JSON.stringify(clean, null, 2)}\n`,
    junitXml: () => reportJunitXml(clean),
    summaryMd: () => renderSummaryMarkdown(clean, { reportHtml: REPORT_FILES.reportHtml }),
    reportHtml: () => renderReportHtml(clean, options.htmlAssets ?? loadHtmlAssets()),
  };
  const paths: Partial<Record<ReportFileKind, string>> = {};
  for (const kind of kinds) {
    const path = join(absolute, REPORT_FILES[kind]);
    try {
      writeAtomic(path, scrubDistinctiveSecrets(render[kind](), secrets));
    } catch (error) {
      if (error instanceof HarnessError) throw error;
      if (isDiskFull(error))
        throw diskFullError(
          absolute,
          `${kinds
            .slice(kinds.indexOf(kind))
            .map((k) => REPORT_FILES[k])
            .join(', ')} not written`,
          error,
        );
      throw new HarnessError(
        'GH_ERR_CONFIG',
        `cannot write ${path}: ${(error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error))}`,
        { cause: error },
      );
    }
    paths[kind] = path;
  }
  return { dir: absolute, paths, report: clean };
}
