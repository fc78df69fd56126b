// The k6 transport: sends a built request with k6/http `asyncRequest` (awaited, so VUs stay async) and reports what it
// saw as a GatewayResponse through the shared parser and classifier. It tags every request by operation id and API version.
import http from 'k6/http';
import type { GatewayResponse } from '../api/envelope.ts';
import { findOperation } from '../api/operations.ts';
import type { BuiltRequest } from '../api/request-builder.ts';
import type { SendOptions, Transport } from '../api/transport.ts';
import { GATE_REFUSED_HEADER, type GateRoute } from '../ledger/bundle-host.ts';
import { MoneyRefusal } from '../ledger/hooks.ts';
import { fromK6Response, requestTags, type K6ResponseLike } from './k6-response.ts';

/**
 * k6's expected statuses for an operation whose path is assumed: its default (200-399) plus 404. k6 decides
 * http_req_failed before the body is read, so a 404 there is never counted; whether it was the harness's gap (no
 * envelope) or the gateway's answer (an envelope) is judged after, by the checks and gateway_failed (load/k6-metrics.ts).
 */
let assumedExpected: ReturnType<typeof http.expectedStatuses> | undefined;
function assumedPathStatuses(): ReturnType<typeof http.expectedStatuses> {
  assumedExpected ??= http.expectedStatuses({ min: 200, max: 399 }, 404);
  return assumedExpected;
}

function authSecrets(built: BuiltRequest, extra: readonly string[] | undefined): string[] {
  const entry = Object.entries(built.headers).find(([name]) => name.toLowerCase() === 'authorization');
  const token = entry === undefined ? [] : [entry[1], entry[1].replace(/^\S+\s+/, '')];
  return [...token, ...(extra ?? [])].filter((s) => s !== '');
}

interface GateAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: unknown;
  readonly error?: string;
  readonly error_code?: number;
}

/**
 * The gate's refusal (ledger/recording-gate.ts): the request was not sent, its line could not be made durable. A gate
 * never reached (k6's TCP dial errors, 1200-1209: the harness is gone) wrote no line and sent nothing either.
 */
function gateRefusal(built: BuiltRequest, res: GateAnswer): MoneyRefusal | undefined {
  const refused = Object.keys(res.headers).some((name) => name.toLowerCase() === GATE_REFUSED_HEADER);
  const unreached =
    res.status === 0 && (((res.error_code ?? 0) >= 1200 && (res.error_code ?? 0) < 1210) || /\bdial\b/.test(res.error ?? ''));
  if (!refused && !unreached) return undefined;
  const why =
    refused && typeof res.body === 'string'
      ? res.body.trim()
      : `not sent: ledger not durable (the recording gate is not reachable: ${res.error ?? ''})`;
  return refused
    ? new GateRefusal(built.operationId, `${built.operationId} ${why}`)
    : new MoneyRefusal('ledger', built.operationId, `${built.operationId} ${why}`);
}

/**
 * A refusal the recording gate made and counted itself (RecordingGate.refused): the runner adds its count to the ledger's
 * `refused`, so the bundle does not count it again (a k6 the runner stops at once may leave no summary to count it in).
 */
export class GateRefusal extends MoneyRefusal {
  constructor(operationId: string, message: string) {
    super('ledger', operationId, message);
    this.name = 'GateRefusal';
  }
}

/**
 * The transport. k6 has one timeout per request covering connect, send and receive: it gets the response timeout
 * (the one that decides "Unknown"); the connect timeout has no k6 counterpart. Redirects are not followed, as in Node.
 */
export function createK6Transport(gate?: GateRoute): Transport {
  return {
    async send(built: BuiltRequest, options: SendOptions): Promise<GatewayResponse> {
      const startedAt = Date.now();
      // A charging request with its ledger line goes through the runner's recording gate (ledger/recording-gate.ts).
      const routed = gate?.route(built);
      const res = await http.asyncRequest(built.method, routed?.url ?? built.url, built.body ?? null, {
        // An assumed path's 404 may be the harness's gap (api/assumed-path.ts), which http_req_failed must not count.
        ...(findOperation(built.operationId)?.pathAssumed === true ? { responseCallback: assumedPathStatuses() } : {}),
        headers: routed?.headers ?? built.headers,
        timeout: options.responseTimeoutMs,
        redirects: 0,
        responseType: 'text',
        tags: requestTags(built.operationId),
      });
      const refusal = routed === undefined ? undefined : gateRefusal(built, res as unknown as GateAnswer);
      if (refusal !== undefined) throw refusal;
      return fromK6Response(
        built,
        res as unknown as K6ResponseLike,
        startedAt,
        options.responseTimeoutMs,
        authSecrets(built, options.secrets),
      );
    },
  };
}
