// Named checks: one function per documented rule, `(ctx, response) => Failure | undefined`.
// Cases list them as their expectation; the envelope invariants run on every response any case receives.
import { findOperation, type PayloadKind } from '../api/operations.ts';
import { clip, describeResponse, payloadKindOf, show } from '../api/describe.ts';
import { checkResponseBody, OBSERVED_SCHEMAS, sampleValue, specValidatorOf } from '../api/payload-checks.ts';
import { formatIssues, validateEnvelope } from '../api/validation.ts';
import type { Check, CheckContext, Failure, Severity } from './types.ts';

export function makeFailure(
  ctx: CheckContext,
  check: string,
  fields: { message: string; expected: string; received: string; severity?: Severity },
): Failure {
  return {
    check,
    operation: ctx.operationId,
    caseId: ctx.caseId,
    severity: fields.severity ?? 'error',
    message: fields.message,
    expected: fields.expected,
    received: fields.received,
    ...(ctx.request === undefined ? {} : { request: ctx.request }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Envelope invariants (spec: Resources and their fields / Response envelope; Errors / Delivery rules).
// They hold for every HTTP 200 response of every operation, whatever the case was looking for.

/** 'All responses are the envelope described above with HTTP 200' — a 200 must carry a JSON envelope. */
export const envelopeIsJson: Check = function envelopeIsJson(ctx, res) {
  if (res.httpStatus !== 200 || res.timedOut) return undefined;
  if (res.envelope !== undefined) return undefined;
  return makeFailure(ctx, 'envelope-is-json', {
    message: 'an HTTP 200 response is not a JSON envelope with a string responseCode',
    expected: '{responseCode: string, responseMessage, payLoad}',
    received: res.parseError ?? 'no body',
  });
};

/** 'responseMessage | string or null' and 'payLoad | object, array, number or null' (all three fields present). */
export const envelopeFieldTypes: Check = function envelopeFieldTypes(ctx, res) {
  const env = res.envelope;
  if (res.httpStatus !== 200 || env === undefined) return undefined;
  const problems: string[] = [];
  if (!('responseMessage' in env)) problems.push('responseMessage missing');
  else if (env.responseMessage !== null && typeof env.responseMessage !== 'string')
    problems.push(`responseMessage is ${payloadKindOf(env.responseMessage)}`);
  if (!('payLoad' in env)) problems.push('payLoad missing');
  else if (typeof env.payLoad === 'string' || typeof env.payLoad === 'boolean') problems.push(`payLoad is ${typeof env.payLoad}`);
  if (problems.length === 0) return undefined;
  return makeFailure(ctx, 'envelope-field-types', {
    message: `envelope fields break the documented types: ${problems.join('; ')}`,
    expected: 'responseMessage string|null; payLoad object|array|number|null',
    received: describeResponse(res),
  });
};

/** 'payLoad … Carries the result only when responseCode is '000'; otherwise always null' */
export const payloadNullUnlessSuccess: Check = function payloadNullUnlessSuccess(ctx, res) {
  const env = res.envelope;
  if (res.httpStatus !== 200 || env === undefined || env.responseCode === '000') return undefined;
  if (env.payLoad === null) return undefined;
  return makeFailure(ctx, 'payload-null-unless-000', {
    message: `responseCode '${env.responseCode}' came with a payLoad`,
    expected: 'payLoad null',
    received: `payLoad ${show(env.payLoad)}`,
  });
};

/** 'responseMessage | string or null | null on success' */
export const messageNullOnSuccess: Check = function messageNullOnSuccess(ctx, res) {
  const env = res.envelope;
  if (res.httpStatus !== 200 || env === undefined || env.responseCode !== '000') return undefined;
  if (env.responseMessage === null) return undefined;
  return makeFailure(ctx, 'message-null-on-000', {
    message: "a '000' response carries a responseMessage",
    expected: 'responseMessage null',
    received: `responseMessage ${show(env.responseMessage)}`,
  });
};

/** 'responseMessage | string or null | … human-readable text on failure' (and '852' comes 'with a message that processing is in progress'). */
export const messageOnFailure: Check = function messageOnFailure(ctx, res) {
  const env = res.envelope;
  if (res.httpStatus !== 200 || env === undefined || env.responseCode === '000') return undefined;
  if (typeof env.responseMessage === 'string' && env.responseMessage.trim() !== '') return undefined;
  return makeFailure(ctx, 'message-on-failure', {
    message: `responseCode '${env.responseCode}' came without a human-readable responseMessage`,
    expected: 'a non-empty responseMessage',
    received: `responseMessage ${show(env.responseMessage)}`,
  });
};

/** 'Payload kind' column of the endpoint tables: number, object or array, on every '000' response. */
export const payloadOfDocumentedKind: Check = function payloadOfDocumentedKind(ctx, res) {
  const env = res.envelope;
  if (res.httpStatus !== 200 || env === undefined || env.responseCode !== '000') return undefined;
  const op = findOperation(ctx.operationId);
  if (op === undefined) return undefined;
  const kind = payloadKindOf(env.payLoad);
  if (kindMatches(op.payloadKind, env.payLoad)) return undefined;
  return makeFailure(ctx, 'payload-kind', {
    message: `payLoad of ${op.id} is not of the documented kind`,
    expected: op.payloadKind,
    received: kind,
  });
};

function kindMatches(kind: PayloadKind, value: unknown): boolean {
  if (kind === 'array') return Array.isArray(value);
  if (kind === 'number') return typeof value === 'number' && Number.isFinite(value);
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** 'The gift card SKU list (v2) adds two envelope-level integer fields: next and next_cursor.' */
export const giftcardListCursorIntegers: Check = function giftcardListCursorIntegers(ctx, res) {
  const env = res.envelope;
  const op = findOperation(ctx.operationId);
  if (op?.envelope !== 'giftcard-list' || res.httpStatus !== 200 || env?.responseCode !== '000') return undefined;
  const bad = ['next', 'next_cursor'].filter((name) => !Number.isInteger(env[name]));
  if (bad.length === 0) return undefined;
  return makeFailure(ctx, 'giftcard-next-integers', {
    message: `gift card list envelope: ${bad.join(' and ')} not an integer`,
    expected: 'next and next_cursor integers',
    received: `next ${show(env.next)}, next_cursor ${show(env.next_cursor)}`,
  });
};

/** The wire schema of the envelope (schemas/envelope.schema.json or the gift card list's), via the project's validators. */
export const envelopeMatchesSchema: Check = function envelopeMatchesSchema(ctx, res) {
  const op = findOperation(ctx.operationId);
  if (op === undefined || res.httpStatus !== 200 || res.bodyText === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(res.bodyText);
  } catch {
    return undefined; // envelopeIsJson reports it
  }
  const result = validateEnvelope(op, body);
  if (result.valid) return undefined;
  return makeFailure(ctx, 'envelope-schema', {
    message: `the response does not match the ${op.envelope === 'giftcard-list' ? 'gift card list ' : ''}envelope schema`,
    expected: `schemas/${op.envelope === 'giftcard-list' ? 'giftcard-list-envelope' : 'envelope'}.schema.json (payLoad ${op.payloadKind} on '000')`,
    received: clip(formatIssues(result.errors)),
  });
};

/**
 * The payload checks of api/payload-checks.ts (the one implementation load runs too) on every '000' response: what the
 * spec states about records is an error naming the JSON path; what only observed payloads show is a warning. The
 * envelope layer is left to the invariants above, which name those rules one by one.
 */
export const payloadMatchesSchema: Check = function payloadMatchesSchema(ctx, res) {
  const env = res.envelope;
  if (res.httpStatus !== 200 || env === undefined || env.responseCode !== '000' || res.bodyText === undefined) return undefined;
  const op = findOperation(ctx.operationId);
  if (op === undefined) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(res.bodyText);
  } catch {
    return undefined; // envelopeIsJson reports it
  }
  const found = checkResponseBody(op, body).filter((v) => v.layer !== 'envelope');
  const errors = found.filter((v) => v.severity === 'error');
  const reported = errors.length > 0 ? errors : found;
  const first = reported[0];
  if (first === undefined) return undefined;
  const paths = reported.map((v) => v.path).join(', ');
  return makeFailure(ctx, 'payload-schema', {
    severity: errors.length > 0 ? 'error' : 'warning',
    message: `payLoad of ${op.id} ${errors.length > 0 ? "breaks the spec's payload rules" : 'differs from the observed payloads (observed-payloads.md)'} at ${paths}: ${clip(reported.map((v) => v.message).join('; '))}`,
    expected:
      errors.length > 0
        ? `schemas/${specValidatorOf(op).schema}.schema.json`
        : `schemas/${OBSERVED_SCHEMAS[op.id]?.schema ?? 'observed-*'}.schema.json (warning)`,
    received: `${first.path}: ${sampleValue(body, first)}`,
  });
};

/** Run on every response a case receives. */
export const ENVELOPE_INVARIANTS: readonly Check[] = [
  envelopeIsJson,
  envelopeFieldTypes,
  payloadNullUnlessSuccess,
  messageNullOnSuccess,
  messageOnFailure,
  payloadOfDocumentedKind,
  giftcardListCursorIntegers,
  payloadMatchesSchema,
];

// ---------------------------------------------------------------------------------------------------------------
// Expectations of single responses.

/** 'Business outcomes are delivered with HTTP 200 and the envelope' */
export const http200: Check = function http200(ctx, res) {
  if (res.httpStatus === 200) return undefined;
  return makeFailure(ctx, 'http-200', {
    message: 'expected HTTP 200 with an envelope',
    expected: 'HTTP 200',
    received: describeResponse(res),
  });
};

/** 'A transaction is successful only if HTTP status is 200 and responseCode is '000'.' */
export const successful: Check = function successful(ctx, res) {
  if (res.classification.outcome === 'Successful') return undefined;
  return makeFailure(ctx, 'successful', {
    message: 'expected a success',
    expected: "HTTP 200, responseCode '000'",
    received: describeResponse(res),
  });
};

/** Anything but Successful: a failure code, an HTTP error, or no answer at all. */
export const notSuccessful: Check = function notSuccessful(ctx, res) {
  if (res.classification.outcome !== 'Successful') return undefined;
  return makeFailure(ctx, 'not-successful', {
    message: 'the request was accepted as a success although the rule forbids it',
    expected: "not a success (no HTTP 200 with responseCode '000')",
    received: describeResponse(res),
  });
};

/** A rejection the client can see: a final failure (HTTP 200 with a code, or a non-200 status), not a timeout. */
export const rejected: Check = function rejected(ctx, res) {
  if (res.classification.outcome === 'Failed') return undefined;
  return makeFailure(ctx, 'rejected', {
    message: 'expected the request to be rejected (a final failure)',
    expected: "HTTP 200 with a responseCode other than '000' and '852', or an HTTP error status",
    received: describeResponse(res),
  });
};

/** No result data leaks with a refusal: no envelope payLoad (whatever the status). */
export const noPayload: Check = function noPayload(ctx, res) {
  const env = res.envelope;
  if (env === undefined || env.payLoad === null || env.payLoad === undefined) return undefined;
  return makeFailure(ctx, 'no-payload', {
    message: 'a refused request returned a payLoad',
    expected: 'no payLoad',
    received: `payLoad ${show(env.payLoad)}`,
  });
};

export function responseCodeIs(code: string): Check {
  const check: Check = (ctx, res) => {
    if (res.httpStatus === 200 && res.envelope?.responseCode === code) return undefined;
    return makeFailure(ctx, `response-code-${code}`, {
      message: `expected responseCode '${code}'`,
      expected: `HTTP 200, responseCode '${code}'`,
      received: describeResponse(res),
    });
  };
  return check;
}

/** 'If the client times out, do not assume failure' — a delay trigger must keep the client waiting past its timeout. */
export const clientTimedOut: Check = function clientTimedOut(ctx, res) {
  if (res.timedOut && res.classification.outcome === 'Unknown') return undefined;
  return makeFailure(ctx, 'client-timed-out', {
    message: 'the delayed top-up answered before the client timeout (the trigger should delay the response)',
    expected: 'no response within the client timeout (outcome Unknown)',
    received: describeResponse(res),
  });
};

/** 'The charge amount for Denomination <name> should be between <min> <currency> and <max> <currency>' */
export const MESSAGE_001 =
  /^The charge amount for Denomination (.+) should be between (-?[0-9]+(?:\.[0-9]+)?) (\S+) and (-?[0-9]+(?:\.[0-9]+)?) (\S+)$/;

export const message001Shape: Check = function message001Shape(ctx, res) {
  const message = res.envelope?.responseMessage;
  const match = typeof message === 'string' ? MESSAGE_001.exec(message) : null;
  if (match !== null && Number(match[2]) <= Number(match[4])) return undefined;
  return makeFailure(ctx, 'message-001-shape', {
    message: "the '001' message does not have the documented shape",
    expected: "'The charge amount for Denomination <name> should be between <min> <currency> and <max> <currency>' (min ≤ max)",
    received: `responseMessage ${show(message)}`,
  });
};

/** The payLoad array holds exactly / at most `n` items. */
export function itemCount(n: number, mode: 'exactly' | 'at-most'): Check {
  const check: Check = (ctx, res) => {
    const payload = res.envelope?.payLoad;
    const count = Array.isArray(payload) ? payload.length : undefined;
    if (count !== undefined && (mode === 'exactly' ? count === n : count <= n)) return undefined;
    return makeFailure(ctx, `items-${mode}-${n}`, {
      message: `expected ${mode === 'exactly' ? 'exactly' : 'at most'} ${n} items in payLoad`,
      expected: `${mode === 'exactly' ? '' : '≤ '}${n} items`,
      received: count === undefined ? describeResponse(res) : `${count} items`,
    });
  };
  return check;
}
