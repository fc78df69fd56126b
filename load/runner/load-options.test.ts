// The k6-worded load flags on the Node side: -e KEY=VALUE (the script's __ENV, never the harness's own settings),
// -i/--iterations and --summary-export, validated before anything starts.
import { describe, expect, it } from 'vitest';
import { runEnvironment } from '../run-settings.ts';
import { parseLoadFlags } from './load-options.ts';

const base = { scenario: 'lookup', profile: 'smoke', engine: 'node', api: 'both' };

describe('-e/--env-var, -i/--iterations, --summary-export', () => {
  it('-e KEY=VALUE values become the script variables (the last one of a key wins; values may hold =)', () => {
    expect(parseLoadFlags({ ...base, envVar: ['A=1', 'URL=http://x/?a=b', 'A=2', 'EMPTY='] }).envVars).toEqual({
      A: '2',
      URL: 'http://x/?a=b',
      EMPTY: '',
    });
    expect(parseLoadFlags(base).envVars).toBeUndefined();
  });

  it.each<[string, RegExp]>([
    ['NOEQUALS', /-e\/--env-var takes KEY=VALUE \(got "NOEQUALS"\)/],
    ['1A=x', /-e\/--env-var takes KEY=VALUE/],
    ['GATEWAY_BASE_URL=http://x', /-e GATEWAY_BASE_URL: GATEWAY_\* and K6_\* variables are the harness's own settings/],
    ['K6_VUS=3', /-e K6_VUS: GATEWAY_\* and K6_\*/],
  ])('-e %s is refused', (value, message) => {
    expect(() => parseLoadFlags({ ...base, envVar: [value] })).toThrow(message);
  });

  it('-i/--iterations: a whole number, the smoke profile only, reaching the bundle as GATEWAY_LOAD_ITERATIONS', () => {
    const flags = parseLoadFlags({ ...base, iterations: '25' });
    expect(flags.iterations).toBe(25);
    expect(() => parseLoadFlags({ ...base, iterations: '0' })).toThrow(/--iterations must be at least 1/);
    expect(() => parseLoadFlags({ ...base, profile: 'load', iterations: '5' })).toThrow(/--iterations applies to the iteration profiles/);
    const env = runEnvironment({
      baseUrl: 'http://x',
      user: 'u',
      password: 'p',
      environment: 'sandbox',
      timeScale: 1,
      profile: 'smoke',
      api: 'both',
      iterations: 25,
      config: {},
      targetLabel: 'x',
      runId: 'r',
      reportDir: 'd',
    });
    expect(env.GATEWAY_LOAD_ITERATIONS).toBe('25');
  });

  it('--summary-export names a file', () => {
    expect(parseLoadFlags({ ...base, summaryExport: 'out/summary.json' }).summaryExport).toBe('out/summary.json');
  });
});
