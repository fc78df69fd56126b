// The accuracy judge of bench:wire, calibrate and accuracy.test.ts on fixed numbers: each quantile against +3 ms + 5 % of
// what the proxy served, and a run proves the goal only when the generator carried it (probe.ts `generatorCarried`).
import { describe, expect, it } from 'vitest';
import { goalBound, judgeAccuracy, withinGoal } from './probe.ts';

const served = { count: 700, p50: 10, p95: 40, p99: 100 };
const carriedRun = { served, windows: [], judgedSeconds: 8, saturatedSeconds: [], droppedIterations: 0, peakAddedMs: 2.5 };
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

  it('a saturated run proves nothing: a window, a lone saturated second, a dropped iteration, or no second judged', () => {
    const notCarried = { carried: false, proven: false };
    expect(judgeAccuracy({ ...carriedRun, reported: exact, windows: ['event-loop delay p99 45 ms'] })).toMatchObject(notCarried);
    expect(judgeAccuracy({ ...carriedRun, reported: exact, saturatedSeconds: ['CPU 93 % of the cores'] })).toMatchObject(notCarried);
    expect(judgeAccuracy({ ...carriedRun, reported: exact, droppedIterations: 1 })).toMatchObject(notCarried);
    expect(judgeAccuracy({ ...carriedRun, reported: exact, judgedSeconds: 0 })).toMatchObject(notCarried);
  });

  it('a run whose generator added more than the goal margin (3 ms) in some second, or an unbounded amount, proves nothing', () => {
    expect(judgeAccuracy({ ...carriedRun, reported: exact, peakAddedMs: 3 })).toMatchObject({ carried: true, proven: true });
    expect(judgeAccuracy({ ...carriedRun, reported: exact, peakAddedMs: 3.1 })).toMatchObject({ carried: false, proven: false });
    expect(judgeAccuracy({ ...carriedRun, reported: exact, peakAddedMs: undefined })).toMatchObject({ carried: false, proven: false });
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
