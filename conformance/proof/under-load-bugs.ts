// The sandbox profile that proves `--under-load`: a gateway that keeps the spec's length rule while it is quiet and
// breaks it once other requests are in flight beside the one it judges (a race), so only the loaded pass can see it.
import { OPERATIONS } from '../../api/operations.ts';
import type { SandboxProfile } from '../../sandbox/profiles/types.ts';

/** Requests in flight (the judged one included) from which the rule breaks: 2 = any other request beside it. */
export const UNDER_LOAD_BUG_IN_FLIGHT = 2;

const TOPUPS = new Set(['v1.transaction.topup', 'v2.transaction.topup']);
/** Reads the mixed load sends often and the suite seldom (never in a loop, never in its exclusive phase): the relay's. */
const HELD_PURPOSES = new Set([
  'catalog.countries',
  'catalog.sku-exchange-rate',
  'catalog.errors',
  'catalog.bundles',
  'promotion.current',
  'promotion.upcoming',
]);
const HELD_READS = OPERATIONS.filter((op) => HELD_PURPOSES.has(op.purpose)).map((op) => op.id);

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
      `request in flight, but cut to 50 and accepted when ${UNDER_LOAD_BUG_IN_FLIGHT} or more are in flight. Country, ` +
      `exchange-rate, error-list, bundle and promotion reads are held until the next of them arrives (at most 1 s at time scale 0.01), ` +
      `so a steady load keeps one in flight.`,
    // The hold is spec-neutral (the spec states no latency) and only on reads the mixed load sends several times a second
    // and the suite seldom, never in a loop nor in its exclusive phase (the length cases run there alone, so they pass
    // idle). As a relay (sandbox/relay-hold.ts) it turns "the load is sending" into "a request is in flight" at every
    // moment: the state the bug needs, and the one the harness waits for before each request of the loaded pass.
    relayHold: { operations: HELD_READS, boundMs: 100_000 },
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
