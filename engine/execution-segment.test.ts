// engine/execution-segment.ts against k6's own expectations: the tables below are copied from k6's
// lib/execution_segment_test.go (grafana/k6 at 87883075), plus the split properties every distributed run relies on.
import { describe, expect, it } from 'vitest';
import { ExecutionSegment, ExecutionSegmentError, executionTuple, parseSequence } from './execution-segment.ts';

describe('parsing (k6 TestExecutionSegmentUnmarshalText)', () => {
  it.each([
    ['0:1', '0:1'],
    ['0.5:0.75', '1/2:3/4'],
    ['1/2:3/4', '1/2:3/4'],
    ['50%:75%', '1/2:3/4'],
    ['2/4:75%', '1/2:3/4'],
    ['75%', '0:3/4'],
    ['', '0:1'],
  ])('%s is %s', (input, expected) => {
    expect(ExecutionSegment.parse(input).toString()).toBe(expected);
  });

  it.each(['125%', '1a5%', '1a5', '1a5%:2/3', '125%:250%', '55%:50%', '1/0'])('%s is refused', (input) => {
    expect(() => ExecutionSegment.parse(input)).toThrow(ExecutionSegmentError);
  });

  it('a sequence needs at least two points and no gaps', () => {
    expect(() => parseSequence('0.5')).toThrow(/at least 2 points/);
    expect(parseSequence('0,1/3,2/3,1').map((s) => s.toString())).toEqual(['0:1/3', '1/3:2/3', '2/3:1']);
  });

  it('a segment that is not in the sequence is refused', () => {
    expect(() => executionTuple('0:1/2', '0,1/3,2/3,1')).toThrow(/couldn't find segment 0:1\/2/);
  });
});

describe('striped offsets (k6 TestGetStripedOffsets)', () => {
  it.each([
    ['0,0.3,0.5,0.6,0.7,0.8,0.9,1', '0:0.3', 0, [4, 3, 3], 10],
    ['0,0.3,0.5,0.6,0.7,0.8,0.9,1', '0.3:0.5', 1, [4, 6], 10],
    ['0,0.3,0.5,0.6,0.7,0.8,0.9,1', '0.5:0.6', 2, [10], 10],
    ['0,0.3,0.5,0.6,0.7,0.8,0.9,1', '0.6:0.7', 3, [10], 10],
    ['0,0.3,0.5,0.6,0.7,0.8,0.9,1', '0.8:0.9', 8, [10], 10],
    ['0,0.3,0.5,0.6,0.7,0.8,0.9,1', '0.9:1', 9, [10], 10],
    ['0,0.2,0.5,0.6,0.7,0.8,0.9,1', '0.9:1', 9, [10], 10],
    ['0,0.2,0.5,0.6,0.7,0.8,0.9,1', '0:0.2', 1, [4, 6], 10],
    ['0,0.2,0.5,0.6,0.7,0.8,0.9,1', '0.6:0.7', 3, [10], 10],
    ['0,0.2,0.5', '0:0.2', 3, [6, 4], 10],
    ['0,0.2,0.5', '0.2:0.5', 1, [4, 2, 4], 10],
    ['0,2/5,4/5', '0:2/5', 0, [3, 2], 5],
    ['0,2/5,4/5', '2/5:4/5', 1, [3, 2], 5],
    ['', '0:0.2', 1, [5], 5],
    ['', '0:1/5', 1, [5], 5],
    ['', '0:2/10', 1, [5], 5],
    ['', '0:0.4', 1, [2, 3], 5],
    ['', '0:2/5', 1, [2, 3], 5],
    ['', '2/5:4/5', 1, [3, 2], 5],
    ['', '0:4/10', 1, [2, 3], 5],
    ['', '1/10:5/10', 1, [2, 2, 4, 2], 10],
  ])('seq %s segment %s: start %i offsets %j lcd %i', (seq, seg, start, offsets, lcd) => {
    const tuple = executionTuple(seg, seq);
    expect(tuple.stripes.striped(tuple.index)).toEqual({ start, offsets });
    expect(tuple.stripes.lcd).toBe(lcd);
  });
});

describe('scaling (k6 TestExecutionTupleScale, TestBigScale, TestGetNewExecutionTupleBesedOnValue)', () => {
  it('halves', () => {
    expect([executionTuple('0.5').scale(2), executionTuple('0.5').scale(3)]).toEqual([1, 2]);
    expect([executionTuple('0.5:1.0').scale(2), executionTuple('0.5:1.0').scale(3)]).toEqual([1, 1]);
    expect([executionTuple('0.5', '0,0.5,1').scale(2), executionTuple('0.5', '0,0.5,1').scale(3)]).toEqual([1, 2]);
    expect([executionTuple('0.5:1.0', '0,0.5,1').scale(2), executionTuple('0.5:1.0', '0,0.5,1').scale(3)]).toEqual([1, 1]);
  });

  it('7/20 of 50 is 18', () => {
    expect(executionTuple('0:7/20', '0,7/20,7/10,1').scale(50)).toBe(18);
  });

  it('re-segmenting thirds by 20 gives 0,7/20,7/10,1', () => {
    expect(executionTuple('0:1/3', '0,1/3,2/3,1').forValue(20)?.stripes.toString()).toBe('0,7/20,7/10,1');
  });

  it('an instance whose share of the value is 0 has no work', () => {
    // Thirds of 2 VUs: one instance gets none (k6's HasWork is false there).
    const shares = ['0:1/3', '1/3:2/3', '2/3:1'].map((s) => executionTuple(s, '0,1/3,2/3,1'));
    expect(shares.map((t) => t.scale(2))).toEqual([1, 1, 0]);
    expect(shares.map((t) => t.forValue(2) === undefined)).toEqual([false, false, true]);
  });
});

describe('split properties', () => {
  const sequences = ['0,1/3,2/3,1', '0,1/2,1', '0,1/4,1/2,3/4,1', '0,0.3,0.5,0.6,0.7,0.8,0.9,1', '0,1/5,3/7,1'];
  const tuplesOf = (seq: string) => parseSequence(seq).map((s) => executionTuple(s.toString(), seq));

  it.each(sequences)('%s: the shares of any count sum to it', (seq) => {
    const tuples = tuplesOf(seq);
    for (let value = 0; value <= 250; value++) expect(tuples.reduce((sum, t) => sum + t.scale(value), 0)).toBe(value);
  });

  it.each(sequences)('%s: the instances own every index exactly once, and the first scale(n) of each are the indexes below n', (seq) => {
    const tuples = tuplesOf(seq);
    const owner = new Map<number, number>();
    tuples.forEach((t, i) => {
      const it = t.globalIndexes();
      for (let k = 0; k < 300; k++) {
        const g = it.next().value as number;
        expect(t.globalIndex(k)).toBe(g);
        expect(owner.has(g)).toBe(false);
        owner.set(g, i);
      }
    });
    for (let g = 0; g < 300; g++) expect(owner.has(g)).toBe(true);
    for (const n of [1, 7, 100, 299]) {
      tuples.forEach((t, i) => expect(t.scale(n)).toBe([...Array(n).keys()].filter((g) => owner.get(g) === i).length));
    }
  });

  it('the whole test is one segment: identity', () => {
    const t = executionTuple();
    expect(t.whole).toBe(true);
    expect([t.scale(17), t.globalIndex(5)]).toEqual([17, 5]);
  });
});
