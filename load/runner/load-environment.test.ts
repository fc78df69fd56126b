// `load` and `k6-operator` hand their bundles one environment for the same options: both go through
// load-environment.ts, the pods' only without credentials (their Secret supplies them) and with k6's defaults.
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/load-config.ts';
import { LOAD_ENV, readRunSettings } from '../run-settings.ts';
import { K6_DEFAULT_ENV } from './k6-process.ts';
import { loadEnvironment } from './load-environment.ts';
import { parseLoadFlags } from './load-options.ts';
import { DEFAULT_IMAGE, DEFAULT_SECRET, POD_REPORT_DIR, podEnvironment } from '../../distributed/k6-operator/plan.ts';

const BASE_URL = 'https://gw.example.test';
const config = {
  ...loadConfig({ cwd: '/nonexistent', env: { GATEWAY_BASE_URL: BASE_URL, GATEWAY_USER: 'env-user', GATEWAY_PASSWORD: 'env-pass-4c1d9' } }),
  // A target whose gift card cursor is not the spec's: a key every run's VUs must follow.
  paging: { giftcardCursor: 'next-start' as const },
};
// Every load flag the bundle reads, set.
const load = parseLoadFlags({
  scenario: 'catalog-browse',
  profile: 'smoke',
  engine: 'k6',
  api: 'v2',
  vus: '3',
  duration: '20s',
  iterations: '7',
  threshold: ['http_req_duration{operation:v2.catalog.skus}:p(95)<300'],
  promoteObserved: true,
});

describe('one load environment for load and k6-operator', () => {
  it('the pods get what a load run gets for the same options, less the credentials, plus k6 defaults', () => {
    const runId = 'catalog-browse-20260101000000-abcd';
    const pods = podEnvironment(
      {
        load,
        parallelism: 2,
        namespace: 'ns',
        image: DEFAULT_IMAGE,
        secret: DEFAULT_SECRET,
        results: { create: true, size: '1Gi', accessMode: 'ReadWriteMany' },
      },
      config,
      runId,
      BASE_URL,
    );
    const local = loadEnvironment(load, config, { baseUrl: BASE_URL, targetLabel: BASE_URL, runId, reportDir: POD_REPORT_DIR });
    const { [LOAD_ENV.user]: user, [LOAD_ENV.password]: password, ...withoutCredentials } = local;
    expect([user, password]).toEqual(['env-user', 'env-pass-4c1d9']);
    expect(pods).toEqual({ ...K6_DEFAULT_ENV, ...withoutCredentials });
    expect(JSON.stringify(pods)).not.toContain('env-pass-4c1d9');
  });

  it('every flag and config key reaches the bundle (iterations, promote-observed, the paging meaning)', () => {
    const env = loadEnvironment(load, config, { baseUrl: BASE_URL, targetLabel: BASE_URL, runId: 'r', reportDir: '/tmp' });
    const settings = readRunSettings(env);
    expect(settings.giftcardCursor).toBe('next-start');
    expect(env[LOAD_ENV.iterations]).toBe('7');
    expect(env[LOAD_ENV.promoteObserved]).toBe('on');
    expect(env[LOAD_ENV.vus]).toBe('3');
  });
});
