// The checks every load response goes through (k6 `check` names, one per-check threshold each), with the spec rule
// each enforces. Runtime-neutral data: the k6 side records them, profiles turn them into thresholds, summaries list them.

export type CheckKey = 'httpStatus' | 'envelope' | 'payloadKind' | 'payload' | 'outcome' | 'statusConfirms';

export interface CheckDef {
  readonly key: CheckKey;
  /** The k6 check name (also the `check` tag its threshold selects on; no commas or braces). */
  readonly name: string;
  /** The spec rule it enforces, verbatim. */
  readonly rule: string;
  /** Part of the schema checks (off in the bench's "without checks" run). */
  readonly schema: boolean;
}

export const CHECKS: Readonly<Record<CheckKey, CheckDef>> = Object.freeze({
  httpStatus: {
    key: 'httpStatus',
    name: 'http status is 200',
    rule: 'Endpoints: "All responses are the envelope described above with HTTP 200"',
    schema: false,
  },
  envelope: {
    key: 'envelope',
    name: 'envelope matches schema',
    rule: 'Response envelope: "payLoad | Carries the result only when responseCode is \'000\'; otherwise always null" (and responseCode string, responseMessage null on success)',
    schema: true,
  },
  payloadKind: {
    key: 'payloadKind',
    name: 'payload kind matches',
    rule: 'Endpoints: "payload shapes per operation are listed as kinds only" (number, object, array)',
    schema: true,
  },
  payload: {
    key: 'payload',
    name: 'payload matches schema',
    rule: 'Catalog and other payload records: records are objects; the ids the spec types are int32; "Localized fields in SKU, gift card SKU and mobile lookup results: SkuName, ProductName, BenefitType, ProductDescription, OperatorName, AdditionalInformation"; AdditionalInfo: "Each element is a name/value pair" (schemas/payload-*.schema.json); with --baseline, the learned schema where the drift rules call a difference breaking (Versioning 4)',
    schema: true,
  },
  outcome: {
    key: 'outcome',
    name: 'outcome is not Failed',
    rule: 'Errors 2: "A transaction is successful only if HTTP status is 200 and responseCode is \'000\'" (outcome from the one classifier; Unknown and In progress are not failures)',
    schema: false,
  },
  statusConfirms: {
    key: 'statusConfirms',
    name: 'status confirms the outcome',
    rule: 'Status check: "returns the final status of an earlier RTR or PIN (and gift card) transaction identified by its correlationId"',
    schema: false,
  },
});

/** Checks recorded on every response (statusConfirms only where a flow reads a final transaction back). */
export const RESPONSE_CHECKS: readonly CheckKey[] = ['httpStatus', 'envelope', 'payloadKind', 'payload', 'outcome'];

export function checksInUse(options: { schemaChecks: boolean; readsBackStatus: boolean }): CheckDef[] {
  const keys: CheckKey[] = [...RESPONSE_CHECKS, ...(options.readsBackStatus ? (['statusConfirms'] as const) : [])];
  return keys.map((key) => CHECKS[key]).filter((check) => options.schemaChecks || !check.schema);
}
