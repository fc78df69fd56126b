// #31: the gate's drift part reads and writes the target too, so a fault among its answers is one the target served:
// the report's fault tally counts it with conformance's and the load's. A relay answers HTTP 503 to a few drift requests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { readBaseline } from '../drift/baseline-files.ts';
import { recordBaseline } from '../drift/run.ts';
import { createProgress, type Progress } from '../reports/progress.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { answer503, startRelay, type Relay } from '../scripts/fixtures/relay.ts';
import { openTargetSession } from '../target/session.ts';
import { DEFAULT_SETTINGS } from '../target/settings.ts';
import { runGate } from './run-gate.ts';

/** Faults served once `faultNow()` is called: every 4th request other than a balance read, FAULTS of them in all. */
const FAULTS = 3;

interface FaultingRelay extends Relay {
  served(): number;
  faultNow(): void;
}

async function startFaultingRelay(upstream: string): Promise<FaultingRelay> {
  let faulting = false;
  let seen = 0;
  let served = 0;
  const relay = await startRelay(upstream, (request, response) => {
    const balance = /\/account\/balance(\?|$)/.test(request.url ?? '');
    if (!faulting || balance || served >= FAULTS || (seen += 1) % 4 !== 0) return false;
    served += 1;
    return answer503(request, response);
  });
  return { ...relay, served: () => served, faultNow: () => void (faulting = true) };
}

const dir = mkdtempSync(join(tmpdir(), 'gh-gate-drift-faults-'));
let upstream: RunningSandbox;
let relay: FaultingRelay;

beforeAll(async () => {
  upstream = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, funds: 1_000_000 });
  relay = await startFaultingRelay(upstream.url);
}, 60_000);
afterAll(async () => {
  await relay.close();
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

it("HTTP 5xx answers to the drift part's requests are counted in the gate's report", async () => {
  const config = loadConfig({ cwd: dir, env: { GATEWAY_BASE_URL: relay.url, GATEWAY_TIME_SCALE: '0.01' } });
  const session = await openTargetSession(config, { settings: DEFAULT_SETTINGS });
  try {
    await recordBaseline(session, join(dir, 'baseline'));
  } finally {
    await session.close();
  }
  let printed = '';
  const shown = createProgress({ stream: { write: (text: string) => void (printed += text) }, tty: false });
  // Nothing faulted before the drift part: whatever the report counts, the drift part's requests were answered with.
  const progress: Progress = {
    start: (task) => {
      if ((typeof task === 'string' ? task : task.label) === 'drift') relay.faultNow();
      return shown.start(task);
    },
    line: (text) => shown.line(text),
    done: () => shown.done(),
  };
  const outcome = await runGate({
    runId: 'drift-faults',
    reportDir: join(dir, 'report'),
    config,
    api: 'v2',
    allowSkips: false,
    profile: 'faithful',
    seed: 1,
    settings: DEFAULT_SETTINGS,
    gen: { seed: 1, budget: { runs: 2 } },
    baselineDir: join(dir, 'baseline'),
    baseline: readBaseline(join(dir, 'baseline')),
    engine: 'node',
    secrets: [],
    progress,
    cwd: dir,
    env: process.env,
  });
  progress.done();
  expect(relay.served(), `the drift part sent too few requests to fault:\n${printed}`).toBe(FAULTS);
  expect(outcome.report.drift, printed).toBeDefined();
  // Timeouts are conformance's own (its trigger cases wait out the client's timeout on purpose), not the relay's.
  expect(outcome.report.faults).toMatchObject({ 'server-error': FAULTS, connection: 0, malformed: 0 });
}, 400_000);
