// Issue #32 finding 12 on a real full disk (a 200 KiB tmpfs mounted here; root only, skipped saying so otherwise): the
// report set and the engine's metric stream say "disk full at <path>", keep the verdict on stdout, leave no temp file.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { HarnessError } from '../api/errors.ts';
import { NdjsonWriter } from '../engine/ndjson.ts';
import { finishRun } from '../scripts/report-output.ts';
import { assembleReport } from './assemble.ts';
import { writeReports } from './write.ts';
import { unmountTmpfs } from './fixtures/tmpfs.ts';

const mountPoint = mkdtempSync(join(tmpdir(), 'gh-disk-full-'));

/** Mounts a 200 KiB tmpfs and fills it; false when this process may not mount (not root, no tmpfs). */
function mountFullDisk(): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=200k', 'tmpfs', mountPoint], { stdio: 'ignore' });
  } catch {
    return false;
  }
  try {
    writeFileSync(join(mountPoint, 'filler'), Buffer.alloc(400 * 1024));
  } catch {
    // ENOSPC: the disk is now full, which is the point.
  }
  return true;
}

const mounted = mountFullDisk();
if (!mounted) console.warn('reports/disk-full.test.ts: SKIPPED: cannot mount a tmpfs here (needs root)');

afterAll(() => {
  if (mounted) unmountTmpfs(mountPoint);
  rmSync(mountPoint, { recursive: true, force: true });
});

const report = assembleReport({
  runId: 'r',
  command: 'gate',
  startedAt: Date.UTC(2026, 0, 1),
  durationMs: 10,
  target: { url: 'http://127.0.0.1:1' },
});
const leftovers = (): string[] => readdirSync(mountPoint).filter((name) => name.endsWith('.tmp'));

describe.skipIf(!mounted)('a full disk', () => {
  it('the report set: GH_ERR_DISK_FULL naming the directory and the files not written, no temporary file left', () => {
    let error: unknown;
    try {
      writeReports(report, mountPoint);
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(HarnessError);
    expect((error as HarnessError).code).toBe('GH_ERR_DISK_FULL');
    expect((error as HarnessError).message).toMatch(
      new RegExp(`^disk full at ${mountPoint} \\(summary\\.json, .*report\\.html not written\\)$`),
    );
    expect((error as HarnessError).exitCode).toBe(1);
    expect(leftovers()).toEqual([]);
  });

  it("a command's end: the verdict line still on stdout, then the disk-full error with the verdict's exit code", () => {
    let stdout = '';
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stdout += String(chunk);
      return true;
    });
    try {
      expect(() => finishRun(report, mountPoint, { secrets: [] })).toThrow(/^disk full at /);
    } finally {
      spy.mockRestore();
    }
    expect(stdout.split('\n')[0]).toBe(report.verdictLine);
    expect(leftovers()).toEqual([]);
  });

  it("the engine's metric stream: close() says disk full at its path (no unhandled stream error)", async () => {
    for (const name of ['m.ndjson', 'm.ndjson.gz']) {
      const path = join(mountPoint, name);
      const writer = new NdjsonWriter(path, () => undefined);
      for (let i = 0; i < 200; i++)
        writer.writeChunk([], `${JSON.stringify({ metric: 'x', i, pad: Math.random().toString(36).repeat(40) })}\n`);
      await expect(writer.close()).rejects.toThrow(`disk full at ${path} (the metric stream is cut short)`);
    }
  });
});
