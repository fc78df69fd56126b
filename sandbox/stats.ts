// What reached the sandbox and what it did to it: requests received per operation and faults served per kind.
// Money-safety tests need "nothing reached the sandbox" and fault tests need "N faults were served": both read this.
import { OPERATIONS } from '../api/operations.ts';

/** Key of a request that matched no catalog operation (unknown path or method). */
export const UNMATCHED = 'unmatched';

/** Fault kinds as counted: the header's tokens and the fault profiles' kinds. */
export type CountedFault = 'status' | 'reset' | 'malformed' | 'truncate' | 'latency' | 'slow' | 'late';

/** A JSON-ready copy of the counters (GET /__sandbox/stats serves exactly this). */
export interface StatsSnapshot {
  /** Every request received, faulted or not, authenticated or not. */
  requestsTotal: number;
  /** Requests per operation id ('unmatched' for an unknown path); operations never called are absent. */
  requests: Record<string, number>;
  /** Requests to operations that charge (api/operations.ts `charges`). */
  chargingRequests: number;
  faultsTotal: number;
  /** Faults served per kind. */
  faults: Partial<Record<CountedFault, number>>;
  /** Faults served per operation id. */
  faultsByOperation: Record<string, number>;
  /** Corrupted payloads served (corrupt-* profiles), per operation id and the JSON path broken. */
  corruptions: Record<string, Record<string, number>>;
}

const CHARGING = new Set(OPERATIONS.filter((op) => op.charges).map((op) => op.id));

function bump(map: Map<string, number>, key: string): void {
  map.set(key, (map.get(key) ?? 0) + 1);
}

export class SandboxStats {
  #requestsTotal = 0;
  #inFlight = 0;
  #chargingRequests = 0;
  readonly #requests = new Map<string, number>();
  #faultsTotal = 0;
  readonly #faults = new Map<string, number>();
  readonly #faultsByOperation = new Map<string, number>();
  readonly #corruptions = new Map<string, Map<string, number>>();

  /** A request arrived (counted before authentication and before any fault). */
  request(operationId: string | undefined): void {
    const key = operationId === undefined || operationId === '' ? UNMATCHED : operationId;
    this.#requestsTotal += 1;
    bump(this.#requests, key);
    if (CHARGING.has(key)) this.#chargingRequests += 1;
  }

  /** Requests received and not yet answered (the under-load profiles break a rule only above some number of them). */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** A request began (+1) or its answer left or it was aborted (-1); never below zero. */
  flight(delta: 1 | -1): void {
    this.#inFlight = Math.max(0, this.#inFlight + delta);
  }

  /** A fault was applied to a request of this operation. */
  fault(kind: CountedFault, operationId: string | undefined): void {
    this.#faultsTotal += 1;
    bump(this.#faults, kind);
    bump(this.#faultsByOperation, operationId === undefined || operationId === '' ? UNMATCHED : operationId);
  }

  /** A successful payload of this operation was served corrupted at this JSON path. */
  corruption(operationId: string, path: string): void {
    let paths = this.#corruptions.get(operationId);
    if (paths === undefined) {
      paths = new Map();
      this.#corruptions.set(operationId, paths);
    }
    bump(paths, path);
  }

  requestsOf(operationId: string): number {
    return this.#requests.get(operationId) ?? 0;
  }

  snapshot(): StatsSnapshot {
    return {
      requestsTotal: this.#requestsTotal,
      requests: Object.fromEntries(this.#requests),
      chargingRequests: this.#chargingRequests,
      faultsTotal: this.#faultsTotal,
      faults: Object.fromEntries(this.#faults) as Partial<Record<CountedFault, number>>,
      faultsByOperation: Object.fromEntries(this.#faultsByOperation),
      corruptions: Object.fromEntries([...this.#corruptions].map(([op, paths]) => [op, Object.fromEntries(paths)])),
    };
  }

  reset(): void {
    this.#requestsTotal = 0;
    this.#chargingRequests = 0;
    this.#requests.clear();
    this.#faultsTotal = 0;
    this.#faults.clear();
    this.#faultsByOperation.clear();
    this.#corruptions.clear();
  }
}
