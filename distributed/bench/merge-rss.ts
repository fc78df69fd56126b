// Runs merge-results on the given files (named pipes in the memory test) in this process and prints one JSON line:
// peak RSS, points, lines, bytes read and time, so the memory test and `npm run bench:merge` can compare sizes.
// Usage: tsx distributed/bench/merge-rss.ts REPORT_DIR FILE...
import { mergeResults } from '../merge/merge-results.ts';

const [reportDir, ...files] = process.argv.slice(2);
if (reportDir === undefined || files.length === 0) {
  process.stderr.write('usage: merge-rss.ts REPORT_DIR FILE...\n');
  process.exit(2);
}
const started = process.hrtime.bigint();
const outcome = await mergeResults({
  files,
  // Thresholds on trends, rates, counters and sub-metrics: every kind of sink the merge keeps.
  plan: {
    source: 'bench',
    thresholds: {
      http_req_duration: ['p(95)<60000', 'p(99)<60000'],
      'http_req_duration{operation:v2.catalog.skus}': ['p(95)<60000'],
      http_req_failed: ['rate<0.5'],
      'checks{check:http status is 200}': ['rate>0.5'],
      iterations: ['count>0'],
    },
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'],
  },
  reportDir,
  runId: 'merge-rss',
  series: false,
});
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
process.stdout.write(
  `${JSON.stringify({
    maxRssMB: Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10,
    points: outcome.files.reduce((s, f) => s + f.points, 0),
    lines: outcome.files.reduce((s, f) => s + f.lines, 0),
    iterations: outcome.data.metrics.iterations?.values.count ?? 0,
    p95: outcome.data.metrics.http_req_duration?.values['p(95)'],
    seconds: Math.round(seconds * 10) / 10,
    exitCode: outcome.report.exitCode,
  })}\n`,
);
