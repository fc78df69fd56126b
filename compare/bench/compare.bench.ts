// `npm run bench:compare`: the comparison's false-alarm rate and power on real runs. 20 pairs (COMPARE_BENCH_PAIRS) of
// Node-engine load runs against the embedded sandbox: A/A, A/B with slow-op (+25 %), A/B with fail-op (2 %).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment, tally, type PairOutcome } from './experiment.ts';

const env = process.env;
const operation = env.COMPARE_BENCH_OP ?? 'v2.catalog.skus';
const plan = {
  pairs: Number(env.COMPARE_BENCH_PAIRS ?? 20),
  failPairs: Number(env.COMPARE_BENCH_FAIL_PAIRS ?? 5),
  operation,
  slowPct: Number(env.COMPARE_BENCH_SLOW_PCT ?? 25),
  failPct: Number(env.COMPARE_BENCH_FAIL_PCT ?? 2),
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
const dir = mkdtempSync(join(tmpdir(), 'gh-compare-bench-'));
const line = (p: PairOutcome, i: number): void => {
  const op = p.section.operations.find((o) => o.operation === operation);
  const p95 = op?.latency.p95;
  const failures = op?.businessFailureRate;
  process.stdout.write(
    `pair ${i + 1} ${p.kind}: regressed [${p.regressed.join(', ')}] incomplete [${p.incomplete.join(', ')}]; ${operation} p95 ${p95?.baseline?.value ?? '-'} → ${p95?.candidate?.value ?? '-'} ms ` +
      `(Holm p ${p95?.adjustedPValue?.toExponential(1) ?? '-'}, n ${p95?.samples?.baseline.n ?? 0}/${p95?.samples?.candidate.n ?? 0}, effective ${p95?.samples?.baseline.effective ?? 0}/${p95?.samples?.candidate.effective ?? 0}); ` +
      `business failures ${((failures?.baseline?.value ?? 0) * 100).toFixed(2)} % → ${((failures?.candidate?.value ?? 0) * 100).toFixed(2)} %\n`,
  );
};
process.stdout.write(`bench:compare: ${JSON.stringify(plan)}\n`);
const started = Date.now();
try {
  const pairs = await runExperiment({ ...plan, dir, onPair: line });
  const t = tally(pairs, operation);
  process.stdout.write('\n| experiment | pairs | right | incomplete |\n|---|---:|---:|---:|\n');
  process.stdout.write(`| A/A: no regression on any operation | ${t['A/A'].pairs} | ${t['A/A'].right} | ${t['A/A'].incomplete} |\n`);
  process.stdout.write(`| A/B slow-op ${plan.slowPct} %: ${operation} flagged, no other | ${t['A/B slow'].pairs} | ${t['A/B slow'].right} | ${t['A/B slow'].incomplete} |\n`);
  process.stdout.write(`| A/B fail-op ${plan.failPct} %: ${operation} flagged, no other | ${t['A/B fail'].pairs} | ${t['A/B fail'].right} | ${t['A/B fail'].incomplete} |\n`);
  process.stdout.write(`false-alarm rate (A/A): ${t['A/A'].pairs - t['A/A'].right} of ${t['A/A'].pairs}; ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
