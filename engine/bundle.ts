// The engine's esbuild output of a k6 entry (`load/*.load.ts` or a plain k6 .js script): k6 modules resolve to the
// engine's per-VU modules, __VU/__ITER/__ENV/open() to the VU's scope, and the result is one factory that builds a
// fresh module instance per VU (k6 gives every VU its own globals). Unsupported k6 modules fail here, at load time.
import { runInThisContext } from 'node:vm';
import { build, type Plugin } from 'esbuild';
import { MODULE_EXPORTS, unsupportedMessage } from './k6/modules.ts';

/** What the factory receives as `__engineVU` (the rewrites below: __VU, __ITER, __ENV, open, k6 modules). */
export interface VUScope {
  readonly id: number;
  readonly iter: number;
  readonly env: Record<string, string>;
  open(path: string, mode?: string): string | ArrayBuffer;
  module(name: string): unknown;
}

export type ScriptExports = Record<string, unknown>;

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
    // k6's summary jslib is common in handleSummary; the engine serves its textSummary itself.
    b.onResolve({ filter: /^https:\/\/jslib\.k6\.io\/k6-summary\/[^/]+\/index\.js$/ }, () => ({ path: 'jslib/k6-summary', namespace: 'k6-engine' }));
    b.onResolve({ filter: /^https?:\/\// }, (args) => ({
      errors: [{ text: `remote module ${args.path}: the node engine does not fetch remote modules; vendor it into the repository or run this script with k6` }],
    }));
    b.onLoad({ filter: /.*/, namespace: 'k6-engine' }, (args) => {
      const names = MODULE_EXPORTS[args.path] ?? [];
      const lines = [`const m = __engineVU.module(${JSON.stringify(args.path)});`, `const ${defaultName(args.path)} = m.default;`, `export default ${defaultName(args.path)};`];
      for (const name of names) lines.push(`export const ${name} = m.${name};`);
      return { contents: lines.join('\n'), loader: 'js' };
    });
  },
};

/** The variable a k6 module's default export is bound to in the bundle (esbuild may add a numeric suffix). */
function defaultName(module: string): string {
  return `__k6default_${module.replace(/\W/g, '_')}`;
}

/** Members of a default import that are allowed although not exports (interop, promise checks). */
const PASSIVE_MEMBERS = new Set(['default', 'then', 'toJSON', 'constructor', '__esModule']);

/**
 * Finds `http.cookieJar`-style uses of a default import's member the engine does not implement, so they fail at load
 * time like unsupported named imports (computed access such as http[name] is caught when it runs).
 */
export function unsupportedMembers(code: string): string[] {
  const found = new Set<string>();
  for (const [module, names] of Object.entries(MODULE_EXPORTS)) {
    // esbuild binds the default import to an alias (`var http_default = __k6default_k6_http;`): follow it.
    const base = `${defaultName(module)}\\d*`;
    const aliases = [base, ...[...code.matchAll(new RegExp(`\\bvar ([A-Za-z_$][\\w$]*) = ${base};`, 'g'))].map((a) => a[1] as string)];
    const re = new RegExp(`(?<![\\w$.])(?:${aliases.join('|')})\\.([A-Za-z_$][\\w$]*)`, 'g');
    for (const m of code.matchAll(re)) {
      const member = m[1] as string;
      if (!names.includes(member) && !PASSIVE_MEMBERS.has(member)) found.add(`${module}.${member}`);
    }
  }
  return [...found];
}

/** k6/http's blocking calls: served by a helper thread (http/sync-client.ts). */
const SYNC_HTTP_MEMBERS = new Set(['request', 'get', 'head', 'post', 'put', 'patch', 'del', 'options', 'batch']);

function escapeRegExp(text: string): string {
  return text.replace(/[$]/g, '\\$&');
}

/**
 * Whether the bundle may call k6/http's blocking API: a use of its default import other than a member that is not a
 * blocking call (passed on, computed access, http.get), or a call of a named import of a blocking call. Such scripts get
 * the sync-HTTP helper thread started during init; the others do not pay a thread per worker for it (its start-up CPU
 * and memory). A miss only delays the first synchronous request by the helper's start-up: it starts on first use.
 */
export function mayUseSyncHttp(code: string): boolean {
  const base = `${defaultName('k6/http')}\\d*`;
  const declarations = [...code.matchAll(new RegExp(`\\bvar ([A-Za-z_$][\\w$]*) = ${base};`, 'g'))];
  const aliases = [base, ...declarations.map((a) => escapeRegExp(a[1] as string))];
  for (const m of code.matchAll(new RegExp(`(?<![\\w$.])(?<!\\bvar )(?:${aliases.join('|')})(?![\\w$])(\\s*\\.\\s*([A-Za-z_$][\\w$]*))?`, 'g'))) {
    if (declarations.some((d) => d.index === m.index || (d.index < (m.index as number) && (m.index as number) < d.index + d[0].length))) continue;
    const member = m[2];
    if (member === undefined || SYNC_HTTP_MEMBERS.has(member)) return true;
  }
  const moduleVar = /\bvar ([A-Za-z_$][\w$]*) = __engineVU\.module\("k6\/http"\);/.exec(code)?.[1];
  if (moduleVar === undefined) return false;
  for (const binding of code.matchAll(new RegExp(`\\bvar ([A-Za-z_$][\\w$]*) = ${escapeRegExp(moduleVar)}\\.([A-Za-z_$][\\w$]*);`, 'g'))) {
    if (!SYNC_HTTP_MEMBERS.has(binding[2] as string)) continue;
    // Called anywhere (a shadowing local or a method of that name only starts the helper needlessly).
    if (new RegExp(`(?<![\\w$.])(?<!function )${escapeRegExp(binding[1] as string)}\\s*\\(`).test(code)) return true;
  }
  return false;
}

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
  const missing = unsupportedMembers(code);
  if (missing.length > 0) throw new ScriptLoadError(missing.map((m) => unsupportedMessage(m)).join('; '));
  return `(function (__engineVU) {\n${code}\nreturn __k6Entry;\n})`;
}

/** Compiles the bundle once per thread; each call of the factory is one VU's init context. */
export function compileFactory(source: string, filename: string): ScriptFactory {
  return runInThisContext(source, { filename }) as ScriptFactory;
}
