// A `load --script` bundle run directly (a bare `k6 run`, and the Node engine on the same file), not through the CLI,
// against a sandbox in production mode: a charge the script did not declare never leaves. Through k6/http of its own
// (nothing could record it), imported by name or loaded by a name computed at run time (`require(`k6/${x}`)`, which no
// import list shows), the bundle refuses in init, nothing sent; through the harness client its guard refuses it at
// send. Each k6 found (K6_BIN or PATH, and k6-latest beside it); skipped, saying so, without one.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runEngine } from '../../engine/run.ts';
import { productionBundleEnv, useProductionSandbox } from '../../ledger/fixtures/production-sandbox.ts';
import { k6ComparisonSlots } from './k6-binaries.ts';
import { K6_DEFAULT_ENV } from './k6-process.ts';
import { prepareUserScript, type UserScript } from './user-script.ts';

const SCRIPTS = fileURLToPath(new URL('../fixtures/scripts/', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'gh-bare-script-'));
const sandbox = useProductionSandbox();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The run's settings as the CLI would pass them, production, no charges allowed (no money settings at all). */
const productionEnv = (reportDir: string): Record<string, string> => productionBundleEnv(sandbox().url, 'v2', 'bare', reportDir);

/** `k6 run --quiet BUNDLE` with the run's environment; bounded (k6 killed after 120 s). */
function bareK6(k6: string, bundle: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(k6, ['run', '--quiet', bundle], {
      cwd: dir,
      env: { ...process.env, ...K6_DEFAULT_ENV, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolveRun({ code, output });
    });
  });
}

async function withScript<T>(name: string, use: (script: UserScript) => Promise<T>): Promise<T> {
  const script = await prepareUserScript(join(SCRIPTS, name), dir);
  try {
    return await use(script);
  } finally {
    script.dispose();
  }
}

const RAW_REFUSAL = /script raw-charge imports k6\/http itself: a request sent that way could charge unrecorded/;
const COMPUTED_REFUSAL =
  /script computed-charge loads a module named at run time \(require\(`k6\/\$\{which\}`\) in computed-charge\.js\), which cannot be verified, so it counts as k6\/http: a request sent that way could charge unrecorded/;
/** The scripts that send a top-up with k6/http of their own: by name, and by a name computed at run time. */
const RAW_SCRIPTS: readonly [string, RegExp][] = [
  ['raw-charge.js', RAW_REFUSAL],
  ['computed-charge.js', COMPUTED_REFUSAL],
];

describe.each(k6ComparisonSlots('user-script-bare-k6.test.ts'))('a --script bundle run by a bare k6 (%s)', (_label, k6) => {
  for (const [file, refusal] of RAW_SCRIPTS) {
    it.skipIf(k6 === undefined)(
      `a top-up the script sends with k6/http itself (${file}), undeclared: refused in init against production, nothing reaches the target`,
      async () => {
        const { code, output } = await withScript(file, (script) => bareK6(k6 as string, script.bundle, productionEnv(join(dir, file))));
        expect(code, output).not.toBe(0);
        expect(output).toMatch(refusal);
        expect(sandbox().app.stats.snapshot().requestsTotal).toBe(0);
      },
      180_000,
    );
  }

  it.skipIf(k6 === undefined)(
    'a top-up the script sends through the harness client, undeclared: refused at send, never reaches the target',
    async () => {
      const { output } = await withScript('undeclared-charge.js', (script) =>
        bareK6(k6 as string, script.bundle, productionEnv(join(dir, 'client'))),
      );
      expect(output).toMatch(/v2\.transaction\.topup is not declared: add 'transaction\.topup' to defineScript's operations/);
      const stats = sandbox().app.stats.snapshot();
      expect(stats.requestsTotal, output).toBeGreaterThan(0); // its declared reads went
      expect(stats.chargingRequests, output).toBe(0);
    },
    180_000,
  );
});

describe.each(RAW_SCRIPTS)('the same bundle on the Node engine (%s)', (file, refusal) => {
  it('a top-up sent with k6/http itself: refused in init against production, nothing reaches the target', async () => {
    let errors = '';
    const stderr = { write: (chunk: string) => ((errors += chunk), true) } as unknown as NodeJS.WritableStream;
    const result = await withScript(file, (script) =>
      runEngine({
        script: script.bundle,
        env: productionEnv(join(dir, `engine-${file}`)),
        cwd: dir,
        workers: 1,
        progress: 'none',
        stderr,
        stdout: stderr,
      }),
    );
    expect(result.exitCode).toBe(107);
    expect(errors).toMatch(refusal);
    expect(sandbox().app.stats.snapshot().requestsTotal).toBe(0);
  }, 120_000);
});
