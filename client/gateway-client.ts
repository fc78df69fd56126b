// The Node gateway client: builds, sends and classifies calls to one target, and polls the status endpoint.
// One per target: it owns the keep-alive connection pool, so close() it when done.
import { setTimeout as delay } from 'node:timers/promises';
import { buildRequest, basicAuthorization, type RequestInput } from '../api/request-builder.ts';
import type { GatewayResponse } from '../api/envelope.ts';
import { classifyStatusCheck, pollUntilFinal, statusCheckHopeless, type PollResult } from '../api/poll.ts';
import { clientTimings, type ClientTimings } from '../api/scale.ts';
import type { ResolvedTargetConfig } from '../api/target-config.ts';
import type { ApiVersion } from '../api/operations.ts';
import type { Classification } from '../api/outcome.ts';
import { createNodeTransport, type NodeTransportOptions } from './node-transport.ts';

/** Per-call overrides, in REAL milliseconds (already scaled; the config's values are scaled by the client). */
export interface CallOverrides {
  readonly responseTimeoutMs?: number;
  readonly connectTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface PollStatusOptions {
  /** Real milliseconds; default: the config's poll settings, scaled. */
  readonly intervalMs?: number;
  readonly deadlineMs?: number;
  readonly maxAttempts?: number;
  /** Response timeout of each status check (real ms). */
  readonly responseTimeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** One status check as the poller sees it: its transaction-level classification and the raw response. */
export type StatusCheck = Classification & { readonly response: GatewayResponse };

export type StatusPollResult = PollResult<StatusCheck>;

export interface GatewayClient {
  /** The target's real-time timeouts and polling (config values scaled by timeScale). */
  readonly timings: ClientTimings;
  call(operationId: string, input?: RequestInput, overrides?: CallOverrides): Promise<GatewayResponse>;
  /** Polls `/api/<version>/transaction/status/{correlationId}` until a final outcome or the deadline. */
  pollStatus(version: ApiVersion, correlationId: string, options?: PollStatusOptions): Promise<StatusPollResult>;
  close(): Promise<void>;
}

export function createGatewayClient(config: ResolvedTargetConfig, transportOptions?: NodeTransportOptions): GatewayClient {
  const transport = createNodeTransport(transportOptions);
  const timings = clientTimings(config);
  const target = { baseUrl: config.baseUrl, user: config.user, password: config.password, writePaths: config.writePaths };
  // Everything that could identify the credentials in an error message.
  const secrets = [config.password, basicAuthorization(config.user, config.password).slice('Basic '.length)];

  async function call(operationId: string, input: RequestInput = {}, overrides: CallOverrides = {}): Promise<GatewayResponse> {
    const built = buildRequest(operationId, input, target);
    return transport.send(built, {
      connectTimeoutMs: overrides.connectTimeoutMs ?? timings.connectTimeoutMs,
      responseTimeoutMs: overrides.responseTimeoutMs ?? timings.responseTimeoutMs,
      secrets,
      ...(overrides.signal === undefined ? {} : { signal: overrides.signal }),
    });
  }

  async function pollStatus(version: ApiVersion, correlationId: string, options: PollStatusOptions = {}): Promise<StatusPollResult> {
    const operationId = `${version}.transaction.status`;
    const signal = options.signal;
    const maxAttempts = options.maxAttempts ?? config.poll.maxAttempts;
    return pollUntilFinal<StatusCheck>({
      check: async () => {
        const response = await call(
          operationId,
          { path: { correlationId } },
          { ...(options.responseTimeoutMs === undefined ? {} : { responseTimeoutMs: options.responseTimeoutMs }), ...(signal === undefined ? {} : { signal }) },
        );
        return { ...classifyStatusCheck(response), response };
      },
      intervalMs: options.intervalMs ?? timings.pollIntervalMs,
      deadlineMs: options.deadlineMs ?? timings.pollDeadlineMs,
      ...(maxAttempts === undefined ? {} : { maxAttempts }),
      giveUp: (last) => statusCheckHopeless(last.response) || signal?.aborted === true,
      now: () => Date.now(),
      sleep: async (ms) => {
        try {
          await delay(ms, undefined, signal === undefined ? undefined : { signal });
        } catch {
          // Aborted: the next check sees the aborted signal and the poll gives up.
        }
      },
    });
  }

  return { timings, call, pollStatus, close: () => transport.close() };
}
