// Progress display with a fake stream and clock: plain timestamped lines without any escape code when not a TTY
// (throttled, milestones kept), a live block redrawn in place on a TTY.
import { describe, expect, it } from 'vitest';
import { createProgress, type ProgressStream } from './progress.ts';

function fakeStream(isTTY: boolean): ProgressStream & { readonly text: () => string } {
  const chunks: string[] = [];
  return { isTTY, columns: 80, write: (chunk: string) => chunks.push(chunk), text: () => chunks.join('') };
}

function clock(start = Date.UTC(2026, 10, 22, 14, 0, 0)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

describe('not a TTY (CI logs)', () => {
  it('writes timestamped lines and no ANSI escape code at all', () => {
    const stream = fakeStream(false);
    const c = clock();
    const progress = createProgress({ stream, now: c.now });
    const task = progress.start({ label: 'conformance', total: 14, unit: 'groups' });
    c.advance(1_500);
    task.update({ done: 7, detail: 'TRG running' });
    progress.line('sandbox listening on http://127.0.0.1:40123');
    task.done();
    progress.done();
    expect(stream.text()).not.toContain('\u001b');
    expect(stream.text().split('\n').filter(Boolean)).toEqual([
      '[2026-11-22T14:00:00.000Z] conformance: started (14 groups)',
      '[2026-11-22T14:00:01.500Z] conformance: 7/14 groups — TRG running',
      '[2026-11-22T14:00:01.500Z] sandbox listening on http://127.0.0.1:40123',
      '[2026-11-22T14:00:01.500Z] conformance: done (7/14 groups) in 1.5 s',
    ]);
  });

  it('throttles updates: a line per milestone (25/50/75%) or per interval, not per call', () => {
    const stream = fakeStream(false);
    const c = clock();
    const progress = createProgress({ stream, now: c.now, plainIntervalMs: 10_000 });
    const task = progress.start({ label: 'load mixed/smoke', total: 100, unit: 'iterations' });
    for (let i = 1; i <= 60; i++) {
      c.advance(100);
      task.update({ done: i });
    }
    c.advance(10_000);
    task.update({ done: 61 });
    const lines = stream.text().split('\n').filter(Boolean);
    expect(lines.map((l) => l.replace(/^\[[^\]]+\] /, ''))).toEqual([
      'load mixed/smoke: started (100 iterations)',
      'load mixed/smoke: 25/100 iterations',
      'load mixed/smoke: 50/100 iterations',
      'load mixed/smoke: 61/100 iterations',
    ]);
  });

  it('shows polling waits as time and lists unfinished work at the end', () => {
    const stream = fakeStream(false);
    const c = clock();
    const progress = createProgress({ stream, now: c.now, plainIntervalMs: 5_000 });
    const wait = progress.start({ label: 'waiting for TRG-666666-V2', total: 185_000, unit: 'ms' });
    c.advance(6_000);
    wait.update({ done: 6_000 });
    progress.done();
    const lines = stream
      .text()
      .split('\n')
      .filter(Boolean)
      .map((l) => l.replace(/^\[[^\]]+\] /, ''));
    expect(lines).toEqual([
      'waiting for TRG-666666-V2: started (0.0 s of 185 s)',
      'waiting for TRG-666666-V2: 6.0 s of 185 s',
      'waiting for TRG-666666-V2: unfinished (6.0 s of 185 s)',
    ]);
  });

  it('a failed task says FAILED', () => {
    const stream = fakeStream(false);
    createProgress({ stream, now: clock().now }).start('drift').done({ ok: false, detail: '2 breaking changes' });
    expect(stream.text()).toMatch(/drift: FAILED in 0\.0 s — 2 breaking changes\n$/);
  });
});

describe('on a TTY', () => {
  it('redraws a live block in place and keeps lines and finished tasks above it', () => {
    const stream = fakeStream(true);
    const c = clock();
    const progress = createProgress({ stream, now: c.now, redrawMs: 0 });
    const conformance = progress.start({ label: 'conformance', total: 4, unit: 'groups' });
    const load = progress.start({ label: 'load mixed/smoke' });
    c.advance(200);
    conformance.update({ done: 2 });
    progress.line('note: sandbox started');
    conformance.done();
    load.done();
    progress.done();
    const text = stream.text();
    // Cursor up over the block, clear below: the redraw in place.
    expect(text).toContain('\u001b[2F\u001b[J');
    expect(text).toMatch(/conformance {2}██████████░{10} 2\/4 groups/);
    expect(text).toContain('note: sandbox started\n');
    expect(text).toContain('✓ conformance: done (2/4 groups) in 0.2 s\n');
    expect(text).toContain('✓ load mixed/smoke: done in 0.2 s\n');
  });

  it('fits lines to the terminal width so the block height stays right', () => {
    const stream = { ...fakeStream(true), columns: 30 };
    const chunks: string[] = [];
    stream.write = (chunk: string) => chunks.push(chunk);
    const progress = createProgress({ stream, now: clock().now, redrawMs: 0 });
    progress.start({ label: 'a very long label that does not fit in thirty columns', total: 10 });
    const lines = chunks.join('').split('\u001b[J').join('').split('\u001b[1F').join('').split('\n').filter(Boolean);
    for (const line of lines) expect(Array.from(line).length).toBeLessThanOrEqual(29);
  });

  it('tty can be forced off for a terminal (e.g. --no-progress style use)', () => {
    const stream = fakeStream(true);
    createProgress({ stream, tty: false, now: clock().now }).start('x').done();
    expect(stream.text()).not.toContain('\u001b');
  });
});
