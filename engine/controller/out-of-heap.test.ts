// A VU thread that fills its heap ends a real engine run (the CLI in a child process, Node's heap limit set small) with
// 107 and a text that says which thread and how to get more heap: controller/threads.ts threadLostText.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';

test('a VU thread out of heap ends the run with 107, naming the thread and how to get more', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gh-engine-oom-'));
  const script = join(dir, 'fill.js');
  writeFileSync(script, 'const kept = [];\nexport default function () { for (;;) kept.push(new Array(100000).fill(kept.length)); }\n');
  const cli = new URL('../cli.ts', import.meta.url).pathname;
  // A small limit for every isolate of the run (Node applies --max-old-space-size to worker threads too).
  const args = [
    '--max-old-space-size=96',
    '--import',
    'tsx',
    cli,
    'run',
    script,
    '--progress',
    'none',
    '--workers',
    '1',
    '--vus',
    '1',
    '--iterations',
    '1',
  ];
  const result = await new Promise<{ code: number | null; stderr: string }>((resolveRun) => {
    execFile(process.execPath, args, { timeout: 120_000 }, (error, _stdout, stderr) => {
      resolveRun({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, stderr });
    });
  });
  expect(result.stderr).toContain('the VU thread 1 ran out of JavaScript heap');
  expect(result.stderr).toContain('--workers N');
  expect(result.code).toBe(107);
}, 130_000);
