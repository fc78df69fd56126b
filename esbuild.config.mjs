// Bundles every k6 entry (`load/**/*.load.ts`) into `dist/k6/<name>.js` for a real k6 (v0.48 or newer).
// Settings are the ones DESIGN.md measured on k6 v0.48: ES2019 syntax (its Babel pass rejects `??` and class fields), ESM, k6 modules external.
import { build } from 'esbuild';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Shared with tests and later commands so every k6 bundle is built the same way. */
export const K6_BUNDLE_OPTIONS = Object.freeze({
  bundle: true,
  format: 'esm',
  platform: 'browser', // no Node built-ins: k6 has none
  target: 'es2019',
  external: ['k6', 'k6/*'],
  minify: false, // k6 transforms the bundle at start-up; readable output costs nothing there and helps stack traces
  sourcemap: false,
  legalComments: 'none',
  logLevel: 'warning',
});

function findLoadEntries(dir) {
  const entries = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) entries.push(...findLoadEntries(path));
    else if (name.endsWith('.load.ts')) entries.push(path);
  }
  return entries;
}

export async function buildK6Bundles({ rootDir = process.cwd(), outDir = 'dist/k6' } = {}) {
  const entries = findLoadEntries(join(rootDir, 'load'));
  if (entries.length === 0) return [];
  await build({
    ...K6_BUNDLE_OPTIONS,
    entryPoints: entries,
    outdir: join(rootDir, outDir),
    outbase: join(rootDir, 'load'),
    entryNames: '[dir]/[name]',
  });
  return entries.map((entry) => relative(rootDir, entry));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const built = await buildK6Bundles();
  process.stdout.write(
    built.length === 0
      ? 'esbuild: no k6 entries (load/**/*.load.ts) to bundle yet\n'
      : `esbuild: bundled ${built.length} k6 entr${built.length === 1 ? 'y' : 'ies'} into dist/k6/: ${built.join(', ')}\n`,
  );
}
