// The installable package, as a user gets it: `npm pack` of a copy of the tree, `npm install -g` of the tarball into
// a temp prefix from an empty directory (offline from the npm cache when it holds everything), then `gateway-harness
// gate` against its embedded sandbox: compiled JavaScript only (no tsx), no tests or benches in the tarball.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyTree } from './fixtures/tree-copy.ts';

const work = mkdtempSync(join(tmpdir(), 'gh-package-'));
let copy: string;
let tarball: string;
let listed: string[];

/** npm without the parent's npm_* settings (vitest runs under `npm test`), quiet, no audit. */
function npm(args: readonly string[], cwd: string): { status: number | null; output: string } {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  const run = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env, encoding: 'utf8', timeout: 300_000 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

beforeAll(() => {
  copy = copyTree('gh-package-tree-').dir;
  const packed = npm(['pack', '--pack-destination', work], copy);
  expect(packed.status, packed.output).toBe(0);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) as string);
  listed = execFileSync('tar', ['tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((f) => f !== '')
    .map((f) => f.replace(/^package\//, ''));
}, 300_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(copy, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('ships what runs: compiled JavaScript, the k6 bundles, the schemas; no test, bench or fixture', () => {
    expect(listed).toEqual(
      expect.arrayContaining([
        'bin/gateway-harness.mjs',
        'scripts/cli.js',
        'engine/worker.js',
        'dist/k6/mixed.js',
        'schemas/summary.schema.json',
        'package.json',
      ]),
    );
    expect(listed.filter((f) => /\.test\.ts$|\.bench\.ts$|(^|\/)(bench|fixtures)\//.test(f))).toEqual([]);
    // Every runtime source ships twice (.ts beside its .js: esbuild bundles load/*.load.ts at run time): about two files
    // per runtime module, far below what a tarball with tests, benches and fixtures held.
    const runtimeTs = listed.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).length;
    expect(listed.length).toBeLessThan(2 * runtimeTs + 150);
  });

  it('declares no TypeScript runtime: tsx is a dev dependency only', () => {
    const pkg = JSON.parse(execFileSync('tar', ['xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(pkg.dependencies.tsx).toBeUndefined();
    expect(pkg.devDependencies.tsx).toBeDefined();
  });

  it('leaves the tree TypeScript only (postpack removes what prepack compiled)', () => {
    expect(existsSync(join(copy, 'scripts', 'cli.js'))).toBe(false);
    expect(existsSync(join(copy, '.pack-compiled.json'))).toBe(false);
  });
});

describe('npm install -g of the tarball, no clone', () => {
  it('gateway-harness gate passes against its embedded sandbox', () => {
    const prefix = join(work, 'prefix');
    const empty = join(work, 'empty');
    mkdirSync(empty);
    // Offline from the npm cache when it holds every dependency; else the registry fills the cache once.
    let installed = npm(['install', '-g', '--prefix', prefix, '--offline', tarball], empty);
    if (installed.status !== 0 && /ENOTCACHED/.test(installed.output))
      installed = npm(['install', '-g', '--prefix', prefix, '--prefer-offline', tarball], empty);
    expect(installed.status, installed.output).toBe(0);
    expect(existsSync(join(prefix, 'lib', 'node_modules', 'gateway-harness', 'node_modules', 'tsx'))).toBe(false);
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) if (!/^(VITEST|TEST$|NODE_ENV$|GATEWAY_|npm_)/i.test(key)) env[key] = value;
    const gate = spawnSync(join(prefix, 'bin', 'gateway-harness'), ['gate', '--report-dir', join(empty, 'report')], {
      cwd: empty,
      env,
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(gate.status, `${gate.stdout}\n${gate.stderr.slice(-3000)}`).toBe(0);
    expect(gate.stdout).toMatch(/^PASS: conformance: all \d+ cases passed; load mixed\/smoke/);
    expect(readFileSync(join(empty, 'report', 'summary.md'), 'utf8')).toMatch(/^.*PASS/);
  }, 600_000);
});
