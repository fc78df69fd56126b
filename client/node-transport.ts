// Node transport: sends a BuiltRequest with undici over a keep-alive Agent and reports a classified GatewayResponse.
// It never throws for network trouble: a timeout is Unknown (the account may be charged), a reset is a GH_ERR_CONNECTION.
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { BuiltRequest } from '../api/request-builder.ts';
import { toGatewayResponse, type GatewayResponse, type TransportError } from '../api/envelope.ts';
import { redactText, redactUrl } from '../api/redact.ts';
import { errorCodeOf, type SendOptions as CoreSendOptions, type Transport } from '../api/transport.ts';

// The response type lives in api/ so the k6 side shares it; re-exported for Node callers.
export type { GatewayResponse, TransportError } from '../api/envelope.ts';

/** The core's send options; `signal`, the caller's cancellation, makes an aborted call a lost connection (outcome Unknown). */
export type SendOptions = CoreSendOptions;

export interface NodeTransportOptions {
  /** Most open sockets per origin (undici Pool `connections`); bounds the load one client can put on a target. */
  readonly connections?: number;
  /** How long an idle keep-alive socket is kept. */
  readonly keepAliveTimeoutMs?: number;
  /** Largest response body read; bigger bodies fail instead of exhausting memory. */
  readonly maxResponseBytes?: number;
}

export interface NodeTransport extends Transport {
  send(built: BuiltRequest, options: SendOptions): Promise<GatewayResponse>;
  close(): Promise<void>;
}

const DEFAULTS = { connections: 64, keepAliveTimeoutMs: 10_000, maxResponseBytes: 64 * 1024 * 1024 } as const;

/** undici error codes that mean "the client gave up waiting". */
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** Marks our own deadline abort, so it is told apart from the caller's signal. */
class ResponseDeadline extends Error {
  constructor(ms: number) {
    super(`no complete response within ${ms} ms`);
    this.name = 'ResponseDeadline';
  }
}

function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = errorCodeOf(error);
  return code === undefined || error.message.includes(code) ? error.message : `${error.message} (${code})`;
}

/** Maps a thrown error to (timed out?, stable code, redacted one-line message). Exported for the error table test. */
export function describeTransportError(
  error: unknown,
  context: { deadlineHit: boolean; callerAborted: boolean; secrets: readonly string[] },
): { timedOut: boolean; transportError: TransportError } {
  const clean = (text: string): string => redactUrl(redactText(text, context.secrets)).replace(/\s+/g, ' ').trim();
  const code = errorCodeOf(error);
  if (context.deadlineHit || error instanceof ResponseDeadline) {
    const message = error instanceof ResponseDeadline ? error.message : errorMessage(error);
    return { timedOut: true, transportError: { code: 'GH_ERR_TIMEOUT', message: clean(`response timeout: ${message}`) } };
  }
  if (code !== undefined && TIMEOUT_CODES.has(code)) {
    const kind = code === 'UND_ERR_CONNECT_TIMEOUT' ? 'connect timeout' : 'response timeout';
    return { timedOut: true, transportError: { code: 'GH_ERR_TIMEOUT', message: clean(`${kind}: ${errorMessage(error)}`) } };
  }
  if (context.callerAborted) {
    return {
      timedOut: false,
      transportError: {
        code: 'GH_ERR_CONNECTION',
        message: 'request aborted by the caller before the response completed',
        abandoned: true,
      },
    };
  }
  return { timedOut: false, transportError: { code: 'GH_ERR_CONNECTION', message: clean(errorMessage(error)) } };
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function authToken(built: BuiltRequest): string[] {
  const entry = Object.entries(built.headers).find(([name]) => name.toLowerCase() === 'authorization');
  if (entry === undefined) return [];
  const token = entry[1].replace(/^\S+\s+/, '');
  return token === '' ? [] : [entry[1], token];
}

/** The transport's sockets: one keep-alive Agent per connect timeout, and whether close() was called. */
interface AgentPool {
  readonly settings: Required<NodeTransportOptions>;
  /** One Agent per connect timeout: undici fixes the connect timeout per Agent, and callers use one or two values. */
  readonly agents: Map<number, Agent>;
  closed: boolean;
}

function agentFor(pool: AgentPool, connectTimeoutMs: number): Agent {
  let agent = pool.agents.get(connectTimeoutMs);
  if (agent === undefined) {
    agent = new Agent({
      connections: pool.settings.connections,
      keepAliveTimeout: pool.settings.keepAliveTimeoutMs,
      maxResponseSize: pool.settings.maxResponseBytes,
      connect: { timeout: connectTimeoutMs },
      // Our own deadline covers headers + body; undici's idle timers are only a backstop.
      headersTimeout: 0,
      bodyTimeout: 0,
    });
    pool.agents.set(connectTimeoutMs, agent);
  }
  return agent;
}

/**
 * One call's AbortController, cut by our response deadline (headers + body) or by the caller's signal; which of them
 * fired decides how the failure reads (describeTransportError): a deadline is a timeout, a caller's abort a lost connection.
 */
class CallCutoff extends AbortController {
  deadlineHit = false;
  callerAborted = false;
  private readonly timer: NodeJS.Timeout;
  private afterIo: NodeJS.Immediate | undefined;
  private readonly onCallerAbort = (): void => {
    this.callerAborted = true;
    this.abort();
  };

  constructor(private readonly opts: SendOptions) {
    super();
    // The cut waits for the loop's next I/O turn: a stalled process (a starved CI runner) runs its overdue timers before
    // it reads its sockets, so an answer that arrived within the deadline would otherwise be discarded as a timeout (a
    // 5xx the target served, counted as a client timeout). An answer read in that turn ends the call (release) first.
    this.timer = setTimeout(() => {
      this.afterIo = setImmediate(() => {
        this.deadlineHit = true;
        this.abort(new ResponseDeadline(opts.responseTimeoutMs));
      });
    }, opts.responseTimeoutMs);
    if (opts.signal?.aborted === true) this.onCallerAbort();
    else opts.signal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** The call ended: the deadline's timer cleared, the caller's signal no longer listened to. */
  release(): void {
    clearTimeout(this.timer);
    clearImmediate(this.afterIo);
    this.opts.signal?.removeEventListener('abort', this.onCallerAbort);
  }
}

/** Sends one request; network trouble becomes a GatewayResponse with a transport error (never a throw). */
async function sendOn(pool: AgentPool, built: BuiltRequest, opts: SendOptions): Promise<GatewayResponse> {
  if (pool.closed) throw new Error('node transport is closed');
  const secrets = [...authToken(built), ...(opts.secrets ?? [])];
  const startedAt = Date.now();
  const t0 = performance.now();
  const cutoff = new CallCutoff(opts);
  let httpStatus: number | undefined;
  let headers: Record<string, string> = {};
  let ttfbMs: number | undefined;
  try {
    const res = await request(built.url, {
      method: built.method,
      headers: built.headers,
      body: built.body,
      dispatcher: agentFor(pool, opts.connectTimeoutMs),
      signal: cutoff.signal,
    });
    ttfbMs = performance.now() - t0;
    httpStatus = res.statusCode;
    headers = flattenHeaders(res.headers);
    const bodyText = await res.body.text();
    return toGatewayResponse({
      operationId: built.operationId,
      httpStatus,
      headers,
      bodyText,
      timedOut: false,
      timings: { startedAt, ttfbMs, totalMs: performance.now() - t0 },
    });
  } catch (error) {
    const described = describeTransportError(error, { deadlineHit: cutoff.deadlineHit, callerAborted: cutoff.callerAborted, secrets });
    return toGatewayResponse({
      operationId: built.operationId,
      ...(httpStatus === undefined ? {} : { httpStatus }),
      headers,
      timedOut: described.timedOut,
      transportError: described.transportError,
      timings: { startedAt, ...(ttfbMs === undefined ? {} : { ttfbMs }), totalMs: performance.now() - t0 },
    });
  } finally {
    cutoff.release();
  }
}

/** destroy (not close): an in-flight delayed call (e.g. a 120 s trigger) must not hold the process open. */
async function closePool(pool: AgentPool): Promise<void> {
  pool.closed = true;
  const all = [...pool.agents.values()];
  pool.agents.clear();
  await Promise.all(all.map((agent) => agent.destroy()));
}

export function createNodeTransport(options: NodeTransportOptions = {}): NodeTransport {
  const pool: AgentPool = { settings: { ...DEFAULTS, ...options }, agents: new Map(), closed: false };
  return { send: (built, opts) => sendOn(pool, built, opts), close: () => closePool(pool) };
}
