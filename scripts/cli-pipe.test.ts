// The CLI when its reader stops early (`gateway-harness load --help | head -3`): the closed pipe ends nothing but the
// output; the command exits as it would have, with no stack trace (it was `Error: write EPIPE`, exit 1).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT_DIR } from './gen.ts';

/** Runs the CLI with its stdout closed before it writes anything; bounded (killed after 60 s). */
function withClosedStdout(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [join(ROOT_DIR, 'bin', 'gateway-harness.mjs'), ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stderr });
    });
  });
}

describe('gateway-harness with a reader that closed the pipe', () => {
  it('--help: exit 0, nothing on stderr', async () => {
    expect(await withClosedStdout(['load', '--help'])).toEqual({ code: 0, stderr: '' });
  }, 90_000);

  it('a usage error still exits 2 with its one line', async () => {
    const { code, stderr } = await withClosedStdout(['lod']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^gateway-harness: GH_ERR_USAGE: unknown command 'lod' \(did you mean load\?\)/);
  }, 90_000);
});
