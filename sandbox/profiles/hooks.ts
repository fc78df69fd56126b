// The hooks a sandbox profile may put on requests and envelopes, and what they see and may change. A leaf: the
// envelope sender and the corruption wrapper read these shapes without reaching the profiles that use them.

/** What a request hook sees; it may mutate query, headers and body before authentication and validation. */
export interface ProfileRequest {
  /** Undefined when no catalog operation matches (unknown path). */
  operationId?: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  body: unknown;
  /** Requests the sandbox is handling now, this one included (catalog operations only; absent on an unknown path). */
  inFlight?: number;
}

/** What an envelope hook sees: every response the sandbox sends, business or not (401, 404, 413, ...). */
export interface ProfileEnvelopeContext {
  /** '' when no catalog operation matches. */
  operationId: string;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string | undefined>;
  /** A private copy: mutate it or return a replacement. */
  envelope: Record<string, unknown>;
  httpStatus: number;
}

/** What an envelope hook may change: the envelope, the HTTP status, and response headers to add or replace. */
export interface EnvelopeChange {
  envelope?: Record<string, unknown>;
  httpStatus?: number;
  headers?: Readonly<Record<string, string>>;
}

export interface ProfileHooks {
  onRequest?(req: ProfileRequest): void;
  /** `headers` adds or replaces response headers (benign profiles; contract-change profiles start or stop sending one). */
  onEnvelope?(ctx: ProfileEnvelopeContext): EnvelopeChange | void;
}
