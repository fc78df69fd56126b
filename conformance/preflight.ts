// Before a plan runs: can the target be used at all? One balance read through the client core (two when its answer
// is a refusal), so an unreachable target or refused credentials is said once, not as hundreds of failed cases.
import type { ApiVersion } from '../api/operations.ts';
import { createClientCore, type CoreExchange } from '../api/client-core.ts';
import { SERVICE_TIMEOUT_MS } from '../api/spec-durations.ts';
import { redactText } from '../api/redact.ts';
import { describeResponse } from './checks.ts';
import type { ConformanceTarget } from './runner.ts';
import type { Timing } from './timing.ts';

export type Preflight = { readonly usable: true; readonly calls: number } | { readonly usable: false; readonly reason: string; readonly calls: number };

/** HTTP statuses that mean "these credentials are refused" (RFC 9110), whatever the body says. */
const REFUSED_STATUS = new Set([401, 403]);

const CREDENTIALS_HINT = 'check --user/--password (GATEWAY_USER/GATEWAY_PASSWORD)';

/**
 * Reads the balance of `version` with the run's credentials. Unusable: no answer at all (connection refused, DNS,
 * timeout), HTTP 401/403, an answer identical to the one without credentials (the credentials made no difference
 * because they are refused), or HTTP 404 without an envelope (no gateway at that base URL).
 */
export async function preflight(target: ConformanceTarget, version: ApiVersion, timing: Timing): Promise<Preflight> {
  let calls = 0;
  const core = createClientCore({
    target: target.connection,
    transport: target.transport,
    timings: {
      connectTimeoutMs: target.connectTimeoutMs,
      responseTimeoutMs: timing.requestTimeoutMs,
      pollIntervalMs: timing.pollIntervalMs,
      pollDeadlineMs: timing.pollDeadlineMs,
    },
    status: { serviceTimeoutMs: timing.scaled(SERVICE_TIMEOUT_MS), notFoundCodes: target.notFoundCodes },
    now: () => Date.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    hooks: {
      afterResponse: () => {
        calls += 1;
      },
    },
  });
  const operationId = `${version}.account.balance`;
  const where = (exchange: CoreExchange): string => `GET ${new URL(exchange.built.url).pathname}`;
  const first = await core.call(operationId, {});
  const r = first.response;
  // Whatever the target echoes back must not carry the credentials into the one line the user sees.
  const secrets = [...core.secrets, target.connection.password].filter((s) => s.length >= 3);
  const unusable = (reason: string): Preflight => ({ usable: false, reason: redactText(`${target.label}: ${reason}`, secrets), calls });
  if (r.timedOut) return unusable(`no answer to ${where(first)} within ${Math.round(r.timings.totalMs)} ms (${r.transportError?.message ?? 'timeout'})`);
  if (r.httpStatus === undefined) return unusable(`cannot connect: ${r.transportError?.message ?? 'no response'}`);
  if (REFUSED_STATUS.has(r.httpStatus)) return unusable(`the credentials are refused (HTTP ${r.httpStatus} to ${where(first)}): ${CREDENTIALS_HINT}`);
  if (r.httpStatus === 404 && r.envelope === undefined) {
    return unusable(`no gateway at this base URL (${where(first)} answered HTTP 404 without an envelope): give the base URL the /api/v1 and /api/v2 paths hang off`);
  }
  if (r.classification.outcome === 'Successful') return { usable: true, calls };
  // Refused with an HTTP 200 envelope: a refusal of the credentials looks exactly like the answer to none at all.
  const anonymous = await core.call(operationId, { omitAuthorization: true });
  const same =
    anonymous.response.httpStatus === r.httpStatus &&
    anonymous.response.envelope?.responseCode === r.envelope?.responseCode &&
    (anonymous.response.envelope?.responseMessage ?? null) === (r.envelope?.responseMessage ?? null);
  if (same) return unusable(`the credentials are refused (${where(first)} answers them exactly as a request without credentials: ${describeResponse(r)}): ${CREDENTIALS_HINT}`);
  // Some other failure of the balance read: a finding for the cases (ENV, BAL), not a reason to stop.
  return { usable: true, calls };
}
