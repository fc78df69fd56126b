// Names of the envelope-aware metrics the k6 side records and the summary reads back. Runtime-neutral.
// k6's own http_req_failed cannot see an HTTP 200 failure (a non-'000' responseCode): these can.

export const METRICS = Object.freeze({
  /** Counter of responses, tagged operation, api, outcome (Successful | Failed | InProgress | Unknown). */
  outcomes: 'gateway_outcomes',
  /** Rate of responses whose outcome is Failed, tagged operation, api. */
  failed: 'gateway_failed',
  /**
   * Counter of envelope and payload violations (errors): one per JSON path of each violating response, tagged
   * operation, api, path (`$.payLoad[*].skuId`) and layer (envelope | spec | observed | baseline).
   */
  schemaViolations: 'gateway_schema_violations',
  /** Counter of payload warnings (observed layer, not promoted), tagged as gateway_schema_violations; never a threshold. */
  payloadWarnings: 'gateway_payload_warnings',
  /** Trend, submission to final outcome through polling (ms), tagged operation, api, outcome. */
  timeToFinal: 'gateway_time_to_final',
  /** Counter of transactions not final when polling gave up (the account may be charged), tagged operation, api. */
  unresolved: 'gateway_unresolved',
  /** Trend of the time the response checks took inside the runtime (ms); only with GATEWAY_LOAD_MEASURE_CHECKS=on. */
  checkDuration: 'gateway_check_duration',
  /**
   * Counter of answers that were the harness's gap, not the gateway's (api/assumed-path.ts: an assumed write path that
   * answered 404 without an envelope), tagged operation, api. The operation is reported "unverified: path assumed".
   */
  pathUnverified: 'gateway_path_unverified',
  /** Counter of charging requests the money guard did not send (spend cap, unbounded charge, no ledger), tagged operation, reason. */
  chargesRefused: 'gateway_charges_refused',
  /** Counters of responses that were no gateway answer, one per fault kind (api/faults.ts), tagged operation, api. */
  faults: Object.freeze({
    timeout: 'gateway_faults_timeout',
    connection: 'gateway_faults_connection',
    'server-error': 'gateway_faults_server_error',
    malformed: 'gateway_faults_malformed',
  }),
} as const);

/** Kinds of k6 metric; each allows its own threshold aggregations (k6 docs: Thresholds). */
export type MetricKind = 'counter' | 'gauge' | 'rate' | 'trend';

/**
 * Every metric a harness run has, by name: k6's built-in metrics the harness scripts emit (the engine emits the same,
 * engine/metrics/store.ts BUILTIN_METRICS; a test holds the two lists equal) and the harness's own. A threshold on any
 * other name would judge a metric that never gets a sample: k6 then ends without a summary.
 */
export const RUN_METRICS: Readonly<Record<string, MetricKind>> = Object.freeze({
  vus: 'gauge',
  vus_max: 'gauge',
  iterations: 'counter',
  iteration_duration: 'trend',
  dropped_iterations: 'counter',
  checks: 'rate',
  group_duration: 'trend',
  http_reqs: 'counter',
  http_req_failed: 'rate',
  http_req_duration: 'trend',
  http_req_blocked: 'trend',
  http_req_connecting: 'trend',
  http_req_tls_handshaking: 'trend',
  http_req_sending: 'trend',
  http_req_waiting: 'trend',
  http_req_receiving: 'trend',
  data_sent: 'counter',
  data_received: 'counter',
  [METRICS.outcomes]: 'counter',
  [METRICS.failed]: 'rate',
  [METRICS.schemaViolations]: 'counter',
  [METRICS.timeToFinal]: 'trend',
  [METRICS.unresolved]: 'counter',
  [METRICS.checkDuration]: 'trend',
  [METRICS.chargesRefused]: 'counter',
  [METRICS.pathUnverified]: 'counter',
  [METRICS.faults.timeout]: 'counter',
  [METRICS.faults.connection]: 'counter',
  [METRICS.faults['server-error']]: 'counter',
  [METRICS.faults.malformed]: 'counter',
});

/** The threshold aggregations each kind of metric supports (k6: counter count/rate, gauge value, rate rate, trend avg/min/max/med/p(N)). */
export const KIND_AGGREGATIONS: Readonly<Record<MetricKind, readonly string[]>> = Object.freeze({
  counter: ['count', 'rate'],
  gauge: ['value'],
  rate: ['rate'],
  trend: ['avg', 'min', 'max', 'med', 'p'],
});
