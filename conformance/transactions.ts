// Every charging transaction a run submits, and whether it is final yet: fed by the client core's hooks, which see
// every request of every case, so the runner can drain the concurrent phase before balance-reading cases start.
import { correlationIdOf, type CoreExchange, type OutgoingRequest } from '../api/client-core.ts';
import type { ApiVersion } from '../api/operations.ts';
import type { Outcome } from '../api/outcome.ts';
import { classifyStatusCheck, type StatusPolicy } from '../api/poll.ts';
import type { BuiltRequest } from '../api/request-builder.ts';

export interface TrackedTransaction {
  readonly key: string;
  readonly version: ApiVersion;
  readonly correlationId: string;
  readonly operationId: string;
  readonly caseId: string;
  /** When the (last) submission left (epoch ms): "not found" before the service-side timeout is still Unknown. */
  submittedAt: number;
  final: boolean;
  outcome: Outcome;
  /** The submission itself was answered with a final outcome (not a timeout, '852' or a lost connection). */
  finalOnSubmission: boolean;
}

/** A charging write whose correlationId cannot be polled (none, or not a string) and whose answer was not final. */
export interface UntrackableTransaction {
  readonly operationId: string;
  readonly caseId: string;
  readonly outcome: Outcome;
}

/** What the drain at the end of the concurrent phase found and did. */
export interface DrainReport {
  /** Charging transactions submitted by the concurrent phase. */
  readonly submitted: number;
  /** Not final when the concurrent phase ended (each was then polled). */
  readonly pendingAtBoundary: number;
  /** Still not final after polling up to the deadline, plus those that cannot be polled at all. */
  readonly unresolved: ReadonlyArray<{
    readonly correlationId?: string;
    readonly operationId: string;
    readonly caseId: string;
    readonly outcome: Outcome;
  }>;
  /** Real ms the exclusive phase waited for the drain. */
  readonly waitedMs: number;
  /** Of those, real ms spent waiting for the service-side timeout of transactions not final when submitted. */
  readonly serviceTimeoutWaitMs: number;
}

const STATUS_SUFFIX = '.transaction.status';

export class TransactionTracker {
  private readonly byKey = new Map<string, TrackedTransaction>();
  private readonly untrackable: UntrackableTransaction[] = [];
  /** Status checks in flight: which correlationId each built request asks about. */
  private readonly statusOf = new WeakMap<BuiltRequest, { key: string; caseId: string }>();
  /** Charging writes in flight; `first` is false for a resubmission of an open id, whose refusal ("duplicate") closes nothing. */
  private readonly writeOf = new WeakMap<BuiltRequest, { key?: string; caseId: string; first?: boolean }>();

  /** The slowest complete answer of the run so far (real ms): how late a request may reach the gateway. */
  private slowestAnswerMs = 0;

  constructor(private readonly policy: Omit<StatusPolicy, 'submittedAt'>) {}

  /** `beforeSend` of every request: remembers charging writes and what each status check asks about. */
  beforeSend(request: OutgoingRequest, caseId: string): void {
    const op = request.operation;
    if (op.method === 'POST' && op.charges) {
      const correlationId = correlationIdOf(request.input.body);
      if (correlationId === undefined) {
        this.writeOf.set(request.built, { caseId });
        return;
      }
      const key = `${op.version}:${correlationId}`;
      const known = this.byKey.get(key);
      const now = this.policy.now();
      if (known === undefined) {
        this.byKey.set(key, {
          key,
          version: op.version,
          correlationId,
          operationId: op.id,
          caseId,
          submittedAt: now,
          final: false,
          outcome: 'Unknown',
          finalOnSubmission: false,
        });
      } else if (!known.final) {
        // A resubmission of a transaction still open: its clock starts again.
        known.submittedAt = now;
      }
      this.writeOf.set(request.built, { key, caseId, first: known === undefined });
      return;
    }
    if (op.id.endsWith(STATUS_SUFFIX)) {
      const id = request.input.path?.correlationId;
      if (typeof id === 'string') this.statusOf.set(request.built, { key: `${op.version}:${id}`, caseId });
    }
  }

  /** `afterResponse` of every request: a final answer (submission or status check) closes the transaction. */
  afterResponse(exchange: CoreExchange): void {
    if (!exchange.response.timedOut && exchange.response.httpStatus !== undefined) {
      this.slowestAnswerMs = Math.max(this.slowestAnswerMs, exchange.response.timings.totalMs);
    }
    const write = this.writeOf.get(exchange.built);
    if (write !== undefined) {
      const c = exchange.response.classification;
      if (write.key === undefined) {
        if (!c.final) this.untrackable.push({ operationId: exchange.operation.id, caseId: write.caseId, outcome: c.outcome });
        return;
      }
      const tx = this.byKey.get(write.key);
      if (tx !== undefined && !tx.final && write.first === true) {
        tx.final = c.final;
        tx.outcome = c.outcome;
        tx.finalOnSubmission = c.final;
      }
      return;
    }
    const status = this.statusOf.get(exchange.built);
    if (status === undefined) return;
    const tx = this.byKey.get(status.key);
    if (tx === undefined || tx.final) return;
    const c = classifyStatusCheck(exchange.response, { ...this.policy, submittedAt: tx.submittedAt });
    tx.final = c.final;
    tx.outcome = c.outcome;
  }

  get submittedCount(): number {
    return this.byKey.size + this.untrackable.length;
  }

  pending(): TrackedTransaction[] {
    return [...this.byKey.values()].filter((tx) => !tx.final);
  }

  /**
   * When every transaction that was not final on submission has certainly ended on the service side: its status may
   * say final while the gateway still works on it (a status endpoint that answers wrongly), but the spec's service-side
   * timeout (2 minutes, scaled) bounds any processing. The gateway's clock starts when the request reaches it, so the
   * margin is the slowest answer the run has seen (at least `minMarginMs`): on a busy machine or link it grows.
   */
  serviceSideEndedBy(minMarginMs: number): number {
    const margin = Math.max(minMarginMs, this.slowestAnswerMs);
    let latest = 0;
    for (const tx of this.byKey.values()) {
      if (!tx.finalOnSubmission) latest = Math.max(latest, tx.submittedAt + this.policy.serviceTimeoutMs + margin);
    }
    return latest;
  }

  unresolved(): DrainReport['unresolved'] {
    return [
      ...this.pending().map((tx) => ({
        correlationId: tx.correlationId,
        operationId: tx.operationId,
        caseId: tx.caseId,
        outcome: tx.outcome,
      })),
      ...this.untrackable,
    ];
  }
}
