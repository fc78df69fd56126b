// What every route handler receives and returns, plus the helpers they share: typed parameters, filters, listing cache.
// Handlers are plain functions of (context) -> envelope, so one handler serves both API versions of an operation.
import type { Operation, ParamSpec } from '../../api/operations.ts';
import type { SandboxBehaviour } from '../behaviour.ts';
import type { ResponseCodeKey, ResponseCodeTable } from '../error-codes.ts';
import type { Envelope, RouteReply } from '../envelope.ts';
import { failure, serializeEnvelope, successWith } from '../envelope.ts';
import type { SandboxStore } from '../store.ts';
import type { Lang, SandboxData } from '../data/types.ts';

export type SandboxMode = 'sandbox' | 'production';

/** Everything a handler may use that lives as long as the app. */
export interface SandboxEnv {
  readonly data: SandboxData;
  readonly store: SandboxStore;
  readonly behaviour: SandboxBehaviour;
  readonly codes: ResponseCodeTable;
  readonly mode: SandboxMode;
  readonly timeScale: number;
  readonly cache: ListingCache;
}

/** A parsed parameter value: int32 values are numbers; int64 values keep their digits (ids and mobile numbers). */
export type ParamValue = string | number;

export interface RouteContext {
  readonly op: Operation;
  readonly env: SandboxEnv;
  /** Parsed path and query parameters, keyed by the catalog's parameter names; absent optional ones are missing. */
  readonly args: Readonly<Record<string, ParamValue>>;
  readonly body: unknown;
  readonly lang: Lang;
}

export type RouteHandler = (ctx: RouteContext) => RouteReply | Promise<RouteReply>;
/** Handlers of one route module, keyed by operation id. */
export type RouteTable = Readonly<Record<string, RouteHandler>>;

/** The real-time delay `ms` of the spec, scaled by the sandbox's time scale. */
export function scaled(env: SandboxEnv, ms: number): number {
  return Math.max(0, ms * env.timeScale);
}

export function ok(env: SandboxEnv, payLoad: unknown, extra?: Record<string, unknown>): RouteReply {
  return { envelope: successWith(env.codes, payLoad, extra) };
}

export function fail(env: SandboxEnv, key: ResponseCodeKey, message?: string): RouteReply {
  return { envelope: failure(env.codes, key, message) };
}

// ---------------------------------------------------------------------------------------------------------------
// Parameters

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;
const INTEGER = /^-?\d{1,20}$/;
const INT64_MAX = 9_223_372_036_854_775_807n;
const INT64_MIN = -9_223_372_036_854_775_808n;
/** Longest string parameter echoed back or looked up; longer ones are refused rather than stored or hashed. */
export const MAX_STRING_PARAM = 256;

function describe(value: string): string {
  return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}...` : JSON.stringify(value);
}

/** Parses one parameter by its catalog type; returns an error message when it does not fit. */
export function parseParam(spec: ParamSpec, raw: string): ParamValue | { error: string } {
  if (spec.type === 'string') {
    if (raw.length > MAX_STRING_PARAM) return { error: `${spec.name} must be at most ${MAX_STRING_PARAM} characters` };
    return raw;
  }
  if (!INTEGER.test(raw)) return { error: `${spec.name} must be an integer (${spec.type}), got ${describe(raw)}` };
  if (spec.type === 'int32') {
    const value = Number(raw);
    if (value < INT32_MIN || value > INT32_MAX) return { error: `${spec.name} must be a 32-bit integer, got ${describe(raw)}` };
    return value;
  }
  const big = BigInt(raw);
  if (big < INT64_MIN || big > INT64_MAX) return { error: `${spec.name} must be a 64-bit integer, got ${describe(raw)}` };
  // Kept as text: a mobile number's digits matter as sent, and ids beyond 2^53 must not round onto a real id.
  return raw;
}

/**
 * Reads the operation's parameters from the path params and the query (query names case-insensitive, as the
 * gateway's framework binds them; an empty query value counts as absent).
 */
export function readArgs(
  op: Operation,
  params: Readonly<Record<string, string>>,
  query: Readonly<Record<string, string>>,
): { ok: true; args: Record<string, ParamValue> } | { ok: false; message: string } {
  const args: Record<string, ParamValue> = {};
  if (op.params.length === 0) return { ok: true, args };
  let lowerQuery: Record<string, string> | undefined;
  for (const spec of op.params) {
    let raw: string | undefined;
    if (spec.in === 'path') {
      raw = params[spec.name];
    } else if (spec.in === 'query') {
      if (lowerQuery === undefined) {
        lowerQuery = {};
        for (const [key, value] of Object.entries(query)) {
          const lower = key.toLowerCase();
          if (!(lower in lowerQuery)) lowerQuery[lower] = value;
        }
      }
      raw = lowerQuery[spec.name.toLowerCase()];
    } else {
      continue; // headers (Accept-Language) are read by the app
    }
    if (raw === undefined || raw === '') {
      if (spec.required) return { ok: false, message: `${spec.name} is required` };
      continue;
    }
    const parsed = parseParam(spec, raw);
    if (typeof parsed === 'object') return { ok: false, message: parsed.error };
    args[spec.name] = parsed;
  }
  return { ok: true, args };
}

export function intArg(ctx: RouteContext, name: string): number | undefined {
  const value = ctx.args[name];
  return typeof value === 'number' ? value : undefined;
}

export function stringArg(ctx: RouteContext, name: string): string | undefined {
  const value = ctx.args[name];
  return value === undefined ? undefined : String(value);
}

/** An int64 id argument as a number; undefined when absent or beyond what any sandbox id can be (2^53). */
export function idArg(ctx: RouteContext, name: string): number | undefined {
  const value = ctx.args[name];
  if (value === undefined) return undefined;
  const id = Number(value);
  return Number.isSafeInteger(id) ? id : undefined;
}

/** Case-insensitive equality for code filters (countryCode=jm matches JM). */
export function sameCode(a: string, b: string): boolean {
  return a.toUpperCase() === b.toUpperCase();
}

// ---------------------------------------------------------------------------------------------------------------
// Listing cache

/** Serialized listings per (operation, filters, language), bounded; the catalog data never changes after build. */
export class ListingCache {
  readonly #max: number;
  readonly #entries = new Map<string, { envelope: Envelope; bytes: Buffer }>();

  constructor(max: number) {
    this.#max = max;
  }

  get size(): number {
    return this.#entries.size;
  }

  reply(key: string, build: () => Envelope): RouteReply {
    let entry = this.#entries.get(key);
    if (entry === undefined) {
      const envelope = build();
      entry = { envelope, bytes: serializeEnvelope(envelope) };
      // Only successes are worth keeping; a failure listing is cheap and rare.
      if (envelope.payLoad !== null) {
        if (this.#entries.size >= this.#max) {
          const oldest = this.#entries.keys().next().value;
          if (oldest !== undefined) this.#entries.delete(oldest);
        }
        this.#entries.set(key, entry);
      }
    }
    return { envelope: entry.envelope, bytes: entry.bytes };
  }
}

/** The cache key of a listing: operation, language and the parsed arguments in catalog order. */
export function listingKey(ctx: RouteContext): string {
  let key = `${ctx.op.id}|${ctx.lang}`;
  for (const spec of ctx.op.params) {
    const value = ctx.args[spec.name];
    if (value !== undefined) key += `|${spec.name}=${typeof value === 'string' ? value.toUpperCase() : value}`;
  }
  return key;
}
