// The k6-side gateway client: the one client core (api/client-core.ts) over the k6 transport, with k6's clock, the
// async-safe wait and the metrics hook. No call or poll loop of its own.
import { createClientCore, type ClientCore, type ClientHooks } from '../api/client-core.ts';
import type { GateRoute } from '../ledger/bundle-host.ts';
import { composeHooks } from '../ledger/hooks.ts';
import { BASELINE_VALIDATORS } from './baseline-validators.ts';
import { recordExchange, recordProbe } from './k6-metrics.ts';
import { createK6Transport } from './k6-transport.ts';
import { waitMs } from './k6-wait.ts';
import type { RunSettings } from './run-settings.ts';

/**
 * `money`: the money guard's hooks (ledger/hooks.ts), run before the metrics hook so a refused request is never counted;
 * `gate`: the runner's recording gate, which charging requests carrying their ledger line go through; `judged: false`:
 * the learning probes' client, whose answers are counted (requests, faults) but not judged (k6-metrics.ts recordProbe).
 */
export function createK6Client(settings: RunSettings, money?: ClientHooks, gate?: GateRoute, judged = true): ClientCore {
  const recordOptions = {
    schemaChecks: settings.schemaChecks,
    notFoundCodes: settings.status.notFoundCodes,
    measureChecks: settings.measureChecks,
    promoteObserved: settings.promoteObserved,
    envelopeOnly: !settings.payloadChecks,
    ...(BASELINE_VALIDATORS === undefined ? {} : { baseline: BASELINE_VALIDATORS }),
  };
  const metrics: ClientHooks = { afterResponse: judged ? (exchange) => recordExchange(exchange, recordOptions) : recordProbe };
  return createClientCore({
    target: settings.target,
    transport: createK6Transport(gate),
    timings: settings.timings,
    status: settings.status,
    now: () => Date.now(),
    sleep: waitMs,
    hooks: money === undefined ? metrics : composeHooks(money, metrics),
  });
}
