// Issue #32, the small findings: the dashboard answers only its own Host (DNS rebinding) and a busy --dashboard port is
// a usage error; --rate and --deadline say their real bounds; merge-results bounds a line and names the file.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../api/errors.ts';
import { MAX_LINE_CHARS } from '../../distributed/merge/input.ts';
import { startLiveDashboard } from '../../load/runner/live-dashboard.ts';
import { parseLoadFlags } from '../../load/runner/load-options.ts';
import { blankGatewayEnvEachTest, runCli } from '../fixtures/run-cli.ts';

blankGatewayEnvEachTest();
const meta = { title: 'load lookup/smoke', runId: 'run-1' };

describe('the live dashboard', () => {
  it('answers its own address and localhost, and refuses any other Host (421)', async () => {
    const dashboard = await startLiveDashboard({ port: 0, ndjsonPath: '/nonexistent/metrics.ndjson', meta });
    try {
      const port = new URL(dashboard.url).port;
      const status = async (host: string): Promise<number> => (await request(dashboard.url, { headers: { host } })).statusCode;
      expect(await status(`127.0.0.1:${port}`)).toBe(200);
      expect(await status(`localhost:${port}`)).toBe(200);
      expect(await status('attacker.example')).toBe(421);
      expect(await status(`attacker.example:${port}`)).toBe(421);
    } finally {
      await dashboard.finish(undefined);
    }
  });

  it('a busy port is a usage error (exit 2) naming the port', async () => {
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as AddressInfo).port;
    try {
      const error = await startLiveDashboard({ port, ndjsonPath: '/nonexistent/metrics.ndjson', meta }).then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(HarnessError);
      expect(error).toMatchObject({
        code: 'GH_ERR_USAGE',
        exitCode: 2,
        message: expect.stringContaining(`--dashboard ${port}: the port is in use`),
      });
    } finally {
      await new Promise<void>((resolve) => busy.close(() => resolve()));
    }
  });
});

describe('flags say their real bounds', () => {
  it('--rate 1e9: at most 100000, not "must be a positive number"', () => {
    expect(() => parseLoadFlags({ scenario: 'lookup', profile: 'load', engine: 'node', api: 'both', rate: '1e9' })).toThrow(
      /--rate must be a decimal number greater than 0 and at most 100000/,
    );
  });

  it('reconcile --deadline 99999999999: at most 9999999 seconds', async () => {
    const result = await runCli(['reconcile', '/nonexistent/ledger.jsonl', '--deadline', '99999999999']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--deadline must be a number of seconds greater than 0 and at most 9999999/);
  });
});

describe('merge-results on a gzip bomb', () => {
  it('one endless line: the file is named and the line bounded, no "Invalid string length" crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-bomb-'));
    try {
      const bomb = join(dir, 'bomb.ndjson.gz');
      writeFileSync(bomb, gzipSync(Buffer.alloc(8 * MAX_LINE_CHARS, 'a')));
      const plan = join(dir, 'plan.json');
      writeFileSync(
        plan,
        JSON.stringify({
          schema: 'gateway-harness/distributed-run/1',
          run: { scenario: 'mixed', profile: 'load', api: 'both', target: 'https://gw.example.test' },
          thresholds: { iterations: ['count>0'] },
        }),
      );
      const result = await runCli(['merge-results', bomb, '--thresholds', plan, '--report-dir', join(dir, 'report')]);
      expect(result.code).not.toBe(0);
      expect(result.output).toContain(bomb);
      expect(result.output).toContain(`a line longer than ${MAX_LINE_CHARS} characters: not k6 NDJSON`);
      expect(result.output).not.toMatch(/Invalid string length|GH_ERR_INTERNAL/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
