// readerResult: the one reader protocol of merge-results' and compare's capped threads — its result, its error with the
// thread's code, progress aside, and a thread that dies or ends without a result (never a hang, never a silent pass).
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { readerResult } from './capped-thread.ts';

const thread = (body: string): Worker => new Worker(`const { parentPort } = require('node:worker_threads');\n${body}`, { eval: true });

describe('readerResult', () => {
  it('resolves with the converted data; progress messages go to onOther first; onSettled runs once', async () => {
    const progress: number[] = [];
    let settled = 0;
    const result = await readerResult<{ n: number }, number, { type: 'bytes'; bytes: number }>(
      thread("parentPort.postMessage({ type: 'bytes', bytes: 5 }); parentPort.postMessage({ type: 'done', data: { n: 41 } });"),
      'test reader',
      (d) => d.n + 1,
      { onOther: (m) => progress.push(m.bytes), onSettled: () => (settled += 1) },
    );
    expect(result).toBe(42);
    expect(progress).toEqual([5]);
    expect(settled).toBe(1);
  });

  it("rejects with the thread's own error code and message", async () => {
    const run = readerResult(
      thread("parentPort.postMessage({ type: 'error', code: 'GH_ERR_USAGE', message: 'no run in that dir' });"),
      'test reader',
      (d) => d,
    );
    await expect(run).rejects.toMatchObject({ code: 'GH_ERR_USAGE', message: 'no run in that dir' });
  });

  it('rejects, naming the reader, when the thread throws or ends without a result', async () => {
    await expect(readerResult(thread("throw new Error('boom');"), 'test reader', (d) => d)).rejects.toThrow(/test reader failed: boom/);
    await expect(readerResult(thread(''), 'test reader', (d) => d)).rejects.toThrow(/test reader ended \(exit 0\) without a result/);
  });
});
