// `gateway-harness k6-operator` through the CLI: the files and the commands it prints, and its refusals (no target,
// charging scenarios against production, credentials as flags), each one line with exit 2.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../fixtures/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-k6op-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
  vi.unstubAllEnvs();
});

describe('k6-operator', () => {
  it('writes the manifests, the run plan and a README, and prints the commands in order', async () => {
    vi.stubEnv('GATEWAY_PASSWORD', 'never-in-a-manifest-3b9');
    const out = join(dir, 'mixed');
    const r = await runCli([
      'k6-operator',
      '--scenario',
      'mixed',
      '--profile',
      'load',
      '--parallelism',
      '4',
      '--target',
      'https://gw.example.test',
      '--namespace',
      'perf',
      '--out-dir',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    for (const file of ['configmap.yaml', 'results-pvc.yaml', 'testrun.yaml', 'collector.yaml', 'thresholds.json', 'README.md'])
      expect(existsSync(join(out, file)), file).toBe(true);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^k6-operator: gh-mixed-load \(mixed\/load, 4 pods, run mixed-\d{14}-[a-z0-9]{4}\) written to /);
    const steps = lines.slice(2).map((l) => l.trim());
    expect(steps.map((s) => s.split(' ').slice(0, 5).join(' '))).toEqual([
      'kubectl -n perf create secret',
      'kubectl -n perf apply -f',
      'kubectl -n perf delete testrun',
      'kubectl -n perf apply -f',
      'kubectl -n perf wait testrun/gh-mixed-load',
      'kubectl -n perf apply -f',
      'mkdir -p results && kubectl',
      'kubectl -n perf delete pod',
      'npx gateway-harness merge-results results/' +
        (/run (mixed-\d{14}-[a-z0-9]{4})\)/.exec(lines[0] ?? '')?.[1] ?? '?') +
        '-*.ndjson.gz --thresholds',
    ]);
    for (const file of ['configmap.yaml', 'testrun.yaml', 'thresholds.json', 'README.md'])
      expect(readFileSync(join(out, file), 'utf8')).not.toContain('never-in-a-manifest-3b9');
  });

  it.each([
    [['--scenario', 'mixed', '--parallelism', '3'], /k6-operator needs --target/],
    [['--scenario', 'mixed', '--target', 'https://gw.example.test'], /--parallelism is required/],
    [['--parallelism', '3', '--target', 'https://gw.example.test'], /--scenario is required/],
    [
      ['--scenario', 'topup-flow', '--parallelism', '3', '--target', 'https://gw.example.test', '--target-env', 'production'],
      /sends charging operations .* refused/,
    ],
    [
      ['--scenario', 'mixed', '--parallelism', '3', '--target', 'https://gw.example.test', '--password', 'x'],
      /unknown option '--password'/,
    ],
    [
      ['--scenario', 'mixed', '--parallelism', '0', '--target', 'https://gw.example.test'],
      /--parallelism must be a whole number from 1 to 1000/,
    ],
    [
      ['--scenario', 'mixed', '--parallelism', '3', '--target', 'https://gw.example.test', '--access-mode', 'RWX'],
      /--access-mode must be ReadWriteMany or ReadWriteOnce/,
    ],
  ])('refuses %j: one line, exit 2', async (args, message) => {
    vi.stubEnv('GATEWAY_BASE_URL', undefined);
    const r = await runCli(['k6-operator', ...args]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });
});
