// Parses the gateway's response envelope ({responseCode, responseMessage, payLoad}) from a body text.
// Tolerant of unknown fields (spec: Versioning 3, clients must tolerate new response fields); strict only on what classification needs.
import type { HarnessErrorCode } from './errors.ts';
import { classifyOutcome, type Classification } from './outcome.ts';
import { printable } from './printable.ts';

export interface Envelope {
  readonly responseCode: string;
  readonly responseMessage?: unknown;
  readonly payLoad?: unknown;
  readonly [field: string]: unknown;
}

export type EnvelopeParse = { ok: true; envelope: Envelope } | { ok: false; error: string };

/** Longest body excerpt quoted in a parse error; bodies can be megabytes and may echo request data. */
const EXCERPT_CHARS = 80;

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return printable(flat.length <= EXCERPT_CHARS ? flat : `${flat.slice(0, EXCERPT_CHARS)}...`);
}

export function parseEnvelope(text: string): EnvelopeParse {
  if (text.trim() === '') return { ok: false, error: 'empty body (expected a JSON envelope)' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, error: `body is not JSON (${printable(reason)}): ${excerpt(text)}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: `body is JSON but not an object envelope: ${excerpt(text)}` };
  }
  const record = value as Record<string, unknown>;
  if (typeof record.responseCode !== 'string') {
    const got = record.responseCode === undefined ? 'missing' : `${record.responseCode === null ? 'null' : typeof record.responseCode}`;
    return { ok: false, error: `envelope responseCode is ${got} (expected a string)` };
  }
  return { ok: true, envelope: record as Envelope };
}

/** A transport failure as a stable code plus a redacted one-line message. */
export interface TransportError {
  readonly code: HarnessErrorCode;
  readonly message: string;
  /** The harness itself abandoned the request (its caller's signal: a stop, an interruption): no answer was awaited. */
  readonly abandoned?: true;
}

export interface ResponseTimings {
  /** Wall-clock start (epoch ms), for ledgers and reports. */
  readonly startedAt: number;
  /** Time to response headers; absent when none arrived. */
  readonly ttfbMs?: number;
  readonly totalMs: number;
}

/** One call's result as every runtime reports it: raw facts, the parsed envelope and the one classification. */
export interface GatewayResponse {
  readonly operationId: string;
  readonly httpStatus?: number;
  /** Response headers, names lower-cased, repeated headers joined with ', '. */
  readonly headers: Record<string, string>;
  readonly bodyText?: string;
  readonly envelope?: Envelope;
  /** Why the body is not an envelope (only set when a body was read and did not parse). */
  readonly parseError?: string;
  readonly timedOut: boolean;
  readonly transportError?: TransportError;
  readonly timings: ResponseTimings;
  readonly classification: Classification;
}

export interface RawResponse {
  readonly operationId: string;
  readonly httpStatus?: number;
  readonly headers?: Record<string, string>;
  readonly bodyText?: string;
  readonly timedOut: boolean;
  readonly transportError?: TransportError;
  readonly timings: ResponseTimings;
}

/**
 * Turns what a transport observed into a GatewayResponse. Shared by the Node client and the k6 side so both
 * parse and classify identically. A timed-out call is classified Unknown even when part of a body arrived.
 */
export function toGatewayResponse(raw: RawResponse): GatewayResponse {
  let envelope: Envelope | undefined;
  let parseError: string | undefined;
  if (raw.bodyText !== undefined && !raw.timedOut && raw.transportError === undefined) {
    const parsed = parseEnvelope(raw.bodyText);
    if (parsed.ok) envelope = parsed.envelope;
    else parseError = parsed.error;
  }
  const classification = classifyOutcome({
    httpStatus: raw.httpStatus,
    responseCode: envelope?.responseCode,
    timedOut: raw.timedOut,
  });
  const response: GatewayResponse = {
    operationId: raw.operationId,
    headers: raw.headers ?? {},
    timedOut: raw.timedOut,
    timings: raw.timings,
    classification,
    ...(raw.httpStatus === undefined ? {} : { httpStatus: raw.httpStatus }),
    ...(raw.bodyText === undefined ? {} : { bodyText: raw.bodyText }),
    ...(envelope === undefined ? {} : { envelope }),
    ...(parseError === undefined ? {} : { parseError }),
    ...(raw.transportError === undefined ? {} : { transportError: raw.transportError }),
  };
  return response;
}
