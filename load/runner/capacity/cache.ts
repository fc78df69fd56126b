// What `gateway-harness calibrate` measured, kept per machine (CPU model and cores), scenario and target in a small
// JSON under the user's cache dir, and the one-line warning `load` prints when a plan asks for more than that.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { cpus, homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { selectEngine } from '../../engine-select.ts';
import { PROFILES } from '../../profiles.ts';
import type { LoadFlags } from '../load-options.ts';

/** One calibration: the highest VU count within the accuracy goal and what it carried. */
export interface Capacity {
  readonly vus: number;
  readonly requestRate: number;
  readonly iterationRate: number;
  /** When it was measured (ISO). */
  readonly measuredAt: string;
}

export interface CapacityKey {
  readonly cpu: string;
  readonly cores: number;
  readonly scenario: string;
  /** The target's base URL, or 'embedded sandbox'. */
  readonly target: string;
}

type CacheFile = Record<string, Capacity>;

/** The user's cache dir (XDG_CACHE_HOME, ~/Library/Caches, %LOCALAPPDATA%, ~/.cache), gateway-harness's file in it. */
export function capacityCachePath(env: NodeJS.ProcessEnv = process.env, platform = process.platform): string {
  const base =
    env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== ''
      ? env.XDG_CACHE_HOME
      : platform === 'darwin'
        ? join(homedir(), 'Library', 'Caches')
        : platform === 'win32' && env.LOCALAPPDATA !== undefined
          ? env.LOCALAPPDATA
          : join(homedir(), '.cache');
  return join(base, 'gateway-harness', 'capacity.json');
}

/** This machine and a scenario against a target. */
export function capacityKey(scenario: string, target: string): CapacityKey {
  const all = cpus();
  return { cpu: all[0]?.model.trim() ?? 'unknown CPU', cores: all.length, scenario, target };
}

function keyText(key: CapacityKey): string {
  return `${key.cpu} × ${key.cores} | ${key.scenario} | ${key.target}`;
}

function readCache(path: string): CacheFile {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as CacheFile) : {};
  } catch {
    return {};
  }
}

/** The cached capacity for `key`, or undefined (none, or an unreadable cache: calibration is advice, never required). */
export function readCapacity(path: string, key: CapacityKey): Capacity | undefined {
  const found = readCache(path)[keyText(key)];
  return found !== undefined && typeof found.vus === 'number' ? found : undefined;
}

/** Keeps `capacity` for `key` beside the others (written whole, then renamed: a reader never sees half a file). */
export function writeCapacity(path: string, key: CapacityKey, capacity: Capacity): void {
  const cache = { ...readCache(path), [keyText(key)]: capacity };
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(cache, null, 2)}\n`);
  renameSync(`${path}.tmp`, path);
}

/** What a load plan asks of the generator: its VUs (a closed profile) or its top rate (an arrival-rate profile). */
export type PlanAsk = { readonly vus: number } | { readonly iterationRate: number };

/** The one-line warning when `ask` exceeds the cached capacity, else undefined. */
export function capacityWarning(ask: PlanAsk, capacity: Capacity | undefined): string | undefined {
  if (capacity === undefined) return undefined;
  const measured = `calibrated ${capacity.measuredAt.slice(0, 10)}: \`gateway-harness calibrate\``;
  if ('vus' in ask) {
    if (ask.vus <= capacity.vus) return undefined;
    return `warning: ${ask.vus} VUs is more than this machine measures honestly on the Node engine (${capacity.vus} VUs, ${capacity.requestRate.toFixed(0)} requests/s; ${measured}): latency may be the generator's; spread the load over more machines or fewer VUs`;
  }
  if (ask.iterationRate <= capacity.iterationRate) return undefined;
  return `warning: ${ask.iterationRate} iterations/s is more than this machine measures honestly on the Node engine (${capacity.iterationRate.toFixed(1)} iterations/s at ${capacity.vus} VUs; ${measured}): latency may be the generator's`;
}

/** What a load run's plan asks: the closed profiles' VUs, the arrival-rate profiles' top rate (iterations/s). */
export function planAsk(flags: Pick<LoadFlags, 'profile' | 'vus' | 'rate'>): PlanAsk {
  const shape = PROFILES[flags.profile].shape;
  if (shape.kind === 'iterations') return { vus: flags.vus ?? shape.vus };
  const top = Math.max(...shape.stages.map(([, multiple]) => multiple));
  return { iterationRate: Math.round((flags.rate ?? shape.rate) * top * 1000) / 1000 };
}

/**
 * `load`'s start: the warning when a Node-engine run asks more than this machine's calibration for the scenario and
 * target (calibrate measures the Node engine: a k6 run is not judged by it), else undefined.
 */
export function loadCapacityWarning(
  flags: Pick<LoadFlags, 'engine' | 'scenario' | 'profile' | 'vus' | 'rate'>,
  target: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): string | undefined {
  // calibrate measures the built-in scenarios: a user's --script has no calibration to compare with.
  if (typeof flags.scenario !== 'string') return undefined;
  const capacity = readCapacity(capacityCachePath(env), capacityKey(flags.scenario, target));
  if (capacity === undefined) return undefined;
  if (flags.engine === 'k6' || selectEngine(flags.engine, env, cwd).engine !== 'node') return undefined;
  return capacityWarning(planAsk(flags), capacity);
}
