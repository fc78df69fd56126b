// The Node gateway client: the runtime-neutral client core (api/client-core.ts) over the undici transport, with
// Node's clock and timers. One per target: it owns the keep-alive connection pool, so close() it when done.
import { setTimeout as delay } from 'node:timers/promises';
import { createClientCore, type ClientCore, type ClientHooks } from '../api/client-core.ts';
import { createSilenceWatch, type SilenceWatch } from '../api/faults.ts';
import { clientTimings, scaleMs } from '../api/scale.ts';
import type { ResolvedTargetConfig } from '../api/target-config.ts';
import { SERVICE_TIMEOUT_MS } from '../api/spec-durations.ts';
import { createNodeTransport, type NodeTransportOptions } from './node-transport.ts';

export type { CoreExchange, StatusPollResult, TransactionResult } from '../api/client-core.ts';

export interface GatewayClient extends ClientCore {
  /** From now on every answer this client gets (calls, submissions and each status check) is shown to `watch`. */
  showAnswersTo(watch: SilenceWatch): void;
  close(): Promise<void>;
}

export interface GatewayClientOptions extends NodeTransportOptions {
  readonly hooks?: ClientHooks;
  /** Abandons every call in flight when aborted (SIGINT/SIGTERM): the calls end as lost connections. */
  readonly signal?: AbortSignal;
  /**
   * The phase this client serves, for a target that answered the preflight: once it went silent (api/faults.ts
   * createSilenceWatch) every further call throws GH_ERR_TARGET naming the phase.
   */
  readonly silentPhase?: string;
}

/** The hooks with the silence watch of `phase` first: nothing is sent once the target went silent. */
function watchingSilence(phase: string, hooks: ClientHooks | undefined): ClientHooks {
  const silence = createSilenceWatch(phase);
  return {
    async beforeSend(request) {
      silence.check();
      await hooks?.beforeSend?.(request);
    },
    async afterResponse(exchange) {
      silence.see(exchange.response);
      await hooks?.afterResponse?.(exchange);
    },
  };
}

/** The core's target connection and status settings for a resolved config (shared by every Node-side consumer). */
export function coreSettingsFor(config: ResolvedTargetConfig) {
  return {
    target: { baseUrl: config.baseUrl, user: config.user, password: config.password, writePaths: config.writePaths },
    timings: clientTimings(config),
    status: {
      serviceTimeoutMs: scaleMs(config.timeScale, SERVICE_TIMEOUT_MS),
      notFoundCodes: config.poll.notFoundCodes,
      ...(config.poll.maxAttempts === undefined ? {} : { maxAttempts: config.poll.maxAttempts }),
    },
  };
}

export function createGatewayClient(config: ResolvedTargetConfig, options: GatewayClientOptions = {}): GatewayClient {
  const { hooks: given, signal, silentPhase, ...transportOptions } = options;
  const transport = createNodeTransport(transportOptions);
  const watched = silentPhase === undefined ? given : watchingSilence(silentPhase, given);
  let shownTo: SilenceWatch | undefined;
  const hooks: ClientHooks = {
    ...(watched?.beforeSend === undefined ? {} : { beforeSend: watched.beforeSend }),
    async afterResponse(exchange) {
      shownTo?.see(exchange.response);
      await watched?.afterResponse?.(exchange);
    },
  };
  const core = createClientCore({
    ...coreSettingsFor(config),
    transport,
    now: () => Date.now(),
    sleep: (ms) => delay(ms),
    hooks,
    ...(signal === undefined ? {} : { signal }),
  });
  return {
    ...core,
    showAnswersTo(watch) {
      shownTo = watch;
    },
    close: () => transport.close(),
  };
}
