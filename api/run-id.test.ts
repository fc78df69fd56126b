// The run id's shape: every command's report directory is named by it, so it sorts by time and names its kind.
import { describe, expect, it } from 'vitest';
import { newRunId, runStamp, runSuffix } from './run-id.ts';

describe('run ids', () => {
  const now = new Date('2026-11-27T01:23:45.678Z');
  it('stamp to the second in UTC, then the kind, then four characters', () => {
    expect(runStamp(now)).toBe('20261127T012345Z');
    expect(newRunId('load', now, () => 0.123456)).toMatch(/^20261127T012345Z-load-[0-9a-z]{4}$/);
    expect(newRunId(undefined, now, () => 0.5)).toMatch(/^20261127T012345Z-[0-9a-z]{4}$/);
  });
  it('pads a short random expansion to four characters', () => {
    expect(runSuffix(() => 0.5)).toBe('i000');
  });
});
