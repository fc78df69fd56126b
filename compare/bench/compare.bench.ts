// `npm run bench:compare`: the comparison's false-alarm rate and power, 20 pairs (COMPARE_BENCH_PAIRS) of A/A, A/B
// slow (+25 % on one operation) and A/B fail (0 → 2 % business failures on it). Two modes:
// - COMPARE_BENCH_MODE=sim (default): simulated k6 streams (steady load with random slow seconds, the autocorrelation a
//   busy gateway shows) through the real reader; sizes COMPARE_BENCH_SECONDS × COMPARE_BENCH_RPS, bursts COMPARE_BENCH_BURSTS.
// - COMPARE_BENCH_MODE=runs: real load runs (CLI, Node engine) against embedded sandboxes (faithful, slow-op, fail-op).
// - COMPARE_BENCH_MODE=memory: peak RSS of comparing two generated runs of COMPARE_BENCH_MB (default 128,1100) in total.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment, tally, type PairOutcome } from './experiment.ts';
import { measureCompare } from './measure-compare.ts';
import { simulateExperiment } from './simulate.ts';

const env = process.env;
const mode = env.COMPARE_BENCH_MODE ?? 'sim';
const operation = env.COMPARE_BENCH_OP ?? 'v2.catalog.skus';
/** The operation failed in the A/B fail pairs (default the slowed one). */
const failOperation = env.COMPARE_BENCH_FAIL_OP ?? operation;
const pairs = Number(env.COMPARE_BENCH_PAIRS ?? 20);
const slowPct = Number(env.COMPARE_BENCH_SLOW_PCT ?? 25);
const failPct = Number(env.COMPARE_BENCH_FAIL_PCT ?? 2);
const dir = mkdtempSync(join(tmpdir(), 'gh-compare-bench-'));

const line = (p: PairOutcome, i: number): void => {
  const op = p.section.operations.find((o) => o.operation === (p.kind === 'A/B fail' ? failOperation : operation));
  const p95 = op?.latency.p95;
  const failures = op?.businessFailureRate;
  process.stdout.write(
    `pair ${i + 1} ${p.kind}: regressed [${p.regressed.join(', ')}] incomplete [${p.incomplete.join(', ')}]; ${p.kind === 'A/B fail' ? failOperation : operation} p95 ${p95?.baseline?.value ?? '-'} → ${p95?.candidate?.value ?? '-'} ms ` +
      `(Holm p ${p95?.adjustedPValue?.toExponential(1) ?? '-'}, n ${p95?.samples?.baseline.n ?? 0}/${p95?.samples?.candidate.n ?? 0}, effective ${p95?.samples?.baseline.effective ?? 0}/${p95?.samples?.candidate.effective ?? 0}); ` +
      `business failures ${((failures?.baseline?.value ?? 0) * 100).toFixed(2)} % → ${((failures?.candidate?.value ?? 0) * 100).toFixed(2)} %\n`,
  );
};

async function main(): Promise<PairOutcome[]> {
  if (mode === 'runs') {
    const plan = {
      pairs,
      failPairs: Number(env.COMPARE_BENCH_FAIL_PAIRS ?? pairs),
      operation,
      slowPct,
      failPct,
      concurrent: env.COMPARE_BENCH_CONCURRENT === '1',
      size: {
        scenario: env.COMPARE_BENCH_SCENARIO ?? 'catalog-browse',
        api: env.COMPARE_BENCH_API ?? 'v2',
        vus: Number(env.COMPARE_BENCH_VUS ?? 40),
        duration: env.COMPARE_BENCH_DURATION ?? '20s',
        latencyMs: Number(env.COMPARE_BENCH_LATENCY_MS ?? 100),
        jitterMs: Number(env.COMPARE_BENCH_JITTER_MS ?? 50),
      },
    };
    process.stdout.write(`bench:compare (real runs): ${JSON.stringify(plan)}\n`);
    return runExperiment({ ...plan, dir, onPair: line });
  }
  const plan = {
    pairs,
    operation,
    failOperation,
    durationS: Number(env.COMPARE_BENCH_SECONDS ?? 60),
    rps: Number(env.COMPARE_BENCH_RPS ?? 100),
    burstRate: Number(env.COMPARE_BENCH_BURSTS ?? 0.05),
    burstFactor: Number(env.COMPARE_BENCH_BURST_FACTOR ?? 1.5),
    slowFactor: 1 + slowPct / 100,
    failShare: failPct / 100,
  };
  process.stdout.write(`bench:compare (simulated runs): ${JSON.stringify(plan)}\n`);
  return simulateExperiment({ ...plan, dir, onPair: line });
}

async function memory(): Promise<void> {
  const sizes = (env.COMPARE_BENCH_MB ?? '128,1100')
    .split(',')
    .map(Number)
    .filter((n) => Number.isFinite(n) && n > 0);
  process.stdout.write(
    'compare, two runs through named pipes\n| input MB (both runs) | requests | peak RSS MB | seconds |\n|---:|---:|---:|---:|\n',
  );
  for (const mb of sizes) {
    const m = await measureCompare(mb * 1e6);
    process.stdout.write(`| ${m.inputMB} | ${m.requests} | ${m.maxRssMB} | ${m.seconds} |\n`);
  }
}

const started = Date.now();
if (mode === 'memory') {
  await memory();
  rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}
try {
  const t = tally(await main(), operation, failOperation);
  process.stdout.write('\n| experiment | pairs | right | incomplete |\n|---|---:|---:|---:|\n');
  process.stdout.write(`| A/A: no regression on any operation | ${t['A/A'].pairs} | ${t['A/A'].right} | ${t['A/A'].incomplete} |\n`);
  process.stdout.write(
    `| A/B slow +${slowPct} %: ${operation} flagged, no other | ${t['A/B slow'].pairs} | ${t['A/B slow'].right} | ${t['A/B slow'].incomplete} |\n`,
  );
  process.stdout.write(
    `| A/B fail ${failPct} %: ${failOperation} flagged, no other | ${t['A/B fail'].pairs} | ${t['A/B fail'].right} | ${t['A/B fail'].incomplete} |\n`,
  );
  process.stdout.write(
    `false alarms (A/A): ${t['A/A'].pairs - t['A/A'].right} of ${t['A/A'].pairs}; ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
