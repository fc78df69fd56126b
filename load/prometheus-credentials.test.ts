// Issue #32 finding 4: `--out prometheus=http://user:pw@host/w` pushes with those credentials (Basic auth) on the Node
// engine, on each real k6 and in the final threshold push, and the password appears in no output or report.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { runLoadReported } from './fixtures/load-run.ts';
import { k6ComparisonSlots } from './runner/k6-binaries.ts';
import { parseLoadFlags } from './runner/load-options.ts';
import { enginePrometheusConfig, k6PrometheusEnv } from './runner/prometheus-output.ts';

const PASSWORD = 'Rw-s3cret-9f27';
const workDir = mkdtempSync(join(tmpdir(), 'gh-prom-cred-'));
/** Every Authorization header the receiver saw, per URL path (one path per run). */
const seen = new Map<string, string[]>();
let receiver: Server;
let base: string;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const list = seen.get(req.url ?? '') ?? [];
    list.push(req.headers.authorization ?? '(none)');
    seen.set(req.url ?? '', list);
    req.resume().on('end', () => res.writeHead(204).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  rmSync(workDir, { recursive: true, force: true });
});

describe('the URL user info of --out prometheus=URL', () => {
  it('becomes the Basic credentials of the engine and of k6, the URL given on without it', () => {
    const url = `http://prom%40user:${PASSWORD}@p:9090/api/v1/write`;
    expect(k6PrometheusEnv(url, {})).toMatchObject({
      K6_PROMETHEUS_RW_SERVER_URL: 'http://p:9090/api/v1/write',
      K6_PROMETHEUS_RW_USERNAME: 'prom@user',
      K6_PROMETHEUS_RW_PASSWORD: PASSWORD,
    });
    expect(enginePrometheusConfig(url, {})).toMatchObject({ url: 'http://p:9090/api/v1/write', username: 'prom@user', password: PASSWORD });
    // The user's own variables win.
    expect(enginePrometheusConfig(url, { K6_PROMETHEUS_RW_USERNAME: 'mine', K6_PROMETHEUS_RW_PASSWORD: 'x' })).toMatchObject({
      username: 'mine',
      password: 'x',
    });
  });
});

const ENGINES: Array<[string, string | undefined]> = [['node engine', 'node'], ...k6ComparisonSlots('load/prometheus-credentials.test.ts')];

describe.each(ENGINES)('%s', (label, engine) => {
  it.skipIf(engine === undefined)(
    'every push carries the credentials; the password is in no output nor report',
    async () => {
      const path = `/${label.replace(/\W+/g, '-')}/api/v1/write`;
      const reportDir = join(workDir, label.replace(/\W+/g, '-'));
      const flags = parseLoadFlags({
        scenario: 'catalog-browse',
        profile: 'smoke',
        engine: engine === 'node' ? 'node' : 'k6',
        api: 'v2',
        duration: '2s',
        reportDir,
        out: [`prometheus=http://rw:${PASSWORD}@${base}${path}`],
      });
      const env: NodeJS.ProcessEnv = { ...process.env, ...(engine === 'node' ? {} : { K6_BIN: engine }) };
      const r = await runLoadReported(flags, loadConfig({ cwd: workDir, env: {} }), { cwd: workDir, env });
      const pushes = seen.get(path) ?? [];
      expect(pushes.length).toBeGreaterThan(0);
      expect(new Set(pushes)).toEqual(new Set([`Basic ${Buffer.from(`rw:${PASSWORD}`).toString('base64')}`]));
      expect(r.output()).not.toContain(PASSWORD);
      for (const file of ['summary.json', 'summary.md', 'junit.xml', 'report.html'])
        expect(readFileSync(join(reportDir, file), 'utf8'), file).not.toContain(PASSWORD);
    },
    180_000,
  );
});
