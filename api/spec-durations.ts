// Durations the spec states, in real-gateway milliseconds; every consumer scales them by the target's time scale.
// One table so the client core, conformance, the sandbox and the load suites agree on what "2 minutes" is.

/** 'Service-side transaction timeout | 2 minutes' (spec: Limits). */
export const SERVICE_TIMEOUT_MS = 120_000;
/** 'Mobile number ends with 666666 | Response delayed about 120 seconds' (spec: Sandbox simulation triggers). */
export const DELAY_666666_MS = 120_000;
/** 'Mobile number ends with 555555 | Response delayed 90 seconds'. */
export const DELAY_555555_MS = 90_000;
