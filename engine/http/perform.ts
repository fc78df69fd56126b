// Sends one k6-style HTTP request over an undici keep-alive Agent and returns a plain, cloneable result with k6's
// timing phases and error codes. Shared by the async path (VU threads) and the sync helper thread.
import diagnostics from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { Agent, request, type Dispatcher } from 'undici';
import { errorCodeOf } from '../../api/transport.ts';

export interface HttpRequestSpec {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  timeoutMs: number;
  /** 'text' (default), 'binary' (ArrayBuffer) or 'none' (body discarded). */
  responseType: 'text' | 'binary' | 'none';
}

export interface HttpTimings {
  blocked: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
  duration: number;
}

export interface RawHttpResult {
  status: number;
  statusText: string;
  headers: Record<string, string>;
  body: string | ArrayBuffer | null;
  url: string;
  proto: string;
  timings: HttpTimings;
  /** k6's error text and code (https://grafana.com/docs/k6/latest/javascript-api/error-codes/), '' / 0 when none. */
  error: string;
  errorCode: number;
  bytesSent: number;
  bytesReceived: number;
}

/** k6 error codes for the failures undici reports (k6 lib/netext/httpext/error_codes.go). */
export function k6ErrorCode(error: unknown, timedOut: boolean): { code: number; text: string } {
  if (timedOut) return { code: 1050, text: 'request timeout' };
  const code = errorCodeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ECONNREFUSED':
      return { code: 1212, text: `dial: connection refused` };
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return { code: 1220, text: `read: connection reset by peer` };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return { code: 1101, text: `lookup: no such host` };
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { code: 1211, text: 'dial: i/o timeout' };
    case 'ERR_INVALID_URL':
    case 'ERR_INVALID_ARG_VALUE':
      return { code: 1020, text: `invalid URL: ${message}` };
    default:
      return { code: 1000, text: message };
  }
}

/** Failures before any byte of the request left: invalid URL, no such host, dial timeout, connection refused. */
const NOTHING_SENT = new Set([1020, 1101, 1211, 1212]);

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
};

/**
 * One keep-alive Agent per thread. Redirects are followed by performRequest itself (an undici redirect interceptor
 * and a per-request AbortController each cost a large share of throughput, measured).
 */
export function createAgent(options: { noConnectionReuse?: boolean } = {}): Dispatcher {
  return new Agent({
    keepAliveTimeout: options.noConnectionReuse === true ? 1 : 60_000,
    keepAliveMaxTimeout: 600_000,
    pipelining: options.noConnectionReuse === true ? 0 : 1,
    headersTimeout: 0,
    bodyTimeout: 0,
  });
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function headerBytes(headers: Record<string, string | string[] | undefined>): number {
  let n = 0;
  for (const k in headers) {
    const v = headers[k];
    if (v === undefined) continue;
    if (typeof v === 'string') n += k.length + v.length + 4;
    else for (const value of v) n += k.length + value.length + 4;
  }
  return n;
}

/**
 * k6 canonicalises header names (Content-Type). A response carries the same few names every time: each is worked out
 * once per thread (a regex replace per header per response was a visible share of the worker's profile). Bounded, so a
 * target sending unique header names cannot grow it without end.
 */
const canonicalNames = new Map<string, string>();
const MAX_CANONICAL_NAMES = 1_000;
function canonicalName(name: string): string {
  let canonical = canonicalNames.get(name);
  if (canonical === undefined) {
    canonical = name.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
    if (canonicalNames.size < MAX_CANONICAL_NAMES) canonicalNames.set(name, canonical);
  }
  return canonical;
}

const SCHEME = /^[a-z]+$/i;
/** The request target of an absolute URL (what follows scheme and authority), '/' when empty. */
function pathOf(url: string): string {
  const scheme = url.indexOf('://');
  if (scheme > 0 && SCHEME.test(url.slice(0, scheme))) {
    const slash = url.indexOf('/', scheme + 3);
    return slash < 0 ? '/' : url.slice(slash);
  }
  return url.replace(/^[a-z]+:\/\/[^/]+/i, '') || '/';
}

/**
 * k6's HTTP client is Go's http.Transport, which silently sends a request again when the connection it reused turns
 * out to be closed or reset before any byte of the answer (a keep-alive race: the server closed an idle connection),
 * if the request is replayable: GET, HEAD, OPTIONS, TRACE, or any method with an Idempotency-Key / X-Idempotency-Key
 * header (net/http transport.go shouldRetryRequest, request.go isReplayable). A fresh connection is never retried.
 * undici does not retry, so the engine does it here, on the same rule. Which connection a request went out on is
 * learnt from undici's diagnostics channels: `request:create` fires synchronously inside request() (so `creating`
 * pairs it with the attempt), `client:sendHeaders` names the socket.
 *
 * The same channels time the answer as close to the wire as Node allows: `request:headers` and `request:trailers` fire
 * inside undici's parser, in the turn that read the bytes off the socket, before any script continuation queued behind
 * other VUs' answers on this thread runs (engine/README.md "Latency at the wire").
 */
interface Attempt {
  reused: boolean;
  /** performance.now() when undici parsed the answer's headers, and when it parsed its end. */
  headersAt?: number;
  endAt?: number;
}
let creating: Attempt | undefined;
const attemptOf = new WeakMap<object, Attempt>();
const usedSockets = new WeakSet<object>();
diagnostics.subscribe('undici:request:create', (message) => {
  if (creating === undefined) return;
  attemptOf.set((message as { request: object }).request, creating);
  creating = undefined;
});
diagnostics.subscribe('undici:client:sendHeaders', (message) => {
  const { request: sent, socket } = message as { request: object; socket: object };
  const attempt = attemptOf.get(sent);
  if (attempt !== undefined) attempt.reused = usedSockets.has(socket);
  usedSockets.add(socket);
});
diagnostics.subscribe('undici:request:headers', (message) => {
  const attempt = attemptOf.get((message as { request: object }).request);
  if (attempt !== undefined) attempt.headersAt = performance.now();
});
diagnostics.subscribe('undici:request:trailers', (message) => {
  const attempt = attemptOf.get((message as { request: object }).request);
  if (attempt !== undefined) attempt.endAt = performance.now();
});

/**
 * k6's waiting (to the answer's first byte), receiving and duration of a request started at `t0`: from the parser's
 * times when undici gave them (`wire`), else from when this request's continuation read them (`t1` headers, `t2` body).
 */
export function answerTimings(
  t0: number,
  t1: number,
  t2: number,
  wire: Pick<Attempt, 'headersAt' | 'endAt'> | undefined,
): Pick<HttpTimings, 'waiting' | 'receiving' | 'duration'> {
  const headersAt = Math.min(wire?.headersAt ?? t1, t1);
  const endAt = Math.max(headersAt, Math.min(wire?.endAt ?? t2, t2));
  return { waiting: headersAt - t0, receiving: endAt - headersAt, duration: endAt - t0 };
}

const REPLAYABLE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
/** Bound on the retries of one request (Go's is implicit: each retry takes a fresh or another idle connection). */
const MAX_RETRIES = 5;

function retriedLikeGo(method: string, headers: Record<string, string>, attempt: Attempt, error: unknown): boolean {
  if (!attempt.reused) return false;
  const names = Object.keys(headers).map((h) => h.toLowerCase());
  if (!REPLAYABLE_METHODS.has(method) && !names.includes('idempotency-key') && !names.includes('x-idempotency-key')) return false;
  const code = errorCodeOf(error);
  return code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE';
}

/**
 * Resolves one event-loop turn later, once undici has put the connection that just answered back among the free
 * ones: with one request per connection it does so in a setImmediate after the answer ends (client-h1.js, "wait a
 * full event loop cycle to reuse this socket"), and its pool gives a request sent before that a second connection.
 * A VU going straight on to its next request then held two connections, not k6's one (Go's transport frees the
 * connection as the body ends), and at 1,000 VUs the engine kept 2,000 sockets open. Immediates run in the order
 * they were set, so undici's comes first.
 */
function connectionFreed(): Promise<void> {
  return new Promise((resolveTurn) => setImmediate(resolveTurn));
}

/** The whole request's deadline passed while its body was being read (see performRequest). */
class RequestTimeout extends Error {
  readonly code = 'GH_REQUEST_TIMEOUT';
}

type ResponseBody = Dispatcher.ResponseData['body'];

/**
 * Reads a body, destroying it when the request's deadline passes first: one timer per body still on its way, no
 * AbortController. A body already all buffered (Content-Length bytes in, the usual small answer) cannot stall: no timer.
 * `read` is one of the readers below (made once, not per request), or a redirect's counting closure.
 */
async function readBefore<T>(
  body: ResponseBody,
  headers: Dispatcher.ResponseData['headers'],
  deadline: number,
  read: (body: ResponseBody) => Promise<T>,
): Promise<T> {
  const length = Number(headers['content-length']);
  if (Number.isFinite(length) && body.readableLength >= length) return read(body);
  const timer = setTimeout(() => body.destroy(new RequestTimeout('request timeout')), Math.max(1, Math.ceil(deadline - performance.now())));
  try {
    return await read(body);
  } finally {
    clearTimeout(timer);
  }
}

/** The whole body's bytes (responseType 'text' and 'binary'). */
function wholeBody(body: ResponseBody): Promise<ArrayBuffer> {
  return body.arrayBuffer();
}

/** Reads the body to its end and keeps only how many bytes it had (responseType 'none'). */
async function discardedBytes(body: ResponseBody): Promise<number> {
  let received = 0;
  for await (const chunk of body) received += (chunk as Buffer).length;
  return received;
}

/** The final answer's body as the spec asked for it: its bytes, or (responseType 'none') how many there were. */
function readAnswer(
  res: Dispatcher.ResponseData,
  responseType: HttpRequestSpec['responseType'],
  deadline: number,
): Promise<ArrayBuffer | number> {
  return responseType === 'none'
    ? readBefore(res.body, res.headers, deadline, discardedBytes)
    : readBefore(res.body, res.headers, deadline, wholeBody);
}

/** What the script gets as the body: the text (UTF-8), the ArrayBuffer ('binary'), or null ('none'). */
function bodyOf(read: ArrayBuffer | number, responseType: HttpRequestSpec['responseType']): string | ArrayBuffer | null {
  if (typeof read === 'number') return null;
  return responseType === 'binary' ? read : Buffer.from(read).toString('utf8');
}

/**
 * Starts one attempt: undici's `request:create` fires inside request(), so `creating` pairs it with `attempt` (see
 * Attempt). Its headers and body timers get what is left of the whole request's deadline; nothing left: a timeout.
 */
function sendAttempt(
  agent: Dispatcher,
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Uint8Array | null,
  deadline: number,
  signal: AbortSignal | undefined,
  attempt: Attempt,
): Promise<Dispatcher.ResponseData> {
  const left = deadline - performance.now();
  if (left < 1) throw new RequestTimeout('request timeout');
  creating = attempt;
  try {
    return request(url, {
      method: method as 'GET',
      headers,
      body,
      dispatcher: agent,
      headersTimeout: left,
      bodyTimeout: left,
      ...(signal === undefined ? {} : { signal }),
    });
  } finally {
    creating = undefined;
  }
}

/** Where a redirect the request follows leads (k6 follows up to maxRedirects hops); undefined for a final answer. */
function redirectLocation(res: Dispatcher.ResponseData, hop: number, maxRedirects: number): string | undefined {
  const location = res.headers.location;
  return REDIRECTS.has(res.statusCode) && typeof location === 'string' && hop < maxRedirects ? location : undefined;
}

/** Go's client (and k6's) follows a 303, and a 301/302 answering a POST, with a GET without body. */
function redirectsAsGet(status: number, method: string): boolean {
  return status === 303 || ((status === 301 || status === 302) && method === 'POST');
}

/** The answer's headers as k6 gives them: canonical names, repeated values joined with ", ". */
function k6Headers(raw: Dispatcher.ResponseData['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const k in raw) {
    const v = raw[k];
    if (v === undefined) continue;
    headers[canonicalName(k)] = Array.isArray(v) ? v.join(', ') : v;
  }
  return headers;
}

/** The result of a request that got its final answer; `bytesReceived` counts the earlier hops, `read` this body. */
function answeredResult(
  res: Dispatcher.ResponseData,
  read: ArrayBuffer | number,
  out: string | ArrayBuffer | null,
  url: string,
  timings: HttpTimings,
  bytesSent: number,
  bytesReceived: number,
): RawHttpResult {
  const received = typeof read === 'number' ? read : read.byteLength;
  return {
    status: res.statusCode,
    statusText: `${res.statusCode} ${STATUS_TEXT[res.statusCode] ?? ''}`.trim(),
    headers: k6Headers(res.headers),
    body: out,
    url,
    proto: 'HTTP/1.1',
    timings,
    error: '',
    // k6 gives an HTTP error status its own code (1400-1599 = 1000 + status) with no error text.
    errorCode: res.statusCode >= 400 && res.statusCode < 600 ? 1000 + res.statusCode : 0,
    bytesSent,
    bytesReceived: bytesReceived + 17 + headerBytes(res.headers as Record<string, string>) + received,
  };
}

/** The result of a request that failed (status 0, k6's error text and code), timed from `t0` to now. */
function failedResult(
  error: unknown,
  t0: number,
  url: string,
  timings: HttpTimings,
  bytesSent: number,
  bytesReceived: number,
): RawHttpResult {
  const code = errorCodeOf(error);
  const described = k6ErrorCode(
    error,
    code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'GH_REQUEST_TIMEOUT',
  );
  timings.duration = performance.now() - t0;
  // What crossed the wire still counts in data_sent/data_received (k6 counts on the connection): the request, unless
  // the connection never opened; of the answer, only what earlier redirect hops brought (a cut final body is not counted).
  const sent = NOTHING_SENT.has(described.code) ? 0 : bytesSent;
  return {
    status: 0,
    statusText: '',
    headers: {},
    body: null,
    url,
    proto: '',
    timings,
    error: described.text,
    errorCode: described.code,
    bytesSent: sent,
    bytesReceived,
  };
}

/**
 * Sends the request, following up to `maxRedirects` redirects like k6; never throws: failures become status 0 with
 * k6's error and error_code. The timeout bounds the whole request like k6's (a context deadline over redirects,
 * headers and body): each hop's wait for headers gets what is left of it (undici's headers timer), and reading a body
 * stops when it passes. `signal` (the VU's, long-lived) interrupts the request when the VU's iteration is interrupted.
 * The hot path of the engine: its steps are plain calls, and its only awaits are the answer, the body and the
 * connection's release (no step is an async function of its own, which would add a promise and a turn per request).
 */
export async function performRequest(
  agent: Dispatcher,
  spec: HttpRequestSpec,
  signal?: AbortSignal,
  maxRedirects = 10,
): Promise<RawHttpResult> {
  const t0 = performance.now();
  const deadline = t0 + spec.timeoutMs;
  const bodyLength = spec.body === null ? 0 : typeof spec.body === 'string' ? Buffer.byteLength(spec.body) : spec.body.byteLength;
  const timings: HttpTimings = { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting: 0, receiving: 0, duration: 0 };
  let url = spec.url;
  let method = spec.method;
  let body = spec.body;
  let bytesSent = 0;
  let bytesReceived = 0;
  const requestHeaderBytes = headerBytes(spec.headers);
  try {
    for (let hop = 0; ; hop++) {
      const path = pathOf(url);
      let res: Dispatcher.ResponseData;
      let answered: Attempt;
      // An attempt that failed on a reused connection before any answer is sent again, as Go does (retriedLikeGo).
      for (let retries = 0; ; retries++) {
        bytesSent += method.length + path.length + 11 + requestHeaderBytes + (body === null ? 0 : bodyLength) + 2;
        const attempt: Attempt = { reused: false };
        try {
          res = await sendAttempt(agent, url, method, spec.headers, body, deadline, signal, attempt);
          answered = attempt;
          break;
        } catch (error) {
          if (retries < MAX_RETRIES && retriedLikeGo(method, spec.headers, attempt, error)) continue;
          throw error;
        }
      }
      const location = redirectLocation(res, hop, maxRedirects);
      if (location !== undefined) {
        // Counted into the total as it arrives: a redirect's body cut by the deadline still counts what it brought.
        await readBefore(res.body, res.headers, deadline, async (redirectBody) => {
          for await (const chunk of redirectBody) bytesReceived += (chunk as Buffer).length;
        });
        bytesReceived += 17 + headerBytes(res.headers as Record<string, string>);
        await connectionFreed();
        url = new URL(location, url).toString();
        if (redirectsAsGet(res.statusCode, method)) {
          method = 'GET';
          body = null;
        }
        continue;
      }
      const t1 = performance.now();
      const read = await readAnswer(res, spec.responseType, deadline);
      const out = bodyOf(read, spec.responseType);
      const t2 = performance.now();
      await connectionFreed(); // after the timings: the wait is not part of the request
      Object.assign(timings, answerTimings(t0, t1, t2, answered));
      return answeredResult(res, read, out, url, timings, bytesSent, bytesReceived);
    }
  } catch (error) {
    return failedResult(error, t0, url, timings, bytesSent, bytesReceived);
  }
}
