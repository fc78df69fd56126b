// `npm run bench:merge`: merge-results' peak RSS and throughput on generated instance NDJSON of growing size, up to
// more than a gigabyte, through named pipes (nothing on disk). MERGE_BENCH_MB="256,1024,2048" and MERGE_BENCH_GZIP=1
// tune it. Prints one row per size and the RSS ratio largest ÷ smallest beside the input ratio, measured on the Node that
// runs it (`npm run test:node -- 24` puts another Node first on PATH; the merge runs in a child of this same binary).
import { measureMerge, type MergeMeasure } from './measure-merge.ts';

const sizes = (process.env.MERGE_BENCH_MB ?? '128,1100')
  .split(',')
  .map(Number)
  .filter((n) => Number.isFinite(n) && n > 0);
const gzip = process.env.MERGE_BENCH_GZIP === '1';
const rows: MergeMeasure[] = [];
process.stdout.write(
  `merge-results on Node ${process.version} (V8 ${process.versions.v8}), 3 instances through named pipes${gzip ? ' (gzip level 1)' : ''}\n`,
);
process.stdout.write('| input MB (uncompressed) | points | peak RSS MB | seconds | points/s |\n|---:|---:|---:|---:|---:|\n');
for (const mb of sizes) {
  const m = await measureMerge(mb * 1e6, 3, { gzip });
  rows.push(m);
  process.stdout.write(
    `| ${m.inputMB} | ${m.points} | ${m.maxRssMB} | ${m.seconds} | ${Math.round(m.points / Math.max(m.seconds, 0.001))} |\n`,
  );
}
const first = rows[0];
const last = rows[rows.length - 1];
if (first !== undefined && last !== undefined && rows.length > 1) {
  process.stdout.write(`input ×${(last.inputMB / first.inputMB).toFixed(1)} → peak RSS ×${(last.maxRssMB / first.maxRssMB).toFixed(2)}\n`);
}
