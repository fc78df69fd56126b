// Sends one k6-style HTTP request over an undici keep-alive Agent and returns a plain, cloneable result with k6's
// timing phases and error codes. Shared by the async path (VU threads) and the sync helper thread.
import { performance } from 'node:perf_hooks';
import { Agent, interceptors, request, type Dispatcher } from 'undici';

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

function errorCodeOf(error: unknown): string | undefined {
  if (error === null || typeof error !== 'object') return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined || cause === error ? undefined : errorCodeOf(cause);
}

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 201: 'Created', 204: 'No Content', 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable' };

/** One keep-alive Agent per thread, following redirects like k6 (options.maxRedirects, default 10). */
export function createAgent(options: { noConnectionReuse?: boolean; maxRedirects?: number } = {}): Dispatcher {
  const agent = new Agent({
    keepAliveTimeout: options.noConnectionReuse === true ? 1 : 60_000,
    keepAliveMaxTimeout: 600_000,
    pipelining: options.noConnectionReuse === true ? 0 : 1,
    headersTimeout: 0,
    bodyTimeout: 0,
  });
  const redirects = options.maxRedirects ?? 10;
  return redirects > 0 ? agent.compose(interceptors.redirect({ maxRedirections: redirects })) : agent;
}

function headerBytes(headers: Record<string, string | string[] | undefined>): number {
  let n = 0;
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    for (const value of Array.isArray(v) ? v : [v]) n += k.length + value.length + 4;
  }
  return n;
}

/** Sends the request; never throws: failures become status 0 with k6's error and error_code. */
export async function performRequest(agent: Dispatcher, spec: HttpRequestSpec, signal?: AbortSignal): Promise<RawHttpResult> {
  const t0 = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, spec.timeoutMs);
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const bodyLength = spec.body === null ? 0 : typeof spec.body === 'string' ? Buffer.byteLength(spec.body) : spec.body.byteLength;
  const path = spec.url.replace(/^[a-z]+:\/\/[^/]+/i, '') || '/';
  const bytesSent = spec.method.length + path.length + 11 + headerBytes(spec.headers) + bodyLength + 2;
  const timings: HttpTimings = { blocked: 0, connecting: 0, tls_handshaking: 0, sending: 0, waiting: 0, receiving: 0, duration: 0 };
  try {
    const res = await request(spec.url, {
      method: spec.method as 'GET',
      headers: spec.headers,
      body: spec.body,
      dispatcher: agent,
      signal: controller.signal,
    });
    const t1 = performance.now();
    let body: string | ArrayBuffer | null = null;
    let received = 0;
    if (spec.responseType === 'none') {
      for await (const chunk of res.body) received += (chunk as Buffer).length;
    } else if (spec.responseType === 'binary') {
      body = await res.body.arrayBuffer();
      received = body.byteLength;
    } else {
      const buf = Buffer.from(await res.body.arrayBuffer());
      received = buf.length;
      body = buf.toString('utf8');
    }
    const t2 = performance.now();
    timings.waiting = t1 - t0;
    timings.receiving = t2 - t1;
    timings.duration = t2 - t0;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) {
      if (v === undefined) continue;
      // k6 canonicalises header names (Content-Type) and joins repeated values with ", ".
      headers[k.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase())] = Array.isArray(v) ? v.join(', ') : v;
    }
    return {
      status: res.statusCode,
      statusText: `${res.statusCode} ${STATUS_TEXT[res.statusCode] ?? ''}`.trim(),
      headers,
      body,
      url: spec.url,
      proto: 'HTTP/1.1',
      timings,
      error: '',
      errorCode: 0,
      bytesSent,
      bytesReceived: 17 + headerBytes(res.headers as Record<string, string>) + received,
    };
  } catch (error) {
    const described = k6ErrorCode(error, timedOut);
    timings.duration = performance.now() - t0;
    return { status: 0, statusText: '', headers: {}, body: null, url: spec.url, proto: '', timings, error: described.text, errorCode: described.code, bytesSent: 0, bytesReceived: 0 };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
