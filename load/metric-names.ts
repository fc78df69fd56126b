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
