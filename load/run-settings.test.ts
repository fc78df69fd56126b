// The environment contract between the CLI and the bundles: what the CLI encodes the bundle decodes, bad values are
// one-line config errors, and the credentials travel only in their own variables.
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { CONFIG_DEFAULTS } from '../api/target-config.ts';
import { DEFAULT_LOAD_DATA, LOAD_ENV, readRunSettings, runEnvironment, type RunEnvironmentInput } from './run-settings.ts';

const input: RunEnvironmentInput = {
  baseUrl: 'http://127.0.0.1:4000',
  user: 'agent-7',
  password: 's3cret-pw',
  environment: 'sandbox',
  timeScale: 0.01,
  profile: 'load',
  api: 'v2',
  vus: 7,
  duration: '2m',
  rate: 2.5,
  thresholds: { gateway_failed: ['rate<0.5'] },
  config: {
    timeouts: CONFIG_DEFAULTS.timeouts,
    poll: { ...CONFIG_DEFAULTS.poll, maxAttempts: 9 },
    writePaths: { 'v2.transaction.pin': '/api/v2/pins' },
    fieldMapping: DEFAULT_FIELD_MAPPING,
  },
  targetLabel: 'embedded sandbox',
  runId: 'run-1',
  reportDir: '/tmp/out',
};

describe('run settings', () => {
  it('decode what the CLI encoded', () => {
    const settings = readRunSettings(runEnvironment(input));
    expect(settings).toMatchObject({
      target: {
        baseUrl: 'http://127.0.0.1:4000',
        user: 'agent-7',
        password: 's3cret-pw',
        writePaths: { 'v2.transaction.pin': '/api/v2/pins' },
      },
      environment: 'sandbox',
      timeScale: 0.01,
      profile: 'load',
      api: 'v2',
      overrides: { vus: 7, durationSec: 120, rate: 2.5 },
      thresholdOverrides: { gateway_failed: ['rate<0.5'] },
      schemaChecks: true,
      measureChecks: false,
      reportDir: '/tmp/out',
      runId: 'run-1',
      status: { serviceTimeoutMs: 1200, notFoundCodes: ['027'], maxAttempts: 9 },
    });
  });

  it("carry the gift card cursor meaning (paging.giftcardCursor): the spec's definition unless the config names one; a bad one is refused", () => {
    expect(readRunSettings(runEnvironment(input)).giftcardCursor).toBe('spec');
    expect(
      readRunSettings(runEnvironment({ ...input, config: { ...input.config, paging: { giftcardCursor: 'last-of-page' } } })).giftcardCursor,
    ).toBe('last-of-page');
    const bad = runEnvironment({ ...input, config: { ...input.config, paging: { giftcardCursor: 'offset' as never } } });
    expect(() => readRunSettings(bad)).toThrow(/paging\.giftcardCursor must be one of spec, next-start, last-of-page, page-count/);
  });

  it('keep the credentials out of every variable but their own', () => {
    const env = runEnvironment(input);
    for (const [name, value] of Object.entries(env)) {
      if (name === LOAD_ENV.password) continue;
      expect(value, name).not.toContain('s3cret-pw');
    }
  });

  it('clear overrides that were not given, so a value left in the shell cannot leak into the run', () => {
    const env = runEnvironment({ ...input, vus: undefined, duration: undefined, rate: undefined, thresholds: {} });
    expect([env[LOAD_ENV.vus], env[LOAD_ENV.duration], env[LOAD_ENV.rate], env[LOAD_ENV.thresholds]]).toEqual(['', '', '', '']);
    expect(readRunSettings(env).overrides).toEqual({});
  });

  it('give a fast time scale real-time floors: the response timeout and the polling slack', () => {
    const { timings } = readRunSettings(runEnvironment(input));
    // 30 s × 0.01 = 300 ms would call a busy machine's slow answer "timed out"; 180 s × 0.01 + 5 s slack.
    expect(timings.responseTimeoutMs).toBe(DEFAULT_LOAD_DATA.minResponseTimeoutMs);
    expect(timings.pollDeadlineMs).toBe(1_800 + DEFAULT_LOAD_DATA.pollSlackMs);
    expect(timings.pollIntervalMs).toBe(50);
  });

  it('default to a smoke run on both versions when only the target is given (a direct `k6 run`)', () => {
    const settings = readRunSettings({ GATEWAY_BASE_URL: 'http://127.0.0.1:1' });
    expect(settings).toMatchObject({
      profile: 'smoke',
      api: 'both',
      environment: 'sandbox',
      timeScale: 1,
      reportDir: '',
      target: { user: 'user', password: 'pass' },
    });
  });

  it.each([
    ['no target', {}, /GATEWAY_BASE_URL is not set/],
    ['credentials in the URL', { GATEWAY_BASE_URL: 'http://u:p@host' }, /without credentials/],
    ['unknown profile', { GATEWAY_LOAD_PROFILE: 'heavy' }, /unknown profile "heavy"/],
    ['bad api', { GATEWAY_LOAD_API: 'v3' }, /GATEWAY_LOAD_API must be v1, v2 or both/],
    ['bad vus', { GATEWAY_LOAD_VUS: '2.5' }, /GATEWAY_LOAD_VUS must be a whole number > 0/],
    ['bad duration', { GATEWAY_LOAD_DURATION: 'soon' }, /GATEWAY_LOAD_DURATION must be a k6 duration/],
    ['bad thresholds JSON', { GATEWAY_LOAD_THRESHOLDS: '{' }, /GATEWAY_LOAD_THRESHOLDS is not valid JSON/],
    ['bad threshold expression', { GATEWAY_LOAD_THRESHOLDS: '{"gateway_failed":["rate<x"]}' }, /needs a list of expressions/],
    ['bad environment', { GATEWAY_ENV: 'prod' }, /GATEWAY_ENV must be sandbox or production/],
    ['bad switch', { GATEWAY_LOAD_SCHEMA_CHECKS: 'maybe' }, /must be on or off/],
  ])('refuse %s with one GH_ERR_CONFIG line', (_why, env, message) => {
    const full = { GATEWAY_BASE_URL: 'http://127.0.0.1:1', ...env } as Record<string, string>;
    if (_why === 'no target') delete full.GATEWAY_BASE_URL;
    expect(() => readRunSettings(full)).toThrow(message);
    try {
      readRunSettings(full);
    } catch (error) {
      expect((error as { code?: string }).code).toBe('GH_ERR_CONFIG');
      expect(String((error as Error).message)).not.toContain('\n');
    }
  });
});
