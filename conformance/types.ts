// The conformance model: cases as data, named checks, typed failures, and what a case can ask of its run context.
// Cases, runner, command, reports and the planted-bug meta-test all speak these types, so ids and failures line up.
import type { ApiVersion } from '../api/operations.ts';
import type { GatewayResponse } from '../api/envelope.ts';
import type { RequestInput } from '../api/request-builder.ts';
import type { Outcome } from '../api/outcome.ts';
import type { FieldMapping } from '../api/field-mapping.ts';
import type { GiftcardCursorMeaning } from '../api/giftcard-paging.ts';
import type { ResultFieldRequest, ResultFieldValue } from '../target/discover/charge-learning.ts';
import type { Fixtures } from '../target/fixtures.ts';
import type { ConformanceSettings } from '../target/settings.ts';
import type { Timing } from './timing.ts';
import type { DrainReport } from './transactions.ts';
import type { IdClass } from './correlation-ids.ts';

/** Case groups; the id of every case starts with its group. */
export const CASE_GROUPS = [
  'AUTH',
  'ENV',
  'TRG',
  'PAGE',
  'LEN',
  'CUR',
  'CAT',
  'LOOKUP',
  'FMT',
  'LOC',
  'POLL',
  'GIFT',
  'BAL',
  'LOAN',
  'REQ',
  'CATEGORY',
  'AMOUNT',
  'FILTERS',
  'STATUS',
  'GEN',
] as const;
export type CaseGroup = (typeof CASE_GROUPS)[number];

export type Severity = 'error' | 'warning';

/** A request as reports show it: credentials redacted, body parsed back when it was JSON. */
export interface RequestEcho {
  readonly operationId: string;
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** What a check found wrong. `expected`/`received` are short human-readable texts (reports print them verbatim). */
export interface Failure {
  readonly check: string;
  readonly operation: string;
  readonly caseId: string;
  readonly severity: Severity;
  readonly message: string;
  readonly expected: string;
  readonly received: string;
  readonly request?: RequestEcho;
}

/** What a check sees besides the response. */
export interface CheckContext {
  readonly caseId: string;
  readonly operationId: string;
  readonly request?: RequestEcho;
}

/** A named check: `undefined` means the response satisfies the rule. */
export type Check = (ctx: CheckContext, response: GatewayResponse) => Failure | undefined;

/** One request sent by a case and the response (or timeout) it got. */
export interface Exchange {
  readonly request: RequestEcho;
  readonly response: GatewayResponse;
}

/**
 * Credentials the runner derives from the target's (a case never sees the password): the spec's Authentication space.
 * `password-prefix` cuts characters from the end, `password-case` changes the case of the first letter at or after `at`
 * (modulo the length), `other-environment` sends the settings' `otherEnvironment` credentials.
 */
export type CredentialVariant =
  | { readonly kind: 'scheme'; readonly scheme: string }
  | { readonly kind: 'empty-user' }
  | { readonly kind: 'empty-password' }
  | { readonly kind: 'unknown-user'; readonly user: string }
  | { readonly kind: 'password-prefix'; readonly cut: number }
  | { readonly kind: 'password-extension'; readonly extra: string }
  | { readonly kind: 'password-case'; readonly at: number }
  | { readonly kind: 'no-colon' }
  | { readonly kind: 'not-base64'; readonly token: string }
  | { readonly kind: 'other-environment' };

export type Credentials = 'valid' | 'none' | 'wrong' | CredentialVariant;

/** The target's credentials cannot be varied that way (a password without letters has no case change). */
export class VariantUnavailable extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'VariantUnavailable';
  }
}

export interface CallOptions {
  /** Client response timeout for this call (ms, real time); default: the run's request timeout. */
  readonly timeoutMs?: number;
  readonly credentials?: Credentials;
  /**
   * False only for a reference request whose envelope another case already judges (AUTH's same request with valid
   * credentials): its answer is compared, not checked, so a bug of that operation is blamed on its own case.
   */
  readonly checkEnvelope?: boolean;
}

/** Result of polling the status endpoint for one correlationId. */
export interface PollOutcome {
  /** True when a final code ('000' or any other code than '852') arrived before the deadline. */
  readonly final: boolean;
  readonly outcome: Outcome;
  readonly responseCode?: string;
  readonly attempts: number;
  readonly elapsedMs: number;
  readonly last?: Exchange;
}

/** Thrown by a case (through `ctx.skip`) when the target cannot provide what the case needs; never a pass. */
export class SkipCase extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'SkipCase';
  }
}

/** Ends a scenario after a step it builds on failed; the step already recorded its failure. */
export class StepFailed extends Error {
  constructor(step: string) {
    super(`step failed: ${step}`);
    this.name = 'StepFailed';
  }
}

/** Everything a scenario may do. Every response it receives passes the envelope-invariant checks first. */
export interface CaseContext {
  readonly caseId: string;
  readonly api: ApiVersion;
  readonly settings: ConformanceSettings;
  readonly timing: Timing;
  /** Where payload fields are read from (observed defaults, overridable). */
  readonly mapping: FieldMapping;
  /** What the target's gift card next / next_cursor mean (config paging.giftcardCursor); absent: the spec's definition. */
  readonly giftcardCursor?: GiftcardCursorMeaning;
  /** Catalog facts discovered from the target (SKUs, countries, numbers), shared by every case of a run. */
  fixtures(): Promise<Fixtures>;
  call(operationId: string, input: RequestInput, options?: CallOptions): Promise<Exchange>;
  /** Runs a check on an exchange; records its failure (if any) and returns true when it passed. */
  check(check: Check, exchange: Exchange): boolean;
  /** Records a failure the scenario found itself (comparisons across responses). */
  fail(failure: Omit<Failure, 'caseId' | 'severity'> & { severity?: Severity }): void;
  skip(reason: string): never;
  /**
   * Polls `<version>.transaction.status` until a final code or the deadline. `submittedAt` (epoch ms; the submission's
   * `response.timings.startedAt`) is required: a "not found" answer before the service-side timeout has passed since
   * submission is still Unknown, never a final failure (spec: a timed-out transaction is Unknown, not failed).
   */
  pollStatus(version: ApiVersion, correlationId: string, options: { submittedAt: number; deadlineMs?: number }): Promise<PollOutcome>;
  /** The wallet balance (payLoad number) or undefined after recording why it could not be read. */
  balance(version: ApiVersion): Promise<number | undefined>;
  /**
   * A fresh correlationId of the given length (default 36) and character class (default alphanumeric), unique within
   * the run; throws IdsExhausted when the run has sent every id of that shape.
   */
  correlationId(length?: number, chars?: IdClass): string;
  sleep(ms: number): Promise<void>;
  /** A line for the report (what the case did, e.g. the SKU it picked). */
  note(text: string): void;
  /** What a GEN case reached of its space (conformance/gen/property.ts); the run's own context keeps it for the report. */
  genCoverage?(coverage: GenCoverage): void;
  /**
   * A field of a successful charge's result, learned on the run's first charge when the mapping reads nothing there
   * (the run's ChargeLearning); absent when the run learns nothing (the field is then read through the mapping only).
   */
  resultValue?(request: Omit<ResultFieldRequest, 'probe'>): Promise<ResultFieldValue>;
}

interface CaseBase {
  /** Stable id: group prefix, no shifting index numbers (op ids, boundary values, trigger suffixes). */
  readonly id: string;
  readonly group: CaseGroup;
  readonly title: string;
  /** Section of spec/gateway-api.md the rule comes from. */
  readonly specSection: string;
  /** The rule, quoted from the spec. */
  readonly rule: string;
  readonly api: ApiVersion;
  /** Balance-sensitive: runs alone, after the concurrent cases. */
  readonly exclusive?: boolean;
  /** What the case relies on that the spec does not state (configurable; reported). */
  readonly assumed?: readonly string[];
}

/** A case that is one request with a declared expectation. */
export interface RequestCase extends CaseBase {
  readonly kind: 'request';
  readonly operationId: string;
  readonly credentials?: Credentials;
  /** Builds the request from discovered fixtures; may call `skip` when the target lacks what it needs. */
  readonly input: (fixtures: Fixtures, ctx: CaseContext) => RequestInput | Promise<RequestInput>;
  readonly expect: readonly Check[];
}

/** A case with several steps (polling, comparisons, balance before/after). */
export interface ScenarioCase extends CaseBase {
  readonly kind: 'scenario';
  readonly scenario: (ctx: CaseContext) => Promise<void>;
}

export type ConformanceCase = RequestCase | ScenarioCase;

export type CaseStatus = 'passed' | 'failed' | 'skipped';

/** A GEN case's reach: its generated inputs, the requests they sent, and which items of its space (keyword breaks, credential kinds, transitions) they covered. */
export interface GenCoverage {
  readonly inputs: number;
  readonly requests: number;
  readonly charging: number;
  readonly space: readonly string[];
  readonly covered: readonly string[];
}

export interface CaseResult {
  readonly id: string;
  readonly group: CaseGroup;
  readonly title: string;
  readonly api: ApiVersion;
  readonly specSection: string;
  readonly rule: string;
  readonly assumed: readonly string[];
  readonly exclusive: boolean;
  readonly status: CaseStatus;
  readonly skipReason?: string;
  /** Errors only decide the status; warnings are reported beside them. */
  readonly failures: readonly Failure[];
  readonly notes: readonly string[];
  readonly requests: number;
  /** GEN cases only. */
  readonly gen?: GenCoverage;
  readonly startedAt: number;
  readonly durationMs: number;
}

export interface RunResult {
  readonly startedAt: number;
  readonly durationMs: number;
  readonly cases: readonly CaseResult[];
  /** The wait between the phases for the concurrent phase's open transactions (absent when the runner did not run). */
  readonly drain?: DrainReport;
  /** The target went silent during the cases (api/faults.ts createSilenceWatch): the one line naming the phase. */
  readonly silence?: string;
}
