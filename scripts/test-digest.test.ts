// The failure digest test:node prints last: the failing tests' names and first error lines from vitest's output, or the
// output's tail when the run stopped before vitest (typecheck, lint).
import { describe, expect, it } from 'vitest';
import { FailureDigest } from './test-digest.ts';

const VITEST_FAILED = [
  ' ✓ |unit| api/base64.test.ts (14 tests) 8ms',
  '\x1b[31m ❯ |unit| load/x.test.ts (3 tests | 1 failed) 120ms\x1b[39m',
  '',
  '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯',
  '',
  ' FAIL  |unit| load/x.test.ts > the load > counts what the target served',
  'AssertionError: expected 41 to be 42 // Object.is equality',
  '',
  ' ❯ load/x.test.ts:12:5',
  '     10|   it("counts", () => {',
  '',
  ' Test Files  1 failed | 1 passed (2)',
  '      Tests  1 failed | 16 passed (17)',
].join('\n');

describe('the failure digest', () => {
  it("keeps each failing test's name and its first error line, not the passing lines or code frames", () => {
    const digest = new FailureDigest();
    // Fed in pieces cut mid-line, as a pipe delivers them.
    for (let i = 0; i < VITEST_FAILED.length; i += 7) digest.feed(VITEST_FAILED.slice(i, i + 7));
    expect(digest.lines()).toEqual([
      ' FAIL  |unit| load/x.test.ts > the load > counts what the target served',
      '    AssertionError: expected 41 to be 42 // Object.is equality',
    ]);
  });

  it('falls back to the last lines when no vitest failure section came (a typecheck error)', () => {
    const digest = new FailureDigest(60, 2);
    digest.feed('> tsc --noEmit\nsrc/a.ts(3,1): error TS2322: Type x\nnpm error code 2');
    expect(digest.lines()).toEqual(['src/a.ts(3,1): error TS2322: Type x', 'npm error code 2']);
  });

  it('bounds the digest, however many tests fail', () => {
    const many = Array.from({ length: 100 }, (_, i) => ` FAIL  |unit| f${i}.test.ts > t\nError: boom ${i}`).join('\n');
    const digest = new FailureDigest(10);
    digest.feed(`Failed Tests 100\n${many}\n`);
    expect(digest.lines()).toHaveLength(10);
  });
});
