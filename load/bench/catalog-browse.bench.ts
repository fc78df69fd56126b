// `npm run bench:load`: iterations/s of catalog-browse on real k6 with and without the schema checks, side by side in
// one run on one machine, and what the checks cost per request inside k6: the envelope schema and payload kind alone
// (the checks before the payload layers) and with the payload layers (spec, observed). Prints figures; asserts nothing.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { CONFIG_DEFAULTS } from '../../api/target-config.ts';
import { startSandbox } from '../../sandbox/server.ts';
import { findK6, findLatestK6 } from '../engine-select.ts';
import { runEnvironment } from '../run-settings.ts';
import { K6_DEFAULT_ENV, runK6 } from '../runner/k6-process.ts';
import type { K6SummaryData } from '../../reports/k6-summary.ts';
import { ensureBundle, LOAD_SANDBOX_FUNDS } from '../runner/run-load.ts';
import { K6_SUMMARY_FILE } from '../summary/handle-summary.ts';
import { METRICS } from '../metric-names.ts';
import { execFileSync } from 'node:child_process';
import { median } from './figures.ts';

const VUS = Number(process.env.BENCH_VUS ?? 10);
const DURATION = process.env.BENCH_DURATION ?? '10s';
/** Runs per mode, interleaved (on, off, on, off) so a drift of the machine hits both alike. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

/** on: every check; envelope: the envelope schema and payload kind only (the checks before the payload layers); off: none. */
const MODES = ['on', 'envelope', 'off'] as const;
type Mode = (typeof MODES)[number];

interface Figures {
  iterationRate: number;
  requestRate: number;
  checkMs: number;
}

function version(path: string): string {
  return (
    /v\d+\.\d+\.\d+/.exec(execFileSync(path, ['version'], { encoding: 'utf8', env: { ...process.env, ...K6_DEFAULT_ENV } }))?.[0] ?? path
  );
}

async function main(): Promise<void> {
  const first = findK6(process.env);
  const binaries = [first?.path, findLatestK6(process.env, first)].filter((p): p is string => p !== undefined);
  if (binaries.length === 0) {
    process.stdout.write('bench:load: no k6 found (K6_BIN or PATH): nothing measured\n');
    return;
  }
  const bundle = await ensureBundle('catalog-browse');
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, behaviour: { initialBalance: LOAD_SANDBOX_FUNDS } });
  const work = mkdtempSync(join(tmpdir(), 'gh-bench-load-'));
  process.stdout.write(
    `bench:load — catalog-browse, ${VUS} VUs × ${DURATION} per run, ${ROUNDS} rounds per mode interleaved (medians); ` +
      `embedded sandbox in this process, sharing the ${cpus().length} CPUs with k6: when it saturates, throughput hides the checks' cost, the in-VU timing does not\n`,
  );
  try {
    for (const k6 of binaries) {
      const figures: Record<Mode, Figures[]> = { on: [], envelope: [], off: [] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const mode of MODES) {
          const reportDir = join(work, `${round}-${mode}-${figures.on.length}`);
          const env = runEnvironment({
            baseUrl: sandbox.url,
            user: 'user',
            password: 'pass',
            environment: 'sandbox',
            timeScale: 0.01,
            profile: 'smoke',
            api: 'both',
            vus: VUS,
            duration: DURATION,
            config: { timeouts: CONFIG_DEFAULTS.timeouts, poll: CONFIG_DEFAULTS.poll, fieldMapping: DEFAULT_FIELD_MAPPING },
            targetLabel: 'embedded sandbox',
            runId: 'bench',
            reportDir,
            schemaChecks: mode !== 'off',
            payloadChecks: mode === 'on',
            // The check timer runs in both modes, so it costs both the same and the difference stays the schema checks'.
            measureChecks: true,
          });
          mkdirSync(reportDir, { recursive: true });
          let output = '';
          const result = await runK6({ k6, bundle, env, cwd: work, stdio: 'pipe', onOutput: (chunk) => void (output += chunk) });
          if (!existsSync(join(reportDir, K6_SUMMARY_FILE)))
            throw new Error(`k6 exited ${result.exitCode} without its summary data:\n${output.slice(-2000)}`);
          const { metrics } = JSON.parse(readFileSync(join(reportDir, K6_SUMMARY_FILE), 'utf8')) as K6SummaryData;
          const value = (metric: string, stat: string): number => metrics[metric]?.values[stat] ?? NaN;
          figures[mode].push({
            iterationRate: value('iterations', 'rate'),
            requestRate: value('http_reqs', 'rate'),
            checkMs: value(METRICS.checkDuration, 'avg'),
          });
        }
      }
      // Medians: other work on a shared machine shows up as outliers, and the rounds are printed so the spread shows.
      const medianOf = (list: Figures[], key: keyof Figures): number => median(list.map((f) => f[key]));
      const of = (mode: Mode) => ({
        it: medianOf(figures[mode], 'iterationRate'),
        req: medianOf(figures[mode], 'requestRate'),
        check: medianOf(figures[mode], 'checkMs'),
        rounds: figures[mode].map((f) => f.iterationRate.toFixed(1)).join(', '),
      });
      const on = of('on');
      const envelope = of('envelope');
      const off = of('off');
      const line = (label: string, f: typeof on): string =>
        `  schema checks ${label}: ${f.it.toFixed(1)} iterations/s (rounds ${f.rounds}), ${f.req.toFixed(0)} requests/s, response checks ${(f.check * 1000).toFixed(0)} µs/response inside k6\n`;
      process.stdout.write(`k6 ${version(k6)}\n`);
      process.stdout.write(line('on (envelope + payload layers)', on));
      process.stdout.write(line('envelope + payload kind only (before the payload layers)', envelope));
      process.stdout.write(line('off', off));
      const cost = (f: typeof on): string => `${((f.check - off.check) * 1000).toFixed(0)} µs`;
      process.stdout.write(
        `  → with/without: ${(on.it / off.it).toFixed(2)}× iterations/s; schema checks cost ${cost(on)} per response inside k6 (timed in the VU; before the payload layers ${cost(envelope)}), ` +
          `${((1 / on.req - 1 / off.req) * 1e6).toFixed(0)} µs of machine time per request (from throughput)\n`,
      );
    }
  } finally {
    await sandbox.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
