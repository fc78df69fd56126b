// `load --script FILE`: a team's own k6 script (TypeScript or JavaScript) bundled with the harness's load API
// (load/script-api.ts), its declaration read from one init run, and the refusals it needs before anything is sent.
import { randomBytes } from 'node:crypto';
import { accessSync, constants, existsSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Bundling from '../../esbuild.config.mjs';
import { HarnessError } from '../../api/errors.ts';
import type { Environment } from '../../api/target-config.ts';
import { rawNetworkNote, rawNetworkRefusal } from '../../ledger/guard.ts';
import { readInitGlobal } from '../run-node-engine.ts';
import { LOAD_ENV } from '../run-settings.ts';
import { SCRIPT_DECLARATION_GLOBAL, type ScenarioMeta } from '../scenarios.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT_EXTENSIONS = ['.ts', '.js', '.mjs'];

/** A bundled user script: the bundle both engines run, what it declared, the network modules its own files import (or compute). */
export interface UserScript {
  readonly path: string;
  readonly bundle: string;
  readonly meta: ScenarioMeta;
  readonly networkModules: readonly string[];
  /** Removes the bundle's temporary directory. */
  dispose(): void;
}

function usage(message: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', message.replace(/\s+/g, ' ').trim());
}

/** esbuild's first error as one line: `--script FILE:LINE:COL: text`. */
function buildErrorLine(error: unknown, shown: string, cwd: string): HarnessError {
  const first = (
    error as {
      errors?: Array<{
        text: string;
        location?: { file: string; line: number; column: number } | null;
      }>;
    }
  ).errors?.[0];
  if (first === undefined) return usage(`--script ${shown}: cannot bundle it (${error instanceof Error ? error.message : String(error)})`);
  const where = first.location
    ? `${relative(cwd, resolve(ROOT, first.location.file))}:${first.location.line}:${first.location.column + 1}`
    : shown;
  return usage(`--script ${where}: ${first.text}`);
}

function isScenarioMeta(value: unknown): value is ScenarioMeta {
  const v = value as Partial<ScenarioMeta> | undefined;
  return typeof v === 'object' && v !== null && typeof v.name === 'string' && typeof v.purposes === 'object';
}

/**
 * Where the bundle goes: beside the script, hidden, a name of its own (removed after the run), because k6 and the
 * engine resolve open('./data.json') from the running file's directory — the user wrote it from the script's.
 */
function bundlePathBeside(path: string): string {
  const dir = dirname(path);
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    throw usage(
      `--script ${path}: its directory is not writable (the bundle is written beside the script, so that open() finds what the script names)`,
    );
  }
  return join(dir, `.${basename(path, extname(path))}.gateway-harness-${process.pid}-${randomBytes(4).toString('hex')}.js`);
}

/** Bundles FILE and reads its declaration; every problem is one usage line (exit 2), nothing is sent. */
export async function prepareUserScript(file: string, cwd: string, baselineModule?: string): Promise<UserScript> {
  const path = resolve(cwd, file);
  if (!existsSync(path) || !statSync(path).isFile()) throw usage(`--script ${file}: no such file`);
  if (!SCRIPT_EXTENSIONS.includes(extname(path))) throw usage(`--script ${file}: a k6 script is a .ts, .js or .mjs file`);
  const bundler = (await import(pathToFileURL(join(ROOT, 'esbuild.config.mjs')).href)) as typeof Bundling;
  const outFile = bundlePathBeside(path);
  const dispose = (): void => rmSync(outFile, { force: true });
  try {
    let built;
    try {
      built = await bundler.buildK6Script({
        rootDir: ROOT,
        entry: path,
        outFile,
        ...(baselineModule === undefined ? {} : { baselineModule }),
      });
    } catch (error) {
      throw buildErrorLine(error, file, cwd);
    }
    let declared: unknown;
    try {
      // A placeholder target: the init context reads its settings but sends nothing.
      declared = await readInitGlobal(
        outFile,
        {
          [LOAD_ENV.baseUrl]: 'http://127.0.0.1:9',
          [LOAD_ENV.environment]: 'sandbox',
        },
        SCRIPT_DECLARATION_GLOBAL,
      );
    } catch (error) {
      throw usage(
        `--script ${file}: its init context failed: ${(error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''}`,
      );
    }
    if (!isScenarioMeta(declared)) {
      throw usage(
        `--script ${file}: it does not define its test with defineScript from '${bundler.SCRIPT_API_SPECIFIER}' (see docs/load-runs.md, "Your own script")`,
      );
    }
    return {
      path,
      bundle: built.file,
      meta: declared,
      networkModules: built.networkModules,
      dispose,
    };
  } catch (error) {
    dispose();
    throw error;
  }
}

/**
 * A script whose own files import k6/http (or another module that sends), or compute a module's name at run time (which
 * cannot be verified): refused against production, said elsewhere (ledger/guard.ts).
 */
export function checkScriptNetwork(script: UserScript, environment: Environment): string | undefined {
  const refusal = rawNetworkRefusal(script.meta.name, script.networkModules, environment);
  if (refusal !== undefined) throw new HarnessError('GH_ERR_CHARGES', refusal);
  const note = rawNetworkNote(script.meta.name, script.networkModules);
  return note === undefined ? undefined : `load: ${note}`;
}
