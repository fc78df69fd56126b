// The Node engine measures its own threads: beside a blocked event loop a latency threshold crossed only because of it
// is incomplete (exit 1, a pass with --allow-skips), never "thresholds crossed"; a slow gateway with the generator idle
// still crosses (exit 99). Whole runs against the embedded sandbox, in-process. (Before the controller watched the
// threads' heartbeats, the blocked runs ended 99: a thread blocked for seconds reported one diluted second per block.)
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
  return parseLoadFlags({
    scenario: 'catalog-browse',
    profile: 'smoke',
    engine: 'node',
    api: 'v2',
    vus: '2',
    duration: '4s',
    threshold: [threshold],
    reportDir: join(workDir, label),
  });
}

/**
 * Every engine thread blocked 3 s of every 4 s: a request in flight when a block starts is read about 3 s late, so the
 * threshold (max < 2 s) is crossed by the blocks, and by no more than they add even while this shared box slows the
 * sandbox itself by up to two seconds. The second between blocks lets a delayed response be read before the next block
 * even on a loaded box (3 s of 3.1 s left too little: a response could wait out two blocks, 6 s, more than either
 * measured). A block starts within any 4 s of the run. (The profile's per-operation thresholds may be crossed too.)
 */
const BLOCKED: LoopBlocker = { blockMs: 3_000, everyMs: 4_000 };
const THRESHOLD = 'http_req_duration:max<2000';

describe('the Node engine beside its own saturated event loop', () => {
  const config = loadConfig({ cwd: workDir, env: {} });
  const blocked = { cwd: workDir, env: process.env, engineWorkers: 1, engineHostModules: [{ module: LOOP_BLOCKER_MODULE, data: BLOCKED }] };

  it(
    'a latency threshold crossed only because of it is incomplete (exit 1), with the window and the measured delay',
    async () => {
      const r = await runLoadReported(flags('blocked', THRESHOLD), config, blocked);
      const load = r.report.load;
      expect(
        load?.thresholds.find((t) => t.metric === 'http_req_duration'),
        r.output(),
      ).toMatchObject({ ok: false });
      const measured = JSON.stringify({ generator: load?.generator, thresholds: load?.thresholds.filter((t) => !t.ok) });
      expect(load?.generator, measured).toMatchObject({
        source: 'node',
        latencyBound: expect.arrayContaining(['http_req_duration max<2000']),
      });
      // The blocks are measured while they last (the controller sees the threads' missed heartbeats), not only by the
      // threads' own late figures: a window peaks above two seconds. (A shorter window of a loaded box may come first.)
      expect(Math.max(...(load?.generator?.windows ?? []).map((w) => w.peakLoopDelayP99Ms ?? 0))).toBeGreaterThan(2000);
      expect(r.report).toMatchObject({ verdict: 'incomplete', exitCode: 1 });
      expect(r.exitCode).toBe(1);
      expect(r.report.verdictLine).toMatch(
        /^INCOMPLETE: load catalog-browse\/smoke \(node\): incomplete: the load generator was saturated \(\d\d:\d\d:\d\d–\d\d:\d\d:\d\d UTC, event-loop delay p99 \d+ ms.*\d+ latency thresholds? crossed then measured the generator, not the gateway/,
      );
    },
    RUN_TIMEOUT_MS,
  );

  it(
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
      const r = await runLoadReported(flags('slow', 'http_req_duration:p(95)<5'), config, {
        cwd: workDir,
        env: process.env,
        engineWorkers: 1,
      });
      expect(r.report.load?.generator, r.output()).toMatchObject({ source: 'node' });
      expect(r.report.load?.generator?.latencyBound).toBeUndefined();
      expect(r.report).toMatchObject({ verdict: 'thresholds', exitCode: 99 });
      expect(r.exitCode).toBe(99);
    },
    RUN_TIMEOUT_MS,
  );
});
