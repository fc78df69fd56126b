// The Node gateway client: the runtime-neutral client core (api/client-core.ts) over the undici transport, with
// Node's clock and timers. One per target: it owns the keep-alive connection pool, so close() it when done.
import { setTimeout as delay } from 'node:timers/promises';
import { createClientCore, type ClientCore, type ClientHooks } from '../api/client-core.ts';
import { clientTimings, scaleMs } from '../api/scale.ts';
import type { ResolvedTargetConfig } from '../api/target-config.ts';
import { SERVICE_TIMEOUT_MS } from '../api/spec-durations.ts';
import { createNodeTransport, type NodeTransportOptions } from './node-transport.ts';

export type { CoreExchange, StatusPollResult, TransactionResult } from '../api/client-core.ts';

export interface GatewayClient extends ClientCore {
  close(): Promise<void>;
}

export interface GatewayClientOptions extends NodeTransportOptions {
  readonly hooks?: ClientHooks;
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
  const { hooks, ...transportOptions } = options;
  const transport = createNodeTransport(transportOptions);
  const core = createClientCore({
    ...coreSettingsFor(config),
    transport,
    now: () => Date.now(),
    sleep: (ms) => delay(ms),
    ...(hooks === undefined ? {} : { hooks }),
  });
  return { ...core, close: () => transport.close() };
}
