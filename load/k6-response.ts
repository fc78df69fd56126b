// Maps what k6/http (or the engine's shim of it) reports for one request onto the shared GatewayResponse, through the
// one parser and classifier. Pure (no k6 import), so tests run it in Node; k6-transport.ts sends and calls it.
import type { BuiltRequest } from '../api/request-builder.ts';
import { toGatewayResponse, type GatewayResponse, type TransportError } from '../api/envelope.ts';
import { findOperation } from '../api/operations.ts';
import { redactText, redactUrl } from '../api/redact.ts';

/** k6's error_code for "request timeout" (k6 docs, error codes: 1050 "General request timeout error"). */
export const K6_REQUEST_TIMEOUT = 1050;

/** What the transport needs of a k6 response: the fields k6 v0.48 and the engine both provide. */
export interface K6ResponseLike {
  readonly status: number;
  readonly error: string;
  readonly error_code: number;
  readonly body: string | null | ArrayBuffer;
  readonly headers: Record<string, string>;
  readonly timings: {
    readonly duration: number;
    readonly waiting: number;
    readonly sending: number;
    readonly connecting: number;
    readonly tls_handshaking: number;
  };
}

/** Tags of one request: its operation id, API version and URL template (so per-id URLs do not explode k6's `name` tag). */
export function requestTags(operationId: string): Record<string, string> {
  const op = findOperation(operationId);
  return op === undefined ? { operation: operationId } : { operation: op.id, api: op.version, name: op.path };
}

function lowerCaseHeaders(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}

/**
 * A k6 response → the shared raw shape. k6 reports network trouble as status 0 with an error code: 1050 is its
 * request timeout (the client gave up: outcome Unknown, the account may be charged); any other status-0 error (refused,
 * reset, DNS) is a transport error (also Unknown: no answer is no proof of failure).
 */
export function fromK6Response(
  built: BuiltRequest,
  res: K6ResponseLike,
  startedAt: number,
  timeoutMs: number,
  secrets: readonly string[],
): GatewayResponse {
  // k6's `duration` is sending + waiting + receiving; a new connection's setup comes on top.
  const setup = res.timings.connecting + res.timings.tls_handshaking;
  const timings = {
    startedAt,
    totalMs: setup + res.timings.duration,
    ...(res.status > 0 ? { ttfbMs: setup + res.timings.sending + res.timings.waiting } : {}),
  };
  if (res.status === 0) {
    const clean = (text: string): string => redactUrl(redactText(text, secrets)).replace(/\s+/g, ' ').trim();
    const timedOut = res.error_code === K6_REQUEST_TIMEOUT;
    const transportError: TransportError = timedOut
      ? {
          code: 'GH_ERR_TIMEOUT',
          message: clean(`response timeout: no complete response within ${timeoutMs} ms (k6 error ${res.error_code})`),
        }
      : { code: 'GH_ERR_CONNECTION', message: clean(`${res.error || 'no response'} (k6 error ${res.error_code})`) };
    return toGatewayResponse({ operationId: built.operationId, headers: {}, timedOut, transportError, timings });
  }
  const bodyText = typeof res.body === 'string' ? res.body : res.body === null ? '' : undefined;
  return toGatewayResponse({
    operationId: built.operationId,
    httpStatus: res.status,
    headers: lowerCaseHeaders(res.headers),
    ...(bodyText === undefined ? {} : { bodyText }),
    timedOut: false,
    timings,
  });
}
