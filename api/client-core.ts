// The one gateway client core: build a catalog request, send it through an injected transport, parse and classify the
// envelope, and follow a transaction to its final state by polling the status endpoint (injected clock and sleep).
// Runtime-neutral: conformance, the Node client, the k6 bundles and the engine are thin transports over it.
import { getOperation, type ApiVersion, type Operation } from './operations.ts';
import { buildRequest, basicAuthorization, type BuiltRequest, type RequestInput, type TargetConnection } from './request-builder.ts';
import type { GatewayResponse } from './envelope.ts';
import type { Classification, Outcome } from './outcome.ts';
import { classifyStatusCheck, pollUntilFinal, statusCheckHopeless, type PollResult } from './poll.ts';
import type { ClientTimings } from './scale.ts';
import type { CancelSignal, SendOptions, Transport } from './transport.ts';

/** One request as it left and what came back (or that nothing did). */
export interface CoreExchange {
  readonly operation: Operation;
  readonly built: BuiltRequest;
  readonly response: GatewayResponse;
}

/** A request about to leave; `beforeSend` hooks see it (and may refuse it by throwing). */
export interface OutgoingRequest {
  readonly operation: Operation;
  readonly built: BuiltRequest;
  readonly input: RequestInput;
}

/**
 * Cross-cutting concerns hang here, not in callers: the money guard and the ledger (`beforeSend` is awaited, so a
 * ledger line is durable before a charging request leaves), conformance's envelope invariants, load metrics.
 */
export interface ClientHooks {
  beforeSend?(request: OutgoingRequest): void | Promise<void>;
  afterResponse?(exchange: CoreExchange): void | Promise<void>;
}

export interface StatusSettings {
  /** Service-side transaction timeout in real ms (spec: 2 minutes, scaled). */
  readonly serviceTimeoutMs: number;
  /** Status codes meaning "no such transaction" (assumed, configurable). */
  readonly notFoundCodes: readonly string[];
  /** Hard cap on status checks of one poll. */
  readonly maxAttempts?: number;
}

export interface ClientCoreOptions {
  readonly target: TargetConnection;
  readonly transport: Transport;
  /** Real-time timeouts and polling of the target (config values scaled by its time scale). */
  readonly timings: ClientTimings;
  readonly status: StatusSettings;
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly hooks?: ClientHooks;
  /** The run's stop for every call that names none (api/transport.ts): a call in flight is abandoned when it aborts. */
  readonly signal?: CancelSignal;
}

export interface CallOptions {
  readonly responseTimeoutMs?: number;
  readonly connectTimeoutMs?: number;
  /** The run's stop (SIGINT/SIGTERM): a call in flight is abandoned at once (api/transport.ts). */
  readonly signal?: CancelSignal;
}

export interface PollOptions {
  /** When the transaction was submitted (epoch ms): "not found" before the service-side timeout stays Unknown. */
  readonly submittedAt?: number;
  readonly intervalMs?: number;
  readonly deadlineMs?: number;
  readonly maxAttempts?: number;
  /** Response timeout of each status check (real ms). */
  readonly responseTimeoutMs?: number;
  /** Polled between checks; true ends the poll early (not final). */
  readonly shouldStop?: () => boolean;
  /** False for money records: "not found" after the service-side timeout is not final (api/poll.ts StatusPolicy). */
  readonly notFoundFinal?: boolean;
}

/** One status check as the poller sees it: the transaction-level classification and the exchange behind it. */
export type StatusCheck = Classification & { readonly exchange: CoreExchange };
export type StatusPollResult = PollResult<StatusCheck>;

export interface TransactOptions extends CallOptions {
  /** Polling of a submission that is not final (client timeout, '852', no envelope). */
  readonly poll?: Omit<PollOptions, 'submittedAt'>;
}

/** A write followed to its final outcome. */
export interface TransactionResult {
  readonly submitted: CoreExchange;
  /** Successful or Failed when final; otherwise InProgress or Unknown (never assume failure: the account may be charged). */
  readonly outcome: Outcome;
  readonly final: boolean;
  /** The final responseCode, when final. */
  readonly code?: string;
  /** The exchange that carried the final outcome (the submission itself, or the last status check). */
  readonly finalExchange?: CoreExchange;
  /** Present when the submission was not final and the status endpoint was polled. */
  readonly poll?: StatusPollResult;
  /** Submission to final outcome (or to giving up), real ms. */
  readonly elapsedMs: number;
}

export interface ClientCore {
  readonly timings: ClientTimings;
  readonly target: TargetConnection;
  call(operationId: string, input?: RequestInput, options?: CallOptions): Promise<CoreExchange>;
  pollStatus(version: ApiVersion, correlationId: string, options?: PollOptions): Promise<StatusPollResult>;
  /** Submits a write and, when the answer is not final, polls status with its correlationId until final or the deadline. */
  transact(operationId: string, input: RequestInput, options?: TransactOptions): Promise<TransactionResult>;
  /** Strings that identify the credentials, for redacting anything a caller prints. */
  readonly secrets: readonly string[];
}

/** The correlationId of a write body, when it carries a usable one. */
export function correlationIdOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const id = (body as Record<string, unknown>).correlationId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** The least time a status check gets, however little of its poll's deadline is left (real ms). */
export const CHECK_FLOOR_MS = 500;

/** Strings that identify the credentials: the password and its Basic token, for redacting anything printed. */
function credentialStrings(target: TargetConnection): string[] {
  return [target.password, basicAuthorization(target.user, target.password).slice('Basic '.length)].filter((s) => s.length > 0);
}

/** Sends one catalog request: built from `input`, through the hooks (beforeSend is awaited: it may refuse it) and the transport. */
async function callThrough(
  options: ClientCoreOptions,
  secrets: readonly string[],
  operationId: string,
  input: RequestInput,
  callOptions: CallOptions,
): Promise<CoreExchange> {
  const { target, transport, timings, hooks } = options;
  const operation = getOperation(operationId);
  const built = buildRequest(operation, input, target);
  if (hooks?.beforeSend !== undefined) await hooks.beforeSend({ operation, built, input });
  const sendOptions: SendOptions = {
    connectTimeoutMs: callOptions.connectTimeoutMs ?? timings.connectTimeoutMs,
    responseTimeoutMs: callOptions.responseTimeoutMs ?? timings.responseTimeoutMs,
    secrets,
    ...((callOptions.signal ?? options.signal) === undefined ? {} : { signal: callOptions.signal ?? options.signal }),
  };
  const response = await transport.send(built, sendOptions);
  const exchange: CoreExchange = { operation, built, response };
  if (hooks?.afterResponse !== undefined) await hooks.afterResponse(exchange);
  return exchange;
}

/** Polls the status endpoint of `version` for `correlationId` until the transaction is final, hopeless or the deadline. */
function pollStatusThrough(
  options: ClientCoreOptions,
  call: ClientCore['call'],
  version: ApiVersion,
  correlationId: string,
  pollOptions: PollOptions,
): Promise<StatusPollResult> {
  const { timings, status, now, sleep } = options;
  const operationId = `${version}.transaction.status`;
  const policy = {
    serviceTimeoutMs: status.serviceTimeoutMs,
    notFoundCodes: status.notFoundCodes,
    now,
    ...(pollOptions.submittedAt === undefined ? {} : { submittedAt: pollOptions.submittedAt }),
    ...(pollOptions.notFoundFinal === undefined ? {} : { notFoundFinal: pollOptions.notFoundFinal }),
  };
  const maxAttempts = pollOptions.maxAttempts ?? status.maxAttempts;
  const deadlineMs = pollOptions.deadlineMs ?? timings.pollDeadlineMs;
  const startedAt = now();
  return pollUntilFinal<StatusCheck>({
    check: async () => {
      // No check outlives the deadline by more than CHECK_FLOOR_MS: one in flight when it passes is cut there (a 5 s
      // reconciliation after a signal must not wait out a 30 s response timeout), and is Unknown like any other
      // unanswered check. The floor gives the last check, started at the deadline, time for a gateway's answer.
      const left = Math.max(CHECK_FLOOR_MS, deadlineMs - (now() - startedAt));
      const exchange = await call(
        operationId,
        { path: { correlationId } },
        {
          responseTimeoutMs: Math.min(pollOptions.responseTimeoutMs ?? timings.responseTimeoutMs, left),
          connectTimeoutMs: Math.min(timings.connectTimeoutMs, left),
        },
      );
      return { ...classifyStatusCheck(exchange.response, policy), exchange };
    },
    intervalMs: pollOptions.intervalMs ?? timings.pollIntervalMs,
    deadlineMs,
    ...(maxAttempts === undefined ? {} : { maxAttempts }),
    giveUp: (last) => statusCheckHopeless(last.exchange.response, last) || pollOptions.shouldStop?.() === true,
    now,
    sleep,
  });
}

/** Submits a write and, when the answer is not final, follows it through the status endpoint (ClientCore.transact). */
async function transactThrough(
  call: ClientCore['call'],
  pollStatus: ClientCore['pollStatus'],
  now: () => number,
  operationId: string,
  input: RequestInput,
  transactOptions: TransactOptions,
): Promise<TransactionResult> {
  const startedAt = now();
  const submitted = await call(operationId, input, transactOptions);
  const first = submitted.response.classification;
  const code = submitted.response.envelope?.responseCode;
  if (first.final) {
    return {
      submitted,
      outcome: first.outcome,
      final: true,
      ...(code === undefined ? {} : { code }),
      finalExchange: submitted,
      elapsedMs: now() - startedAt,
    };
  }
  const correlationId = correlationIdOf(input.body);
  if (correlationId === undefined) return { submitted, outcome: first.outcome, final: false, elapsedMs: now() - startedAt };
  const poll = await pollStatus(submitted.operation.version, correlationId, {
    ...transactOptions.poll,
    submittedAt: submitted.response.timings.startedAt,
  });
  const finalCode = poll.final ? poll.last.exchange.response.envelope?.responseCode : undefined;
  return {
    submitted,
    outcome: poll.outcome,
    final: poll.final,
    ...(finalCode === undefined ? {} : { code: finalCode }),
    ...(poll.final ? { finalExchange: poll.last.exchange } : {}),
    poll,
    elapsedMs: now() - startedAt,
  };
}

export function createClientCore(options: ClientCoreOptions): ClientCore {
  const { target, timings } = options;
  const secrets = credentialStrings(target);
  const call = (operationId: string, input: RequestInput = {}, callOptions: CallOptions = {}): Promise<CoreExchange> =>
    callThrough(options, secrets, operationId, input, callOptions);
  const pollStatus = (version: ApiVersion, correlationId: string, pollOptions: PollOptions = {}): Promise<StatusPollResult> =>
    pollStatusThrough(options, call, version, correlationId, pollOptions);
  const transact = (operationId: string, input: RequestInput, transactOptions: TransactOptions = {}): Promise<TransactionResult> =>
    transactThrough(call, pollStatus, options.now, operationId, input, transactOptions);
  return { timings, target, call, pollStatus, transact, secrets };
}
