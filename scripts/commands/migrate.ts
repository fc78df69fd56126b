// `gateway-harness migrate`: the v1-to-v2 regression check — every v1/v2 pair of the catalog with the same inputs on
// both versions; writes the report set through reports/; exit 1 when v2 fails where v1 succeeds. Thin over migrate/.
import type { Command } from 'commander';
import { EXIT, HarnessError } from '../../api/errors.ts';
import { operationPairs } from '../../api/operations.ts';
import { newRunId } from '../../conformance/session.ts';
import { DEFAULT_LOAD, LOAD_LIMITS, type LoadSettings } from '../../migrate/latency.ts';
import { migrationReportSection, pairLine } from '../../migrate/report.ts';
import { chargingPairs, runMigration, selectPairs } from '../../migrate/run-migration.ts';
import { assembleReport } from '../../reports/assemble.ts';
import { commandProgress, finishRun, prepareReportDir, reportSecrets } from '../report-output.ts';
import { configFromOptions } from '../target-options.ts';
import { addSessionOptions, sessionOptionsFrom, withSession, type SessionFlags } from './baseline.ts';

interface MigrateFlags extends SessionFlags {
  reportDir?: string;
  pairs?: string;
  requests: string;
  concurrency: string;
  allowSkips?: boolean;
  list?: boolean;
}

const usage = (message: string): HarnessError => new HarnessError('GH_ERR_USAGE', message);

function wholeNumber(flag: string, value: string, min: number, max: number): number {
  if (!/^\d{1,7}$/.test(value) || Number(value) < min || Number(value) > max) throw usage(`${flag} must be a whole number from ${min} to ${max}`);
  return Number(value);
}

function parsePairs(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const known = operationPairs().map((p) => p.purpose);
  const wanted = value.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const unknown = wanted.filter((w) => !known.includes(w));
  if (wanted.length === 0 || unknown.length > 0) throw usage(`--pairs: unknown pair ${JSON.stringify(unknown[0] ?? value)} (known: ${known.join(', ')})`);
  return wanted;
}

async function runMigrate(opts: MigrateFlags): Promise<number> {
  const purposes = parsePairs(opts.pairs);
  const selected = selectPairs(purposes);
  if (opts.list === true) {
    for (const p of selected) process.stdout.write(`${p.purpose}\t${p.v1.id}\t${p.v2.id}\t${chargingPairs([p]).length > 0 ? 'charges' : 'read'}\n`);
    return EXIT.ok;
  }
  const load: LoadSettings = {
    requests: wholeNumber('--requests', opts.requests, 1, LOAD_LIMITS.requests),
    concurrency: wholeNumber('--concurrency', opts.concurrency, 1, LOAD_LIMITS.concurrency),
    maxMs: DEFAULT_LOAD.maxMs,
  };
  const config = configFromOptions(opts);
  const sessionOptions = sessionOptionsFrom(opts, config);
  // Money safety: on production nothing that charges is sent (no allowance flags exist yet). Refused before anything starts.
  const charging = config.environment === 'production' ? chargingPairs(selected) : [];
  if (charging.length > 0) {
    const reads = selected.filter((p) => !charging.includes(p)).map((p) => p.purpose);
    throw usage(
      `migrate: ${charging.length} selected pairs charge money on a production target (${charging.map((p) => p.purpose).join(', ')}); nothing was sent. ` +
        `Select read pairs with --pairs${reads.length > 0 ? ` (e.g. --pairs ${reads.slice(0, 3).join(',')})` : ''}`,
    );
  }
  const runId = newRunId();
  const reportDir = prepareReportDir(opts.reportDir, runId);
  const allowSkips = opts.allowSkips === true;
  const startedAt = Date.now();
  return withSession(config, sessionOptions, async (session) => {
    const progress = commandProgress();
    let result;
    try {
      result = await runMigration(session, {
        ...(purposes === undefined ? {} : { pairs: purposes }),
        load,
        progress: (line) => progress.line(`migrate: ${line}`),
      });
    } finally {
      progress.done();
    }
    const report = assembleReport({
      runId,
      command: 'migrate',
      startedAt,
      durationMs: Date.now() - startedAt,
      allowSkips,
      target: {
        url: session.config.baseUrl,
        environment: session.config.environment,
        timeScale: session.config.timeScale,
        embedded: session.embedded,
        ...(session.embedded ? { profile: sessionOptions.profile ?? config.sandbox.profile ?? 'faithful' } : {}),
      },
      migration: migrationReportSection(result, { allowSkips }),
    });
    const extra = [
      `Pairs (${result.pairs.length}; same inputs on both versions, latency under ${load.requests} requests per version, ${load.concurrency} in flight):`,
      ...result.pairs.map(pairLine),
    ];
    return finishRun(report, reportDir, { secrets: reportSecrets(config), extra }).exitCode;
  });
}

export function register(program: Command): void {
  const cmd = program
    .command('migrate')
    .description(
      'v1-to-v2 migration check: every v1/v2 pair of the catalog with the same inputs on both versions — outcomes (v2 must not fail where v1 succeeds),\n' +
        'payload content after declared normalizations, field correspondence, latency p50/p95 under the same small load.\n' +
        'With no --target it runs against the embedded sandbox. Exit 0 no regression, 1 a regression (or pairs not compared: incomplete), 2 usage/config error.',
    )
    .option('--report-dir <dir>', 'where summary.json, junit.xml, summary.md and report.html go (default reports/out/<run-id>/)')
    .option('--pairs <list>', 'comma-separated pair purposes to run (default: all; see --list)')
    .option('--requests <n>', `requests per version in each pair's latency load (1..${LOAD_LIMITS.requests})`, String(DEFAULT_LOAD.requests))
    .option('--concurrency <n>', `requests in flight in each pair's latency load (1..${LOAD_LIMITS.concurrency})`, String(DEFAULT_LOAD.concurrency))
    .option('--allow-skips', 'pass even when some pairs could not be compared')
    .option('--list', 'print the pairs (purpose, v1 operation, v2 operation, charges or read) and exit');
  addSessionOptions(cmd);
  cmd.action(async (opts: MigrateFlags) => {
    process.exitCode = await runMigrate(opts);
  });
}
