// LOAN-TWO-STEP spends at most its limit (settings.loanSpendLimit, what the money plan prices it at): a loan top-up
// that would cost more is not sent, and the case is not verified with the reason, never failed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { DEFAULT_SETTINGS, mergeSettings } from '../../target/settings.ts';
import { runCases } from '../runner.ts';
import { createNodeConformanceTarget, sandboxTargetConfig, timingFor } from '../target.ts';
import { LOAN_CASES } from './loan.ts';

const TIME_SCALE = 0.01;

describe('LOAN-TWO-STEP within its spend limit', () => {
  // A fresh sandbox each: a paid loan leaves its number without dues.
  let sandbox: RunningSandbox;
  beforeEach(async () => {
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: TIME_SCALE, profile: 'faithful' });
  });
  afterEach(async () => {
    await sandbox?.close();
  });

  async function runLoan(limit?: number) {
    const config = sandboxTargetConfig(sandbox.url, TIME_SCALE);
    const settings = mergeSettings(DEFAULT_SETTINGS, {
      loanNumbers: [...sandbox.app.data.samples.loanNumbers],
      minRequestTimeoutMs: 30_000,
      ...(limit === undefined ? {} : { loanSpendLimit: limit }),
    });
    const target = createNodeConformanceTarget(config);
    const before = sandbox.app.store.availableFunds;
    try {
      const run = await runCases(LOAN_CASES, { target, settings, timing: timingFor(config, settings), mapping: DEFAULT_FIELD_MAPPING });
      return { result: run.cases[0], spent: before - sandbox.app.store.availableFunds };
    } finally {
      await target.close();
    }
  }

  it('the default limit covers the sandbox loan: the case passes and spends no more than the limit', async () => {
    const { result, spent } = await runLoan();
    expect(result?.status).toBe('passed');
    expect(spent).toBeGreaterThan(0);
    expect(spent).toBeLessThanOrEqual(DEFAULT_SETTINGS.loanSpendLimit);
  }, 120_000);

  it('a loan over the limit: not sent, not verified naming the setting (never FAIL); the wallet does not move', async () => {
    const { result, spent } = await runLoan(1);
    expect(result?.status).toBe('skipped');
    expect(result?.skipReason).toMatch(/the loan top-up \(.*\) was not sent: it is over settings\.loanSpendLimit \(1\)/);
    expect(spent).toBe(0);
  }, 120_000);
});
