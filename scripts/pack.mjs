// The installable package's JavaScript: `prepack` compiles every runtime .ts beside itself with esbuild (relative .ts
// specifiers rewritten to .js) and builds dist/k6; `postpack` removes what it wrote, so a clone stays TypeScript only.
import { build } from 'esbuild';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The list of what `compile` wrote, read back by `clean`. */
const MANIFEST = join(ROOT, '.pack-compiled.json');
const SKIP_DIRS = new Set(['node_modules', 'dist', 'bench', 'fixtures', 'docs', 'examples', '.git', 'reports/out']);

/** Runtime TypeScript of the tree: no tests, benches, fixtures or declaration files. */
export function runtimeSources(dir = ROOT) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (SKIP_DIRS.has(name) || SKIP_DIRS.has(relative(ROOT, path)) || name.startsWith('.')) continue;
    if (statSync(path).isDirectory()) out.push(...runtimeSources(path));
    else if (name.endsWith('.ts') && !/\.(test|bench|d)\.ts$/.test(name)) out.push(path);
  }
  return out;
}

/** `./x.ts` and `../y/z.ts` string literals (imports, dynamic imports, `new URL(...)` of a worker) → `.js`. */
export function toJsSpecifiers(code) {
  return code.replace(/(["'])(\.{1,2}\/[^"'\n]*?)\.ts\1/g, '$1$2.js$1');
}

async function compile() {
  clean();
  const sources = runtimeSources().filter((file) => !existsSync(file.replace(/\.ts$/, '.js')));
  const result = await build({
    entryPoints: sources,
    outdir: ROOT,
    outbase: ROOT,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20.19',
    write: false,
    logLevel: 'error',
  });
  const written = [];
  for (const file of result.outputFiles) {
    writeFileSync(file.path, toJsSpecifiers(file.text));
    written.push(relative(ROOT, file.path));
  }
  writeFileSync(MANIFEST, `${JSON.stringify(written, null, 1)}\n`);
  const bundler = await import(new URL('../esbuild.config.mjs', import.meta.url).href);
  await bundler.buildK6Bundles({ rootDir: ROOT });
  process.stdout.write(`pack: ${written.length} modules compiled to JavaScript, k6 bundles in dist/k6\n`);
}

function clean() {
  if (!existsSync(MANIFEST)) return;
  for (const file of JSON.parse(readFileSync(MANIFEST, 'utf8'))) rmSync(join(ROOT, file), { force: true });
  rmSync(MANIFEST, { force: true });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === 'compile') await compile();
  else if (process.argv[2] === 'clean') clean();
  else throw new Error('usage: node scripts/pack.mjs compile|clean');
}
