// A load run on a real k6 (the first found: K6_BIN or PATH) against the sandbox's mixed faults: it ends with a verdict,
// every fault the sandbox served is counted in the report (summary.json `faults`) under the kind the client saw, and the ledger (kept through
// k6's spooled stderr) accounts for every charging request. Skipped, saying so, without a k6.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/load-config.ts';
import { findK6 } from '../load/engine-select.ts';
import { parseLoadFlags } from '../load/runner/load-options.ts';
import { startSandbox } from '../sandbox/server.ts';
import { expectFaultsCounted, expectLedgerAccountedFor } from './fixtures/fault-runs.ts';
import { runLoadReported } from '../load/fixtures/load-run.ts';

const k6 = findK6(process.env);
if (k6 === undefined)
  console.warn('ledger/faults-k6.test.ts: no k6 found (set K6_BIN or put k6 on PATH): the real-k6 fault run is SKIPPED');
const dir = mkdtempSync(join(tmpdir(), 'gh-faults-k6-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(k6 === undefined)('load (topup-flow) on a real k6 against faults-mixed', () => {
  it('survives, counts every fault as what the client saw, and accounts for every charging request in the ledger', async () => {
    const sandbox = await startSandbox({
      host: '127.0.0.1',
      port: 0,
      timeScale: 0.1,
      profile: 'faults-mixed',
      faultRate: 0.3,
      faultSlowMs: 80_000,
      funds: 1_000_000,
    });
    try {
      const reportDir = join(dir, 'mixed');
      const flags = parseLoadFlags({ scenario: 'topup-flow', profile: 'smoke', engine: 'k6', api: 'both', vus: '4', reportDir });
      const config = loadConfig({ cwd: dir, env: { GATEWAY_BASE_URL: sandbox.url, GATEWAY_TIME_SCALE: '0.1' } });
      const outcome = await runLoadReported(
        flags,
        config,
        { cwd: dir, env: { ...process.env, K6_BIN: k6?.path } },
        { environment: 'sandbox', allowCharges: false, ledger: true },
      );
      expect([0, 1, 99], outcome.output()).toContain(outcome.exitCode);
      expectFaultsCounted(outcome.report.faults ?? {}, sandbox.app.stats.snapshot(), 'faults-mixed');
      expectLedgerAccountedFor(reportDir, sandbox.app.stats.snapshot().chargingRequests);
    } finally {
      await sandbox.close();
    }
  }, 180_000);
});
