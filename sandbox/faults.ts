// Faults for the embedded sandbox: per request through the opt-in `X-Sandbox-Fault` header, or for a seeded fraction of
// all requests through a fault profile (faults-*), so clients' timeout, retry and "unknown outcome" paths can be tested.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createRng } from './data/rng.ts';
import { DEFAULT_RESPONSE_CODES } from './error-codes.ts';
import type { CountedFault } from './stats.ts';

export const FAULT_HEADER = 'x-sandbox-fault';

/** One requested fault. Names are the header's tokens; see FAULTS.md for what each does to the exchange. */
export type Fault =
  | { readonly kind: 'latency'; readonly ms: number }
  /** Held before the request is processed: the answer (and the transaction) come after a client timeout. */
  | { readonly kind: 'late'; readonly ms: number }
  | { readonly kind: 'status'; readonly status: number }
  | { readonly kind: 'reset' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'truncate' };

export type FaultKind = Fault['kind'];

/** Unscaled latency cap: a header can never park a request for longer than this (times the time scale). */
export const MAX_FAULT_LATENCY_MS = 300_000;
/** Header values longer than this are rejected before parsing: the header is a test knob, not a data channel. */
export const MAX_FAULT_HEADER_LENGTH = 200;
/** HTTP status of the answer to an unusable fault header (the fault machinery's own error, not a gateway outcome). */
export const FAULT_REJECT_STATUS = 400;

export type FaultParse = { readonly ok: true; readonly faults: readonly Fault[] } | { readonly ok: false; readonly message: string };

const KNOWN = 'latency=MS, late=MS, status=5xx, reset, malformed, truncate';

/** Pairs that cannot both apply to one exchange: a reset sends no response at all, and a body is either broken or cut. */
const EXCLUSIVE: ReadonlyArray<readonly [FaultKind, FaultKind]> = [
  ['reset', 'status'],
  ['reset', 'malformed'],
  ['reset', 'truncate'],
  ['malformed', 'truncate'],
];

/** Shortens attacker-sized text before it is echoed into a message. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}...` : text);
}

function parseToken(token: string): Fault | string {
  const eq = token.indexOf('=');
  const name = (eq === -1 ? token : token.slice(0, eq)).trim().toLowerCase();
  const value = eq === -1 ? undefined : token.slice(eq + 1).trim();
  switch (name) {
    case 'latency': {
      if (value === undefined || !/^\d{1,7}$/.test(value) || Number(value) > MAX_FAULT_LATENCY_MS) {
        return `sandbox fault latency needs a whole number of milliseconds 0..${MAX_FAULT_LATENCY_MS} (latency=MS), got ${quote(token)}`;
      }
      return { kind: 'latency', ms: Number(value) };
    }
    case 'late': {
      if (value === undefined || !/^\d{1,7}$/.test(value) || Number(value) > MAX_FAULT_LATENCY_MS) {
        return `sandbox fault late needs a whole number of milliseconds 0..${MAX_FAULT_LATENCY_MS} (late=MS), got ${quote(token)}`;
      }
      return { kind: 'late', ms: Number(value) };
    }
    case 'status': {
      if (value === undefined || !/^5\d\d$/.test(value)) {
        return `sandbox fault status needs an HTTP status 500..599 (status=5xx), got ${quote(token)}`;
      }
      return { kind: 'status', status: Number(value) };
    }
    case 'reset':
    case 'malformed':
    case 'truncate':
      if (value !== undefined) return `sandbox fault ${name} takes no value, got ${quote(token)}`;
      return { kind: name };
    default:
      return `unknown sandbox fault ${quote(name)} in X-Sandbox-Fault (known: ${KNOWN})`;
  }
}

/** Parses a comma-separated header value; an empty value means "no faults". Pure, so tests and docs can share it. */
export function parseFaultHeader(header: string): FaultParse {
  if (header.length > MAX_FAULT_HEADER_LENGTH) {
    return { ok: false, message: `X-Sandbox-Fault is longer than ${MAX_FAULT_HEADER_LENGTH} characters` };
  }
  const faults: Fault[] = [];
  for (const raw of header.split(',')) {
    const token = raw.trim();
    if (token === '') continue;
    const parsed = parseToken(token);
    if (typeof parsed === 'string') return { ok: false, message: parsed };
    if (faults.some((f) => f.kind === parsed.kind)) {
      return { ok: false, message: `sandbox fault ${parsed.kind} is given twice in X-Sandbox-Fault` };
    }
    faults.push(parsed);
  }
  for (const [a, b] of EXCLUSIVE) {
    if (faults.some((f) => f.kind === a) && faults.some((f) => f.kind === b)) {
      return { ok: false, message: `sandbox faults ${a} and ${b} cannot be combined` };
    }
  }
  return { ok: true, faults };
}

/**
 * Invalid JSON that still looks like the original body (single quotes instead of double quotes), so a client that
 * sniffs for "responseCode" still has to fail at the parser. A body with no quotes becomes an unclosed object.
 */
export function malformBody(body: string): string {
  const swapped = body.replaceAll('"', "'");
  return swapped === body ? `{${body}` : swapped;
}

/** The first half of the body's bytes: a JSON text cut mid-way, served with a Content-Length that matches the cut. */
export function truncateBody(body: Buffer): Buffer {
  return body.subarray(0, Math.floor(body.length / 2));
}

/** What a fault profile can serve; `slow` and `late` wait the plan's slowMs (× time scale), after or before processing. */
export type PlannedFaultKind = 'reset' | 'status' | 'malformed' | 'truncate' | 'slow' | 'late';

export const PLANNED_FAULT_KINDS: readonly PlannedFaultKind[] = ['reset', 'status', 'malformed', 'truncate', 'slow', 'late'];

/** A fault profile's plan: which faults, how often, which operations never get one. */
export interface FaultPlan {
  /** One is picked (seeded) for each faulted request. */
  readonly kinds: readonly PlannedFaultKind[];
  /** Fraction of the eligible requests that get a fault, 0..1 (seeded draw per request, in arrival order). */
  readonly rate: number;
  /** Operation ids that never get a fault (default in every faults-* profile but faults-status: the status endpoint). */
  readonly exemptOperations: readonly string[];
  /** Wait of `slow` and `late` (real-time ms, scaled by the time scale). */
  readonly slowMs: number;
}

/** HTTP statuses a planned `status` fault picks from. */
export const PLANNED_5XX: readonly number[] = [500, 502, 503, 504];

export interface FaultsOptions {
  /** Multiplies every fault latency, like every other sandbox delay (0.01 => latency=1000 waits 10 ms). */
  readonly timeScale: number;
  /** responseCode of the envelope answering an unusable header: the sandbox's invalid-request code (default '003'). */
  readonly rejectCode?: string;
  /** Honour the X-Sandbox-Fault header (default true; buildApp passes its `faults` option). */
  readonly honourHeader?: boolean;
  /** A fault profile's plan, applied to requests without a fault header. */
  readonly plan?: FaultPlan;
  /** Seed of the plan's draws (same seed, same faults for the n-th eligible request). */
  readonly seed?: number;
  /** Waits (already scaled); buildApp passes the store's sleep, which close() releases at once. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** The operation id of a request (undefined for an unknown path). */
  readonly operationIdOf?: (request: FastifyRequest) => string | undefined;
  /** Requests that are never faulted nor parsed (the sandbox's own /__sandbox routes). */
  readonly isInternal?: (request: FastifyRequest) => boolean;
  /** Told about every fault applied. */
  readonly onFault?: (kind: CountedFault, operationId: string | undefined) => void;
}

type Payload = unknown;

function hasFault<K extends FaultKind>(faults: readonly Fault[], kind: K): Extract<Fault, { kind: K }> | undefined {
  return faults.find((f): f is Extract<Fault, { kind: K }> => f.kind === kind);
}

/**
 * Drops the connection instead of answering. Fastify writes the head and body right after the onSend hooks and cannot be
 * stopped there, so the raw writes of this one response are swallowed and the socket is reset when the body would be
 * ended. A real socket gets a TCP RST (the client sees ECONNRESET); under inject() the mock response is destroyed,
 * which rejects the inject promise with LIGHT_ECONNRESET.
 */
function resetInsteadOfAnswering(request: FastifyRequest, reply: FastifyReply): void {
  const res = reply.raw;
  const socket = request.raw.socket as (typeof request.raw.socket & { resetAndDestroy?: () => void }) | null;
  const drop = (): typeof res => {
    if (socket && typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
    else res.destroy();
    return res;
  };
  res.writeHead = (() => res) as typeof res.writeHead;
  res.write = (() => true) as typeof res.write;
  res.end = drop as typeof res.end;
}

function payloadBytes(payload: Payload): Buffer | undefined {
  if (payload === null || payload === undefined) return Buffer.alloc(0);
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8');
  if (Buffer.isBuffer(payload)) return payload;
  return undefined; // streams: the sandbox never streams, and a stream cannot be cut without buffering it
}

type PlannedFault = { fault: Fault; counted: CountedFault };

/** registerFaults' options with their defaults, and what its two hooks share. */
interface FaultHooks {
  readonly scale: number;
  readonly rejectCode: string;
  readonly honourHeader: boolean;
  readonly wait: (ms: number) => Promise<void>;
  readonly operationIdOf: (request: FastifyRequest) => string | undefined;
  readonly isInternal: (request: FastifyRequest) => boolean;
  readonly onFault: (kind: CountedFault, operationId: string | undefined) => void;
  /** The plan's fault for a request, if its draw says so; undefined otherwise. */
  readonly planned: (operationId: string | undefined) => PlannedFault | undefined;
  /** Parsed once per request; a WeakMap so nothing outlives the request and no request type augmentation is needed. */
  readonly requested: WeakMap<FastifyRequest, readonly Fault[]>;
}

/** The seeded draw of a fault profile's plan, one per eligible request in arrival order. */
function planDraw(plan: FaultPlan | undefined, seed: number): (operationId: string | undefined) => PlannedFault | undefined {
  const exempt = new Set(plan?.exemptOperations ?? []);
  const rng = createRng(seed);
  return (operationId) => {
    if (plan === undefined || plan.kinds.length === 0 || (operationId !== undefined && exempt.has(operationId))) return undefined;
    // Two draws per eligible request, whatever the outcome, so the n-th request's fate depends only on (seed, n).
    const hit = rng.next() < plan.rate;
    const kind = plan.kinds[rng.int(0, plan.kinds.length - 1)] as PlannedFaultKind;
    const status = PLANNED_5XX[rng.int(0, PLANNED_5XX.length - 1)] as number;
    if (!hit) return undefined;
    switch (kind) {
      case 'slow':
        return { fault: { kind: 'latency', ms: plan.slowMs }, counted: 'slow' };
      case 'late':
        return { fault: { kind: 'late', ms: plan.slowMs }, counted: 'late' };
      case 'status':
        return { fault: { kind: 'status', status }, counted: 'status' };
      default:
        return { fault: { kind }, counted: kind };
    }
  };
}

function faultHooks(options: FaultsOptions): FaultHooks {
  return {
    scale: Number.isFinite(options.timeScale) && options.timeScale >= 0 ? options.timeScale : 1,
    rejectCode: options.rejectCode ?? DEFAULT_RESPONSE_CODES.invalidRequest.code,
    honourHeader: options.honourHeader ?? true,
    wait: options.sleep ?? ((ms: number) => sleep(ms)),
    operationIdOf: options.operationIdOf ?? (() => undefined),
    isInternal: options.isInternal ?? (() => false),
    onFault: options.onFault ?? (() => undefined),
    planned: planDraw(options.plan, options.seed ?? 1),
    requested: new WeakMap(),
  };
}

/**
 * onRequest: the request's faults (the header's when it carries one and it is honoured, else the plan's draw); an
 * unusable header is answered here. `late` and `status` act before the request is processed.
 */
async function beforeProcessing(h: FaultHooks, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
  if (h.isInternal(request)) return;
  const operationId = h.operationIdOf(request);
  const header = h.honourHeader ? request.headers[FAULT_HEADER] : undefined;
  let faults: readonly Fault[];
  if (header !== undefined) {
    const parsed = parseFaultHeader(Array.isArray(header) ? header.join(',') : header);
    if (!parsed.ok) {
      return reply
        .code(FAULT_REJECT_STATUS)
        .type('application/json; charset=utf-8')
        .send({ responseCode: h.rejectCode, responseMessage: parsed.message, payLoad: null });
    }
    faults = parsed.faults;
    for (const fault of faults) h.onFault(fault.kind, operationId);
  } else {
    const chosen = h.planned(operationId);
    if (chosen === undefined) return;
    faults = [chosen.fault];
    h.onFault(chosen.counted, operationId);
  }
  if (faults.length === 0) return;
  h.requested.set(request, faults);
  // Held before anything is processed: a client that times out meanwhile finds no transaction yet, then a final one.
  const late = hasFault(faults, 'late');
  if (late && late.ms > 0 && h.scale > 0) await h.wait(Math.round(late.ms * h.scale));
  const status = hasFault(faults, 'status');
  // The HTTP 5xx answers before the request is processed: a client classifies it as failed, so nothing may be charged.
  if (status) return reply.code(status.status).send();
}

/**
 * onSend: everything here runs after the handler: the transaction (if any) already happened, so a slow, reset or broken
 * answer leaves the client with an unknown outcome to reconcile through the status endpoint, as the spec warns.
 */
async function afterProcessing(h: FaultHooks, request: FastifyRequest, reply: FastifyReply, payload: Payload): Promise<Payload> {
  const faults = h.requested.get(request);
  if (!faults) return payload;
  const latency = hasFault(faults, 'latency');
  if (latency && latency.ms > 0 && h.scale > 0) await h.wait(Math.round(latency.ms * h.scale));
  if (hasFault(faults, 'reset')) {
    resetInsteadOfAnswering(request, reply);
    return payload;
  }
  if (hasFault(faults, 'malformed')) {
    const bytes = payloadBytes(payload);
    if (bytes === undefined) return payload;
    if (!reply.hasHeader('content-type')) reply.type('application/json; charset=utf-8');
    return malformBody(bytes.toString('utf8'));
  }
  if (hasFault(faults, 'truncate')) {
    const bytes = payloadBytes(payload);
    if (bytes === undefined) return payload;
    // Fastify sets Content-Length from the payload only when no one set it before; make sure it describes the cut.
    reply.removeHeader('content-length');
    return truncateBody(bytes);
  }
  return payload;
}

/**
 * Adds the fault hooks to the ROOT instance (not an encapsulated child), so they see every route, the 404 handler and
 * the auth failures alike. Call it before registering auth and routes: a `status` fault then answers before anything
 * is authenticated, validated, charged or stored. A request with the header (when honoured) gets exactly the header's
 * faults; any other request may get the plan's.
 */
export function registerFaults(fastify: FastifyInstance, options: FaultsOptions): void {
  const hooks = faultHooks(options);
  fastify.addHook('onRequest', async (request, reply) => beforeProcessing(hooks, request, reply));
  fastify.addHook('onSend', async (request, reply, payload: Payload) => afterProcessing(hooks, request, reply, payload));
}
