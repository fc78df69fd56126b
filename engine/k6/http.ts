// `k6/http`: request/asyncRequest/get/post/put/patch/del/head/options/batch with k6's params, Response objects and
// built-in http_* metrics tagged like k6 (method, url, name, status, proto, expected_response, error_code, ...).
import type { HttpRequestSpec, RawHttpResult } from '../http/perform.ts';
import { performRequest } from '../http/perform.ts';
import type { ModuleVU } from './module-vu.ts';
import { parseDuration } from '../durations.ts';

type Params = Record<string, unknown> & {
  headers?: Record<string, unknown>;
  tags?: Record<string, unknown>;
  timeout?: unknown;
  responseType?: unknown;
  responseCallback?: unknown;
};

/** k6's responseCallback: a set of expected statuses (http.expectedStatuses). */
interface ExpectedStatuses {
  readonly __expected: Array<number | { min: number; max: number }>;
}

const SUPPORTED_PARAMS = new Set(['headers', 'tags', 'timeout', 'responseType', 'responseCallback', 'redirects', 'compression']);
const DEFAULT_EXPECTED: ExpectedStatuses = { __expected: [{ min: 200, max: 399 }] };

/** An http.url`...` value: the URL with its template as the `name` tag. */
class TemplatedUrl {
  constructor(
    readonly url: string,
    readonly name: string,
  ) {}
  toString(): string {
    return this.url;
  }
}

function redirectsOf(params: Params, fallback: number): number {
  return typeof params.redirects === 'number' ? params.redirects : fallback;
}

function isExpected(cb: ExpectedStatuses, status: number): boolean {
  return cb.__expected.some((e) => (typeof e === 'number' ? e === status : status >= e.min && status <= e.max));
}

/** The request timeout in ms: k6's default 60 s, a number of milliseconds, or a duration through the one parser. */
export function requestTimeoutMs(value: unknown): number {
  if (value === undefined || value === null) return 60_000;
  return parseDuration(value, 'http params.timeout');
}

function encodeBody(body: unknown, headers: Record<string, string>): string | Uint8Array | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (typeof body === 'object') {
    // k6 form-encodes a plain object body.
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
    return new URLSearchParams(
      Object.entries(body as Record<string, unknown>).map(([k, v]): [string, string] => [k, String(v)]),
    ).toString();
  }
  return String(body);
}

/** Reads a gjson-like dotted path (`a.b.0.c`), the subset of k6's Response.json(selector) the engine supports. */
function select(value: unknown, selector: string): unknown {
  let cur = value;
  for (const part of selector.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

export class Response {
  status: number;
  status_text: string;
  body: string | ArrayBuffer | null;
  headers: Record<string, string>;
  timings: RawHttpResult['timings'];
  url: string;
  proto: string;
  error: string;
  error_code: number;
  remote_ip = '';
  remote_port = 0;
  tls_version = '';
  cookies: Record<string, unknown> = {};
  request: { method: string; url: string; headers: Record<string, string[]>; body: string };
  private parsed: unknown;
  private hasParsed = false;

  constructor(raw: RawHttpResult, spec: HttpRequestSpec) {
    this.status = raw.status;
    this.status_text = raw.statusText;
    this.body = raw.body;
    this.headers = raw.headers;
    this.timings = raw.timings;
    this.url = raw.url;
    this.proto = raw.proto;
    this.error = raw.error;
    this.error_code = raw.errorCode;
    const headers: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(spec.headers)) headers[k] = [v];
    this.request = { method: spec.method, url: spec.url, headers, body: typeof spec.body === 'string' ? spec.body : '' };
  }

  json(selector?: string): unknown {
    if (typeof this.body !== 'string') throw new Error('cannot parse a response without a text body as JSON');
    if (!this.hasParsed) {
      this.parsed = JSON.parse(this.body);
      this.hasParsed = true;
    }
    return selector === undefined ? this.parsed : select(this.parsed, selector);
  }

  html(): never {
    throw new Error('Response.html() is not implemented by the node engine; run this script with k6');
  }

  clickLink(): never {
    throw new Error('Response.clickLink() is not implemented by the node engine; run this script with k6');
  }

  submitForm(): never {
    throw new Error('Response.submitForm() is not implemented by the node engine; run this script with k6');
  }
}

/** One VU's http module: its VU and the response callback `http.setResponseCallback` set (k6's default until then). */
interface HttpState {
  readonly vu: ModuleVU;
  responseCallback: ExpectedStatuses | null;
}

/** A request checked and built, with what its metrics are tagged and judged by. */
interface PreparedRequest {
  readonly spec: HttpRequestSpec;
  readonly nameTag: string;
  readonly params: Params;
  readonly callback: ExpectedStatuses | null;
}

type BatchItem = string | TemplatedUrl | unknown[] | { method?: string; url: unknown; body?: unknown; params?: Params };

export function createHttpModule(vu: ModuleVU): Record<string, unknown> {
  const state: HttpState = { vu, responseCallback: DEFAULT_EXPECTED };
  const request = (method: string, u: unknown, body?: unknown, params?: Params): Response => syncRequest(state, method, u, body, params);
  return {
    request,
    asyncRequest: (method: string, u: unknown, body?: unknown, params?: Params) => asyncRequest(state, method, u, body, params),
    get: (u: unknown, params?: Params) => request('GET', u, null, params),
    head: (u: unknown, params?: Params) => request('HEAD', u, null, params),
    post: (u: unknown, body?: unknown, params?: Params) => request('POST', u, body, params),
    put: (u: unknown, body?: unknown, params?: Params) => request('PUT', u, body, params),
    patch: (u: unknown, body?: unknown, params?: Params) => request('PATCH', u, body, params),
    del: (u: unknown, body?: unknown, params?: Params) => request('DELETE', u, body, params),
    options: (u: unknown, body?: unknown, params?: Params) => request('OPTIONS', u, body, params),
    batch: (requests: BatchItem[] | Record<string, BatchItem>) => batch(state, requests),
    expectedStatuses,
    setResponseCallback: (cb: ExpectedStatuses | null) => {
      state.responseCallback = cb;
    },
    url: templatedUrl,
    TLS_1_2: 'tls1.2',
    TLS_1_3: 'tls1.3',
    OCSP_STATUS_GOOD: 'good',
  };
}

/** k6's checks before a request leaves (not in the init context, only supported params), then the request as sent. */
function prepare(state: HttpState, method: string, urlArg: unknown, body: unknown, params: Params | undefined): PreparedRequest {
  const { vu } = state;
  if (vu.initPhase) throw new Error('making http requests in the init context is not supported');
  vu.assertRunning();
  const p: Params = params ?? {};
  for (const key of Object.keys(p)) {
    if (!SUPPORTED_PARAMS.has(key)) throw new Error(`http params.${key} is not implemented by the node engine; run this script with k6`);
  }
  const url = urlArg instanceof TemplatedUrl ? urlArg.url : String(urlArg);
  const nameTag = p.tags?.name !== undefined ? String(p.tags.name) : urlArg instanceof TemplatedUrl ? urlArg.name : url;
  const headers = requestHeaders(vu, p);
  const spec: HttpRequestSpec = {
    method: method.toUpperCase(),
    url,
    headers,
    body: encodeBody(body, headers),
    timeoutMs: requestTimeoutMs(p.timeout),
    responseType: responseTypeOf(vu, p),
  };
  const callback = p.responseCallback === undefined ? state.responseCallback : (p.responseCallback as ExpectedStatuses | null);
  return { spec, nameTag, params: p, callback };
}

/** The User-Agent (k6's unless options.userAgent says otherwise, '' for none), then the params' headers. */
function requestHeaders(vu: ModuleVU, p: Params): Record<string, string> {
  const rt = vu.runtime;
  const headers: Record<string, string> = {};
  if (rt.options.userAgent !== '') headers['User-Agent'] = rt.options.userAgent ?? rt.userAgent;
  if (p.headers !== undefined && p.headers !== null) for (const [k, v] of Object.entries(p.headers)) headers[k] = String(v);
  return headers;
}

function responseTypeOf(vu: ModuleVU, p: Params): HttpRequestSpec['responseType'] {
  if (p.responseType === 'binary' || p.responseType === 'none' || p.responseType === 'text') return p.responseType;
  return vu.runtime.options.discardResponseBodies ? 'none' : 'text';
}

/** The http_* metrics of one answered (or failed) request, tagged like k6's, and its Response. */
function record(vu: ModuleVU, raw: RawHttpResult, prepared: PreparedRequest): Response {
  const { tags, failed } = responseTags(vu, raw, prepared);
  const t = raw.timings;
  vu.emit('http_reqs', 1, tags);
  vu.emit('http_req_duration', t.duration, tags);
  vu.emit('http_req_blocked', t.blocked, tags);
  vu.emit('http_req_connecting', t.connecting, tags);
  vu.emit('http_req_tls_handshaking', t.tls_handshaking, tags);
  vu.emit('http_req_sending', t.sending, tags);
  vu.emit('http_req_waiting', t.waiting, tags);
  vu.emit('http_req_receiving', t.receiving, tags);
  if (failed !== undefined) vu.emit('http_req_failed', failed ? 1 : 0, tags);
  vu.bytesSent += raw.bytesSent;
  vu.bytesReceived += raw.bytesReceived;
  return new Response(raw, prepared.spec);
}

/** k6's tags of a request's samples; `failed` by the response callback (undefined when the callback is null). */
function responseTags(vu: ModuleVU, raw: RawHttpResult, prepared: PreparedRequest): { tags: Record<string, string>; failed?: boolean } {
  const { spec, params, callback } = prepared;
  const tags = vu.baseTags();
  if (params.tags !== undefined && params.tags !== null) for (const [k, v] of Object.entries(params.tags)) tags[k] = String(v);
  tags.method = spec.method;
  tags.url = spec.url;
  tags.name = prepared.nameTag;
  tags.status = String(raw.status);
  if (raw.proto !== '') tags.proto = raw.proto; // k6 has no proto tag on a request that got no response
  if (raw.errorCode !== 0) {
    if (raw.error !== '') tags.error = raw.error; // an HTTP error status has a code and no error text (k6)
    tags.error_code = String(raw.errorCode);
  }
  if (callback === null) return { tags };
  const expected = isExpected(callback, raw.status);
  tags.expected_response = String(expected);
  return { tags, failed: !expected };
}

async function asyncRequest(state: HttpState, method: string, url: unknown, body?: unknown, params?: Params): Promise<Response> {
  const { vu } = state;
  const prepared = prepare(state, method, url, body, params);
  await vu.flushSleep();
  const raw = await performRequest(vu.agent, prepared.spec, vu.signal, redirectsOf(prepared.params, vu.runtime.maxRedirects()));
  vu.assertRunning();
  return record(vu, raw, prepared);
}

function syncRequest(state: HttpState, method: string, url: unknown, body?: unknown, params?: Params): Response {
  const prepared = prepare(state, method, url, body, params);
  state.vu.flushSleepSync();
  const [raw] = state.vu.runtime.syncHttp().requestMany([prepared.spec]);
  return record(state.vu, raw as RawHttpResult, prepared);
}

/** http.batch: an array or an object of requests (a URL, [method, url, body, params] or { method, url, body, params }). */
function batch(state: HttpState, requests: BatchItem[] | Record<string, BatchItem>): Response[] | Record<string, Response> {
  const entries = Array.isArray(requests) ? requests.map((r, i) => [String(i), r] as const) : Object.entries(requests);
  const prepared = entries.map(([, item]) => {
    if (typeof item === 'string' || item instanceof TemplatedUrl) return prepare(state, 'GET', item, null, undefined);
    if (Array.isArray(item)) return prepare(state, String(item[0]), item[1], item[2], item[3] as Params | undefined);
    const obj = item as { method?: string; url: unknown; body?: unknown; params?: Params };
    return prepare(state, obj.method ?? 'GET', obj.url, obj.body, obj.params);
  });
  state.vu.flushSleepSync();
  const raws = state.vu.runtime.syncHttp().requestMany(prepared.map((p) => p.spec));
  const responses = prepared.map((p, i) => record(state.vu, raws[i] as RawHttpResult, p));
  if (Array.isArray(requests)) return responses;
  return Object.fromEntries(entries.map(([k], i) => [k, responses[i] as Response]));
}

function expectedStatuses(...statuses: Array<number | { min: number; max: number }>): ExpectedStatuses {
  for (const s of statuses) {
    if (typeof s !== 'number' && (typeof s !== 'object' || s === null || typeof s.min !== 'number' || typeof s.max !== 'number')) {
      throw new Error('expectedStatuses takes status codes or { min, max } ranges');
    }
  }
  return { __expected: statuses };
}

/** http.url`...`: the URL, named by its template (`${}` for each value). */
function templatedUrl(strings: TemplateStringsArray, ...values: unknown[]): TemplatedUrl {
  let full = '';
  let name = '';
  strings.forEach((s, i) => {
    full += s;
    name += s;
    if (i < values.length) {
      full += String(values[i]);
      name += '${}';
    }
  });
  return new TemplatedUrl(full, name);
}
