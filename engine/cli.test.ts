// `gateway-harness engine run`: flags reach the engine (-e, -i, --out json=FILE.gz, -o experimental-prometheus-rw with
// K6_PROMETHEUS_RW_*, --tag) and the engine's exit code becomes the command's (99 when a threshold is crossed); bad
// flags are usage errors (2).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../scripts/cli.ts';
import { decodeWriteRequestBody } from './remote-write/wire.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-engine-cli-'));
let server: Server;
let url: string;
/** Remote-write pushes the test server received (POST /api/v1/write). */
const pushes: Buffer[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url === '/api/v1/write') pushes.push(Buffer.concat(chunks));
      res.statusCode = req.url === '/api/v1/write' ? 204 : 200;
      res.end(req.url === '/api/v1/write' ? '' : 'ok');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const SCRIPT = `import http from 'k6/http';
export const options = { thresholds: { http_reqs: [__ENV.LIMIT || 'count>0'] } };
export default async function () { await http.asyncRequest('GET', __ENV.BASE); }
`;

async function cli(args: string[]): Promise<number> {
  const write = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const writeErr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    process.exitCode = undefined;
    return await main(['node', 'gateway-harness', ...args]);
  } finally {
    process.exitCode = undefined;
    write.mockRestore();
    writeErr.mockRestore();
  }
}

describe('gateway-harness engine run', () => {
  it('runs the script with -e and -i and writes gzipped NDJSON', async () => {
    const script = join(dir, 'ok.js');
    writeFileSync(script, SCRIPT);
    const out = join(dir, 'points.ndjson.gz');
    expect(await cli(['engine', 'run', script, '-e', `BASE=${url}`, '-i', '3', '--progress', 'none', '--out', `json=${out}`])).toBe(0);
    const lines = gunzipSync(readFileSync(out))
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; metric: string });
    expect(lines.filter((l) => l.type === 'Point' && l.metric === 'http_reqs')).toHaveLength(3);
    expect(lines.some((l) => l.type === 'Metric' && l.metric === 'http_reqs')).toBe(true);
  });

  it('exits 99 when a threshold is crossed', async () => {
    const script = join(dir, 'crossed.js');
    writeFileSync(script, SCRIPT);
    expect(await cli(['engine', 'run', script, '-e', `BASE=${url}`, '-e', 'LIMIT=count>5', '-i', '2', '--progress', 'none'])).toBe(99);
  });

  it("writes k6's remote-write series with -o experimental-prometheus-rw (settings from K6_PROMETHEUS_RW_*), tagged with --tag", async () => {
    const script = join(dir, 'rw.js');
    writeFileSync(script, SCRIPT);
    process.env.K6_PROMETHEUS_RW_SERVER_URL = `${url}/api/v1/write`;
    try {
      expect(
        await cli([
          'engine',
          'run',
          script,
          '-e',
          `BASE=${url}`,
          '-i',
          '3',
          '--progress',
          'none',
          '-o',
          'experimental-prometheus-rw',
          '--tag',
          'testid=cli-1',
        ]),
      ).toBe(0);
    } finally {
      delete process.env.K6_PROMETHEUS_RW_SERVER_URL;
    }
    const series = pushes.flatMap((body) => decodeWriteRequestBody(body).timeseries);
    const reqs = series.find((s) => s.labels.some((l) => l.name === '__name__' && l.value === 'k6_http_reqs_total'));
    expect(reqs?.labels).toContainEqual({ name: 'testid', value: 'cli-1' });
    expect(reqs?.samples?.[0]?.value).toBe(3);
    expect(series.some((s) => s.labels.some((l) => l.value === 'k6_http_req_duration_p99'))).toBe(true);
  });

  it('refuses an output it does not write, and bad remote-write settings, as usage errors', async () => {
    expect(await cli(['engine', 'run', 'x.js', '-o', 'influxdb=http://x'])).toBe(2);
    process.env.K6_PROMETHEUS_RW_TREND_STATS = 'p95';
    try {
      expect(await cli(['engine', 'run', 'x.js', '-o', 'experimental-prometheus-rw'])).toBe(2);
    } finally {
      delete process.env.K6_PROMETHEUS_RW_TREND_STATS;
    }
  });

  it('refuses a malformed -e as a usage error', async () => {
    expect(await cli(['engine', 'run', 'x.js', '-e', 'novalue'])).toBe(2);
  });
});
