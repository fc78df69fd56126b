// The gateway's response envelope and the ONE function that sends it, so profile hooks see every response.
// Spec (Resources: Response envelope): payLoad only with '000', responseMessage null on success, HTTP 200 for business outcomes.
import type { FastifyReply } from 'fastify';
import type { ResponseCodeKey, ResponseCodeTable } from './error-codes.ts';
import type { ProfileHooks } from './profiles/hooks.ts';

export interface Envelope {
  responseCode: string;
  responseMessage: string | null;
  payLoad: unknown;
  /** Envelope-level extras, e.g. the gift card list's next / next_cursor. */
  [extra: string]: unknown;
}

/** What a route hands to the sender: the envelope, its HTTP status, and its bytes when they were cached. */
export interface RouteReply {
  envelope: Envelope;
  /** Default 200 (business outcomes); the sandbox's own failures use 400/401/404/413/415/500. */
  httpStatus?: number;
  /** The serialized envelope, when the route already has it (cached listings). Must match `envelope`. */
  bytes?: Buffer;
  headers?: Readonly<Record<string, string>>;
}

export function success(payLoad: unknown, extra?: Record<string, unknown>): Envelope {
  return extra === undefined
    ? { responseCode: '000', responseMessage: null, payLoad }
    : { responseCode: '000', responseMessage: null, payLoad, ...extra };
}

/** A failure envelope; `message` replaces the table's default text when the route knows more. */
export function failure(codes: ResponseCodeTable, key: ResponseCodeKey, message?: string): Envelope {
  const entry = codes[key];
  return { responseCode: entry.code, responseMessage: message ?? entry.message, payLoad: null };
}

/** Success uses the table's code too, so a renumbering profile is honoured everywhere. */
export function successWith(codes: ResponseCodeTable, payLoad: unknown, extra?: Record<string, unknown>): Envelope {
  const envelope = success(payLoad, extra);
  envelope.responseCode = codes.success.code;
  return envelope;
}

export function serializeEnvelope(envelope: Envelope): Buffer {
  return Buffer.from(JSON.stringify(envelope), 'utf8');
}

/** The request as hooks see it. */
export interface SendContext {
  operationId: string;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string | undefined>;
}

export type EnvelopeSender = (reply: FastifyReply, ctx: SendContext, result: RouteReply) => FastifyReply;

const JSON_TYPE = 'application/json; charset=utf-8';

export function createEnvelopeSender(hooks: ProfileHooks | undefined): EnvelopeSender {
  const onEnvelope = hooks?.onEnvelope;
  return (reply, ctx, result) => {
    let httpStatus = result.httpStatus ?? 200;
    let bytes: Buffer;
    let hookHeaders: Readonly<Record<string, string>> | undefined;
    if (onEnvelope === undefined) {
      bytes = result.bytes ?? serializeEnvelope(result.envelope);
    } else {
      // A private deep copy: listings are cached and payloads point into the shared catalog data.
      const envelope = structuredClone(result.envelope) as Record<string, unknown>;
      const changed = onEnvelope({ ...ctx, envelope, httpStatus });
      const finalEnvelope = changed?.envelope ?? envelope;
      if (changed?.httpStatus !== undefined) httpStatus = changed.httpStatus;
      hookHeaders = changed?.headers;
      bytes = Buffer.from(JSON.stringify(finalEnvelope), 'utf8');
    }
    // The route's headers, then the profile's (benign profiles add headers; a hook may also replace one).
    for (const headers of [result.headers, hookHeaders]) {
      if (headers === undefined) continue;
      for (const [name, value] of Object.entries(headers)) reply.header(name, value);
    }
    return reply.code(httpStatus).header('content-type', JSON_TYPE).send(bytes);
  };
}
