// The accuracy judge of bench:wire, calibrate and accuracy.test.ts on fixed numbers: each quantile against +3 ms + 5 % of
// what the proxy served, and a run proves the goal only when the generator carried it (probe.ts `generatorCarried`).
import { describe, expect, it } from 'vitest';
import { accuracyOf } from '../../../reports/generator.ts';
import { goalBound, judgeAccuracy, withinGoal } from './probe.ts';

const served = { count: 700, p50: 10, p95: 40, p99: 100 };
/** The Node engine's seconds with these loop delays p99 (ms), as the report's accuracy statement judges them. */
const accuracyAt = (...delays: number[]): ReturnType<typeof accuracyOf> =>
  accuracyOf(
    'node',
    delays.map((loopDelayP99Ms, i) => ({ t: 1_000 * (i + 1), cpuShare: 0.3, loopDelayP99Ms })),
  );
const carriedRun = { served, windows: [], droppedIterations: 0, accuracy: accuracyAt(1, 2.5, 2) };
const exact = { p50: 10, p95: 40, p99: 100 };

describe('judgeAccuracy', () => {
  it('a carried run within +3 ms + 5 % at every quantile proves the goal; the bound itself counts as within', () => {
    const judged = judgeAccuracy({ ...carriedRun, reported: { p50: 13.5, p95: goalBound(40), p99: 104 } });
    expect(judged.quantiles.map((q) => [q.quantile, q.within])).toEqual([
      ['p50', true],
      ['p95', true],
      ['p99', true],
    ]);
    expect(judged.quantiles[0]).toMatchObject({ reportedMs: 13.5, servedMs: 10, differenceMs: 3.5, ratio: 1.35 });
    expect(judged).toMatchObject({ carried: true, proven: true });
  });

  it('one quantile past its bound misses the goal, though the generator carried the run', () => {
    const judged = judgeAccuracy({ ...carriedRun, reported: { p50: 13.6, p95: 40, p99: 100 } });
    expect(judged.quantiles[0]?.within).toBe(false);
    expect(judged).toMatchObject({ carried: true, proven: false });
  });

  it('a saturated run proves nothing: a window, a dropped iteration, or the report saying its latency is outside the goal', () => {
    const notCarried = { carried: false, proven: false };
    expect(judgeAccuracy({ ...carriedRun, reported: exact, windows: ['event-loop delay p99 45 ms'] })).toMatchObject(notCarried);
    expect(judgeAccuracy({ ...carriedRun, reported: exact, droppedIterations: 1 })).toMatchObject(notCarried);
    expect(judgeAccuracy({ ...carriedRun, reported: exact, accuracy: accuracyAt(1, 25, 2) })).toMatchObject(notCarried);
    expect(judgeAccuracy({ ...carriedRun, reported: exact, accuracy: accuracyAt() })).toMatchObject(notCarried);
    expect(judgeAccuracy({ ...carriedRun, reported: exact, accuracy: undefined })).toMatchObject(notCarried);
  });

  it('a run whose generator added more than the goal margin (3 ms) in some second proves nothing; 3 ms itself is within', () => {
    expect(judgeAccuracy({ ...carriedRun, reported: exact, accuracy: accuracyAt(1, 3) })).toMatchObject({ carried: true, proven: true });
    expect(judgeAccuracy({ ...carriedRun, reported: exact, accuracy: accuracyAt(1, 3.1) })).toMatchObject({
      carried: false,
      proven: false,
    });
  });

  it('nothing served is never within; withinGoal (calibrate) judges p95 by the same bound', () => {
    const none = {
      ...carriedRun,
      served: { count: 0, p50: 0, p95: 0, p99: 0 },
      reported: { p50: 1, p95: 1, p99: 1 },
    };
    expect(judgeAccuracy(none).quantiles.every((q) => !q.within && q.ratio === undefined)).toBe(true);
    expect(withinGoal({ served, reported: { p50: 0, p95: 45, p99: 0 } })).toBe(true);
    expect(withinGoal({ served, reported: { p50: 0, p95: 45.1, p99: 0 } })).toBe(false);
  });
});
