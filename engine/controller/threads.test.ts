// How many worker threads a run gets ('auto' scales with the VUs up to the machine's cores; a number is taken as given),
// the threads' heap limits, and what a user reads when a thread runs out of heap (a real run of it: out-of-heap.test.ts).
import { describe, expect, test } from 'vitest';
import { consolidateOptions } from '../options.ts';
import { threadHeapLimits, threadLostText, workerCount } from './threads.ts';

const withVUs = (vus: number) => consolidateOptions({ vus, duration: '10s' });

describe('workerCount', () => {
  test("'auto': one worker for a small test, one per 6 VUs above that, never more than the cores", () => {
    expect(workerCount('auto', withVUs(2), 2)).toBe(1);
    expect(workerCount('auto', withVUs(6), 2)).toBe(1);
    expect(workerCount('auto', withVUs(7), 2)).toBe(2);
    expect(workerCount('auto', withVUs(1000), 2)).toBe(2);
    expect(workerCount('auto', withVUs(1000), 16)).toBe(16);
    expect(workerCount('auto', withVUs(30), 16)).toBe(5);
    expect(workerCount('auto', withVUs(1), 1)).toBe(1);
  });

  test('counts the VUs of every scenario', () => {
    const options = consolidateOptions({
      scenarios: {
        a: { executor: 'constant-vus', vus: 5, duration: '5s' },
        b: { executor: 'per-vu-iterations', vus: 5, iterations: 1 },
      },
    });
    expect(workerCount('auto', options, 8)).toBe(2);
  });

  test('a number is taken as given; anything else is refused', () => {
    expect(workerCount(3, withVUs(2), 2)).toBe(3);
    expect(() => workerCount(0, withVUs(2), 2)).toThrow(/whole number ≥ 1/);
    expect(() => workerCount(1.5, withVUs(2), 2)).toThrow(/whole number ≥ 1/);
  });
});

describe('threadHeapLimits', () => {
  const GB = 2 ** 30;
  test('caps the old generation just under 2 GB where the default is 2 GB or more (V8 grows it up to 4x there, at most 2x below)', () => {
    expect(threadHeapLimits(4 * GB)).toEqual({ maxYoungGenerationSizeMb: 96, maxOldGenerationSizeMb: 2047 });
    expect(threadHeapLimits(2 * GB)).toEqual({ maxYoungGenerationSizeMb: 96, maxOldGenerationSizeMb: 2047 });
  });
  test("keeps V8's own old-generation limit below 2 GB", () => {
    expect(threadHeapLimits(2 * GB - 1)).toEqual({ maxYoungGenerationSizeMb: 96 });
    expect(threadHeapLimits(GB)).toEqual({ maxYoungGenerationSizeMb: 96 });
  });
});

describe('a thread that runs out of heap', () => {
  test('says which thread and how to get more; other errors are told as they are', () => {
    const oom = Object.assign(new Error('Worker terminated due to reaching memory limit: JS heap out of memory'), {
      code: 'ERR_WORKER_OUT_OF_MEMORY',
    });
    expect(threadLostText(oom, 'VU thread 2')).toBe(
      'the VU thread 2 ran out of JavaScript heap (Error: Worker terminated due to reaching memory limit: JS heap out of memory): spread the VUs over more threads (--workers N) or raise the limit (NODE_OPTIONS=--max-old-space-size=MB)',
    );
    expect(threadLostText(new Error('boom'), 'VU thread 1')).toBe('Error: boom');
  });
});
