// `npm run bench:wire -- --vus 50,100,200,500 --duration 10s`: the Node engine's reported http_req_duration beside what
// a measuring proxy in front of the sandbox (its own process, wire-proxy.ts) served, per VU count, with the generator's
// saturation windows. Prints figures side by side; asserts nothing.
import { fork, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { RunReport } from '../../reports/model.ts';
import type { ProxyMessage } from './wire-proxy.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = resolve(HERE, '..', '..', 'bin', 'gateway-harness.mjs');

const { values } = parseArgs({ options: { vus: { type: 'string', default: '50,100,200,500' }, duration: { type: 'string', default: '10s' } } });
const proxy = fork(join(HERE, 'wire-proxy.ts'), [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const next = (): Promise<ProxyMessage> => new Promise((done) => proxy.once('message', done));
const ready = await next();
if (ready.type !== 'ready') throw new Error(`the proxy did not start: ${JSON.stringify(ready)}`);
const dir = mkdtempSync(join(tmpdir(), 'gh-wire-'));
const ms = (v: number | undefined): string => (v === undefined ? '–' : v.toFixed(1));
console.log('| VUs | engine p50 / p95 / p99 ms | proxy served p50 / p95 / p99 ms | requests | generator windows |');
console.log('|---|---|---|---|---|');
try {
  for (const vus of (values.vus ?? '').split(',').map(Number)) {
    const reportDir = join(dir, String(vus));
    await new Promise<ProxyMessage>((done) => {
      proxy.once('message', done);
      proxy.send({ type: 'stats' });
    });
    spawnSync(process.execPath, [CLI, 'load', '--scenario', 'catalog-browse', '--profile', 'smoke', '--engine', 'node', '--target', ready.url, '--vus', String(vus), '--duration', values.duration ?? '10s', '--report-dir', reportDir], { stdio: 'ignore' });
    proxy.send({ type: 'stats' });
    const truth = await next();
    const report = JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as RunReport;
    const d = report.load?.metrics.http_req_duration?.values ?? {};
    const windows = report.load?.generator?.windows.map((w) => w.reason).join('; ') || 'none';
    if (truth.type !== 'stats') throw new Error('no proxy stats');
    console.log(`| ${vus} | ${ms(d.med)} / ${ms(d['p(95)'])} / ${ms(d['p(99)'])} | ${ms(truth.p50)} / ${ms(truth.p95)} / ${ms(truth.p99)} | ${report.load?.requests.count ?? 0} / ${truth.count} | ${windows} |`);
  }
} finally {
  proxy.disconnect();
  rmSync(dir, { recursive: true, force: true });
}
