// `load --out prometheus=URL` on either engine: a real k6 gets its own experimental-prometheus-rw output with the
// harness's settings in its environment; the Node engine gets engine/remote-write with the same settings. Both write
// the same series (k6_* names, bounded labels, a testid per run); the threshold results are pushed once at the end.
import {
  displayUrl,
  METRIC_PREFIX,
  pushTimeSeries,
  remoteWriteConfigFromEnv,
  RW_ENV,
  splitUrlCredentials,
  type PromTimeSeries,
  type RemoteWriteConfig,
} from '../run-node-engine.ts';
import type { K6SummaryData } from '../../reports/k6-summary.ts';
import type { RemoteWriteSummary } from '../../reports/model.ts';

/**
 * Trend stats the harness asks for unless K6_PROMETHEUS_RW_TREND_STATS is set (k6's own default is p(99) alone): the
 * percentiles the report and the Grafana dashboard show. Ignored with native histograms, where any quantile can be asked.
 */
export const HARNESS_TREND_STATS = 'p(50),p(90),p(95),p(99),max';

/**
 * k6's default system tags without `url` and `error` (K6_SYSTEM_TAGS, unless set): a raw URL carries ids and query
 * strings (a series per request), an error text carries addresses. Requests are told apart by `operation` and `name`.
 */
export const K6_RW_SYSTEM_TAGS = 'proto,subproto,status,method,name,group,check,error_code,tls_version,scenario,service,expected_response';

/** The label every series of a run carries (k6's dashboards filter on it): the run id. */
export const TEST_ID_TAG = 'testid';

/** The harness's series of threshold results: 1 passed, 0 crossed, labels `metric` and `threshold`. */
export const THRESHOLD_SERIES = `${METRIC_PREFIX}gateway_threshold_passed`;

/** The line k6's output logs when a push failed (both k6 versions); the harness counts them. */
export const K6_PUSH_FAILED = 'Failed to send the time series data to the endpoint';

/**
 * What a real k6 gets in its environment beside `--out experimental-prometheus-rw`: the run's K6_PROMETHEUS_RW_* (the
 * user's own settings win) and the harness's defaults. The URL's user info becomes k6's username/password settings
 * (basic auth), so k6 pushes with them and never prints them with the URL.
 */
export function k6PrometheusEnv(url: string, inherited: NodeJS.ProcessEnv): Record<string, string> {
  const own: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) if (name.startsWith('K6_PROMETHEUS_RW_') && value !== undefined) own[name] = value;
  const split = splitUrlCredentials(url);
  const userInfo: Record<string, string> = {};
  if (split.username !== undefined && (own[RW_ENV.username] ?? '') === '') {
    userInfo[RW_ENV.username] = split.username;
    if (split.password !== undefined) userInfo[RW_ENV.password] = split.password;
  }
  return {
    ...own,
    ...userInfo,
    [RW_ENV.url]: split.url,
    [RW_ENV.trendStats]: inherited[RW_ENV.trendStats] ?? HARNESS_TREND_STATS,
    K6_SYSTEM_TAGS: inherited.K6_SYSTEM_TAGS ?? K6_RW_SYSTEM_TAGS,
  };
}

/** The engine's settings: the same variables read the same way (engine/remote-write/config.ts). */
export function enginePrometheusConfig(url: string, inherited: NodeJS.ProcessEnv): RemoteWriteConfig {
  return remoteWriteConfigFromEnv({ ...inherited, ...k6PrometheusEnv(url, inherited) });
}

/** Counts k6's failed-push log lines in its output, across chunk boundaries. */
export class K6PushFailures {
  count = 0;
  private tail = '';
  write(chunk: string): void {
    const text = this.tail + chunk;
    const lines = text.split('\n');
    this.tail = lines.pop() ?? '';
    for (const line of lines) if (line.includes(K6_PUSH_FAILED)) this.count += 1;
  }
  end(): number {
    if (this.tail.includes(K6_PUSH_FAILED)) this.count += 1;
    this.tail = '';
    return this.count;
  }
}

/** The threshold results of a run's summary data as series (k6's own pass/fail per expression). */
export function thresholdSeries(data: K6SummaryData, testid: string, at: number): PromTimeSeries[] {
  const out: PromTimeSeries[] = [];
  for (const [metric, m] of Object.entries(data.metrics)) {
    for (const [threshold, result] of Object.entries(m.thresholds ?? {})) {
      out.push({
        labels: [
          { name: '__name__', value: THRESHOLD_SERIES },
          { name: 'metric', value: metric },
          { name: TEST_ID_TAG, value: testid },
          { name: 'threshold', value: threshold },
        ],
        samples: [{ value: result.ok ? 1 : 0, timestamp: at }],
      });
    }
  }
  return out;
}

/** Pushes the threshold series; a failure is returned as text (counted by the caller), never thrown. */
export async function pushThresholds(config: RemoteWriteConfig, data: K6SummaryData, testid: string): Promise<string | undefined> {
  const series = thresholdSeries(data, testid, Date.now());
  if (series.length === 0) return undefined;
  try {
    await pushTimeSeries(config, series);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** The report's account of the output (the URL without credentials). */
export function remoteWriteSummary(config: RemoteWriteConfig, counts: Omit<RemoteWriteSummary, 'url' | 'trends'>): RemoteWriteSummary {
  return { url: displayUrl(config.url), trends: config.trendAsNativeHistogram ? 'native-histogram' : 'stats', ...counts };
}
