// `gateway-harness engine run`: flags reach the engine (-e, -i, --out json=FILE.gz) and the engine's exit code becomes
// the command's (99 when a threshold is crossed); bad flags are usage errors (2).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { main } from '../scripts/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-engine-cli-'));
let server: Server;
let url: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.end('ok');
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
    const lines = gunzipSync(readFileSync(out)).toString('utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; metric: string });
    expect(lines.filter((l) => l.type === 'Point' && l.metric === 'http_reqs')).toHaveLength(3);
    expect(lines.some((l) => l.type === 'Metric' && l.metric === 'http_reqs')).toBe(true);
  });

  it('exits 99 when a threshold is crossed', async () => {
    const script = join(dir, 'crossed.js');
    writeFileSync(script, SCRIPT);
    expect(await cli(['engine', 'run', script, '-e', `BASE=${url}`, '-e', 'LIMIT=count>5', '-i', '2', '--progress', 'none'])).toBe(99);
  });

  it('refuses a malformed -e as a usage error', async () => {
    expect(await cli(['engine', 'run', 'x.js', '-e', 'novalue'])).toBe(2);
  });
});
