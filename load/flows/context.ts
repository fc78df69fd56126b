// What every scenario's setup and iteration get: the client core, the run settings, the versions selected, the
// iteration number, fresh correlationIds and a recorder. Runtime-neutral: k6 fills it in k6-entry.ts, tests in Node.
import type { ClientCore, CoreExchange, TransactionResult } from '../../api/client-core.ts';
import type { ApiVersion } from '../../api/operations.ts';
import type { RequestInput } from '../../api/request-builder.ts';
import type { ResultFieldRequest, ResultFieldValue } from '../../target/discover/charge-learning.ts';
import type { RunSettings } from '../run-settings.ts';
import type { ScenarioName } from '../scenarios.ts';

/** Per-flow metrics; per-response metrics and checks are the client's afterResponse hook (one place). */
export interface FlowRecorder {
  transaction(result: TransactionResult): void;
  statusConfirms(ok: boolean, operationId: string, api: ApiVersion): void;
  /** A one-time warning (e.g. the catalog has no SKU of a category the flow needs). */
  warnOnce(key: string, message: string): void;
}

export interface FlowContext {
  readonly client: ClientCore;
  readonly settings: Pick<RunSettings, 'fieldMapping' | 'giftcardCursor' | 'data' | 'timings' | 'api'>;
  readonly versions: readonly ApiVersion[];
  /** The iteration's number across the whole test (k6 `exec.scenario.iterationInTest`; 0 in setup). */
  readonly iteration: number;
  readonly record: FlowRecorder;
  correlationId(): string;
  random(): number;
  /**
   * A transaction-result field a linked read takes, learned on this VU's first successful charge when the mapping reads
   * nothing there (target/discover/charge-learning.ts, as gate and conformance learn it; its probes are reads, never
   * judged as the gateway's outcomes). Absent: read through the mapping only.
   */
  resultValue?(request: Omit<ResultFieldRequest, 'probe'>): Promise<ResultFieldValue>;
}

export interface LoadScenario<D> {
  readonly name: ScenarioName;
  setup(ctx: FlowContext): Promise<D>;
  iteration(ctx: FlowContext, data: D): Promise<void>;
}

/** The version an iteration uses: alternating by iteration number, so every selected version runs in any 2 iterations. */
export function versionFor(ctx: FlowContext): ApiVersion {
  return ctx.versions[ctx.iteration % ctx.versions.length] as ApiVersion;
}

export function pick<T>(ctx: FlowContext, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[Math.floor(ctx.random() * items.length) % items.length];
}

export function read(ctx: FlowContext, operationId: string, input: RequestInput = {}): Promise<CoreExchange> {
  return ctx.client.call(operationId, input);
}

/** Submits a transaction and follows it to its final state (the core's transact), then records it. */
export async function submit(ctx: FlowContext, operationId: string, body: Record<string, unknown>): Promise<TransactionResult> {
  const result = await ctx.client.transact(operationId, { body }, { poll: { deadlineMs: ctx.settings.timings.pollDeadlineMs } });
  ctx.record.transaction(result);
  return result;
}

/** The successful payload of an exchange (undefined for anything else: failures are already counted by the hook). */
export function payloadOf(exchange: CoreExchange | undefined): unknown {
  if (exchange === undefined || exchange.response.classification.outcome !== 'Successful') return undefined;
  return exchange.response.envelope?.payLoad;
}

/** Spec "States and transitions": the final outcome read back from the status endpoint must be the one the flow saw. */
export async function confirmWithStatus(ctx: FlowContext, result: TransactionResult, correlationId: string): Promise<void> {
  if (!result.final) return; // unresolved: already counted, nothing final to compare
  const version = result.submitted.operation.version;
  const status = await read(ctx, `${version}.transaction.status`, { path: { correlationId } });
  const ok = status.response.envelope?.responseCode === result.code;
  ctx.record.statusConfirms(ok, status.operation.id, version);
}
