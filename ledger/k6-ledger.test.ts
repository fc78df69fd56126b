// The ledger on a real k6 (each k6 found: K6_BIN or PATH, and k6-latest beside it), against a sandbox in production
// mode with a cap: every charging request the sandbox received has its ledger line, written before the request arrived
// (the line's time is before the sandbox recorded the transaction), with its outcome; ledger lines are not echoed,
// the rest of k6's output is. Skipped, saying so, without a k6.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findK6, findLatestK6 } from '../load/engine-select.ts';
import { cappedProduction, productionConfig, runLoadReported, smokeTopupFlags } from '../load/fixtures/load-run.ts';
import { startSandbox } from '../sandbox/server.ts';
import { CONSOLE_PREFIX, LEDGER_FILE } from './entry.ts';
import { K6_SPOOL_FILE } from './k6-spool.ts';
import { readLedger } from './ledger-file.ts';
import { foldLedger } from './ledger-state.ts';

const first = findK6(process.env);
const latest = findLatestK6(process.env, first);
const binaries = [first?.path, latest].filter((p): p is string => p !== undefined);
if (binaries.length === 0)
  console.warn('ledger/k6-ledger.test.ts: no k6 found (set K6_BIN or put k6 on PATH): the real-k6 ledger capture is SKIPPED');

const dir = mkdtempSync(join(tmpdir(), 'gh-k6-ledger-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const version = (path: string): string =>
  /v\d+\.\d+\.\d+/.exec(execFileSync(path, ['version'], { encoding: 'utf8', env: { ...process.env, K6_NO_USAGE_REPORT: 'true' } }))?.[0] ??
  path;

describe.skipIf(binaries.length === 0)('the ledger on a real k6', () => {
  it.each(binaries.map((path) => [version(path), path]))(
    '%s: every charging request has its line, written before it arrived',
    async (_label, k6) => {
      const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01, mode: 'production', funds: 100_000 });
      try {
        const reportDir = join(dir, _label);
        const outcome = await runLoadReported(
          smokeTopupFlags({ engine: 'k6', api: 'both', duration: '3s', reportDir }),
          productionConfig(dir, sandbox.url),
          { cwd: dir, env: { ...process.env, K6_BIN: k6 } },
          cappedProduction(1_000),
        );
        const output = outcome.output();
        expect(outcome.run.summaryData, output).toBeDefined();
        const transactions = foldLedger(readLedger(join(reportDir, LEDGER_FILE)).lines);
        expect(transactions.length, output).toBeGreaterThan(0);
        expect(transactions.length).toBe(sandbox.app.stats.snapshot().chargingRequests);
        for (const t of transactions) {
          const stored = sandbox.app.store.byCorrelationId(t.request.correlationId as string);
          expect(stored, `${t.request.correlationId} reached the sandbox`).toBeDefined();
          // k6 wrote the line (its clock) before it sent the request the sandbox recorded (the same machine's clock).
          expect(t.request.sentAt).toBeLessThanOrEqual(stored?.createdAt ?? 0);
          expect(t.outcome?.final).toBe(true);
        }
        // Ledger lines went to the ledger, not to the user's terminal; k6's own output did.
        expect(output).not.toContain(CONSOLE_PREFIX.trim());
        expect(output).toMatch(/running \(/);
        expect(readFileSync(join(reportDir, K6_SPOOL_FILE), 'utf8')).toContain(CONSOLE_PREFIX.trim());
      } finally {
        await sandbox.close();
      }
    },
    120_000,
  );
});
