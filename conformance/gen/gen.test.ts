// Unit tests of GEN's pieces that need no target: budget, seed and replay parsing, the curl line (placeholders, never
// credentials), and one property against the embedded sandbox reporting its seed, replay and plan counts.
import { describe, expect, test } from 'vitest';
import { HarnessError } from '../../api/errors.ts';
import { curlLine } from '../../reports/curl.ts';
import { DEFAULT_GEN_BUDGET, FUZZ_GEN_BUDGET, parseGenBudget, parseGenSeed, parseReplay } from './options.ts';
import { replayCommand } from './property.ts';
import { runGenJob, genJobName, parseGenJob } from './proof-job.ts';

describe('GEN options', () => {
  test('--gen-budget takes runs or a duration; anything else is a usage error', () => {
    expect(parseGenBudget(undefined, DEFAULT_GEN_BUDGET)).toEqual(DEFAULT_GEN_BUDGET);
    expect(parseGenBudget('200', DEFAULT_GEN_BUDGET).runs).toBe(200);
    expect(parseGenBudget('90s', FUZZ_GEN_BUDGET)).toEqual({ runs: 100_000, timeLimitMs: 90_000 });
    expect(parseGenBudget('2m', FUZZ_GEN_BUDGET).timeLimitMs).toBe(120_000);
    expect(parseGenBudget('1500ms', FUZZ_GEN_BUDGET).timeLimitMs).toBe(1_500);
    for (const bad of ['0', 'ten', '5h', '-3', '50ms']) expect(() => parseGenBudget(bad, DEFAULT_GEN_BUDGET), bad).toThrow(HarnessError);
    expect(FUZZ_GEN_BUDGET.runs).toBeGreaterThan(DEFAULT_GEN_BUDGET.runs);
  });

  test('--seed and --replay', () => {
    expect(parseGenSeed('42')).toBe(42);
    expect(parseGenSeed(undefined, () => 7)).toBe(7);
    expect(() => parseGenSeed('x')).toThrow(HarnessError);
    expect(() => parseGenSeed('2147483648')).toThrow(HarnessError);
    expect(parseReplay('42:3:0:1')).toEqual({ seed: 42, path: '3:0:1' });
    expect(parseReplay('-5:0')).toEqual({ seed: -5, path: '0' });
    expect(parseReplay('5:13:2@BAi:F')).toEqual({ seed: 5, path: '13:2', commands: 'BAi:F' });
    expect(() => parseReplay('42')).toThrow(HarnessError);
    expect(replayCommand('GEN-MONEY-SEQUENCE-V2', 5, '13:2', 'BAi:F')).toBe(
      "gateway-harness fuzz --grep '^GEN-MONEY-SEQUENCE-V2 ' --replay '5:13:2@BAi:F'",
    );
    expect(replayCommand('GEN-PAGE-WALK', 42, '3:0')).toBe("gateway-harness fuzz --grep '^GEN-PAGE-WALK ' --replay 42:3:0");
  });

  test('a proof job name round-trips', () => {
    const job = { profile: 'faithful', seed: 3, runs: 5, ids: ['GEN-PAGE-WALK', 'GEN-PAGE-SIZE-OUTSIDE'] };
    expect(parseGenJob(genJobName(job))).toEqual(job);
    expect(parseGenJob(genJobName({ ...job, ids: [] })).ids).toEqual([]);
  });
});

describe('curl line', () => {
  test('credentials only as $GATEWAY_USER / $GATEWAY_PASSWORD placeholders; body and headers quoted for the shell', () => {
    const line = curlLine({
      operationId: 'v2.transaction.topup',
      method: 'POST',
      url: 'http://127.0.0.1:8080/api/v2/transaction/topup',
      headers: { Authorization: 'Basic [REDACTED]', 'Content-Type': 'application/json', 'Accept-Language': 'ar' },
      body: { correlationId: "it's", amount: 1.5 },
    });
    expect(line).toBe(
      `curl -sS -X POST -u "$GATEWAY_USER:$GATEWAY_PASSWORD" -H 'Content-Type: application/json' -H 'Accept-Language: ar' --data-raw '{"correlationId":"it'\\''s","amount":1.5}' 'http://127.0.0.1:8080/api/v2/transaction/topup'`,
    );
    expect(line).not.toMatch(/REDACTED|Basic/);
  });
});

describe('a GEN property against the embedded sandbox', () => {
  test('a planted bug is reported with the shrunk input, seed, replay and curl; its notes count the plan', async () => {
    const outcome = await runGenJob(
      genJobName({ profile: 'bug-gen-page-size-over-150', seed: 9, runs: 30, ids: ['GEN-PAGE-SIZE-OUTSIDE'] }),
    );
    const result = outcome.cases[0];
    expect(result?.status).toBe('failed');
    expect(result?.explanation).toMatch(
      /shrunk input \(\d+ shrink step\(s\), seed 9\): pageSize 151; replay: gateway-harness fuzz --grep '\^GEN-PAGE-SIZE-OUTSIDE ' --replay 9:[0-9:]+; curl: curl .*-u "\$GATEWAY_USER:\$GATEWAY_PASSWORD"/,
    );
    expect(result?.notes?.[0]).toMatch(/^GEN seed 9; budget 30 runs; \d+ generated input\(s\).*\d+ request\(s\), 0 of them charging/);
  }, 60_000);

  test('the same property passes on the faithful sandbox', async () => {
    const outcome = await runGenJob(
      genJobName({ profile: 'faithful', seed: 9, runs: 30, ids: ['GEN-PAGE-SIZE-OUTSIDE', 'GEN-TOPUP-LENGTH-V2'] }),
    );
    expect(outcome.cases.map((c) => [c.id, c.status])).toEqual([
      ['GEN-PAGE-SIZE-OUTSIDE', 'passed'],
      ['GEN-TOPUP-LENGTH-V2', 'passed'],
    ]);
    expect(outcome.cases[1]?.notes?.[0]).toMatch(/\d+ of them charging \(test money\)/);
    // Its reach: the v2 top-up's stated length rules (correlationId 1..50, operatorPin 4..6) are its space; 30 inputs reach each of them.
    const gen = outcome.cases[1]?.gen;
    expect(gen?.inputs).toBe(30);
    expect(new Set(gen?.space)).toEqual(new Set(['correlationId maxLength', 'operatorPin maxLength']));
    expect(new Set(gen?.covered)).toEqual(new Set(gen?.space));
    expect(gen?.charging).toBe(30);
  }, 60_000);
});
