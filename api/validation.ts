// Wire validation for request bodies and response envelopes, with human-readable issues naming the field.
// Runtime-neutral (Node, sandbox and k6 bundles): it only calls the pre-compiled standalone validators, never ajv itself.
import type { ErrorObject } from 'ajv';
import type { Operation, PayloadKind, RequestBodyName } from './operations.ts';
import { REQUEST_VALIDATORS, type RequestBodyTypes } from '../schemas/generated/request-bodies.ts';
import {
  validateEnvelope as validateStandardEnvelope,
  validateGiftcardListEnvelope,
  validatePayloadArray,
  validatePayloadNumber,
  validatePayloadObject,
  type SchemaValidator,
} from '../schemas/generated/validators.js';

// Generated from the schema files (scripts/gen.ts): one entry per schemas/<name>-request.schema.json.
export type { RequestBodyTypes } from '../schemas/generated/request-bodies.ts';

export interface ValidationIssue {
  /** JSON pointer of the offending value, e.g. '/correlationId' (for a missing field, the field's would-be pointer). */
  readonly path: string;
  /** One human-readable sentence naming the field, e.g. 'correlationId must be at most 50 characters'. */
  readonly message: string;
  /** The JSON Schema keyword that failed (required, maxLength, pattern, type, ...). */
  readonly keyword: string;
}

export type ValidationResult = { valid: true } | { valid: false; errors: ValidationIssue[] };

const PAYLOAD_VALIDATORS: { readonly [K in PayloadKind]: SchemaValidator<unknown> } = {
  number: validatePayloadNumber,
  object: validatePayloadObject,
  array: validatePayloadArray,
};

// A regex is not a message: each schema pattern gets the phrase the spec uses for its rule.
const PATTERN_PHRASES: Readonly<Record<string, string>> = {
  '^(|[0-9]{4,6})$': 'must be empty or 4 to 6 digits',
  '^[A-Z]*$': 'must be upper case',
};

// Only the envelope schemas branch (on responseCode '000'); an issue from a branch says which case it is in.
const BRANCH_CONDITIONS: Readonly<Record<string, string>> = {
  then: "when responseCode is '000'",
  else: "when responseCode is not '000'",
};

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const TYPE_NOUNS: Readonly<Record<string, string>> = {
  integer: 'an integer',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function pointerTokens(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** 'additionalInfos/0/name' -> 'additionalInfos[0].name'; the root gets the caller's subject ('request body'). */
function fieldName(tokens: readonly string[], subject: string): string {
  if (tokens.length === 0) return subject;
  let name = '';
  for (const token of tokens) {
    if (/^\d+$/.test(token)) name += `[${token}]`;
    else name += name === '' ? token : `.${token}`;
  }
  return name;
}

function listTypes(type: unknown): string {
  const types = Array.isArray(type) ? type.map(String) : String(type).split(',');
  const nouns = types.map((t) => TYPE_NOUNS[t] ?? t);
  if (nouns.length <= 1) return nouns.join('');
  return `${nouns.slice(0, -1).join(', ')} or ${nouns[nouns.length - 1]}`;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

function phrase(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type':
      return `must be ${listTypes(params.type)}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${plural(Number(params.limit), 'character')}`;
    case 'maxLength':
      return `must be at most ${plural(Number(params.limit), 'character')}`;
    case 'minimum':
    case 'maximum': {
      const limit = Number(params.limit);
      const bound = error.keyword === 'minimum' ? 'at least' : 'at most';
      const int32 = limit === INT32_MIN || limit === INT32_MAX ? ' (int32 range)' : '';
      return `must be ${bound} ${limit}${int32}`;
    }
    case 'pattern': {
      const pattern = String(params.pattern);
      return PATTERN_PHRASES[pattern] ?? `must match the pattern ${pattern}`;
    }
    case 'const':
      return `must be ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message ?? `fails the ${error.keyword} rule`;
  }
}

function branchCondition(schemaPath: string): string | undefined {
  const match = /(?:^#|\.json)\/(then|else)\//.exec(schemaPath);
  return match?.[1] === undefined ? undefined : BRANCH_CONDITIONS[match[1]];
}

/** ajv errors -> issues. `basePath` prefixes every path when a sub-value (payLoad) was validated on its own. */
function toIssues(errors: readonly ErrorObject[] | null | undefined, subject: string, basePath = ''): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Map<string, number>();
  for (const error of errors ?? []) {
    // An `if` error only says "must match then/else"; the branch's own errors carry the detail.
    if (error.keyword === 'if') continue;
    const tokens = pointerTokens(basePath + error.instancePath);
    if (error.keyword === 'required') tokens.push(String((error.params as { missingProperty?: unknown }).missingProperty));
    const condition = branchCondition(error.schemaPath);
    const message = `${fieldName(tokens, subject)} ${phrase(error)}${condition === undefined ? '' : ` ${condition}`}`;
    const path = tokens.map((token) => `/${escapeToken(token)}`).join('');
    // A value has one type, so one type complaint per path is enough; the branch one ('... when responseCode is
    // '000'') is the more precise and wins over the unconditional one.
    const key = error.keyword === 'type' ? `${path}\u0000type` : `${path}\u0000${error.keyword}\u0000${message}`;
    const earlier = seen.get(key);
    if (earlier === undefined) {
      seen.set(key, issues.length);
      issues.push({ path, message, keyword: error.keyword });
    } else if (condition !== undefined) {
      issues[earlier] = { path, message, keyword: error.keyword };
    }
  }
  return issues;
}

const NO_ISSUES: ValidationIssue[] = Object.freeze([]) as unknown as ValidationIssue[];

/**
 * Runs one compiled validator and names every problem (the one ajv-errors-to-issues path of the project).
 * `basePath` is the pointer of `value` inside the document the issues should point into ('/payLoad').
 */
export function issuesOf<T>(validator: SchemaValidator<T>, value: unknown, subject: string, basePath = ''): ValidationIssue[] {
  // The common case allocates nothing (this runs on every response inside k6): callers never mutate the result.
  if (validator(value)) return NO_ISSUES;
  const issues = toIssues(validator.errors, subject, basePath);
  // A failed check always yields at least one issue, even if every ajv error was a filtered summary.
  return issues.length > 0 ? issues : [{ path: basePath, message: `${subject} is invalid`, keyword: 'schema' }];
}

function result(issues: ValidationIssue[]): ValidationResult {
  return issues.length === 0 ? { valid: true } : { valid: false, errors: issues };
}

/** Checks a write operation's JSON body against its request schema (every rule the spec states for it). */
export function validateRequestBody(name: RequestBodyName, body: unknown): ValidationResult {
  const validator = REQUEST_VALIDATORS[name] as SchemaValidator<unknown> | undefined;
  if (validator === undefined) {
    return result([{ path: '', message: `unknown request body '${String(name)}'`, keyword: 'schema' }]);
  }
  return result(issuesOf(validator, body, 'request body'));
}

/** True when the body is valid for that request schema; narrows it to the generated type. */
export function isValidRequestBody<N extends RequestBodyName>(name: N, body: unknown): body is RequestBodyTypes[N] {
  return validateRequestBody(name, body).valid;
}

/**
 * Checks a response envelope: its shape (standard, or gift card list with next/next_cursor), the invariants
 * ('000' => responseMessage null; otherwise payLoad null) and, on '000', that payLoad has the operation's kind.
 */
export function validateEnvelope(operation: Pick<Operation, 'id' | 'envelope' | 'payloadKind'>, body: unknown): ValidationResult {
  const validator: SchemaValidator<unknown> =
    operation.envelope === 'giftcard-list' ? validateGiftcardListEnvelope : validateStandardEnvelope;
  let issues = issuesOf(validator, body, 'envelope');
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    // The kind check adds nothing once the envelope schema has already rejected payLoad's type.
    const payLoadRejected = issues.some((issue) => issue.path === '/payLoad');
    if (record.responseCode === '000' && 'payLoad' in record && !payLoadRejected) {
      const kindIssues = issuesOf(PAYLOAD_VALIDATORS[operation.payloadKind], record.payLoad, 'payLoad', '/payLoad');
      if (kindIssues.length > 0) {
        issues = [
          ...issues,
          ...kindIssues.map((issue) => ({
            ...issue,
            message: `${issue.message} (payload kind of ${operation.id} is ${operation.payloadKind})`,
          })),
        ];
      }
    }
  }
  return result(issues);
}

/** Issues as one line, for logs, HTTP error messages and report cells. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => issue.message.replace(/\s+/g, ' ').trim()).join('; ');
}
