// The suite's environment for a bench's run against the embedded sandbox (time scale 1, its default credentials):
// constant VUs for the duration, schema checks on. bench:engine and bench:monitor run their engines and bare loops with it.
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { CONFIG_DEFAULTS } from '../../api/target-config.ts';
import { runEnvironment } from '../run-settings.ts';

/** The bench target is the embedded sandbox at time scale 1 with its default credentials (sandbox/bench/bench-target.ts). */
const TARGET_USER = 'user';
const TARGET_PASSWORD = 'pass';

/** The suite's settings for one run: constant VUs for the duration (smoke + --vus + --duration), schema checks on. */
export function suiteEnv(base: string, vus: number, duration: string, reportDir: string): Record<string, string> {
  return runEnvironment({
    baseUrl: base,
    user: TARGET_USER,
    password: TARGET_PASSWORD,
    environment: 'sandbox',
    timeScale: 1,
    profile: 'smoke',
    api: 'both',
    vus,
    duration,
    config: { timeouts: CONFIG_DEFAULTS.timeouts, poll: CONFIG_DEFAULTS.poll, fieldMapping: DEFAULT_FIELD_MAPPING },
    targetLabel: 'bench sandbox',
    runId: 'bench-engine',
    reportDir,
    schemaChecks: true,
  });
}
