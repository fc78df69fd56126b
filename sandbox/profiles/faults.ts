// Fault profiles: a whole run (load, conformance, gate) faces network and server faults without setting any header.
// A seeded fraction of requests (rate, default 0.1) each get one fault; the status endpoint is exempt except in faults-status.
import { OPERATIONS } from '../../api/operations.ts';
import type { FaultPlan, PlannedFaultKind } from '../faults.ts';
import { PLANNED_FAULT_KINDS } from '../faults.ts';
import type { SandboxProfile } from './types.ts';

/** Fraction of eligible requests faulted when no --fault-rate / faultRate is given. */
export const DEFAULT_FAULT_RATE = 0.1;
/**
 * Wait of `slow` and `late` faults (real-time ms, scaled like every sandbox delay): beyond the harness's default 30 s
 * response timeout at the same time scale, and within the spec's 2-minute service-side timeout.
 */
export const DEFAULT_FAULT_SLOW_MS = 40_000;

/**
 * The status endpoint (v1 and v2) is exempt by default: a client reconciles an unknown outcome through it, and a run
 * whose every status read can fail may never learn what it was charged. faults-status is the harsh exception.
 */
export const STATUS_OPERATIONS: readonly string[] = OPERATIONS.filter((op) => op.purpose === 'transaction.status').map((op) => op.id);

const WHAT: Readonly<Record<PlannedFaultKind, string>> = {
  reset: 'the request is processed, then the connection is reset (no response)',
  status: 'HTTP 500/502/503/504 with an empty body, before the request is processed (nothing charged)',
  malformed: 'the request is processed, the body is invalid JSON',
  truncate: 'the request is processed, the body is cut in half (complete HTTP message)',
  slow: 'the request is processed, the answer waits 40 s x time scale (beyond a 30 s client timeout)',
  late: 'the request waits 40 s x time scale before it is processed, then is answered (after a 30 s client timeout)',
};

function plan(kinds: readonly PlannedFaultKind[], exemptOperations: readonly string[] = STATUS_OPERATIONS): FaultPlan {
  return { kinds, rate: DEFAULT_FAULT_RATE, exemptOperations, slowMs: DEFAULT_FAULT_SLOW_MS };
}

const perKind: SandboxProfile[] = PLANNED_FAULT_KINDS.map((kind) => ({
  name: `faults-${kind === 'status' ? '5xx' : kind}`,
  description: `Faults: 10% of requests (--fault-rate) get one fault: ${WHAT[kind]}. Status endpoint exempt.`,
  faults: plan([kind]),
}));

export const FAULT_PROFILES: readonly SandboxProfile[] = [
  {
    name: 'faults-mixed',
    description: `Faults: 10% of requests (--fault-rate) get one of ${PLANNED_FAULT_KINDS.join(', ')} (seeded). Status endpoint exempt.`,
    faults: plan(PLANNED_FAULT_KINDS),
  },
  ...perKind,
  {
    name: 'faults-status',
    description: 'Faults: as faults-mixed, but the status endpoint is not exempt (the harsh case: reconciliation must retry).',
    faults: plan(PLANNED_FAULT_KINDS, []),
  },
];
