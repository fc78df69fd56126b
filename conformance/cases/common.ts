// Shared pieces of the case tables: spec section names, valid requests per operation, and small scenario helpers.
// Valid inputs come from the discovered catalog (never a hard-coded SKU id); whatever the spec does not state is marked assumed.
import { assumedPathHint } from '../../api/assumed-path.ts';
import { getOperation, type ApiVersion, type Operation } from '../../api/operations.ts';
import { readTransaction } from '../../api/field-mapping.ts';
import type { RequestInput } from '../../api/request-builder.ts';
import { buildInput, isNoInput, linksOf, needsTransaction, type ResultField } from '../../api/inputs.ts';
import { NoBody, buildValidBody } from '../bodies.ts';
import { describeResponse } from '../../api/describe.ts';
import { assumedPathMissing } from '../runner.ts';
import { SANDBOX_LOOKUP_COUNTRIES, validAmount } from '../../api/catalog-facts.ts';
import { fixturesWorld, type Fixtures, type SkuFixture } from '../../target/fixtures.ts';
import { StepFailed, type CaseContext, type Exchange } from '../types.ts';

export const SECTION = Object.freeze({
  overview: 'What the service does',
  envelope: 'Resources and their fields / Response envelope (all operations, HTTP 200)',
  requests: 'Resources and their fields / Request objects (JSON bodies)',
  records: 'Resources and their fields / Catalog and other payload records',
  states: 'States and transitions',
  v1Reads: 'Endpoints / Version v1 read operations (GET)',
  v2Reads: 'Endpoints / Version v2 read operations (GET)',
  writes: 'Endpoints / Write operations (POST, JSON body, Content-Type application/json)',
  auth: 'Authentication',
  errors: 'Errors',
  triggers: 'Errors / Sandbox simulation triggers (top-up operation)',
  limits: 'Limits',
  versioning: 'Versioning',
});

export const VERSIONS: readonly ApiVersion[] = ['v1', 'v2'];

/** Case id suffix for cases that exist once per API version. */
export const V = (version: ApiVersion): string => version.toUpperCase();

/** Assumptions shared by many cases, worded once for reports. */
export const ASSUMED = Object.freeze({
  writePath: (op: Operation) => `write path ${op.path} (spec: "not shown"; override with writePaths.${op.id})`,
  skuFields: 'SKU record fields (skuId, category, countryCode, min/max amounts, FaceValueCurrency) read through the field mapping',
  numberPlan:
    'number plans of countries other than Jamaica derived from catalog/countries (internationalCountryCode + areaCodes, numberLength) or settings.numbers',
  transactionId: 'transaction id read from the result payload at fieldMapping.transaction.transactionId',
  sharedSkuIds: 'SKU ids of the v2 catalog are valid in v1 requests',
  walletUsd: 'the wallet currency is USD, so an amount without transactionCurrencyCode is in USD',
});

/** Skips (never passes) when the target lacks the fixture. */
export function need<T>(ctx: CaseContext, value: T | undefined, what: string): T {
  if (value === undefined) ctx.skip(`the target cannot provide ${what}`);
  return value;
}

export function firstSku(ctx: CaseContext, skus: readonly SkuFixture[], what: string): SkuFixture {
  const withAmount = skus.find((s) => validAmount(s) !== undefined);
  return need(ctx, withAmount ?? skus[0], what);
}

/** An RTR SKU + a valid number of one of the lookup countries (Jamaica first: the spec's own example). */
export function rtrTarget(
  ctx: CaseContext,
  fx: Fixtures,
  countries: readonly string[] = SANDBOX_LOOKUP_COUNTRIES,
  suffix = '',
): { sku: SkuFixture; mobile: string } {
  for (const code of countries) {
    const sku = fx.rtrSkus(code)[0];
    const mobile = fx.mobile(code, suffix);
    if (sku !== undefined && mobile !== undefined) return { sku, mobile };
  }
  return ctx.skip(`the catalog has no RTR SKU with readable amount bounds in ${countries.join('/')} (or no number plan)`);
}

export function topupBody(ctx: CaseContext, sku: SkuFixture, mobile: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const amount = need(ctx, validAmount(sku), `amount bounds of SKU ${sku.skuId}`);
  return { skuId: sku.skuId, mobile, correlationId: ctx.correlationId(), ...amount, ...extra };
}

/** A valid request body for every write operation: derived from its schema's required fields (conformance/bodies.ts). */
export function validWriteBody(ctx: CaseContext, fx: Fixtures, op: Operation, skus?: readonly SkuFixture[]): Record<string, unknown> {
  try {
    return buildValidBody(ctx, fx, op, skus).body;
  } catch (error) {
    if (error instanceof NoBody) return ctx.skip(error.reason);
    throw error;
  }
}

/** Valid input of a read from its input rule (api/inputs.ts); undefined for the reads that link to an earlier transaction. */
export function validReadInput(ctx: CaseContext, fx: Fixtures, op: Operation): RequestInput | undefined {
  if (needsTransaction(op)) return undefined;
  const built = buildInput(
    op,
    fixturesWorld(fx, ctx.settings, ctx.mapping, () => ctx.correlationId()),
  );
  return isNoInput(built) ? ctx.skip(built.unavailable) : built.input;
}

/** An assumed write path answering 404 means the target's path differs: skip with how to fix it. */
export function guardAssumedPath(ctx: CaseContext, exchange: Exchange): void {
  if (assumedPathMissing(exchange)) {
    const op = getOperation(exchange.request.operationId);
    ctx.skip(assumedPathHint(op));
  }
}

/** Requires success of a step the case builds on; records a failure and ends the case otherwise. */
export function requireSuccess(ctx: CaseContext, exchange: Exchange, step: string): void {
  guardAssumedPath(ctx, exchange);
  if (exchange.response.classification.outcome === 'Successful') return;
  ctx.fail({
    check: 'step-succeeds',
    operation: exchange.request.operationId,
    message: `${step} did not succeed`,
    expected: "HTTP 200, responseCode '000'",
    received: describeResponse(exchange.response),
    request: exchange.request,
  });
  throw new StepFailed(step);
}

/**
 * Submits a write and follows it to a final outcome: a '852' (or a client timeout) is polled on the status endpoint.
 * Returns the final exchange holding the result payload (the status response when polling was needed).
 */
export async function submitAndFinish(
  ctx: CaseContext,
  version: ApiVersion,
  operationId: string,
  body: Record<string, unknown>,
): Promise<{ submitted: Exchange; final?: Exchange; code?: string }> {
  const submittedAt = Date.now();
  const submitted = await ctx.call(operationId, { body });
  guardAssumedPath(ctx, submitted);
  const outcome = submitted.response.classification.outcome;
  if (outcome === 'Successful' || outcome === 'Failed') {
    const code = submitted.response.envelope?.responseCode;
    return { submitted, final: submitted, ...(code === undefined ? {} : { code }) };
  }
  const correlationId = typeof body.correlationId === 'string' ? body.correlationId : undefined;
  if (correlationId === undefined) return { submitted };
  // 'Not found' right after the submission is still Unknown (the gateway may not have stored it yet).
  const poll = await ctx.pollStatus(version, correlationId, { submittedAt });
  if (!poll.final) {
    ctx.fail({
      check: 'final-within-deadline',
      operation: `${version}.transaction.status`,
      message: `${operationId} (correlationId ${correlationId}) was not final after ${poll.attempts} status checks in ${poll.elapsedMs} ms`,
      expected: `a final responseCode within ${ctx.timing.pollDeadlineMs} ms`,
      received: poll.last === undefined ? 'no status response' : describeResponse(poll.last.response),
      ...(poll.last === undefined ? {} : { request: poll.last.request }),
    });
    return { submitted };
  }
  return {
    submitted,
    ...(poll.last === undefined ? {} : { final: poll.last }),
    ...(poll.responseCode === undefined ? {} : { code: poll.responseCode }),
  };
}

/** The transaction result of the first exchange that carries one, read through fieldMapping.transaction. */
export function transactionOf(ctx: CaseContext, ...exchanges: ReadonlyArray<Exchange | undefined>): ReturnType<typeof readTransaction> {
  // Earlier exchanges win: the final result (status) is listed before the submitted answer.
  const views = exchanges.map((e) => readTransaction(e?.response.envelope?.payLoad, ctx.mapping.transaction));
  return views.reduceRight((acc, view) => ({ ...acc, ...view }), {});
}

/**
 * The result field a linked read takes (a transaction id, an ICCID) from a successful write's result: through the
 * mapping, else learned on this charge (ctx.resultValue, target/discover/charge-learning.ts); skips naming the key when neither gives it.
 */
export async function resultFieldOf(
  ctx: CaseContext,
  write: string,
  read: Operation,
  field: ResultField,
  ...exchanges: ReadonlyArray<Exchange | undefined>
): Promise<string | number> {
  const mapped = transactionOf(ctx, ...exchanges)[field];
  if (mapped !== undefined) return mapped;
  const param = linksOf(read).find(({ link }) => link.field === field)?.param ?? 'id';
  const results = exchanges.map((e) => e?.response.envelope?.payLoad);
  const got = ctx.resultValue === undefined ? undefined : await ctx.resultValue({ write, read: read.id, param, field, results });
  if (got !== undefined && 'value' in got) return got.value;
  const what = field === 'esimIccid' ? 'an ICCID' : 'a transaction id';
  return ctx.skip(
    `the target cannot provide ${what} at '${ctx.mapping.transaction[field]}' (fieldMapping.transaction.${field}) of the ${write} result${got === undefined ? '' : ` (${got.reason})`}`,
  );
}

/** Records of a payload array (non-objects ignored). */
export function records(exchange: Exchange): Record<string, unknown>[] {
  const payload = exchange.response.envelope?.payLoad;
  if (!Array.isArray(payload)) return [];
  return payload.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r));
}
