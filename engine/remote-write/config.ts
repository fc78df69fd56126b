// The remote-write settings, read from the environment variables k6's experimental-prometheus-rw output reads
// (K6_PROMETHEUS_RW_*), with k6's defaults, so one environment configures the engine and a real k6 alike.
import { parseDuration } from '../durations.ts';

export interface RemoteWriteConfig {
  /** The receiver's write endpoint (k6's default http://localhost:9090/api/v1/write). */
  readonly url: string;
  readonly pushIntervalMs: number;
  /** Trends as Prometheus native histograms (`k6_<metric>_seconds`) instead of one gauge per stat. */
  readonly trendAsNativeHistogram: boolean;
  /** Trend stats sent as gauges (`p(95)` → `k6_<metric>_p95`); k6's default is p(99). */
  readonly trendStats: readonly string[];
  /** At the end, every series written gets Prometheus' stale marker. */
  readonly staleMarkers: boolean;
  readonly headers: Readonly<Record<string, string>>;
  readonly username?: string;
  readonly password?: string;
  readonly bearerToken?: string;
}

export const RW_DEFAULTS = Object.freeze({
  url: 'http://localhost:9090/api/v1/write',
  pushIntervalMs: 5_000,
  trendStats: ['p(99)'] as readonly string[],
  timeoutMs: 5_000,
});

/** The variables this reads (also what the harness passes through to a real k6). */
export const RW_ENV = Object.freeze({
  url: 'K6_PROMETHEUS_RW_SERVER_URL',
  pushInterval: 'K6_PROMETHEUS_RW_PUSH_INTERVAL',
  nativeHistogram: 'K6_PROMETHEUS_RW_TREND_AS_NATIVE_HISTOGRAM',
  trendStats: 'K6_PROMETHEUS_RW_TREND_STATS',
  staleMarkers: 'K6_PROMETHEUS_RW_STALE_MARKERS',
  username: 'K6_PROMETHEUS_RW_USERNAME',
  password: 'K6_PROMETHEUS_RW_PASSWORD',
  bearerToken: 'K6_PROMETHEUS_RW_BEARER_TOKEN',
  httpHeaders: 'K6_PROMETHEUS_RW_HTTP_HEADERS',
  headerPrefix: 'K6_PROMETHEUS_RW_HEADERS_',
});

const STAT = /^(avg|min|max|med|count|sum|p\(\d+(\.\d+)?\))$/;

function bool(value: string | undefined, name: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (/^(true|1)$/i.test(value)) return true;
  if (/^(false|0)$/i.test(value)) return false;
  throw new Error(`${name} must be true or false, got ${JSON.stringify(value)}`);
}

/** k6's trend-stat series suffix: p(95) → p95, p(99.9) → p999, others as named. */
export function statSuffix(stat: string): string {
  return stat.startsWith('p(') ? `p${stat.slice(2, -1).replace(/\./g, '')}` : stat;
}

/** A write URL without its user info, and that user info as Basic credentials (percent-decoded). */
export interface UrlCredentials {
  readonly url: string;
  readonly username?: string;
  readonly password?: string;
}

/**
 * `http://user:pw@host/w` → the URL k6 and the engine are given (k6 prints its output's URL on stderr: no password may
 * be in it) and the credentials that go in the push's Authorization header instead. Throws on a string that is no URL.
 */
export function splitUrlCredentials(text: string): UrlCredentials {
  const u = new URL(text);
  if (u.username === '' && u.password === '') return { url: text };
  const username = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  u.username = '';
  u.password = '';
  return { url: u.toString(), username, ...(password === '' ? {} : { password }) };
}

/** Reads the config from an environment (k6 reads the process environment); throws a one-line reason. */
export function remoteWriteConfigFromEnv(env: Readonly<Record<string, string | undefined>>): RemoteWriteConfig {
  let split: UrlCredentials;
  try {
    split = splitUrlCredentials(env[RW_ENV.url] ?? RW_DEFAULTS.url);
  } catch {
    throw new Error(`${RW_ENV.url} is not a URL: ${JSON.stringify(displayUrl(env[RW_ENV.url] ?? ''))}`);
  }
  const url = split.url;
  const interval = env[RW_ENV.pushInterval];
  const pushIntervalMs =
    interval === undefined || interval === '' ? RW_DEFAULTS.pushIntervalMs : parseDuration(interval, RW_ENV.pushInterval);
  if (pushIntervalMs <= 0) throw new Error(`${RW_ENV.pushInterval} must be more than 0`);
  const statsText = env[RW_ENV.trendStats];
  const trendStats =
    statsText === undefined || statsText.trim() === '' ? RW_DEFAULTS.trendStats : statsText.split(',').map((s) => s.trim());
  for (const stat of trendStats)
    if (!STAT.test(stat))
      throw new Error(`${RW_ENV.trendStats}: unknown stat ${JSON.stringify(stat)} (avg, min, max, med, count, sum, p(N))`);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(RW_ENV.headerPrefix) && value !== undefined) headers[name.slice(RW_ENV.headerPrefix.length)] = value;
  }
  const list = env[RW_ENV.httpHeaders];
  if (list !== undefined && list !== '') {
    for (const pair of list.split(',')) {
      const parts = pair.split(':');
      if (parts.length !== 2) throw new Error(`${RW_ENV.httpHeaders}: ${JSON.stringify(pair)} is not <header key>:<value>`);
      headers[parts[0] as string] = parts[1] as string;
    }
  }
  const pick = (name: string): string | undefined => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  // The variables win over the URL's user info, as a user's own settings win everywhere.
  const fromVariables = pick(RW_ENV.username) !== undefined;
  const username = fromVariables ? pick(RW_ENV.username) : split.username;
  const password = fromVariables ? pick(RW_ENV.password) : (split.password ?? pick(RW_ENV.password));
  const bearerToken = pick(RW_ENV.bearerToken);
  return {
    url,
    pushIntervalMs,
    trendAsNativeHistogram: bool(env[RW_ENV.nativeHistogram], RW_ENV.nativeHistogram) ?? false,
    trendStats,
    staleMarkers: bool(env[RW_ENV.staleMarkers], RW_ENV.staleMarkers) ?? false,
    headers,
    ...(username === undefined ? {} : { username }),
    ...(password === undefined ? {} : { password }),
    ...(bearerToken === undefined ? {} : { bearerToken }),
  };
}

/** The URL as reports show it: no user info, no query (either may carry a secret). */
export function displayUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
