// Learns the transaction-result field names (fieldMapping.transaction) on the run's own successful charges, which
// discovery never makes: the result field whose value the spec's transaction-taking read accepts and echoes back.
import { mergeFieldMapping, readField, type FieldMapping, type TransactionFieldMapping } from '../../api/field-mapping.ts';
import type { GatewayResponse } from '../../api/envelope.ts';
import type { ResultField } from '../../api/input-rules.ts';
import type { RequestInput } from '../../api/request-builder.ts';
import { ambiguous, learned, unknown, type Finding } from './findings.ts';
import { asInteger, isRecord, leavesOf, normPath, type Leaf } from './records.ts';

/** Sends the transaction-taking read with one candidate value (a read: it cannot charge). */
export type ProbeRead = (operationId: string, input: RequestInput) => Promise<GatewayResponse>;

export interface ResultFieldRequest {
  /** The charging write whose successful result is read, e.g. `v1.transaction.giftcard`. */
  readonly write: string;
  /** The read that takes the field, e.g. `v1.transaction.giftcard-fetch`, and its path parameter. */
  readonly read: string;
  readonly param: string;
  readonly field: ResultField;
  /** The write's result payloads, final (status) first, then the submitted answer. */
  readonly results: readonly unknown[];
  readonly probe: ProbeRead;
}

/** The field's value, or why it stays unread (the key to set, what was seen). */
export type ResultFieldValue = { readonly value: string | number } | { readonly reason: string };

export interface ChargeLearning {
  /** The run's one field mapping: the given one, with every key learned on a charge written into it when learned. */
  readonly mapping: FieldMapping;
  /** What the run's charges taught (or left open), for its output; empty while nothing needed learning. */
  findings(): readonly Finding[];
  /** The result field through the mapping; when the mapping reads nothing there, learned once per key from this result. */
  resultValue(request: ResultFieldRequest): Promise<ResultFieldValue>;
}

/** Most candidate values probed per key: a result payload has a handful of scalar fields. */
const MAX_PROBES = 12;

const keyOf = (field: ResultField): string => `fieldMapping.transaction.${field}`;
const scalar = (value: unknown): value is string | number =>
  (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value.trim() !== '');

/** Leaves that could hold the field: integers for a transaction id (spec: "path id int64"), non-empty scalars for an ICCID. */
function candidatesOf(results: readonly unknown[], field: ResultField): Leaf[] {
  const record = results.find(isRecord);
  const fitting = leavesOf(record).filter((leaf) =>
    field === 'transactionId' ? asInteger(leaf.value) !== undefined && Number(leaf.value) > 0 : scalar(leaf.value),
  );
  return fitting.slice(0, MAX_PROBES);
}

/** The read accepted the value ('000') and its payload carries the same value under the same name. */
function echoes(response: GatewayResponse, leaf: Leaf): boolean {
  if (response.classification.outcome !== 'Successful') return false;
  const payload = response.envelope?.payLoad;
  const records = Array.isArray(payload) ? payload : [payload];
  return records.some((r) =>
    leavesOf(r).some((echo) => normPath(echo.path) === normPath(leaf.path) && String(echo.value) === String(leaf.value)),
  );
}

async function learnFrom(request: ResultFieldRequest, current: string): Promise<Finding> {
  const key = keyOf(request.field);
  const candidates = candidatesOf(request.results, request.field);
  const where = `the first successful ${request.write} result`;
  if (candidates.length === 0)
    return unknown(
      key,
      current,
      `'${current}' reads nothing in ${where}, and it has no field a ${request.read} ${request.param} could take`,
    );
  const accepted: Leaf[] = [];
  for (const leaf of candidates) {
    const response = await request.probe(request.read, { path: { [request.param]: String(leaf.value) } });
    if (echoes(response, leaf)) accepted.push(leaf);
  }
  const tried = candidates.map((c) => `${c.path}=${String(c.value)}`);
  if (accepted.length === 1) {
    const [only] = accepted as [Leaf];
    return learned(
      key,
      only.path,
      `'${current}' reads nothing in ${where}; ${request.read} with ${request.param}=${String(only.value)} (its ${only.path}) answered '000' and echoed it under ${only.path}; ${candidates.length - 1} other field(s) not accepted (learned on the first charge)`,
    );
  }
  if (accepted.length > 1)
    return ambiguous(
      key,
      current,
      `${request.read} accepted and echoed ${accepted.length} fields of ${where}: pick neither`,
      accepted.map((a) => a.path),
    );
  return unknown(
    key,
    current,
    `'${current}' reads nothing in ${where}, and ${request.read} accepted none of its ${candidates.length} candidate field(s)`,
    tried,
  );
}

/** The words of a skip when the key stays unread: "not verified", the key and what was seen. */
function reasonOf(finding: Finding): string {
  const seen = finding.candidates === undefined ? '' : ` (candidates: ${finding.candidates.join(', ')})`;
  return `not verified: ${finding.key} ${finding.status}: ${finding.evidence}${seen}; set ${finding.key}`;
}

export function createChargeLearning(given: FieldMapping): ChargeLearning {
  const mapping = mergeFieldMapping(given, {});
  const learning = new Map<ResultField, Promise<Finding>>();
  const done: Finding[] = [];
  const read = (request: ResultFieldRequest): string | number | undefined => {
    const value = request.results.map((r) => readField(r, mapping.transaction[request.field])).find(scalar);
    return value === undefined ? undefined : value;
  };
  return {
    mapping,
    findings: () => [...done],
    async resultValue(request) {
      const before = read(request);
      if (before !== undefined) return { value: before };
      // One learning per key, on the first result that needs it; later results wait for it and read through its answer.
      let pending = learning.get(request.field);
      if (pending === undefined) {
        pending = learnFrom(request, mapping.transaction[request.field]).then((finding) => {
          if (finding.status === 'learned' && typeof finding.value === 'string')
            (mapping.transaction as TransactionFieldMapping)[request.field] = finding.value;
          done.push(finding);
          return finding;
        });
        learning.set(request.field, pending);
      }
      const finding = await pending;
      const after = read(request);
      return after === undefined
        ? {
            reason:
              finding.status === 'learned'
                ? `the ${request.write} result has nothing at '${String(finding.value)}' (${finding.key}, learned on the first charge)`
                : reasonOf(finding),
          }
        : { value: after };
    },
  };
}
