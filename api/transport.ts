// The one seam between the client core and a runtime: a transport sends a built request and reports what it saw.
// Node (undici), the k6 bundles (k6/http) and the engine each supply one; everything above it is shared code.
import type { GatewayResponse } from './envelope.ts';
import type { BuiltRequest } from './request-builder.ts';

/** A caller's cancellation: as much of an AbortSignal as a transport needs (api/ knows neither DOM nor Node types). */
export interface CancelSignal {
  readonly aborted: boolean;
  addEventListener(type: 'abort', listener: () => void, options?: { readonly once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

export interface SendOptions {
  /** Longest wait for a new connection (real ms). */
  readonly connectTimeoutMs: number;
  /** Longest wait from sending to the last byte of the response (real ms); past it the call is a client timeout. */
  readonly responseTimeoutMs: number;
  /** Strings to scrub from any error text (the password, the Basic token), beyond the request's own Authorization. */
  readonly secrets?: readonly string[];
  /**
   * Aborts the request in flight (a run interrupted by SIGINT/SIGTERM must not wait out a response timeout): the call
   * ends as a lost connection (outcome Unknown). A runtime that cannot abort a request (k6) ignores it.
   */
  readonly signal?: CancelSignal;
}

/**
 * Sends one request. Never rejects for network trouble: a timeout is reported as `timedOut` (outcome Unknown: the
 * account may be charged), a reset or refused connection as a `transportError`; both go through the one classifier.
 */
export interface Transport {
  send(built: BuiltRequest, options: SendOptions): Promise<GatewayResponse>;
}

/**
 * The code a failed send carries (Node's ECONNRESET, undici's UND_ERR_*), on the error itself or down its causes
 * (undici wraps the socket's error): each runtime's transport classifies transport failures by it.
 */
export function errorCodeOf(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined || cause === error ? undefined : errorCodeOf(cause);
}
