// The sandbox profile that proves `--under-load`: a gateway that keeps the spec's length rule while it is quiet and
// breaks it once other requests are in flight beside the one it judges (a race), so only the loaded pass can see it.
import { OPERATIONS } from '../../api/operations.ts';
import type { SandboxProfile } from '../../sandbox/profiles/types.ts';

/** Requests in flight (the judged one included) from which the rule breaks: 2 = any other request beside it. */
export const UNDER_LOAD_BUG_IN_FLIGHT = 2;

const TOPUPS = new Set(['v1.transaction.topup', 'v2.transaction.topup']);
const NOT_CATALOG_READS = OPERATIONS.filter((op) => !/^v[12]\.catalog\./.test(op.id)).map((op) => op.id);

/** The profile's name, the rule it breaks, and the cases that judge the rule (each passes idle; under load some fail). */
export const UNDER_LOAD_BUG = Object.freeze({
  name: 'bug-under-load-correlation-id',
  rule: 'correlationId | string, 1..50 chars (Limits: correlationId length 1 to 50 characters)',
  cases: ['LEN-CORR-51-V1', 'LEN-CORR-51-V2', 'GEN-TOPUP-LENGTH-V1', 'GEN-TOPUP-LENGTH-V2'],
});

export const UNDER_LOAD_BUG_PROFILES: readonly SandboxProfile[] = [
  {
    name: UNDER_LOAD_BUG.name,
    description:
      `Planted under-load bug: a top-up (v1 or v2) whose correlationId is over 50 characters is refused while it is the only ` +
      `request in flight, but cut to 50 and accepted when ${UNDER_LOAD_BUG_IN_FLIGHT} or more are in flight. Catalog reads ` +
      `are held 20 s of sandbox time (200 ms at time scale 0.01), so a load's requests overlap the judged one.`,
    // The hold is spec-neutral (the spec states no latency) and only on catalog reads, which the mixed load sends most
    // and the length cases never: a fixed wait (the fault plan's `slow`, every catalog read, 200 ms at time scale 0.01)
    // makes "another request in flight" the usual state under load, and costs the idle pass little.
    faults: { kinds: ['slow'], rate: 1, exemptOperations: NOT_CATALOG_READS, slowMs: 20_000 },
    hooks: {
      onRequest(req) {
        if (req.operationId === undefined || !TOPUPS.has(req.operationId)) return;
        if ((req.inFlight ?? 1) < UNDER_LOAD_BUG_IN_FLIGHT) return;
        const body = req.body;
        if (body === null || typeof body !== 'object' || Array.isArray(body)) return;
        const record = body as Record<string, unknown>;
        if (typeof record.correlationId === 'string' && record.correlationId.length > 50)
          record.correlationId = record.correlationId.slice(0, 50);
      },
    },
  },
];
