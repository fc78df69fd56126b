// What every scenario config has in common, and the readers each executor module parses its own fields with: k6's
// defaults, one-line errors naming the field (`scenarios.<name>.<field>`), durations through the one parser.
import { formatDuration, parseDuration } from '../durations.ts';

export interface Stage {
  durationMs: number;
  target: number;
}

export interface ScenarioBase {
  name: string;
  startTimeMs: number;
  gracefulStopMs: number;
  /** Name of the exported function each iteration calls. */
  exec: string;
  env: Record<string, string>;
  tags: Record<string, string>;
}

export class OptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OptionsError';
  }
}

/** k6's default gracefulStop and gracefulRampDown. */
export const DEFAULT_GRACEFUL_STOP = 30_000;

export function num(value: unknown, field: string, fallback?: number): number {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw new OptionsError(`${field} is required`);
    return fallback;
  }
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
    throw new OptionsError(`${field} must be a non-negative number, got ${JSON.stringify(value)}`);
  return value;
}

export function int(value: unknown, field: string, fallback?: number): number {
  const n = num(value, field, fallback);
  if (!Number.isInteger(n)) throw new OptionsError(`${field} must be a whole number, got ${n}`);
  return n;
}

export function dur(value: unknown, field: string, fallback?: number): number {
  if (value === undefined || value === null) {
    if (fallback === undefined) throw new OptionsError(`${field} is required`);
    return fallback;
  }
  try {
    return parseDuration(value, field);
  } catch (error) {
    throw new OptionsError((error as Error).message);
  }
}

/** One raw `options.scenarios` entry, read field by field. */
export class ScenarioFields {
  constructor(
    readonly name: string,
    readonly raw: Readonly<Record<string, unknown>>,
  ) {}

  path(key: string): string {
    return `scenarios.${this.name}.${key}`;
  }

  num(key: string, fallback?: number): number {
    return num(this.raw[key], this.path(key), fallback);
  }

  int(key: string, fallback?: number): number {
    return int(this.raw[key], this.path(key), fallback);
  }

  dur(key: string, fallback?: number): number {
    return dur(this.raw[key], this.path(key), fallback);
  }

  /** A whole number of at least 1 (vus, defaulting to 1 as k6 does). */
  atLeastOne(key: string, fallback = 1): number {
    const n = this.int(key, fallback);
    if (n < 1) throw new OptionsError(`${this.path(key)} must be at least 1`);
    return n;
  }

  /** A duration that must be more than 0. */
  positiveDuration(key: string): number {
    const ms = this.dur(key);
    if (ms <= 0) throw new OptionsError(`${this.path(key)} must be more than 0`);
    return ms;
  }

  /** `preAllocatedVUs` and `maxVUs` (defaulting to preAllocatedVUs, never below it). */
  vuPool(): { preAllocatedVUs: number; maxVUs: number } {
    const preAllocatedVUs = this.int('preAllocatedVUs');
    const maxVUs = this.int('maxVUs', preAllocatedVUs);
    if (maxVUs < preAllocatedVUs) throw new OptionsError(`${this.path('maxVUs')} must not be less than preAllocatedVUs`);
    return { preAllocatedVUs, maxVUs };
  }

  /** A non-empty stage list; targets are whole VUs or (arrival rates) any non-negative rate. */
  stages(key: string, target: 'vus' | 'rate'): Stage[] {
    const value = this.raw[key];
    const field = this.path(key);
    if (!Array.isArray(value) || value.length === 0) throw new OptionsError(`${field} must be a non-empty list of { duration, target }`);
    return value.map((s: unknown, i) => {
      const stage = (s ?? {}) as { duration?: unknown; target?: unknown };
      return {
        durationMs: dur(stage.duration, `${field}[${i}].duration`),
        target: (target === 'rate' ? num : int)(stage.target, `${field}[${i}].target`),
      };
    });
  }
}

/** k6's getBaseInfo: the facts in parentheses after an executor's description (exec, startTime, gracefulStop). */
export function describeFacts(base: ScenarioBase, ...facts: string[]): string {
  const all = [...facts];
  if (base.exec !== 'default') all.push(`exec: ${base.exec}`);
  if (base.startTimeMs > 0) all.push(`startTime: ${formatDuration(base.startTimeMs)}`);
  if (base.gracefulStopMs > 0) all.push(`gracefulStop: ${formatDuration(base.gracefulStopMs)}`);
  return all.length === 0 ? '' : ` (${all.join(', ')})`;
}
