// The engine's esbuild output of a k6 entry (`load/*.load.ts` or a plain k6 .js script): k6 modules resolve to the
// engine's per-VU modules, __VU/__ITER/__ENV/open() to the VU's scope, and the result is one factory that builds a
// fresh module instance per VU (k6 gives every VU its own globals). Unsupported k6 modules fail here, at load time (one
// required by a name computed at run time, when it runs).
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
  /** `require(name)` with a name the bundler could not read (computed at run time, as k6 allows): the module, guarded. */
  require(name: string): unknown;
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
    b.onResolve({ filter: /^https:\/\/jslib\.k6\.io\/k6-summary\/[^/]+\/index\.js$/ }, () => ({
      path: 'jslib/k6-summary',
      namespace: 'k6-engine',
    }));
    b.onResolve({ filter: /^https?:\/\// }, (args) => ({
      errors: [
        {
          text: `remote module ${args.path}: the node engine does not fetch remote modules; vendor it into the repository or run this script with k6`,
        },
      ],
    }));
    b.onLoad({ filter: /.*/, namespace: 'k6-engine' }, (args) => {
      const names = MODULE_EXPORTS[args.path] ?? [];
      const lines = [
        `const m = __engineVU.module(${JSON.stringify(args.path)});`,
        `const ${defaultName(args.path)} = m.default;`,
        `export default ${defaultName(args.path)};`,
      ];
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
export function unsupportedMembers(bundled: string): string[] {
  const code = withoutModuleShims(bundled);
  const found = new Set<string>();
  for (const [module, names] of Object.entries(MODULE_EXPORTS)) {
    // esbuild binds the default import to an alias (`var http_default = __k6default_k6_http;`): follow it.
    const base = `${defaultName(module)}\\d*`;
    // A CommonJS script reaches it as `import_http.default.x`, and its named exports as `import_http.x`.
    const required = requiredBindings(code, module);
    const aliases = [
      base,
      ...[...code.matchAll(new RegExp(`(?:\\bvar |^[ \\t]*)([A-Za-z_$][\\w$]*) = ${base};`, 'gm'))].map((a) => a[1] as string),
      ...required.map((name) => `${escapeRegExp(name)}(?:\\.default)?`),
    ];
    const re = new RegExp(`(?<![\\w$.])(?:${aliases.join('|')})\\.([A-Za-z_$][\\w$]*)`, 'g');
    for (const m of code.matchAll(re)) {
      const member = m[1] as string;
      if (!names.includes(member) && !PASSIVE_MEMBERS.has(member)) found.add(`${module}.${member}`);
    }
  }
  return [...found];
}

/**
 * A use of esbuild's `__require` shim: a require of a module named at run time (`require('k6/' + x)`). Not its
 * definition, nor the function of that name inside esbuild's `__commonJS` helper.
 */
const COMPUTED_REQUIRE = /(?<![\w$])(?<!function )__require(?![\w$])(?!\s*=(?!=))/;

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
export function mayUseSyncHttp(bundled: string): boolean {
  const code = withoutModuleShims(bundled);
  // A require whose module is computed at run time (esbuild's `__require` shim): it may be k6/http, nothing can tell.
  if (COMPUTED_REQUIRE.test(code)) return true;
  const base = `${defaultName('k6/http')}\\d*`;
  // An alias of the default import: `var http_default = base;`, or the same assignment inside esbuild's lazy module
  // init (a CommonJS script's require("k6/http") bundles the module that way).
  const declarations = [...code.matchAll(new RegExp(`(?:\\bvar |^[ \\t]*)([A-Za-z_$][\\w$]*) = ${base};`, 'gm'))];
  const required = requiredBindings(code, 'k6/http');
  const aliases = [
    base,
    ...declarations.map((a) => escapeRegExp(a[1] as string)),
    ...required.map((name) => `${escapeRegExp(name)}\\.default`),
  ];
  const uses = new RegExp(`(?<![\\w$.])(?<!\\bvar )(?:${aliases.join('|')})(?![\\w$])(?!\\s*=(?!=))(\\s*\\.\\s*([A-Za-z_$][\\w$]*))?`, 'g');
  for (const m of code.matchAll(uses)) {
    if (declarations.some((d) => d.index === m.index || (d.index < (m.index as number) && (m.index as number) < d.index + d[0].length)))
      continue;
    const member = m[2];
    if (member === undefined || SYNC_HTTP_MEMBERS.has(member)) return true;
  }
  // A CommonJS script's named use: `import_http.get(...)` (a blocking call) or the binding passed on whole.
  for (const name of required) {
    for (const m of code.matchAll(
      new RegExp(`(?<![\\w$.])${escapeRegExp(name)}(?![\\w$])(?!\\s*=(?!=))(\\s*\\.\\s*([A-Za-z_$][\\w$]*))?`, 'g'),
    )) {
      const member = m[2];
      if (member === undefined || SYNC_HTTP_MEMBERS.has(member)) return true;
    }
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

/**
 * The bundle without what esbuild writes around a k6 module a CommonJS script requires (its lazy-init form): the export
 * getters (`default: () => http_default`) and the hoisted `var m4, __k6default_k6_http, http_default, …;` list are
 * not uses of the module by the script.
 */
function withoutModuleShims(code: string): string {
  return code.replace(/__export\([\w$]+_exports, \{[^}]*\}\);/g, '').replace(/\bvar [\w$]+, __k6default_[\w$]+(?:, [\w$]+)*;/g, '');
}

/**
 * The variables a CommonJS script binds a k6 module to, as esbuild bundles `require("k6/http")` of an ES module:
 * `var import_http = __toESM((init_http(), __toCommonJS(http_exports)), 1);` (the name follows the path's last part).
 */
function requiredBindings(code: string, module: string): string[] {
  const leaf = module.split('/').pop()?.replace(/\W/g, '_') ?? module;
  const re = new RegExp(
    `\\bvar ([A-Za-z_$][\\w$]*) = (?:__toESM\\()?\\(init_${leaf}\\d*\\(\\), __toCommonJS\\(${leaf}_exports\\d*\\)\\)`,
    'g',
  );
  return [...code.matchAll(re)].map((m) => m[1] as string);
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
  // A CommonJS script (the harness's own bundles are, see esbuild.config.mjs) fills `module.exports`; an ES module
  // fills the iife's global. Either way the factory returns the script's exports. `require` answers what esbuild left
  // to run time (its `__require` shim calls it): a k6 module named by a computed string, as k6's require does.
  return `(function (__engineVU) {\nvar module = { exports: {} }, exports = module.exports, require = function (name) { return __engineVU.require(name); };\n${code}\nreturn __k6Entry !== undefined ? __k6Entry : module.exports;\n})`;
}

/** Compiles the bundle once per thread; each call of the factory is one VU's init context. */
export function compileFactory(source: string, filename: string): ScriptFactory {
  return runInThisContext(source, { filename }) as ScriptFactory;
}
