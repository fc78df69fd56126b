// The engines' output as progress: k6's and the Node engine's scenario lines become one task per scenario with its
// percentage, the "running" line its detail; warnings and errors stay as lines; k6's logo and notices are dropped.
import { describe, expect, it } from 'vitest';
import { createProgress } from '../../reports/progress.ts';
import { engineProgress } from './engine-progress.ts';

function drive(chunks: readonly string[]): string {
  let text = '';
  let clock = Date.UTC(2026, 10, 22, 14, 0, 0);
  const progress = createProgress({
    stream: { write: (chunk: string) => (text += chunk) },
    tty: false,
    now: () => (clock += 1_000),
    plainIntervalMs: 0,
  });
  const display = engineProgress(progress, (scenario) => `load ${scenario}/smoke`, ['mixed']);
  for (const chunk of chunks) display.write(chunk);
  display.finish({ ok: true });
  progress.done();
  return text.replace(/^\[[^\]]+\] /gm, '');
}

describe('engineProgress', () => {
  it("reads k6's output (piped: no terminal), in chunks that split lines anywhere", () => {
    const text = drive([
      '\n          /\\      |‾‾| /‾‾/   /‾‾/   \n     /\\  /  \\     |  |/  /   /  /    \n  / __________ \\  |__| \\__\\ \\_____/ .io\n\n',
      'time="2026-11-22T16:12:52Z" level=warning msg="The source for `file:///x/mixed.js` needs to go through babel but is over 0 bytes."\n',
      '  execution: local\n',
      'running (00m00.5s), 2/2 VUs, 30 complete and 0 interrupted iterations\nmixed   [  48% ] 2 VUs  00m00.2s/10m0s  30/62 sha',
      'red iters\n',
      'time="2026-11-22T16:12:53Z" level=warning msg="catalog discovery: v2.catalog.skus answered 401"\n',
      'PASS: load mixed/smoke (k6 v0.48.0): 95 requests, 57 thresholds met, 378 checks passed\nk6 summary data: /tmp/r/k6-summary.json\n',
      'running (00m00.9s), 0/2 VUs, 62 complete and 0 interrupted iterations\nmixed ✓ [ 100% ] 2 VUs  00m00.4s/10m0s  62/62 shared iters\n',
    ]);
    expect(text.trimEnd().split('\n')).toEqual([
      'load mixed/smoke: started (0%)',
      'execution: local',
      'load mixed/smoke: 48% — 2 VUs 00m00.2s/10m0s 30/62 shared iters · 2/2 VUs, 30 complete and 0 interrupted iterations (00m00.5s)',
      'time="2026-11-22T16:12:53Z" level=warning msg="catalog discovery: v2.catalog.skus answered 401"',
      'load mixed/smoke: 100% — 2 VUs 00m00.4s/10m0s 62/62 shared iters · 0/2 VUs, 62 complete and 0 interrupted iterations (00m00.9s)',
      'load mixed/smoke: done (100%) in 9.0 s',
    ]);
  });

  it("reads the Node engine's plain progress, and a scenario it did not expect gets its own task", () => {
    const text = drive([
      'running (360ms), 0/2 VUs, 62 complete and 0 interrupted iterations\nmixed [100%] shared-iterations, up to 2 VUs, 62 iterations\nextra [ 50%] constant-vus, up to 1 VUs, 3 iterations\n',
    ]);
    expect(text).toContain(
      'load mixed/smoke: 100% — shared-iterations, up to 2 VUs, 62 iterations · 0/2 VUs, 62 complete and 0 interrupted iterations (360ms)',
    );
    expect(text).toContain('load extra/smoke: started (0%)');
    expect(text).toContain('load extra/smoke: done (50%)');
  });

  it('marks the tasks failed when the run did not end well, with why', () => {
    let text = '';
    const progress = createProgress({ stream: { write: (chunk: string) => (text += chunk) }, tty: false });
    const display = engineProgress(progress, (s) => `load ${s}/smoke`, ['lookup']);
    display.finish({ ok: false, detail: 'engine exit 107' });
    expect(text).toMatch(/load lookup\/smoke: FAILED \(0%\) in [\d.]+ s — engine exit 107\n$/);
  });
});
