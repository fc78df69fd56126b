// The Node engine measures its own threads: beside a blocked event loop a latency threshold crossed only because of it
// is incomplete (exit 1, a pass with --allow-skips), never "thresholds crossed"; a slow gateway with the generator idle
// still crosses (exit 99). Whole runs against the embedded sandbox, in-process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { LOOP_BLOCKER_MODULE, type LoopBlocker } from './fixtures/loop-blocker.ts';
import { runLoadReported } from './fixtures/load-run.ts';
import { parseLoadFlags } from './runner/load-options.ts';

const workDir = mkdtempSync(join(tmpdir(), 'gh-generator-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

const RUN_TIMEOUT_MS = 120_000;

function flags(label: string, threshold: string) {
  return parseLoadFlags({ scenario: 'catalog-browse', profile: 'smoke', engine: 'node', api: 'v2', vus: '2', duration: '4s', threshold: [threshold], reportDir: join(workDir, label) });
}

/**
 * Every engine thread blocked 3 s of every 3.1 s: a request in flight when a block starts is read about 3 s late, so the
 * threshold (max < 2 s) is crossed by the blocks, and by no more than they add even while this shared box slows the
 * sandbox itself by up to two seconds. (The profile's own per-operation thresholds may be crossed by them too.)
 */
const BLOCKED: LoopBlocker = { blockMs: 3_000, everyMs: 3_100 };
const THRESHOLD = 'http_req_duration:max<2000';

describe('the Node engine beside its own saturated event loop', () => {
  const config = loadConfig({ cwd: workDir, env: {} });
  const blocked = { cwd: workDir, env: process.env, engineWorkers: 1, engineHostModules: [{ module: LOOP_BLOCKER_MODULE, data: BLOCKED }] };

  // KNOWN DEFECT (#36, open): with every engine thread blocked 3 s of 3.1 s, no per-second loop figure reaches the
  // report, so no saturated window is found and the run ends 99 (seen on the merged tree and on the saturation branch
  // alike, on an idle box). Skipped, not passed: the reclassification has no end-to-end proof until that is fixed.
  it.skip(
    'a latency threshold crossed only because of it is incomplete (exit 1), with the window and the measured delay',
    async () => {
      const r = await runLoadReported(flags('blocked', THRESHOLD), config, blocked);
      const load = r.report.load;
      expect(load?.thresholds.find((t) => t.metric === 'http_req_duration'), r.output()).toMatchObject({ ok: false });
      expect(load?.generator).toMatchObject({ source: 'node', latencyBound: expect.arrayContaining(['http_req_duration max<2000']) });
      expect(load?.generator?.windows[0]?.peakLoopDelayP99Ms).toBeGreaterThan(2000);
      expect(r.report).toMatchObject({ verdict: 'incomplete', exitCode: 1 });
      expect(r.exitCode).toBe(1);
      expect(r.report.verdictLine).toMatch(/^INCOMPLETE: load catalog-browse\/smoke \(node\): incomplete: the load generator was saturated \(\d\d:\d\d:\d\d–\d\d:\d\d:\d\d UTC, event-loop delay p99 \d+ ms.*\d+ latency thresholds? crossed then measured the generator, not the gateway/);
    },
    RUN_TIMEOUT_MS,
  );

  // KNOWN DEFECT (#36, open): with every engine thread blocked 3 s of 3.1 s, no per-second loop figure reaches the
  // report, so no saturated window is found and the run ends 99 (seen on the merged tree and on the saturation branch
  // alike, on an idle box). Skipped, not passed: the reclassification has no end-to-end proof until that is fixed.
  it.skip(
    'with --allow-skips the run passes, and says what it accepted',
    async () => {
      const r = await runLoadReported(flags('blocked-allowed', THRESHOLD), config, blocked, undefined, { allowSkips: true });
      expect(r.report, r.output()).toMatchObject({ verdict: 'pass', exitCode: 0, allowSkips: true });
      expect(r.exitCode).toBe(0);
      expect(r.report.verdictLine).toMatch(/^PASS: .*the load generator was saturated .*\(accepted with --allow-skips\)/);
    },
    RUN_TIMEOUT_MS,
  );
});

describe('a slow gateway beside an idle generator', () => {
  it(
    'still crosses its latency threshold (exit 99): more than the generator can have added',
    async () => {
      const base = loadConfig({ cwd: workDir, env: { GATEWAY_TIME_SCALE: '0.2' } });
      // benign-latency: every response 1-5 s x time scale (200-1000 ms here); the engine threads run free.
      const config = { ...base, sandbox: { ...base.sandbox, profile: 'benign-latency' } };
      const r = await runLoadReported(flags('slow', 'http_req_duration:p(95)<5'), config, { cwd: workDir, env: process.env, engineWorkers: 1 });
      expect(r.report.load?.generator, r.output()).toMatchObject({ source: 'node' });
      expect(r.report.load?.generator?.latencyBound).toBeUndefined();
      expect(r.report).toMatchObject({ verdict: 'thresholds', exitCode: 99 });
      expect(r.exitCode).toBe(99);
    },
    RUN_TIMEOUT_MS,
  );
});
