// Client timeouts and polling of a conformance run, derived from the target's time scale.
// The same suite runs against a real sandbox (scale 1) and the fast embedded one, so every duration is scaled here, once.
import { DELAY_555555_MS, DELAY_666666_MS, SERVICE_TIMEOUT_MS } from '../api/spec-durations.ts';

/** Documented durations (spec: Limits, Sandbox simulation triggers), in real-gateway milliseconds. */
export const SPEC_DURATIONS = Object.freeze({
  delay666666Ms: DELAY_666666_MS,
  delay555555Ms: DELAY_555555_MS,
  serviceTimeoutMs: SERVICE_TIMEOUT_MS,
});

export interface TimingInput {
  /** Time scale of the target (1 = a real gateway; 0.01 = the embedded sandbox's 120 s delay takes 1.2 s). */
  readonly timeScale: number;
  /** Client response timeout for ordinary calls at scale 1 (target config `timeouts.responseMs`). */
  readonly responseTimeoutMs: number;
  /** Status poll interval at scale 1 (target config `poll.intervalMs`). */
  readonly pollIntervalMs: number;
  /** Polling deadline at scale 1 (target config `poll.deadlineMs`). */
  readonly pollDeadlineMs: number;
  /**
   * Real-time floor of ordinary timeouts: at scale 0.01 a 30 s timeout is 300 ms, shorter than a busy 2-core machine
   * can promise. Never applied to the delay-trigger timeouts, which must stay below the delay.
   */
  readonly minRequestTimeoutMs: number;
  /** Real-time slack added to every polling deadline (scheduling noise, not gateway time). */
  readonly pollSlackMs: number;
  /** Fraction of a trigger's delay after which the client gives up (≤ 1/3: "well before the delay"). */
  readonly delayTimeoutFraction: number;
}

export interface Timing {
  readonly timeScale: number;
  /** Response timeout of ordinary calls (real ms). */
  readonly requestTimeoutMs: number;
  readonly pollIntervalMs: number;
  /** How long a case polls the status endpoint for a final result (real ms). */
  readonly pollDeadlineMs: number;
  /** Client timeout for a top-up that the spec says is delayed by `delayMs` (scale-1 ms); real ms. */
  delayTimeoutMs(delayMs: number): number;
  /** A spec duration (scale-1 ms) in real ms. */
  scaled(ms: number): number;
}

export const DEFAULT_TIMING_INPUT: Omit<TimingInput, 'timeScale'> = Object.freeze({
  responseTimeoutMs: 30_000,
  pollIntervalMs: 5_000,
  pollDeadlineMs: 180_000,
  minRequestTimeoutMs: 5_000,
  pollSlackMs: 5_000,
  delayTimeoutFraction: 1 / 3,
});

export function computeTiming(input: TimingInput): Timing {
  const scale = input.timeScale;
  const scaled = (ms: number): number => Math.max(1, Math.round(ms * scale));
  // The deadline must outlast the service-side timeout (2 minutes): a transaction may stay in progress that long.
  const deadlineBase = Math.max(input.pollDeadlineMs, SPEC_DURATIONS.serviceTimeoutMs + 30_000);
  return {
    timeScale: scale,
    requestTimeoutMs: Math.max(scaled(input.responseTimeoutMs), input.minRequestTimeoutMs),
    pollIntervalMs: Math.max(5, scaled(input.pollIntervalMs)),
    pollDeadlineMs: scaled(deadlineBase) + input.pollSlackMs,
    delayTimeoutMs: (delayMs: number) => Math.max(1, Math.round(delayMs * scale * Math.min(input.delayTimeoutFraction, 1 / 3))),
    scaled,
  };
}
