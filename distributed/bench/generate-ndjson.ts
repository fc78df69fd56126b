// Writes generated instance NDJSON (ndjson-generator.ts) into the given paths, all at once with backpressure: named
// pipes in the memory test and `npm run bench:merge`, so gigabytes flow into merge-results without touching the disk.
// Usage: tsx distributed/bench/generate-ndjson.ts --bytes-per-instance N [--gzip] PATH...
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { instanceStream } from './ndjson-generator.ts';

const args = process.argv.slice(2);
const at = args.indexOf('--bytes-per-instance');
const bytes = at < 0 ? 10_000_000 : Number(args[at + 1]);
const gzip = args.includes('--gzip');
const paths = args.filter((a, i) => !a.startsWith('--') && (at < 0 || i !== at + 1));
if (paths.length === 0 || !Number.isFinite(bytes) || bytes <= 0) {
  process.stderr.write('usage: generate-ndjson.ts --bytes-per-instance N [--gzip] PATH...\n');
  process.exit(2);
}
// Instances start 1 ms apart and interleave, as k6-operator's paused pods started together do.
await Promise.all(
  paths.map((path, instance) => {
    const source = instanceStream({ instance, bytes, startTime: Date.UTC(2026, 0, 1) + instance, stepMs: 2 });
    return gzip ? pipeline(source, createGzip({ level: 1 }), createWriteStream(path)) : pipeline(source, createWriteStream(path));
  }),
);
