// Pure schedule math of k6's executors: VU targets of ramping-vus over time, iteration start times of the arrival-rate
// executors, and how a worker's segment shares VUs and iterations. No timers here, so tests can check it exactly.
import type { Stage } from './config.ts';

/** A worker's slice of every scenario: worker `index` of `count`. */
export interface Segment {
  index: number;
  count: number;
}

export const WHOLE: Segment = { index: 0, count: 1 };

/** How many of `total` items (VUs, numbered 1..total) fall in a segment: item j belongs to worker (j-1) % count. */
export function shareOf(total: number, seg: Segment): number {
  if (total <= seg.index) return 0;
  return Math.floor((total - seg.index - 1) / seg.count) + 1;
}

/**
 * ramping-vus target at `tMs` after the scenario start: within a stage the count moves linearly from the previous
 * target, one VU at a time, reaching each step at the end of its share of the stage (k6's getRawExecutionSteps).
 */
export function rampingVUsAt(startVUs: number, stages: readonly Stage[], tMs: number): number {
  let from = startVUs;
  let stageStart = 0;
  for (const stage of stages) {
    const end = stageStart + stage.durationMs;
    if (tMs < end) {
      if (stage.durationMs === 0) return stage.target;
      const diff = stage.target - from;
      const steps = Math.floor((Math.abs(diff) * (tMs - stageStart)) / stage.durationMs);
      return from + Math.sign(diff) * steps;
    }
    from = stage.target;
    stageStart = end;
  }
  return from;
}

export function stagesDurationMs(stages: readonly Stage[]): number {
  return stages.reduce((sum, s) => sum + s.durationMs, 0);
}

/** Most VUs a ramping-vus scenario ever asks for. */
export function rampingMaxVUs(startVUs: number, stages: readonly Stage[]): number {
  return Math.max(startVUs, ...stages.map((s) => s.target));
}

/** The identity slot map: every iteration slot of the test belongs to this instance (no execution segment). */
const ALL_SLOTS = (j: number): number => j;

/**
 * Start offsets (ms) of constant-arrival-rate iterations: slot k at k × timeUnit / rate, while before the end. `slot`
 * maps the instance's j-th iteration to its test-wide slot (execution segments, executors/segment-share.ts); the
 * worker takes every seg.count-th of the instance's iterations.
 */
export function* constantArrivalTimes(
  rate: number,
  timeUnitMs: number,
  durationMs: number,
  seg: Segment = WHOLE,
  slot: (j: number) => number = ALL_SLOTS,
): Generator<number> {
  const period = timeUnitMs / rate;
  for (let j = seg.index; slot(j) * period < durationMs; j += seg.count) yield slot(j) * period;
}

/**
 * Start offsets (ms) of ramping-arrival-rate iterations: iteration i (1-based) starts when the area under the rate
 * curve reaches i (k6's RampingArrivalRateConfig.cal), rates in iterations per timeUnit changing linearly per stage.
 * An iteration due exactly at the end is not started: k6 loses that race to the end of the scenario every time
 * (measured: 0→100/s over 1 s then 1 s at 100/s starts 149 on k6 v0.48 and v2.2), and both executors start only
 * iterations due strictly before the end.
 */
export function* rampingArrivalTimes(
  startRate: number,
  timeUnitMs: number,
  stages: readonly Stage[],
  seg: Segment = WHOLE,
  slot: (j: number) => number = ALL_SLOTS,
): Generator<number> {
  const end = stagesDurationMs(stages);
  for (const t of rampingArrivalCurve(startRate, timeUnitMs, stages, seg, slot)) {
    if (t >= end - 1e-3) return; // 1 µs: float error of the closed form near the end
    yield t;
  }
}

function* rampingArrivalCurve(
  startRate: number,
  timeUnitMs: number,
  stages: readonly Stage[],
  seg: Segment,
  slot: (j: number) => number,
): Generator<number> {
  let from = startRate / timeUnitMs; // iterations per ms
  let stageStart = 0;
  let doneSoFar = 0;
  let endCount = 0;
  // i is the 1-based test-wide number of the next iteration (k6's cal(): start + 1, then the striped offsets).
  let j = seg.index;
  let i = slot(j) + 1;
  const advance = (): void => {
    j += seg.count;
    i = slot(j) + 1;
  };
  for (const stage of stages) {
    const to = stage.target / timeUnitMs;
    const d = stage.durationMs;
    if (from !== to) {
      endCount += d * ((to - from) / 2 + from);
      for (; i <= endCount + 1e-9; advance()) {
        const x = (from * d - Math.sqrt(Math.max(0, d * (from * from * d + 2 * (i - doneSoFar) * (to - from))))) / (from - to);
        yield stageStart + x;
      }
    } else {
      endCount += d * to;
      for (; i <= endCount + 1e-9; advance()) yield stageStart + (i - doneSoFar) / to;
    }
    doneSoFar = endCount;
    from = to;
    stageStart += d;
  }
}
