// Load runs survive the sandbox's fault profiles: each run ends with a verdict (no crash, no unhandled rejection), every
// fault the sandbox served is counted in the report (summary.json `faults`) under the kind the client saw (never as a success), and the ledger
// of charging requests ends with every entry final or listed as unresolved. The Node engine here; k6 in faults-k6.test.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { parseLoadFlags } from '../load/runner/load-options.ts';
import { startSandbox } from '../sandbox/server.ts';
import { expectFaultsCounted, expectLedgerAccountedFor, watchUnhandled } from './fixtures/fault-runs.ts';
import { runLoadReported } from '../load/fixtures/load-run.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-faults-load-'));
const unhandled = watchUnhandled();
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
  unhandled.stop();
});

/** Every fault profile: the kind-specific ones with a fast scenario, the mixed ones with the broadest (slow faults cost a client timeout each). */
const RUNS: ReadonlyArray<[profile: string, scenario: string, vus: string]> = [
  ['faults-reset', 'topup-flow', '4'],
  ['faults-5xx', 'topup-flow', '4'],
  ['faults-malformed', 'topup-flow', '4'],
  ['faults-truncate', 'topup-flow', '4'],
  ['faults-slow', 'topup-flow', '4'],
  ['faults-late', 'topup-flow', '4'],
  ['faults-status', 'topup-flow', '4'],
  ['faults-mixed', 'mixed', '8'],
];

// Concurrent: the runs mostly wait out client timeouts, so they overlap well even on two cores.
describe.concurrent('load on the Node engine against every fault profile', () => {
  it.each(RUNS)(
    '%s (%s): survived, every fault counted as what the client saw, the ledger accounted for',
    async (profile, scenario, vus) => {
      // Time scale 0.1: a slow or late answer (80 s × 0.1 = 8 s) outlasts the client's 5 s response floor by a margin a
      // busy machine keeps, and stays within the service-side timeout (12 s), as the spec has it.
      const sandbox = await startSandbox({
        host: '127.0.0.1',
        port: 0,
        timeScale: 0.1,
        profile,
        faultRate: 0.3,
        faultSlowMs: 80_000,
        funds: 1_000_000,
      });
      try {
        const reportDir = join(dir, profile);
        const flags = parseLoadFlags({ scenario, profile: 'smoke', engine: 'node', api: 'both', vus, reportDir });
        const config = loadConfig({ cwd: dir, env: { GATEWAY_BASE_URL: sandbox.url, GATEWAY_TIME_SCALE: '0.1' } });
        const outcome = await runLoadReported(
          flags,
          config,
          { cwd: dir, env: { ...process.env } },
          { environment: 'sandbox', allowCharges: false, ledger: true },
        );
        // A verdict, not a crash: pass, a failed check or crossed thresholds; never a script error or an unusable target.
        expect([0, 1, 99], outcome.output()).toContain(outcome.exitCode);
        expectFaultsCounted(outcome.report.faults ?? {}, sandbox.app.stats.snapshot(), profile);
        expectLedgerAccountedFor(reportDir, sandbox.app.stats.snapshot().chargingRequests);
        expect(unhandled.seen()).toEqual([]);
      } finally {
        await sandbox.close();
      }
    },
    120_000,
  );
});
