// The k6 side of the envelope-aware metrics: the metric objects (made in the init context, as k6 requires), the
// afterResponse hook that records every response's checks and outcome in one place, and the per-transaction record.
import { check } from 'k6';
import { Counter, Rate, Trend } from 'k6/metrics';
import type { CoreExchange, TransactionResult } from '../api/client-core.ts';
import { assumedPathMissing } from '../api/assumed-path.ts';
import { faultKindOf, type FaultKind } from '../api/faults.ts';
import { CHECKS } from './checks.ts';
import { METRICS } from './metric-names.ts';
import { inspectExchange, type InspectOptions } from './response-checks.ts';
import { sampleLine, SampleBudget } from './payload-samples.ts';

const outcomes = new Counter(METRICS.outcomes);
const failed = new Rate(METRICS.failed);
const schemaViolations = new Counter(METRICS.schemaViolations);
const payloadWarnings = new Counter(METRICS.payloadWarnings);
const timeToFinal = new Trend(METRICS.timeToFinal, true);
const unresolved = new Counter(METRICS.unresolved);
const checkDuration = new Trend(METRICS.checkDuration, true);
const chargesRefused = new Counter(METRICS.chargesRefused);
const pathUnverified = new Counter(METRICS.pathUnverified);
const faultCounters: Record<FaultKind, Counter> = {
  timeout: new Counter(METRICS.faults.timeout),
  connection: new Counter(METRICS.faults.connection),
  'server-error': new Counter(METRICS.faults['server-error']),
  malformed: new Counter(METRICS.faults.malformed),
};

/** Schema problems printed per VU: enough to see what broke without flooding the console under load. */
const MAX_PROBLEM_LOGS = 5;
let problemLogs = 0;
/** The first few violating responses per operation and path, per VU, as sample lines the runner collects. */
const samples = new SampleBudget();

export interface RecordOptions extends InspectOptions {
  readonly measureChecks: boolean;
}

/** The client core's afterResponse hook: checks and envelope-aware metrics of one response. */
export function recordExchange(exchange: CoreExchange, options: RecordOptions): void {
  const started = options.measureChecks ? Date.now() : 0;
  const inspection = inspectExchange(exchange, options);
  const tags = { operation: inspection.operation, api: inspection.api };
  if (options.measureChecks) checkDuration.add(Date.now() - started, tags);
  // The harness's gap (an assumed path the target lacks): counted as such, never as the gateway's outcome or check.
  if (inspection.pathMissing === true) {
    pathUnverified.add(1, tags);
    return;
  }
  outcomes.add(1, { operation: inspection.operation, api: inspection.api, outcome: inspection.outcome });
  // gateway_failed is a rate of answers: a response that never came is a fault (below), not a 0 that makes the rate look met.
  if (inspection.answered) failed.add(inspection.failed, tags);
  const fault = faultKindOf(exchange.response);
  if (fault !== undefined) faultCounters[fault].add(1, tags);
  // One sample per JSON path of each violating response (bounded labels: operation, api, path, layer; never values).
  for (const violation of inspection.violations) {
    const pathTags = { ...tags, path: violation.path, layer: violation.layer };
    if (violation.severity === 'error') schemaViolations.add(1, pathTags);
    else payloadWarnings.add(1, pathTags);
    if (samples.take(inspection.operation, violation.path))
      console.warn(sampleLine(inspection.operation, violation, exchange.response.envelope));
  }
  if (inspection.schemaProblem !== undefined && problemLogs < MAX_PROBLEM_LOGS) {
    problemLogs += 1;
    console.warn(`gateway-harness: ${inspection.operation}: response does not match the schema: ${inspection.schemaProblem.slice(0, 300)}`);
  }
  const sets: Record<string, () => boolean> = {};
  for (const result of inspection.checks) sets[result.name] = () => result.ok;
  check(inspection, sets, tags);
}

/**
 * The afterResponse hook of the learning probes' client (target/discover/charge-learning.ts): a probe tries a candidate
 * field on a read, so its refusal is the harness's question, not the gateway's outcome: no check, no outcome, no
 * gateway_failed. It is a request the target served, so k6 counts it in http_reqs and a fault of its answer is counted.
 */
export function recordProbe(exchange: CoreExchange): void {
  const fault = faultKindOf(exchange.response);
  if (fault !== undefined) faultCounters[fault].add(1, { operation: exchange.operation.id, api: exchange.operation.version });
}

/** Per transaction (submission followed to its final state): time to final, or one more unresolved transaction. */
export function recordTransaction(result: TransactionResult): void {
  const operation = result.submitted.operation;
  if (assumedPathMissing(operation, result.submitted.response)) return;
  const tags = { operation: operation.id, api: operation.version };
  if (result.final) timeToFinal.add(result.elapsedMs, { ...tags, outcome: result.outcome });
  else unresolved.add(1, tags);
}

/** A flow-level check (e.g. the status endpoint confirms a final outcome), under its catalogued name. */
export function recordStatusConfirms(ok: boolean, operationId: string, api: string): void {
  check(ok, { [CHECKS.statusConfirms.name]: (value) => value === true }, { operation: operationId, api });
}

/** A charging request the money guard did not send (ledger/hooks.ts MoneyRefusal): counted, never sent, never a response. */
export function recordRefusal(operationId: string, reason: string): void {
  chargesRefused.add(1, { operation: operationId, reason });
}
