// Before any command sends its work: can the target be used at all? One short, bounded balance read through the client
// core (two when its answer is a refusal), so an unreachable, silent or non-gateway target is said once, in seconds.
import { createClientCore, type ClientCore, type CoreExchange } from './client-core.ts';
import type { GatewayResponse } from './envelope.ts';
import { createFaultTally, type FaultCounts, type FaultTally } from './faults.ts';
import type { ApiVersion } from './operations.ts';
import { printable } from './printable.ts';
import { redactText } from './redact.ts';
import type { TargetConnection } from './request-builder.ts';
import type { CancelSignal, Transport } from './transport.ts';

/**
 * `faults`: the answers of the preflight's own reads that were no gateway answer (api/faults.ts), so a run can count
 * every fault the target served, the preflight's included.
 */
/**
 * The header the harness's own sandbox puts on every answer (its profile as the value): a run against it, embedded or
 * standalone behind --target, says so on its verdict line, since a PASS there says nothing about a gateway.
 */
export const SIMULATOR_HEADER = 'x-gateway-harness-sandbox';

export type Preflight =
  | { readonly usable: true; readonly calls: number; readonly faults: FaultCounts; readonly simulator?: string }
  | { readonly usable: false; readonly reason: string; readonly calls: number; readonly faults: FaultCounts };

/** What the preflight needs of a target (the conformance target is one). */
export interface PreflightTarget {
  /** Base URL without credentials, for the reason line. */
  readonly label: string;
  readonly connection: TargetConnection;
  readonly transport: Transport;
  /** The run's own connect timeout (real ms); the preflight waits at most PREFLIGHT_LIMITS.connectMs of it. */
  readonly connectTimeoutMs: number;
  readonly notFoundCodes: readonly string[];
  /** The runtime's clock and sleep (api/ is runtime-neutral: the caller injects them, as for the client core). */
  readonly now: () => number;
  readonly sleep: (ms: number) => Promise<void>;
  /** A signal (SIGINT/SIGTERM) abandons the read in flight: the preflight then ends at once, unusable. */
  readonly stop?: CancelSignal;
}

/**
 * Bounds of the preflight's calls (real ms), whatever the run's timeouts: a balance read is the gateway's cheapest
 * call, and a target that does not connect within 3 s or answer it within 5 s cannot carry a run (a silent target
 * would otherwise hold every command for its full response timeout, per request).
 */
export const PREFLIGHT_LIMITS = Object.freeze({ connectMs: 3_000, answerMs: 5_000 });

/** Attempts when the answer is not a gateway envelope: the fault profiles break one answer in ten, never three in a row. */
const NON_ENVELOPE_ATTEMPTS = 3;

/** HTTP statuses that mean "these credentials are refused" (RFC 9110), whatever the body says. */
const REFUSED_STATUS = new Set([401, 403]);

const CREDENTIALS_HINT = 'check --user/--password (GATEWAY_USER/GATEWAY_PASSWORD)';

/**
 * What a body that is not an envelope is, in words a person recognises: an HTML page, an empty body, a compressed or
 * binary body that cannot be read, or JSON of another shape. Never a guess about why.
 */
export function describeNonEnvelope(response: GatewayResponse): string {
  const status = `HTTP ${response.httpStatus ?? '?'}`;
  const type = response.headers['content-type'];
  const encoding = response.headers['content-encoding'];
  const body = response.bodyText ?? '';
  const bytes = `${body.length} character${body.length === 1 ? '' : 's'}`;
  if (response.transportError !== undefined) return `${status} whose body broke off before its end (${response.transportError.message})`;
  if (body.trim() === '') return `${status} with an empty body`;
  if (/html/i.test(type ?? '') || /^\s*<(!doctype|html|head|body)\b/i.test(body))
    return `${status} with an HTML page (${type ?? 'no content-type'}, ${bytes})`;
  if (encoding !== undefined && !/^identity$/i.test(encoding))
    return `${status} with an unreadable body (content-encoding ${encoding}, ${bytes} that are not JSON)`;
  // eslint-disable-next-line no-control-regex -- binary bytes are what tells an unreadable body from text
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(body))
    return `${status} with an unreadable (binary) body (${type ?? 'no content-type'}, ${bytes})`;
  return `${status} with a body that is not a gateway envelope (${response.parseError ?? 'not an envelope'})`;
}

/**
 * Reads the balance of `version` with the run's credentials. Unusable: no answer within the bounds (connection refused,
 * DNS, silence), an answer that is not a gateway envelope (said as what it is), HTTP 401/403, an answer identical to
 * the one without credentials (the credentials made no difference because they are refused), or HTTP 404 without an
 * envelope (no gateway at that base URL).
 */
/** The requests the preflight sent and the faults among their answers, counted as each answer comes. */
interface PreflightTally {
  calls: number;
  readonly faults: FaultTally;
}

/** A client core bounded by PREFLIGHT_LIMITS whatever the run's timeouts, counting every answer into the tally. */
function preflightCore(target: PreflightTarget, tally: PreflightTally): ClientCore {
  return createClientCore({
    target: target.connection,
    transport: target.transport,
    timings: {
      connectTimeoutMs: Math.min(target.connectTimeoutMs, PREFLIGHT_LIMITS.connectMs),
      responseTimeoutMs: PREFLIGHT_LIMITS.answerMs,
      // The preflight never polls; the status settings are the core's required shape only.
      pollIntervalMs: PREFLIGHT_LIMITS.answerMs,
      pollDeadlineMs: PREFLIGHT_LIMITS.answerMs,
    },
    status: { serviceTimeoutMs: PREFLIGHT_LIMITS.answerMs, notFoundCodes: target.notFoundCodes },
    now: target.now,
    sleep: target.sleep,
    hooks: {
      afterResponse: (exchange) => {
        tally.calls += 1;
        tally.faults.add(exchange.response);
      },
    },
  });
}

/** The request as the reason line names it: method and path, no origin, query or fragment. */
function where(exchange: CoreExchange): string {
  return `GET ${exchange.built.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').replace(/[?#].*$/, '')}`;
}

/** The balance read, again while the answer is no envelope (up to NON_ENVELOPE_ATTEMPTS) and no signal came. */
async function firstAnswer(core: ClientCore, operationId: string, target: PreflightTarget): Promise<CoreExchange> {
  const callOptions = target.stop === undefined ? {} : { signal: target.stop };
  let first = await core.call(operationId, {}, callOptions);
  for (let attempt = 1; attempt < NON_ENVELOPE_ATTEMPTS && notAnEnvelope(first.response) && target.stop?.aborted !== true; attempt += 1)
    first = await core.call(operationId, {}, callOptions);
  return first;
}

/** Why the first answer makes the target unusable (no answer, no connection, refused, no gateway, no envelope), if it does. */
function unusableAnswer(first: CoreExchange): string | undefined {
  const r = first.response;
  if (r.timedOut)
    return `no answer to ${where(first)} within ${Math.round(r.timings.totalMs)} ms (${r.transportError?.message ?? 'timeout'})`;
  if (r.httpStatus === undefined) return `cannot connect: ${r.transportError?.message ?? 'no response'}`;
  if (REFUSED_STATUS.has(r.httpStatus)) return `the credentials are refused (HTTP ${r.httpStatus} to ${where(first)}): ${CREDENTIALS_HINT}`;
  if (r.httpStatus === 404 && r.envelope === undefined) {
    return `no gateway at this base URL (${where(first)} answered HTTP 404 without an envelope): give the base URL the /api/v1 and /api/v2 paths hang off`;
  }
  if (notAnEnvelope(r)) {
    return `${where(first)} answered ${describeNonEnvelope(r)}, ${NON_ENVELOPE_ATTEMPTS} times: not the gateway's JSON envelope (is this the gateway's base URL?)`;
  }
  return undefined;
}

/** Refused with an HTTP 200 envelope: a refusal of the credentials looks exactly like the answer to none at all. */
async function refusedLikeAnonymous(core: ClientCore, operationId: string, first: CoreExchange): Promise<string | undefined> {
  const r = first.response;
  const anonymous = await core.call(operationId, { omitAuthorization: true });
  const same =
    anonymous.response.httpStatus === r.httpStatus &&
    anonymous.response.envelope?.responseCode === r.envelope?.responseCode &&
    (anonymous.response.envelope?.responseMessage ?? null) === (r.envelope?.responseMessage ?? null);
  if (!same) return undefined;
  return `the credentials are refused (${where(first)} answers them exactly as a request without credentials: HTTP ${r.httpStatus}, responseCode '${r.envelope?.responseCode ?? '?'}'): ${CREDENTIALS_HINT}`;
}

export async function preflight(target: PreflightTarget, version: ApiVersion): Promise<Preflight> {
  const tally: PreflightTally = { calls: 0, faults: createFaultTally() };
  const core = preflightCore(target, tally);
  const operationId = `${version}.account.balance`;
  // Whatever the target echoes back must not carry the credentials into the one line the user sees.
  const secrets = [...core.secrets, target.connection.password];
  const unusable = (reason: string): Preflight => ({
    usable: false,
    reason: printable(redactText(`${target.label}: ${reason}`, secrets)),
    calls: tally.calls,
    faults: tally.faults.counts(),
  });
  const first = await firstAnswer(core, operationId, target);
  const unanswered = unusableAnswer(first);
  if (unanswered !== undefined) return unusable(unanswered);
  const simulator = first.response.headers[SIMULATOR_HEADER];
  const usable = (): Preflight => ({
    usable: true,
    calls: tally.calls,
    faults: tally.faults.counts(),
    ...(simulator === undefined ? {} : { simulator }),
  });
  if (first.response.classification.outcome === 'Successful') return usable();
  const refused = await refusedLikeAnonymous(core, operationId, first);
  // Some other failure of the balance read: a finding for the cases (ENV, BAL), not a reason to stop.
  return refused === undefined ? usable() : unusable(refused);
}

/** An answer came (headers at least), and it is no envelope: HTML, empty, unreadable, cut short. 5xx with a body-less answer too. */
function notAnEnvelope(response: GatewayResponse): boolean {
  if (response.timedOut || response.httpStatus === undefined || response.envelope !== undefined) return false;
  return !REFUSED_STATUS.has(response.httpStatus) && response.httpStatus !== 404;
}
