// The Node side of a load run: exit codes (k6's passed through, the report's verdict on 0), the k6 command line (no
// `-e`, no credential) and its environment (harness defaults that never override the user's own settings).
import { describe, expect, it } from 'vitest';
import { K6_DEFAULT_ENV, k6Arguments, k6Environment } from './k6-process.ts';
import { exitCodeOf, insideReportDir } from './run-load.ts';

type Report = { verdict: string; exitCode: number };
const summary = (exitCode: number, verdict = 'pass'): Report => ({ exitCode, verdict });

describe('exitCodeOf', () => {
  it.each<[number, Report | undefined, number, string]>([
    [0, summary(0), 0, 'k6 passed and the summary agrees'],
    [0, summary(1), 1, 'k6 passed but a threshold had no samples (incomplete)'],
    [99, summary(99), 99, 'thresholds crossed'],
    [99, summary(1, 'incomplete'), 1, 'a latency threshold crossed while the load generator was saturated: the report says incomplete'],
    [99, summary(0), 0, 'the same, accepted with --allow-skips'],
    [99, undefined, 99, 'thresholds crossed, no summary to judge them'],
    [99, summary(1, 'fail'), 99, 'thresholds crossed and a check failed: still 99, as before'],
    [107, undefined, 107, 'script error, passed through'],
    [108, summary(0), 108, 'k6 setup/teardown error, passed through'],
    [0, undefined, 1, 'no summary data written'],
    [255, summary(2, 'unusable'), 2, 'setup could not use the target (k6 exits 255 for a rejected async setup): exit 2'],
  ])('k6 %i with summary exit %j → %i (%s)', (k6Exit, s, expected) => {
    expect(exitCodeOf(k6Exit, s)).toBe(expected);
  });
});

describe('the k6 child process', () => {
  it('gets its settings and credentials through the environment, never as -e flags', () => {
    const args = k6Arguments({ bundle: '/x/topup-flow.js', outJson: '/x/metrics.ndjson' });
    expect(args).toEqual(['run', '--include-system-env-vars', '--out', 'json=/x/metrics.ndjson', '/x/topup-flow.js']);
    expect(args.some((a) => a === '-e' || a.startsWith('--env'))).toBe(false);
    const env = k6Environment({ PATH: '/bin' }, { GATEWAY_PASSWORD: 'pw', GATEWAY_BASE_URL: 'http://127.0.0.1:1' });
    expect(env).toMatchObject({ PATH: '/bin', GATEWAY_PASSWORD: 'pw', GATEWAY_BASE_URL: 'http://127.0.0.1:1', ...K6_DEFAULT_ENV });
  });

  it("keeps the user's own k6 settings over the harness defaults, and the run's settings over an inherited shell", () => {
    const env = k6Environment({ K6_NO_USAGE_REPORT: 'false', GATEWAY_LOAD_VUS: '500' }, { GATEWAY_LOAD_VUS: '' });
    expect(env.K6_NO_USAGE_REPORT).toBe('false');
    expect(env.GATEWAY_LOAD_VUS).toBe('');
    expect(env.K6_NEW_MACHINE_READABLE_SUMMARY).toBe('false');
  });
});

describe('insideReportDir', () => {
  it('names a file by its path inside the report directory, and nothing outside it', () => {
    expect(insideReportDir('/r/run1', '/r/run1/metrics.ndjson.gz')).toBe('metrics.ndjson.gz');
    expect(insideReportDir('/r/run1', '/r/other/metrics.ndjson')).toBeUndefined();
    expect(insideReportDir('/r/run1', '/r/run1')).toBeUndefined();
  });
});
