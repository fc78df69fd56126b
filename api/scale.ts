// Time scaling of a target: the documented delays, client timeouts and polling deadlines all scale by its time
// scale (DESIGN.md), so one suite runs against a real gateway (1) and a fast simulator (e.g. 0.01). Runtime-neutral.

/** `ms` of real-gateway time in real milliseconds on a target with this time scale (at least 1 ms). */
export function scaleMs(timeScale: number, ms: number): number {
  return Math.max(1, Math.round(ms * timeScale));
}

/** `scaledMs(config, ms)`: the same, reading the scale from a config. */
export function scaledMs(config: { readonly timeScale: number }, ms: number): number {
  return scaleMs(config.timeScale, ms);
}

/**
 * Connect timeouts get a real-time floor: connecting is not part of any documented delay, and at scale 0.01 a
 * 10 s timeout would be 100 ms, shorter than a busy CI machine can promise for a loopback connect.
 */
export const MIN_CONNECT_TIMEOUT_MS = 1_000;

export interface ClientTimings {
  readonly connectTimeoutMs: number;
  readonly responseTimeoutMs: number;
  readonly pollIntervalMs: number;
  readonly pollDeadlineMs: number;
}

/** The client's real-time timeouts and polling for a config (all scaled; connect with a floor). */
export function clientTimings(config: {
  readonly timeScale: number;
  readonly timeouts: { readonly connectMs: number; readonly responseMs: number };
  readonly poll: { readonly intervalMs: number; readonly deadlineMs: number };
}): ClientTimings {
  return {
    connectTimeoutMs: Math.max(MIN_CONNECT_TIMEOUT_MS, scaledMs(config, config.timeouts.connectMs)),
    responseTimeoutMs: scaledMs(config, config.timeouts.responseMs),
    pollIntervalMs: scaledMs(config, config.poll.intervalMs),
    pollDeadlineMs: scaledMs(config, config.poll.deadlineMs),
  };
}
