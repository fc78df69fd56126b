// One run's connection to its target: the given URL, or the embedded sandbox started on 127.0.0.1 port 0 when no
// target is configured; the gateway client over it and the catalog facts discovered from it. Shared by baseline and migrate.
import { setTimeout as delay } from 'node:timers/promises';
import type { ClientCore, ClientHooks } from '../api/client-core.ts';
import { retryRead, type SilenceWatch } from '../api/faults.ts';
import type { TargetConfig, ResolvedTargetConfig } from '../api/target-config.ts';
import { describeTarget } from '../api/target-config.ts';
import { EXIT, HarnessError } from '../api/errors.ts';
import { createGatewayClient, type GatewayClient } from '../client/gateway-client.ts';
import { preflightTarget } from '../client/target-preflight.ts';
import { discoverFixtures, type Fixtures } from './fixtures.ts';
import { settingsForSandbox, startEmbeddedSandbox } from './embedded.ts';
import { withBaseUrl as withUrl } from '../api/target-config.ts';
import { DEFAULT_SETTINGS, type ConformanceSettings } from './settings.ts';
import type { RunningSandbox } from '../sandbox/server.ts';

export interface TargetSessionOptions {
  /** Embedded sandbox profile (default 'faithful'); ignored for a given target. */
  readonly profile?: string;
  /** Embedded sandbox catalog seed (default: the config's). */
  readonly seed?: number;
  /** Number plans, account numbers and assumed field paths (conformance settings, the same file format). */
  readonly settings?: ConformanceSettings;
  /** The money guard's hooks for the session's client (ledger/money-session.ts). */
  readonly hooks?: ClientHooks;
  /** --allow-charges with --max-spend: charging operations may go to a production target (through the guard). */
  readonly allowCharges?: boolean;
  /** --reads-only: no charging operation (nor a read that needs a transaction) is sent, whatever the target. */
  readonly readsOnly?: boolean;
  /** The command's signal watch: a signal during the preflight abandons it (the session then fails to open). */
  readonly stop?: AbortSignal;
}

export interface TargetSession {
  readonly config: ResolvedTargetConfig;
  readonly client: GatewayClient;
  /** What reports call the target: never a credential. */
  readonly label: string;
  /** Stable name for committed files: 'embedded sandbox' or the base URL (an embedded port changes every run). */
  readonly stableLabel: string;
  readonly embedded: boolean;
  readonly settings: ConformanceSettings;
  /** Production targets get no charging request (DESIGN.md: Money safety). */
  readonly production: boolean;
  /**
   * Whether charging operations are sent at all: on a sandbox unless --reads-only; on production only with
   * --allow-charges --max-spend (and then through the money guard's hooks).
   */
  readonly chargesAllowed: boolean;
  readonly sandbox?: RunningSandbox;
  close(): Promise<void>;
}

/**
 * The client's config with the real-time floors conformance uses (settings.minRequestTimeoutMs, pollSlackMs): at the
 * embedded sandbox's scale 0.01 a 30 s response timeout is 300 ms, less than a busy 2-core machine can promise for the
 * whole SKU catalog. No effect at scale 1, where the configured values are already above the floors.
 */
export function withRealTimeFloors(config: ResolvedTargetConfig, settings: ConformanceSettings): ResolvedTargetConfig {
  const scale = config.timeScale;
  if (!(scale > 0)) return config;
  const atLeast = (ms: number, realMs: number): number => Math.max(ms, Math.ceil(realMs / scale));
  return {
    ...config,
    timeouts: { ...config.timeouts, responseMs: atLeast(config.timeouts.responseMs, settings.minRequestTimeoutMs) },
    poll: { ...config.poll, deadlineMs: config.poll.deadlineMs + Math.ceil(settings.pollSlackMs / scale) },
  };
}

export async function openTargetSession(config: TargetConfig, options: TargetSessionOptions = {}): Promise<TargetSession> {
  let settings = options.settings ?? DEFAULT_SETTINGS;
  let sandbox: RunningSandbox | undefined;
  let resolved: ResolvedTargetConfig;
  let label: string;
  if (config.baseUrl === undefined) {
    const profile = options.profile ?? config.sandbox.profile ?? 'faithful';
    const seed = options.seed ?? config.sandbox.seed;
    sandbox = await startEmbeddedSandbox(config, { profile, seed });
    settings = settingsForSandbox(settings, sandbox);
    resolved = withUrl(config, sandbox.url);
    label = `embedded sandbox (${sandbox.url}, profile ${profile}, seed ${seed})`;
  } else {
    resolved = { ...config, baseUrl: config.baseUrl };
    label = describeTarget(config);
    // The one preflight every command runs: a silent, refusing or non-gateway target is one line in seconds (exit 2).
    const check = await preflightTarget(resolved, 'v2', options.stop);
    if (!check.usable) throw new HarnessError('GH_ERR_TARGET', `the target cannot be used: ${check.reason}`, { exitCode: EXIT.usage });
  }
  const client = createGatewayClient(withRealTimeFloors(resolved, settings), options.hooks === undefined ? {} : { hooks: options.hooks });
  const running = sandbox;
  return {
    config: resolved,
    client,
    label,
    stableLabel: running === undefined ? describeTarget(config) : 'embedded sandbox',
    embedded: running !== undefined,
    settings,
    production: config.environment === 'production',
    chargesAllowed: options.readsOnly !== true && (config.environment !== 'production' || options.allowCharges === true),
    ...(running === undefined ? {} : { sandbox: running }),
    async close() {
      await client.close();
      await running?.close();
    },
  };
}

/** Attempts per catalog read in discovery (api/faults.ts retryRead). */
export const DISCOVERY_ATTEMPTS = 5;

/**
 * Reads the target's catalog once (v2 SKUs, countries, gift cards) through the shared conformance discovery. Bounded
 * by SILENT_READ_TIMEOUTS response timeouts per read (a silent target); `stop` (SIGINT/SIGTERM) abandons the reads in
 * flight at once, and the discovery then fails (the caller, seeing its stop aborted, reports the run interrupted).
 */
export function discoverCatalog(session: TargetSession, stop?: AbortSignal): Promise<Fixtures> {
  const retry = {
    attempts: DISCOVERY_ATTEMPTS,
    waitMs: session.client.timings.pollIntervalMs,
    sleep: (ms: number) => delay(ms),
    ...(stop === undefined ? {} : { stop }),
  };
  return discoverFixtures({
    // A faulted read (reset, 5xx, broken body) is retried a few times: one fault must not make the whole run unusable.
    read: async (operationId, input) =>
      (await retryRead(() => session.client.call(operationId, input, stop === undefined ? {} : { signal: stop }), retry)).response,
    mapping: session.config.fieldMapping,
    settings: session.settings,
  });
}

/**
 * A phase's view of `client` under `watch` (api/faults.ts createSilenceWatch): each call and transaction first checks
 * the target did not go silent (GH_ERR_TARGET naming the phase), then counts its answer. The session's client itself
 * stays unwatched, so the money's settling after the phase can still poll (bounded) what is open.
 */
export function watchedForSilence(client: GatewayClient, watch: SilenceWatch): GatewayClient {
  client.showAnswersTo(watch);
  return {
    ...client,
    call: async (...args: Parameters<ClientCore['call']>) => {
      watch.check();
      return client.call(...args);
    },
    // A submission's polling ends once the target went silent: the transaction stays open (not final), for the money
    // settling's bounded polls and the reconcile command, instead of a whole poll deadline of unanswered checks.
    transact: async (operationId, input, options = {}) => {
      watch.check();
      const shouldStop = (): boolean => watch.silence() !== undefined || options.poll?.shouldStop?.() === true;
      return client.transact(operationId, input, { ...options, poll: { ...options.poll, shouldStop } });
    },
  };
}
