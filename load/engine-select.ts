// Which engine runs a load scenario: a real k6 (K6_BIN, else `k6` on PATH) or the project's Node engine.
// One small module so `auto`, `k6` and `node` mean the same everywhere (CLI, tests, bench).
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { HarnessError } from '../api/errors.ts';

export type EngineChoice = 'auto' | 'k6' | 'node';
export const ENGINE_CHOICES: readonly EngineChoice[] = ['auto', 'k6', 'node'];

export interface K6Location {
  readonly path: string;
  /** Where it was found: the K6_BIN variable or a PATH directory. */
  readonly source: 'K6_BIN' | 'PATH';
}

export type EngineSelection = { readonly engine: 'k6'; readonly k6: K6Location } | { readonly engine: 'node' };

type Env = Readonly<Record<string, string | undefined>>;

export function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** `k6` in a PATH-like list of directories (empty entries mean the working directory, as in a shell). */
export function findOnPath(name: string, pathList: string | undefined, cwd: string, isExecutable = isExecutableFile): string | undefined {
  for (const dir of (pathList ?? '').split(delimiter)) {
    const candidate = resolve(cwd, dir === '' ? '.' : dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * The k6 to use: K6_BIN when set (it must be an executable file: an explicit choice that is wrong is an error, not a
 * reason to run something else), else `k6` on PATH, else undefined.
 */
export function findK6(env: Env, cwd = process.cwd(), isExecutable = isExecutableFile): K6Location | undefined {
  const fromEnv = env.K6_BIN;
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const path = isAbsolute(fromEnv) ? fromEnv : resolve(cwd, fromEnv);
    if (!isExecutable(path)) throw new HarnessError('GH_ERR_CONFIG', `K6_BIN=${fromEnv} is not an executable file`);
    return { path, source: 'K6_BIN' };
  }
  const onPath = findOnPath('k6', env.PATH, cwd, isExecutable);
  return onPath === undefined ? undefined : { path: onPath, source: 'PATH' };
}

/** `auto` runs k6 when one is found, else the Node engine; `k6` insists on k6; `node` always uses the engine. */
export function selectEngine(choice: EngineChoice, env: Env, cwd = process.cwd(), isExecutable = isExecutableFile): EngineSelection {
  if (choice === 'node') return { engine: 'node' };
  const k6 = findK6(env, cwd, isExecutable);
  if (k6 !== undefined) return { engine: 'k6', k6 };
  if (choice === 'k6')
    throw new HarnessError(
      'GH_ERR_USAGE',
      '--engine k6: no k6 found (set K6_BIN or put k6 on PATH; https://grafana.com/docs/k6/latest/set-up/install-k6/)',
    );
  return { engine: 'node' };
}

/** A second k6 beside the first, for tests that run both ends of the supported range: K6_LATEST_BIN, else `k6-latest` next to it. */
export function findLatestK6(env: Env, first: K6Location | undefined, isExecutable = isExecutableFile): string | undefined {
  const fromEnv = env.K6_LATEST_BIN;
  if (fromEnv !== undefined && fromEnv.trim() !== '') return isExecutable(fromEnv) ? fromEnv : undefined;
  if (first === undefined) return undefined;
  const beside = join(first.path, '..', 'k6-latest');
  return isExecutable(beside) ? beside : undefined;
}
