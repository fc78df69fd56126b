// Types of esbuild.config.mjs (the k6 bundler), for the TypeScript callers: `gateway-harness build`, the load runner, tests.
// Kept beside the JavaScript so `node esbuild.config.mjs` (npm run build) needs no TypeScript step.
import type { BuildOptions } from 'esbuild';

export declare const K6_BUNDLE_OPTIONS: Readonly<BuildOptions>;
/** The generated validators the k6 bundles keep (what api/validation.ts validateEnvelope and api/payload-checks.ts call). */
export declare const K6_VALIDATORS: readonly string[];

export interface LoadEntry {
  readonly name: string;
  readonly path: string;
}

export interface BuiltBundle {
  readonly name: string;
  /** The entry, relative to the project root (load/<name>.load.ts). */
  readonly entry: string;
  /** Absolute path of the bundle. */
  readonly file: string;
  readonly bytes: number;
  /** Source files bundled in, relative to the project root. */
  readonly inputs: string[];
  /** Modules left external (k6 modules only). */
  readonly imports: string[];
}

export declare function findLoadEntries(rootDir?: string): LoadEntry[];
export declare function pruneValidators(source: string, keep?: readonly string[]): string;
/** `baselineModule`: a baseline's compiled validators (drift/baseline-validators.ts), bundled in place of load/baseline-validators.ts. */
export declare function buildK6Bundles(options?: {
  rootDir?: string;
  outDir?: string;
  only?: readonly string[];
  baselineModule?: string;
}): Promise<BuiltBundle[]>;
/** The module specifier of the harness's load API in a user script (load/script-api.ts). */
export declare const SCRIPT_API_SPECIFIER: string;
/**
 * A user's script bundled with `gateway-harness/load`; `networkModules`: k6 modules that send, imported by the user's own
 * files, and each require or import whose module they compute at run time (`require("k6/" + x) in flow.js`: unverifiable).
 */
export declare function buildK6Script(options: {
  rootDir?: string;
  entry: string;
  outFile: string;
  baselineModule?: string;
}): Promise<{ file: string; bytes: number; networkModules: string[] }>;
