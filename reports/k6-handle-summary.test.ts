// The runtime-neutral report modules inside a k6 bundle: built with the project's k6 esbuild settings, evaluated
// without Node's module graph, and (when a k6 binary exists) run by real k6 in handleSummary.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build, type BuildOptions } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, realK6Summary } from './fixtures/full-report.ts';
import { findK6 } from './fixtures/find-binary.ts';
import { junitXsdErrors } from './fixtures/junit-xsd.ts';
import { summaryErrors } from './fixtures/schema-check.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-k6-bundle-'));
const bundle = join(dir, 'summary-entry.js');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The project's k6 bundle settings (esbuild.config.mjs is plain JS without types, hence the typed dynamic import). */
const ESBUILD_CONFIG: string = '../esbuild.config.mjs';

beforeAll(async () => {
  const { K6_BUNDLE_OPTIONS } = (await import(ESBUILD_CONFIG)) as { K6_BUNDLE_OPTIONS: BuildOptions };
  await build({
    ...K6_BUNDLE_OPTIONS,
    // k6 v0.48's Babel rejects object spread and an optional catch binding (found on a real k6 v0.48): lower them.
    supported: { 'object-rest-spread': false, 'optional-catch-binding': false },
    entryPoints: [join(FIXTURES_DIR, 'k6-summary-entry.ts')],
    outfile: bundle,
  });
});

describe('report modules in a k6 bundle', () => {
  it('the bundle imports nothing (no Node built-in, no package) and builds a valid report from real k6 data', async () => {
    const code = readFileSync(bundle, 'utf8');
    expect(code).not.toMatch(/^\s*import\s/m);
    const mod = (await import(pathToFileURL(bundle).href)) as { handleSummary: (data: unknown) => Record<string, string> };
    // k6's global; Node has none.
    const globals = globalThis as { __ENV?: Record<string, string> };
    globals.__ENV = { OUT_DIR: '.' };
    let files: Record<string, string>;
    try {
      files = mod.handleSummary(realK6Summary('v2.2.0'));
    } finally {
      delete globals.__ENV;
    }
    const summary = JSON.parse(files['./summary.json'] ?? '{}');
    expect(summaryErrors(summary)).toEqual([]);
    expect(summary.verdict).toBe('pass');
    expect(await junitXsdErrors(files['./junit.xml'] ?? '')).toEqual([]);
    expect(files['./summary.md']?.split('\n')[0]).toBe(`## ✅ ${summary.verdictLine}`);
  });

  const k6 = findK6();
  it.skipIf(k6 === undefined)(`runs in real k6's handleSummary (${k6 ?? 'no k6 binary: set K6_BIN or put k6 on PATH'})`, async () => {
    const out = join(dir, 'k6-out');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(out);
    await promisify(execFile)(k6 as string, ['run', '--quiet', '--no-color', bundle], {
      env: { ...process.env, OUT_DIR: out },
      timeout: 60_000,
    });
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    expect(summaryErrors(summary)).toEqual([]);
    // The entry sends no request: measured nothing, so never a pass.
    expect([summary.verdict, summary.exitCode]).toEqual(['incomplete', 1]);
    expect(await junitXsdErrors(readFileSync(join(out, 'junit.xml'), 'utf8'))).toEqual([]);
    expect(readFileSync(join(out, 'summary.md'), 'utf8').split('\n')[0]).toMatch(
      /^## ⚠️ INCOMPLETE: load none\/smoke \(k6\): no request was sent, nothing was measured/,
    );
  });
});
