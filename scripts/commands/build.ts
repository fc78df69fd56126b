// `gateway-harness build`: bundles every k6 entry (load/*.load.ts) into dist/k6/<name>.js with esbuild.config.mjs, for
// `k6 run`, CI and k6-operator. The same build `npm run build` does.
import { relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from 'commander';
import type * as Bundling from '../../esbuild.config.mjs';
import { HarnessError } from '../../api/errors.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

type Bundler = typeof Bundling;
type Built = Awaited<ReturnType<Bundler['buildK6Bundles']>>[number];

export async function buildBundles(outDir?: string): Promise<Built[]> {
  let bundler: Bundler;
  try {
    bundler = (await import(pathToFileURL(`${ROOT}esbuild.config.mjs`).href)) as Bundler;
  } catch (error) {
    throw new HarnessError(
      'GH_ERR_CONFIG',
      `cannot load the bundler (esbuild, a dev dependency): ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return bundler.buildK6Bundles({ rootDir: ROOT, ...(outDir === undefined ? {} : { outDir: relative(ROOT, outDir) }) });
}

export function register(program: Command): void {
  program
    .command('build')
    .description(
      'Bundle the k6 load suites (load/*.load.ts) into dist/k6/<name>.js: CommonJS (k6 v0.48 runs it without its Babel pass), ES2019, k6 modules external, no Node built-ins.',
    )
    .option('--out-dir <dir>', 'output directory (default dist/k6 in the project)')
    .action(async (opts: { outDir?: string }) => {
      const built = await buildBundles(opts.outDir === undefined ? undefined : resolve(opts.outDir));
      for (const b of built) process.stdout.write(`${relative(process.cwd(), b.file)}\t${(b.bytes / 1024).toFixed(1)} KiB\t${b.entry}\n`);
      process.stdout.write(`build: ${built.length} k6 bundle${built.length === 1 ? '' : 's'}\n`);
      process.exitCode = 0;
    });
}
