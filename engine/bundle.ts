// The engine's esbuild output of a k6 entry (`load/*.load.ts` or a plain k6 .js script): k6 modules resolve to the
// engine's per-VU modules, __VU/__ITER/__ENV/open() to the VU's scope, and the result is one factory that builds a
// fresh module instance per VU (k6 gives every VU its own globals). Unsupported k6 modules fail here, at load time.
import { runInThisContext } from 'node:vm';
import { build, type Plugin } from 'esbuild';
import { MODULE_EXPORTS, unsupportedMessage } from './k6/modules.ts';
import type { VUScope, ScriptExports } from './vu.ts';

export type ScriptFactory = (scope: VUScope) => ScriptExports;

export class ScriptLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ScriptLoadError';
  }
}

/** Free identifiers k6 defines for scripts, mapped to the VU scope the factory receives. */
const GLOBALS = { __VU: '__engineVU.id', __ITER: '__engineVU.iter', __ENV: '__engineVU.env', open: '__engineVU.open' };

const k6Modules: Plugin = {
  name: 'k6-engine-modules',
  setup(b) {
    b.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => {
      if (MODULE_EXPORTS[args.path] === undefined) return { errors: [{ text: unsupportedMessage(`module "${args.path}"`) }] };
      return { path: args.path, namespace: 'k6-engine' };
    });
    b.onResolve({ filter: /^https?:\/\// }, (args) => ({
      errors: [{ text: `remote module ${args.path}: the node engine does not fetch remote modules; vendor it into the repository or run this script with k6` }],
    }));
    b.onLoad({ filter: /.*/, namespace: 'k6-engine' }, (args) => {
      const names = MODULE_EXPORTS[args.path] ?? [];
      const lines = [`const m = __engineVU.module(${JSON.stringify(args.path)});`, 'export default m.default;'];
      for (const name of names) lines.push(`export const ${name} = m.${name};`);
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

/** Bundles the script; returns the factory's source (compiled with compileFactory, also in worker threads). */
export async function bundleScript(scriptPath: string): Promise<string> {
  let result;
  try {
    result = await build({
      entryPoints: [scriptPath],
      bundle: true,
      write: false,
      format: 'iife',
      globalName: '__k6Entry',
      platform: 'browser', // k6 scripts have no Node built-ins
      target: 'es2022',
      define: GLOBALS,
      plugins: [k6Modules],
      logLevel: 'silent',
      sourcemap: false,
      legalComments: 'none',
    });
  } catch (error) {
    const errors = (error as { errors?: Array<{ text: string; location?: { file: string; line: number } | null }> }).errors ?? [];
    const first = errors[0];
    if (first === undefined) throw new ScriptLoadError(error instanceof Error ? error.message : String(error));
    const missing = /No matching export in "k6-engine:([^"]+)" for import "([^"]+)"/.exec(first.text);
    const text = missing === null ? first.text : unsupportedMessage(`${missing[1]}.${missing[2]}`);
    const where = first.location ? ` (${first.location.file}:${first.location.line})` : '';
    throw new ScriptLoadError(`${text}${where}`);
  }
  const code = result.outputFiles[0]?.text ?? '';
  return `(function (__engineVU) {\n${code}\nreturn __k6Entry;\n})`;
}

/** Compiles the bundle once per thread; each call of the factory is one VU's init context. */
export function compileFactory(source: string, filename: string): ScriptFactory {
  return runInThisContext(source, { filename }) as ScriptFactory;
}
