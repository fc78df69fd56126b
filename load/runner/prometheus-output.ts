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
  type RemoteWriteStats,
} from '../run-node-engine.ts';
import { HarnessError } from '../../api/errors.ts';
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
async function pushThresholds(config: RemoteWriteConfig, data: K6SummaryData, testid: string): Promise<string | undefined> {
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
function remoteWriteSummary(config: RemoteWriteConfig, counts: Omit<RemoteWriteSummary, 'url' | 'trends'>): RemoteWriteSummary {
  return { url: displayUrl(config.url), trends: config.trendAsNativeHistogram ? 'native-histogram' : 'stats', ...counts };
}

/** `--out prometheus=URL` of one run: the engines' settings and the run's testid on every series; undefined without it. */
export function runPrometheus(
  url: string | undefined,
  inherited: NodeJS.ProcessEnv,
  runId: string,
): { readonly url: string; readonly config: RemoteWriteConfig; readonly tags: Readonly<Record<string, string>> } | undefined {
  if (url === undefined) return undefined;
  let config;
  try {
    config = enginePrometheusConfig(url, inherited);
  } catch (error) {
    throw new HarnessError('GH_ERR_USAGE', `--out prometheus: ${error instanceof Error ? error.message : String(error)}`);
  }
  // Every series of the run carries its id, so runs sharing one Prometheus stay apart (k6's dashboards filter on testid).
  return { url, config, tags: { [TEST_ID_TAG]: runId } };
}

/** What the run pushed besides the threshold results: the engine's own output (k6's failures counted from its log) and the generator's. */
export interface RunPushes {
  readonly k6Failures?: K6PushFailures;
  readonly engine?: RemoteWriteStats;
  readonly generator?: { readonly pushes: number; readonly failed: number; readonly lastError?: string };
}

/**
 * The threshold results, pushed once at the end (neither engine knows them before), one more push counted like the
 * others; then the report's account of the output. Failed pushes are said (the run went on), never thrown.
 */
export async function finishRemoteWrite(
  config: RemoteWriteConfig,
  summaryData: K6SummaryData | undefined,
  runId: string,
  pushes: RunPushes,
  say: (line: string) => void,
): Promise<RemoteWriteSummary> {
  const thresholdError = summaryData === undefined ? undefined : await pushThresholds(config, summaryData, runId);
  const thresholdCount = summaryData === undefined ? 0 : thresholdSeries(summaryData, runId, 0).length;
  const { engine, generator } = pushes;
  const failed =
    (pushes.k6Failures !== undefined ? pushes.k6Failures.end() : (engine?.failedPushes ?? 0)) +
    (thresholdError === undefined ? 0 : 1) +
    (generator?.failed ?? 0);
  const lastError = thresholdError ?? generator?.lastError ?? engine?.lastError;
  if (failed > 0)
    say(`load: ${failed} push(es) to Prometheus failed (the run went on)${lastError === undefined ? '' : `; last: ${lastError}`}`);
  return remoteWriteSummary(config, {
    failedPushes: failed,
    thresholdSeries: thresholdCount,
    ...(engine === undefined
      ? {}
      : { pushes: engine.pushes + (thresholdCount > 0 ? 1 : 0) + (generator?.pushes ?? 0), series: engine.series }),
    ...(lastError === undefined ? {} : { lastError }),
  });
}
