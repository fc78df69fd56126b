// #31: the gate's drift part reads and writes the target too, so a fault among its answers is one the target served:
// the report's fault tally counts it with conformance's and the load's. A relay answers HTTP 503 to a few drift requests.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { answer503, startRelay, type Relay } from '../scripts/fixtures/relay.ts';
import { gateChangedAtDrift } from './fixtures/gate-at-drift.ts';

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
    return answer503(response);
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
  // Nothing faulted before the drift part: whatever the report counts, the drift part's requests were answered with.
  const { outcome, printed } = await gateChangedAtDrift(dir, relay.url, () => relay.faultNow());
  expect(relay.served(), `the drift part sent too few requests to fault:\n${printed}`).toBe(FAULTS);
  expect(outcome.report.drift, printed).toBeDefined();
  // Timeouts are conformance's own (its trigger cases wait out the client's timeout on purpose), not the relay's.
  expect(outcome.report.faults).toMatchObject({ 'server-error': FAULTS, connection: 0, malformed: 0 });
}, 400_000);
