// No false alarm on the status check: a gateway whose status answer keeps the outcome but not the very code of the
// original answer (the spec does not say it repeats it) passes TRG, POLL and STATUS, with a warning on the report.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import type { SandboxProfile } from '../../sandbox/profiles/types.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { selectCases } from '../plan.ts';
import { runCases } from '../runner.ts';
import { DEFAULT_SETTINGS, mergeSettings } from '../../target/settings.ts';
import { createNodeConformanceTarget, sandboxTargetConfig, timingFor } from '../target.ts';
import type { RunResult } from '../types.ts';

const TIME_SCALE = 0.04;

/** A spec-faithful variation: the status check reports a failed transaction with its own code '999'. */
const RENUMBERING: SandboxProfile = {
  name: 'status-renumbers-failures',
  description: 'The status check reports every failed transaction with code 999.',
  hooks: {
    onEnvelope(ctx) {
      if (!ctx.operationId.endsWith('.transaction.status') || ctx.httpStatus !== 200) return;
      const code = ctx.envelope.responseCode;
      if (code === '000' || code === '852') return;
      return { envelope: { responseCode: '999', responseMessage: 'Transaction failed', payLoad: null } };
    },
  },
};

let sandbox: RunningSandbox;
let result: RunResult;

beforeAll(async () => {
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: TIME_SCALE, profile: RENUMBERING });
  const config = sandboxTargetConfig(sandbox.url, TIME_SCALE);
  const settings = mergeSettings(DEFAULT_SETTINGS, { pollLoadTransactions: 9, minRequestTimeoutMs: 20_000 });
  const target = createNodeConformanceTarget(config);
  try {
    const cases = selectCases({ api: 'v2', grep: '^(TRG-(510|500|001)|STATUS-TOPUP-(510|500|001)|POLL-MIXED)-' });
    result = await runCases(cases, { target, settings, timing: timingFor(config, settings), mapping: DEFAULT_FIELD_MAPPING });
  } finally {
    await target.close();
  }
}, 60_000);

afterAll(() => sandbox?.close());

describe('a status check that keeps the outcome but not the code', () => {
  test('passes TRG, STATUS and POLL', () => {
    expect(result.cases.map((c) => c.id).sort()).toEqual([
      'POLL-MIXED-V2',
      'STATUS-TOPUP-001-V2',
      'STATUS-TOPUP-500-V2',
      'STATUS-TOPUP-510-V2',
      'TRG-001-V2',
      'TRG-500-V2',
      'TRG-510-V2',
    ]);
    expect(result.cases.filter((c) => c.status !== 'passed').map((c) => `${c.id}: ${c.failures.map((f) => f.message).join('; ')}`)).toEqual(
      [],
    );
  });

  test('and says so as a warning on every case that read it', () => {
    for (const c of result.cases) {
      const warnings = c.failures.filter((f) => f.check === 'status-code-differs');
      expect(warnings.length, c.id).toBeGreaterThan(0);
      expect(
        warnings.every((w) => w.severity === 'warning'),
        c.id,
      ).toBe(true);
    }
  });
});
