// Compares two report dirs in this process and prints one JSON line: peak RSS, requests read and time, so the memory
// test and a bench can compare input sizes. Usage: tsx compare/bench/compare-rss.ts BASELINE_DIR CANDIDATE_DIR
import { comparisonOf } from '../compare-runs.ts';

const [baselineDir, candidateDir] = process.argv.slice(2);
if (baselineDir === undefined || candidateDir === undefined) {
  process.stderr.write('usage: compare-rss.ts BASELINE_DIR CANDIDATE_DIR\n');
  process.exit(2);
}
const started = process.hrtime.bigint();
const section = await comparisonOf({ baselineDir, candidateDir });
process.stdout.write(
  `${JSON.stringify({
    maxRssMB: Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10,
    requests: section.baseline.requests + section.candidate.requests,
    operations: section.operations.length,
    seconds: Math.round((Number(process.hrtime.bigint() - started) / 1e9) * 10) / 10,
  })}\n`,
);
