// buildApp(): the embedded sandbox as a fastify instance that never listens (tests inject, server.ts listens).
// Routes come from the operation catalog; every response, business or not, leaves through one envelope sender.
import Fastify from 'fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HarnessError } from '../api/errors.ts';
import { SIMULATOR_HEADER } from '../api/preflight.ts';
import { OPERATIONS, findOperation } from '../api/operations.ts';
import type { Operation } from '../api/operations.ts';
import { createBasicAuthCheck, WWW_AUTHENTICATE } from './auth.ts';
import type { BehaviourOverride, SandboxBehaviour } from './behaviour.ts';
import { DEFAULT_BEHAVIOUR, checkBehaviour, mergeBehaviour } from './behaviour.ts';
import { generateSandboxData } from './data/generate.ts';
import { parseAcceptLanguage } from './data/localize.ts';
import type { SandboxData } from './data/types.ts';
import { checkResponseCodes } from './error-codes.ts';
import type { ResponseCodeKey } from './error-codes.ts';
import { createEnvelopeSender, failure } from './envelope.ts';
import type { EnvelopeSender, RouteReply, SendContext } from './envelope.ts';
import { createRng } from './data/rng.ts';
import { registerFaults } from './faults.ts';
import type { FaultPlan } from './faults.ts';
import { getProfile } from './profiles/registry.ts';
import type { SandboxProfile } from './profiles/types.ts';
import type { ProfileHooks } from './profiles/hooks.ts';
import { createRelayHold } from './relay-hold.ts';
import type { RouteHandler, SandboxEnv, SandboxMode } from './routes/context.ts';
import { ListingCache, readArgs, scaled } from './routes/context.ts';
import { handlerFor } from './routes/index.ts';
import { SandboxStats } from './stats.ts';
import { withCorruption } from './corruption.ts';
import { SandboxStore } from './store.ts';

export interface SandboxOptions {
  /** Catalog seed; default 1. Same seed, same catalog. */
  seed?: number;
  /** Multiplies every delay; default 1 (0.01 => the 120 s trigger takes 1.2 s). */
  timeScale?: number;
  /** 'production': same rules, no triggers, lookup for every country except US and ES. Default 'sandbox'. */
  mode?: SandboxMode;
  /** Basic auth credentials; default 'user' / 'pass'. */
  user?: string;
  password?: string;
  /** A name from the profile registry (default 'faithful'), or a profile object (ad-hoc profiles in tests). */
  profile?: string | SandboxProfile;
  /** Overrides of the assumed behaviours (and planted-bug toggles), applied over the profile's. */
  behaviour?: BehaviourOverride;
  /**
   * Starting available funds in the wallet currency (USD); default behaviour.initialBalance (DEFAULT_FUNDS, 10 000).
   * Load runs use LOAD_SANDBOX_FUNDS. A drained wallet answers '009'.
   */
  funds?: number;
  /** Honour the per-request X-Sandbox-Fault header; default false (opt-in). */
  faults?: boolean;
  /** Fraction 0..1 of eligible requests a fault profile (faults-*) faults; default the profile's (0.1). */
  faultRate?: number;
  /** Wait of the `slow` and `late` faults of a fault profile (real-time ms, scaled); default the profile's (40 000). */
  faultSlowMs?: number;
  /** Operation id -> path template, for the write operations whose path the spec does not show. */
  writePaths?: Record<string, string>;
  /** Largest accepted request body; default 64 KiB. */
  bodyLimitBytes?: number;
  /** Clock in ms (tests); default Date.now. */
  now?: () => number;
  /** Fastify's logger; default false (it costs throughput and would log request URLs). */
  logger?: boolean;
}

/** The options in effect. The password is deliberately left out so the object can be printed or reported. */
export interface ResolvedSandboxOptions {
  seed: number;
  timeScale: number;
  mode: SandboxMode;
  user: string;
  profile: string;
  behaviour: SandboxBehaviour;
  /** Starting available funds (wallet currency); equals behaviour.initialBalance. */
  funds: number;
  faults: boolean;
  /** The fault profile's plan with the rate and slow wait in effect; undefined without a fault profile. */
  faultPlan: FaultPlan | undefined;
  writePaths: Readonly<Record<string, string>>;
  bodyLimitBytes: number;
  now: () => number;
  logger: boolean;
}

export interface SandboxApp {
  fastify: FastifyInstance;
  store: SandboxStore;
  data: SandboxData;
  options: ResolvedSandboxOptions;
  profile: SandboxProfile;
  /** Requests received per operation and faults served (also served by GET /__sandbox/stats). */
  stats: SandboxStats;
  /** What the routes share (data, store, behaviour, listing cache): for tests and tools, not a stable interface. */
  env: SandboxEnv;
  /** Finishes held and pending transactions (their responses are sent), then closes fastify. Idempotent. */
  close(): Promise<void>;
}

export const DEFAULT_BODY_LIMIT_BYTES = 64 * 1024;
/** The sandbox's own counters route (not a gateway operation): requests per operation and faults served. */
export const STATS_PATH = '/__sandbox/stats';
/** Path parameters up to this length reach the handlers, which answer with a clear envelope instead of a bare 404. */
const MAX_PARAM_LENGTH = 8 * 1024;
/** Longest piece of a request echoed into a message. */
const ECHO_MAX = 80;

function configError(message: string): HarnessError {
  return new HarnessError('GH_ERR_CONFIG', message);
}

/** The plain options, each checked in turn (the first problem is the error): seed, time scale, mode, credentials, body limit, funds. */
function checkedScalars(
  options: SandboxOptions,
): Pick<ResolvedSandboxOptions, 'seed' | 'timeScale' | 'mode' | 'user' | 'bodyLimitBytes'> & { password: string } {
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed)) throw configError(`sandbox seed must be an integer, got ${String(seed)}`);
  const timeScale = options.timeScale ?? 1;
  if (!Number.isFinite(timeScale) || timeScale < 0)
    throw configError(`sandbox time scale must be a finite number >= 0, got ${String(timeScale)}`);
  const mode = options.mode ?? 'sandbox';
  if (mode !== 'sandbox' && mode !== 'production')
    throw configError(`sandbox mode must be 'sandbox' or 'production', got '${String(mode)}'`);
  const user = options.user ?? 'user';
  const password = options.password ?? 'pass';
  if (user === '' || user.includes(':')) throw configError('sandbox user must be non-empty and contain no colon');
  const bodyLimitBytes = options.bodyLimitBytes ?? DEFAULT_BODY_LIMIT_BYTES;
  if (!Number.isInteger(bodyLimitBytes) || bodyLimitBytes < 1) throw configError('sandbox body limit must be a positive integer of bytes');
  if (options.funds !== undefined && !(Number.isFinite(options.funds) && options.funds >= 0)) {
    throw configError(`sandbox funds must be a finite amount >= 0, got ${String(options.funds)}`);
  }
  return { seed, timeScale, mode, user, password, bodyLimitBytes };
}

/** The behaviour in effect: defaults < the profile's < the options' (funds last), checked whole. */
function checkedBehaviour(options: SandboxOptions, profile: SandboxProfile): SandboxBehaviour {
  const behaviour = mergeBehaviour(
    DEFAULT_BEHAVIOUR,
    profile.behaviour,
    options.behaviour,
    options.funds === undefined ? undefined : { initialBalance: options.funds },
  );
  const problem = checkBehaviour(behaviour) ?? checkResponseCodes(behaviour.responseCodes);
  if (problem !== undefined) throw configError(`sandbox profile '${profile.name}': ${problem}`);
  return behaviour;
}

/** Write paths the spec does not show may be moved (profile, then options); a path the spec fixes may not. */
function checkedWritePaths(options: SandboxOptions, profile: SandboxProfile): Record<string, string> {
  const writePaths = { ...(profile.writePaths ?? {}), ...(options.writePaths ?? {}) };
  for (const [id, path] of Object.entries(writePaths)) {
    const op = findOperation(id);
    if (op === undefined) throw configError(`writePaths: unknown operation id '${id}'`);
    if (!op.pathAssumed) throw configError(`writePaths: the path of ${id} is fixed by the spec (${op.path})`);
    if (typeof path !== 'string' || !/^\/[A-Za-z0-9/_{}.-]*$/.test(path))
      throw configError(`writePaths: ${id} needs an absolute path, got '${String(path)}'`);
  }
  return writePaths;
}

/** A fault profile's plan with the options' rate and slow wait; those two options mean nothing without one. */
function checkedFaultPlan(options: SandboxOptions, profile: SandboxProfile): FaultPlan | undefined {
  if (options.faultRate !== undefined && !(Number.isFinite(options.faultRate) && options.faultRate >= 0 && options.faultRate <= 1)) {
    throw configError(`sandbox fault rate must be a number 0..1, got ${String(options.faultRate)}`);
  }
  if (options.faultSlowMs !== undefined && !(Number.isFinite(options.faultSlowMs) && options.faultSlowMs >= 0)) {
    throw configError(`sandbox fault slow wait must be a number of ms >= 0, got ${String(options.faultSlowMs)}`);
  }
  if (profile.faults !== undefined) {
    return { ...profile.faults, rate: options.faultRate ?? profile.faults.rate, slowMs: options.faultSlowMs ?? profile.faults.slowMs };
  }
  if (options.faultRate !== undefined || options.faultSlowMs !== undefined) {
    throw configError(`fault rate and slow wait apply to a fault profile (faults-*); profile '${profile.name}' has none`);
  }
  return undefined;
}

function resolveOptions(options: SandboxOptions, profile: SandboxProfile): ResolvedSandboxOptions & { password: string } {
  const { seed, timeScale, mode, user, password, bodyLimitBytes } = checkedScalars(options);
  const behaviour = checkedBehaviour(options, profile);
  const writePaths = checkedWritePaths(options, profile);
  const faultPlan = checkedFaultPlan(options, profile);
  return {
    seed,
    timeScale,
    mode,
    user,
    password,
    profile: profile.name,
    behaviour,
    funds: behaviour.initialBalance,
    faults: options.faults ?? false,
    faultPlan,
    writePaths,
    bodyLimitBytes,
    now: options.now ?? Date.now,
    logger: options.logger ?? false,
  };
}

// Generating the catalog takes tens of ms; suites start many sandboxes with the same seed, and the data is never mutated
// (hooks get private copies), so a few generated catalogs are shared.
const DATA_CACHE_MAX = 8;
const dataCache = new Map<string, SandboxData>();

function dataFor(seed: number, now: number | undefined, extraCountries: readonly string[]): SandboxData {
  const key = `${seed}|${now ?? 'day'}|${extraCountries.join(',')}`;
  let data = dataCache.get(key);
  if (data === undefined) {
    data = generateSandboxData(seed, { ...(now === undefined ? {} : { now }), extraCountries });
    if (dataCache.size >= DATA_CACHE_MAX) {
      const oldest = dataCache.keys().next().value;
      if (oldest !== undefined) dataCache.delete(oldest);
    }
    dataCache.set(key, data);
  }
  return data;
}

/** Query values as strings: the first of a repeated key. */
function plainQuery(query: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (query === null || typeof query !== 'object') return out;
  for (const [key, value] of Object.entries(query as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') out[key] = first;
  }
  return out;
}

function pathOf(request: FastifyRequest): string {
  const url = request.url;
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

function echo(text: string): string {
  return text.length > ECHO_MAX ? `${text.slice(0, ECHO_MAX)}...` : text;
}

/** The code of a JSON body refused for a member that would rewrite an object's prototype (prototype poisoning). */
const FORBIDDEN_MEMBER = 'GH_SANDBOX_FORBIDDEN_JSON_MEMBER';

/** The code of a JSON body nested deeper than MAX_BODY_DEPTH (no request body of the spec is more than 3 deep). */
const TOO_DEEP = 'GH_SANDBOX_JSON_TOO_DEEP';
const MAX_BODY_DEPTH = 64;

/** Whether a parsed body nests arrays/objects deeper than `max` (iterative: a deep body cannot overflow the stack). */
function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    if (item === null || typeof item !== 'object') continue;
    if (depth >= max) return true;
    for (const inner of Object.values(item)) stack.push([inner, depth + 1]);
  }
  return false;
}

function parserError(code: string, message: string): FastifyError {
  return Object.assign(new Error(message), { code, statusCode: 400, name: 'FastifyError' }) as FastifyError;
}

/** The member path of a `__proto__` key, or of a `constructor` holding `prototype`, anywhere in a parsed body. */
function poisonedMember(value: unknown, path = '$'): string | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (key === '__proto__') return `${path}.__proto__`;
    if (key === 'constructor' && item !== null && typeof item === 'object' && Object.prototype.hasOwnProperty.call(item, 'prototype'))
      return `${path}.constructor.prototype`;
    const inner = poisonedMember(item, Array.isArray(value) ? `${path}[${key}]` : `${path}.${key}`);
    if (inner !== undefined) return inner;
  }
  return undefined;
}

/** The sandbox's JSON body parser: as fastify's (same error codes), but a poisoning member is refused by name. */
function parseJsonBody(body: string): { ok: true; value: unknown } | { ok: false; error: FastifyError } {
  if (body.length === 0) return { ok: false, error: parserError('FST_ERR_CTP_EMPTY_JSON_BODY', 'empty JSON body') };
  let value: unknown;
  try {
    // JSON.parse makes `__proto__` an own member (never the prototype); the body is refused below before any use.
    value = JSON.parse(body);
  } catch {
    return { ok: false, error: parserError('FST_ERR_CTP_INVALID_JSON_BODY', 'body is not valid JSON') };
  }
  if (nestedDeeperThan(value, MAX_BODY_DEPTH)) return { ok: false, error: parserError(TOO_DEEP, String(MAX_BODY_DEPTH)) };
  const member = poisonedMember(value);
  if (member !== undefined) return { ok: false, error: parserError(FORBIDDEN_MEMBER, member) };
  return { ok: true, value };
}

/** Fastify's own failures (parsing, limits, bad URLs) as gateway-style answers: HTTP status, code key, message. */
function describeFrameworkError(error: FastifyError, bodyLimit: number): { status: number; key: ResponseCodeKey; message: string } {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, key: 'invalidRequest', message: 'Unsupported content type: send the body as application/json' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, key: 'invalidRequest', message: `Request body too large: the limit is ${bodyLimit} bytes` };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, key: 'invalidRequest', message: 'Invalid request: the body is empty but Content-Type is application/json' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, key: 'invalidRequest', message: 'Invalid request: the body size does not match Content-Length' };
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return {
        status: 414,
        key: 'invalidRequest',
        message: `Invalid request: a path parameter is longer than ${MAX_PARAM_LENGTH} characters`,
      };
    case 'FST_ERR_BAD_URL':
      return { status: 400, key: 'invalidRequest', message: 'Invalid request: the URL is malformed' };
    case TOO_DEEP:
      return { status: 400, key: 'invalidRequest', message: `Invalid request: the body nests more than ${error.message} levels deep` };
    case FORBIDDEN_MEMBER:
      return {
        status: 400,
        key: 'invalidRequest',
        message: `Invalid request: the body's member ${error.message} is not accepted (no request body has it)`,
      };
    default:
      break;
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return { status: 400, key: 'invalidRequest', message: 'Invalid request: the body is not valid JSON' };
  }
  if (status >= 400 && status < 500) return { status, key: 'invalidRequest', message: `Invalid request: ${echo(error.message)}` };
  // Never echo an internal error's text: it can carry request data.
  return { status: 500, key: 'internalError', message: 'Internal error in the sandbox' };
}

/** What the steps of buildApp share: the options in effect, the routes' world, the counters, hooks and credentials. */
interface AppParts {
  readonly resolved: ResolvedSandboxOptions & { password: string };
  readonly profile: SandboxProfile;
  readonly env: SandboxEnv;
  readonly store: SandboxStore;
  readonly stats: SandboxStats;
  readonly hooks: ProfileHooks;
  /** The one envelope sender every answer leaves through. */
  readonly send: EnvelopeSender;
  readonly isAuthorized: (headers: Record<string, string | undefined>) => boolean;
  /** The 401 answer (with WWW-Authenticate) for a request without valid credentials. */
  readonly unauthorized: (reply: FastifyReply, ctx: SendContext) => FastifyReply;
}

/** The routes' world (catalog data, store, behaviour), the counters, the profile's hooks and the credential check. */
function createParts(options: SandboxOptions, profile: SandboxProfile, resolved: AppParts['resolved']): AppParts {
  const { behaviour } = resolved;
  let data: SandboxData;
  try {
    data = dataFor(resolved.seed, options.now === undefined ? undefined : resolved.now(), profile.catalog?.extraCountries ?? []);
  } catch (error) {
    throw configError(`sandbox profile '${profile.name}': ${error instanceof Error ? error.message : String(error)}`);
  }
  const stats = new SandboxStats();
  const store = new SandboxStore({
    initialBalance: behaviour.initialBalance,
    retentionMax: behaviour.statusRetentionMax,
    now: resolved.now,
  });
  const env: SandboxEnv = {
    data,
    store,
    behaviour,
    codes: behaviour.responseCodes,
    mode: resolved.mode,
    timeScale: resolved.timeScale,
    cache: new ListingCache(behaviour.listingCacheMax),
  };
  const hooks: ProfileHooks = withCorruption(profile.hooks ?? {}, profile.corruptions, resolved.seed, stats);
  const send = createEnvelopeSender(hooks);
  const authorized = createBasicAuthCheck(resolved.user, resolved.password);
  const isAuthorized = (headers: Record<string, string | undefined>): boolean =>
    !behaviour.requireAuth || authorized(headers['authorization']);
  const unauthorized = (reply: FastifyReply, ctx: SendContext): FastifyReply =>
    send(reply, ctx, {
      envelope: failure(env.codes, 'unauthorized', 'Authentication failed: send valid HTTP Basic credentials'),
      httpStatus: 401,
      headers: { 'www-authenticate': WWW_AUTHENTICATE },
    });
  return { resolved, profile, env, store, stats, hooks, send, isAuthorized, unauthorized };
}

/** Fastify with the sandbox's JSON-only body parser; routing failures go to `onFrameworkError` once it is set. */
function createFastify(resolved: AppParts['resolved']): { fastify: FastifyInstance; frameworkErrors: { handler: FrameworkErrorHandler } } {
  // Routing failures (bad URL encoding, over-long parameters) skip the error handler unless handed over here.
  const frameworkErrors: { handler: FrameworkErrorHandler } = { handler: () => undefined };
  const fastify = Fastify({
    logger: resolved.logger,
    bodyLimit: resolved.bodyLimitBytes,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: (error, request, reply) => frameworkErrors.handler(error, request, reply),
  });
  // Only JSON bodies: text/plain (fastify's other default) becomes a 415 like any other content type.
  fastify.removeContentTypeParser('text/plain');
  // fastify's JSON parser says "not valid JSON" for valid JSON with a `__proto__` member; ours says what it refused.
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const parsed = parseJsonBody(body as string);
    if (parsed.ok) done(null, parsed.value);
    else done(parsed.error, undefined);
  });
  return { fastify, frameworkErrors };
}

type FrameworkErrorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void;

const routeConfig = (request: FastifyRequest): { operationId?: string; internal?: boolean } | undefined =>
  request.routeOptions?.config as { operationId?: string; internal?: boolean } | undefined;
const isInternal = (request: FastifyRequest): boolean => routeConfig(request)?.internal === true;

/** What every arrival meets first: the simulator header and the counters, then the fault profile's faults. */
function registerArrival(fastify: FastifyInstance, parts: AppParts): void {
  const { resolved, stats, store, env } = parts;
  // Counted first, before faults and credentials: "nothing reached the sandbox" must see every arrival.
  fastify.addHook('onRequest', async (request, reply) => {
    // Every answer names the simulator, so a run against it (embedded or standalone) never passes as a gateway's.
    void reply.header(SIMULATOR_HEADER, resolved.profile);
    if (!isInternal(request)) stats.request(routeConfig(request)?.operationId);
  });
  registerInFlight(fastify, stats);
  if (resolved.faults || resolved.faultPlan !== undefined) {
    registerFaults(fastify, {
      timeScale: resolved.timeScale,
      rejectCode: env.codes.invalidRequest.code,
      honourHeader: resolved.faults,
      ...(resolved.faultPlan === undefined ? {} : { plan: resolved.faultPlan }),
      seed: resolved.seed,
      sleep: (ms) => store.sleep(ms),
      operationIdOf: (request) => routeConfig(request)?.operationId,
      isInternal,
      onFault: (kind, operationId) => stats.fault(kind, operationId),
    });
  }
}

/** Counts the requests in flight (received, not yet answered or aborted), each once: what a profile's hooks see as `inFlight`. */
function registerInFlight(fastify: FastifyInstance, stats: SandboxStats): void {
  const open = new WeakSet<FastifyRequest>();
  fastify.addHook('onRequest', async (request) => {
    if (isInternal(request)) return;
    open.add(request);
    stats.flight(1);
  });
  const close = async (request: FastifyRequest): Promise<void> => {
    if (open.delete(request)) stats.flight(-1);
  };
  // Closed when the answer starts to leave (onSend), so a client that sends its next request on reading this answer
  // never finds this one still counted; onResponse and onRequestAbort close what never reached onSend.
  fastify.addHook('onSend', async (request, _reply, payload) => {
    await close(request);
    return payload;
  });
  fastify.addHook('onResponse', close);
  fastify.addHook('onRequestAbort', close);
}

/** An unknown path (a web server's plain 404 unless the profile wants the envelope) and fastify's own failures. */
function registerFallbacks(fastify: FastifyInstance, parts: AppParts, frameworkErrors: { handler: FrameworkErrorHandler }): void {
  const { env, hooks, send, isAuthorized, unauthorized, resolved } = parts;
  fastify.setNotFoundHandler((request, reply) => {
    const req = {
      method: request.method,
      path: pathOf(request),
      query: plainQuery(request.query),
      headers: { ...(request.headers as Record<string, string | undefined>) },
      body: request.body,
    };
    hooks.onRequest?.(req);
    const ctx: SendContext = { operationId: '', query: req.query, body: req.body, headers: req.headers };
    if (!isAuthorized(req.headers)) return unauthorized(reply, ctx);
    if (!env.behaviour.unknownPathEnvelope) return reply.code(404).header('content-type', 'text/plain; charset=utf-8').send('Not Found');
    return send(reply, ctx, {
      envelope: failure(env.codes, 'unknownPath', `No operation at ${request.method} ${echo(req.path)}`),
      httpStatus: 404,
    });
  });
  const answerError = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const operationId = (request.routeOptions?.config as { operationId?: string } | undefined)?.operationId ?? '';
    const headers = request.headers as Record<string, string | undefined>;
    const ctx: SendContext = { operationId, query: plainQuery(request.query), body: undefined, headers };
    // Credentials are checked before anything about the request is reported, as for every other answer.
    if (!isAuthorized(headers)) return unauthorized(reply, ctx);
    const { status, key, message } = describeFrameworkError(error, resolved.bodyLimitBytes);
    return send(reply, ctx, { envelope: failure(env.codes, key, message), httpStatus: status });
  };
  fastify.setErrorHandler(answerError);
  frameworkErrors.handler = answerError;
}

/** How an answer leaves: after the profile's response latency and slow-op share, through the envelope sender. */
function createFinish(
  parts: AppParts,
): (reply: FastifyReply, ctx: SendContext, result: RouteReply) => FastifyReply | Promise<FastifyReply> {
  const { env, store, send, resolved, profile } = parts;
  const { behaviour } = env;
  const relay = profile.relayHold === undefined ? undefined : createRelayHold(profile.relayHold, env.timeScale, (ms) => store.sleep(ms));
  const latencyMs = scaled(env, behaviour.responseLatencyMs);
  const jitterMs = scaled(env, behaviour.responseLatencyJitterMs);
  const jitter = createRng(resolved.seed ^ 0x1a7e);
  const responseDelay = (): number => latencyMs + (jitterMs > 0 ? jitter.next() * jitterMs : 0);
  return (reply, ctx, result) => {
    const base = latencyMs > 0 || jitterMs > 0 ? responseDelay() : 0;
    // slow-op: the operation takes longer by a fraction of all the time the sandbox spends on it (held + handling).
    const slowdown = behaviour.operationSlowdown[ctx.operationId] ?? 0;
    const delay = slowdown > 0 ? base + slowdown * (base + reply.elapsedTime) : base;
    // A relay hold comes first and keeps the request counted in flight (it ends before onSend).
    const held = relay?.(ctx.operationId);
    if (held !== undefined) return held.then(() => (delay > 0 ? store.sleep(delay) : undefined)).then(() => send(reply, ctx, result));
    return delay > 0 ? store.sleep(delay).then(() => send(reply, ctx, result)) : send(reply, ctx, result);
  };
}

/** fail-op: an exact, evenly spread share of an operation's requests (the k-th fails when floor(k·share) steps up). */
function createFailureDue(behaviour: SandboxBehaviour): (operationId: string) => ResponseCodeKey | undefined {
  const failureCounts = new Map<string, number>();
  return (operationId) => {
    const plan = behaviour.operationFailures[operationId];
    if (plan === undefined || plan.share <= 0) return undefined;
    const k = (failureCounts.get(operationId) ?? 0) + 1;
    failureCounts.set(operationId, k);
    return Math.floor(k * plan.share) > Math.floor((k - 1) * plan.share) ? plan.key : undefined;
  };
}

type FastifyHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> | undefined;

/** One operation's fastify handler: the profile's request hook, credentials, parameters, fail-op, then the route. */
function routeHandler(parts: AppParts, pipeline: Pipeline, op: Operation, handler: RouteHandler): FastifyHandler {
  const { env, hooks, send, isAuthorized, unauthorized } = parts;
  const localized = op.localized && env.behaviour.localize;
  return (request, reply) => {
    let query = plainQuery(request.query);
    let headers = request.headers as Record<string, string | undefined>;
    let body: unknown = request.body;
    if (hooks.onRequest !== undefined) {
      const req = {
        operationId: op.id,
        method: request.method,
        path: pathOf(request),
        query,
        headers: { ...headers },
        body,
        inFlight: parts.stats.inFlight,
      };
      hooks.onRequest(req);
      ({ query, headers, body } = req);
    }
    const ctx: SendContext = { operationId: op.id, query, body, headers };
    if (!isAuthorized(headers)) {
      unauthorized(reply, ctx);
      return undefined;
    }
    const parsed = readArgs(op, request.params as Record<string, string>, query);
    if (!parsed.ok) {
      send(reply, ctx, { envelope: failure(env.codes, 'invalidRequest', `Invalid request: ${parsed.message}`) });
      return undefined;
    }
    const failWith = pipeline.failureDue(op.id);
    if (failWith !== undefined) {
      // fail-op: answered before any processing, so nothing is charged or stored.
      const held = pipeline.finish(reply, ctx, {
        envelope: failure(env.codes, failWith, `${env.codes[failWith].message} (sandbox profile: a share of ${op.id} fails)`),
      });
      return held instanceof Promise ? held.then(() => reply) : undefined;
    }
    const lang = localized ? parseAcceptLanguage(headers['accept-language']) : 'en';
    const result = handler({ op, env, args: parsed.args, body, lang });
    const done = result instanceof Promise ? result.then((r) => pipeline.finish(reply, ctx, r)) : pipeline.finish(reply, ctx, result);
    // Returning the reply (a thenable) lets fastify wait for a held response without sending twice.
    return done instanceof Promise ? done.then(() => reply) : undefined;
  };
}

/** The answer's way out and the fail-op counter, shared by every operation's handler. */
interface Pipeline {
  readonly finish: ReturnType<typeof createFinish>;
  readonly failureDue: ReturnType<typeof createFailureDue>;
}

/** Every catalog operation at its path (an assumed write path as the target's settings name it), and the stats route. */
function registerRoutes(fastify: FastifyInstance, parts: AppParts): void {
  const pipeline: Pipeline = { finish: createFinish(parts), failureDue: createFailureDue(parts.env.behaviour) };
  for (const op of OPERATIONS) {
    const handler = handlerFor(op);
    if (handler === undefined) throw new HarnessError('GH_ERR_INTERNAL', `sandbox has no handler for operation ${op.id}`);
    const path = parts.resolved.writePaths[op.id] ?? op.path;
    try {
      fastify.route({
        method: op.method,
        url: path.replace(/\{(\w+)\}/g, ':$1'),
        config: { operationId: op.id },
        handler: routeHandler(parts, pipeline, op, handler),
      });
    } catch (error) {
      throw configError(`cannot register ${op.id} at ${path}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  // The sandbox's own counters (not a gateway operation): same credentials, never counted, never faulted.
  fastify.route({
    method: 'GET',
    url: STATS_PATH,
    config: { internal: true },
    handler: (request, reply) => {
      const headers = request.headers as Record<string, string | undefined>;
      if (!parts.isAuthorized(headers)) return parts.unauthorized(reply, { operationId: '', query: {}, body: undefined, headers });
      return reply.code(200).header('content-type', 'application/json; charset=utf-8').send(JSON.stringify(parts.stats.snapshot()));
    },
  });
}

/** The embedded sandbox, ready (never listening): options resolved, the routes' world built, every route registered. */
export async function buildApp(options: SandboxOptions = {}): Promise<SandboxApp> {
  const profile = typeof options.profile === 'object' ? options.profile : getProfile(options.profile ?? 'faithful');
  const resolved = resolveOptions(options, profile);
  const { password: _password, ...publicOptions } = resolved;
  const parts = createParts(options, profile, resolved);
  const { fastify, frameworkErrors } = createFastify(resolved);
  registerArrival(fastify, parts);
  registerFallbacks(fastify, parts, frameworkErrors);
  registerRoutes(fastify, parts);
  await fastify.ready();

  const { store, stats, env } = parts;
  let closing: Promise<void> | undefined;
  return {
    fastify,
    store,
    data: env.data,
    options: publicOptions,
    profile,
    stats,
    env,
    close() {
      closing ??= (async () => {
        store.close();
        await fastify.close();
      })();
      return closing;
    },
  };
}
