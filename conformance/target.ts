// The Node side of a conformance run: the target (undici transport over a resolved config) and the run's timing.
// Kept apart from the runner so the runner stays free of Node specifics and can be driven by any target in tests.
import { createNodeTransport, type NodeTransport } from '../client/node-transport.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { clientTimings } from '../api/scale.ts';
import { CONFIG_DEFAULTS, type ResolvedTargetConfig } from '../api/target-config.ts';
import { redactUrl } from '../api/redact.ts';
import type { ConformanceTarget } from './runner.ts';
import type { ConformanceSettings } from '../target/settings.ts';
import { computeTiming, DEFAULT_TIMING_INPUT, type Timing } from './timing.ts';

export interface NodeConformanceTarget extends ConformanceTarget {
  close(): Promise<void>;
}

/** Connections per target: enough for the POLL load case (50 top-ups at once plus their polls) and the case pool. */
const CONNECTIONS = 128;

export function createNodeConformanceTarget(config: ResolvedTargetConfig): NodeConformanceTarget {
  const transport: NodeTransport = createNodeTransport({ connections: CONNECTIONS });
  const { connectTimeoutMs } = clientTimings(config);
  return {
    label: redactUrl(config.baseUrl),
    connection: { baseUrl: config.baseUrl, user: config.user, password: config.password, writePaths: config.writePaths },
    // The core passes the password and the Basic token as secrets to scrub from transport errors.
    transport,
    connectTimeoutMs,
    notFoundCodes: config.poll.notFoundCodes,
    environment: config.environment,
    close: () => transport.close(),
  };
}

/**
 * The config of a sandbox a caller started itself (the proof runs, tests): its URL and time scale, the default
 * timeouts, polling and field mapping, and the sandbox's default credentials unless it was started with others.
 */
export function sandboxTargetConfig(
  baseUrl: string,
  timeScale: number,
  credentials: { readonly user: string; readonly password: string } = CONFIG_DEFAULTS,
): ResolvedTargetConfig {
  return {
    baseUrl,
    user: credentials.user,
    password: credentials.password,
    environment: 'sandbox',
    timeScale,
    timeouts: CONFIG_DEFAULTS.timeouts,
    poll: CONFIG_DEFAULTS.poll,
    writePaths: {},
    fieldMapping: DEFAULT_FIELD_MAPPING,
    sandbox: { seed: 1 },
  };
}

/** Timing of a run from the target config (time scale, timeouts, polling) and the conformance settings (floors, slack). */
export function timingFor(config: Pick<ResolvedTargetConfig, 'timeScale' | 'timeouts' | 'poll'>, settings: ConformanceSettings): Timing {
  return computeTiming({
    ...DEFAULT_TIMING_INPUT,
    timeScale: config.timeScale,
    responseTimeoutMs: config.timeouts.responseMs,
    pollIntervalMs: config.poll.intervalMs,
    pollDeadlineMs: config.poll.deadlineMs,
    minRequestTimeoutMs: settings.minRequestTimeoutMs,
    pollSlackMs: settings.pollSlackMs,
  });
}
