// A deterministic generator of one instance's k6 NDJSON (the lines `k6 run --out json=` writes), of any size, made on
// the fly: the merge tests and `npm run bench:merge` feed merge-results gigabytes without putting them on disk.
import { Readable } from 'node:stream';
import { prng } from '../../reports/fixtures/synthetic-k6.ts';

export interface GeneratorOptions {
  /** Instance number (0-based): its own random stream, and the `instance_id` tag k6-operator adds. */
  readonly instance: number;
  /** Stop after about this many bytes (whole iterations), or after `iterations`. */
  readonly bytes?: number;
  readonly iterations?: number;
  /** Epoch ms of the first sample; each iteration advances the clock by `stepMs`. */
  readonly startTime?: number;
  readonly stepMs?: number;
  /** Fraction of requests that fail (http_req_failed, a failed check). */
  readonly failureRate?: number;
  /** Called with every sample written (tests keep the raw values to compute exact percentiles). */
  readonly onSample?: (metric: string, value: number, tags: Readonly<Record<string, string>>) => void;
}

const OPERATIONS = ['v2.catalog.skus', 'v2.catalog.countries', 'v1.catalog.skus', 'v2.transaction.topup'];

/** The Metric lines as k6 writes them (type, contains, thresholds listed for plain metrics, sub-metrics). */
const METRICS: ReadonlyArray<readonly [string, string, string]> = [
  ['vus', 'gauge', 'default'],
  ['http_reqs', 'counter', 'default'],
  ['http_req_duration', 'trend', 'time'],
  ['http_req_failed', 'rate', 'default'],
  ['checks', 'rate', 'default'],
  ['iterations', 'counter', 'default'],
  ['iteration_duration', 'trend', 'time'],
  ['gateway_time_to_final', 'trend', 'time'],
];

function metricLine(name: string, type: string, contains: string): string {
  return JSON.stringify({ type: 'Metric', data: { name, type, contains, thresholds: [], submetrics: null }, metric: name });
}

function time(ms: number, nanos: number): string {
  // RFC 3339 with nanoseconds, as k6 writes it.
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, (_m, frac: string) => `.${frac}${String(nanos).padStart(6, '0')}Z`);
}

/** The lines of one instance, each without its newline. */
export function* instanceLines(options: GeneratorOptions): Generator<string> {
  const rnd = prng(0x9e3779b9 ^ (options.instance * 7919 + 17));
  const start = options.startTime ?? Date.UTC(2026, 0, 1);
  const step = options.stepMs ?? 1;
  const failureRate = options.failureRate ?? 0.01;
  const base = { instance_id: String(options.instance + 1), testrun_name: 'gh-bench', scenario: 'mixed' };
  const emitted = new Set<string>();
  let bytes = 0;
  const point = (metric: string, value: number, tags: Record<string, string>, at: number, nanos: number): string => {
    options.onSample?.(metric, value, tags);
    return `{"metric":"${metric}","type":"Point","data":{"time":"${time(at, nanos)}","value":${value},"tags":${JSON.stringify(tags)}}}`;
  };
  for (let i = 0; options.iterations === undefined || i < options.iterations; i++) {
    if (options.bytes !== undefined && bytes >= options.bytes) return;
    const at = start + i * step;
    const lines: string[] = [];
    for (const [name, type, contains] of METRICS) {
      if (!emitted.has(name)) {
        emitted.add(name);
        lines.push(metricLine(name, type, contains));
      }
    }
    if (i % 1000 === 0) lines.push(point('vus', 10 + (options.instance % 3), { ...base }, at, 1));
    const operation = OPERATIONS[i % OPERATIONS.length] as string;
    // Latency: mostly 20-80 ms, a tail to a few seconds (a product of uniforms), in µs steps like k6.
    const latency = Math.round((20 + 60 * rnd() + (rnd() < 0.05 ? 3000 * rnd() * rnd() : 0)) * 1000) / 1000;
    const failed = rnd() < failureRate;
    const tags = {
      ...base,
      group: '',
      method: 'GET',
      name: operation,
      operation,
      proto: 'HTTP/1.1',
      status: failed ? '500' : '200',
      expected_response: failed ? 'false' : 'true',
    };
    lines.push(point('http_reqs', 1, tags, at, 101));
    lines.push(point('http_req_duration', latency, tags, at, 202));
    lines.push(point('http_req_failed', failed ? 1 : 0, tags, at, 303));
    lines.push(point('checks', failed ? 0 : 1, { ...base, group: '::flow', check: 'http status is 200' }, at, 404));
    if (operation === 'v2.transaction.topup')
      lines.push(point('gateway_time_to_final', latency * 3, { ...base, operation, outcome: 'Successful' }, at, 505));
    lines.push(point('iterations', 1, { ...base, group: '' }, at, 606));
    lines.push(point('iteration_duration', latency + 1, { ...base, group: '' }, at, 707));
    for (const line of lines) {
      bytes += line.length + 1;
      yield line;
    }
  }
}

/** The instance's NDJSON as a byte stream, in ~64 KB chunks, produced as it is read (backpressure applies). */
export function instanceStream(options: GeneratorOptions): Readable {
  const lines = instanceLines(options);
  return Readable.from(
    (function* () {
      let chunk = '';
      for (const line of lines) {
        chunk += `${line}\n`;
        if (chunk.length >= 65_536) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk !== '') yield chunk;
    })(),
    { objectMode: false },
  );
}
