// k6 duration strings ("1m30s", "500ms", "2h", "1.5s") and plain numbers (milliseconds, as k6 reads numeric options).
// One parser for options, stages, gracefulStop, timeouts and delayAbortEval, so every duration means what it means in k6.

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const PART = /(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h|d)/gy;

/** Parses a k6 duration into milliseconds; throws a one-line reason naming the field on anything else. */
export function parseDuration(value: unknown, field = 'duration'): number {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new Error(`${field}: ${String(value)} is not a valid duration`);
    return value;
  }
  if (typeof value !== 'string') throw new Error(`${field}: expected a duration such as "30s", got ${JSON.stringify(value)}`);
  const text = value.trim();
  if (text === '0') return 0;
  let total = 0;
  PART.lastIndex = 0;
  let consumed = 0;
  let match: RegExpExecArray | null;
  while ((match = PART.exec(text)) !== null) {
    total += Number(match[1]) * (UNIT_MS[match[2] as string] as number);
    consumed = PART.lastIndex;
  }
  if (consumed !== text.length || text.length === 0) {
    throw new Error(`${field}: ${JSON.stringify(value)} is not a valid duration (use e.g. "500ms", "30s", "1m30s")`);
  }
  return total;
}

/** Formats milliseconds the way k6 prints durations in its progress and summary ("1m30s", "2.5s", "150ms"). */
export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)}ms`;
  let rest = Math.round(ms / 100) / 10; // seconds with one decimal
  const h = Math.floor(rest / 3600);
  rest -= h * 3600;
  const m = Math.floor(rest / 60);
  rest -= m * 60;
  const s = Math.round(rest * 10) / 10;
  return `${h > 0 ? `${h}h` : ''}${h > 0 || m > 0 ? `${m}m` : ''}${s}s`;
}
