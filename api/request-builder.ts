// Builds the HTTP request (method, URL, headers, body) for one catalog operation, with no I/O.
// Runtime-neutral, so the Node client, the engine and the k6 bundles send byte-identical requests.
import { HarnessError } from './errors.ts';
import { findOperation, type Operation } from './operations.ts';
import { base64EncodeUtf8 } from './base64.ts';

export interface RequestInput {
  /** Path parameters by the spec's own spelling (e.g. `Iccid`, `correlationId`). */
  readonly path?: Readonly<Record<string, string | number>>;
  /** Query parameters; `undefined` values are skipped. Only what is given is sent: spec defaults are documentation. */
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  /** Extra headers; they cannot replace Authorization (the target's credentials always win). */
  readonly headers?: Readonly<Record<string, string>>;
  /** JSON body; serialized with JSON.stringify. A string is sent as-is (lets tests send malformed bodies). */
  readonly body?: unknown;
  readonly acceptLanguage?: string;
  /** Send no Authorization header at all (conformance checks the gateway's answer to a missing credential). */
  readonly omitAuthorization?: boolean;
  /** Send this Authorization value instead of the target's Basic credentials (conformance's authentication space). */
  readonly authorization?: string;
}

/** What the builder needs of a target: where it is and how to authenticate. */
export interface TargetConnection {
  readonly baseUrl: string;
  readonly user: string;
  readonly password: string;
  /** Overrides of assumed write paths, by operation id (only operations whose path the spec does not show). */
  readonly writePaths?: Readonly<Record<string, string>>;
}

export interface BuiltRequest {
  readonly operationId: string;
  readonly method: Operation['method'];
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
}

function toOperation(operation: Operation | string): Operation {
  if (typeof operation !== 'string') return operation;
  const op = findOperation(operation);
  if (op === undefined) throw new HarnessError('GH_ERR_UNKNOWN_OPERATION', `unknown operation id '${operation}'`);
  return op;
}

/**
 * The path template to use for an operation: the catalog's, or a per-target override. Only paths the spec
 * does not show ("assumed") may be overridden; a documented path is part of the contract under test.
 */
export function resolveOperationPath(operation: Operation | string, writePaths?: Readonly<Record<string, string>>): string {
  const op = toOperation(operation);
  const override = writePaths?.[op.id];
  if (override === undefined) return op.path;
  if (!op.pathAssumed) {
    throw new HarnessError(
      'GH_ERR_CONFIG',
      `writePaths.${op.id}: the spec shows this path (${op.path}); only assumed write paths can be overridden`,
    );
  }
  if (!override.startsWith('/')) {
    throw new HarnessError('GH_ERR_CONFIG', `writePaths.${op.id} must start with '/'`);
  }
  return override;
}

/** `Basic base64(user:password)`; exported so redaction can name the exact token to hide. */
export function basicAuthorization(user: string, password: string): string {
  return `Basic ${base64EncodeUtf8(`${user}:${password}`)}`;
}

function fillPath(op: Operation, template: string, params: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{([^{}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') {
      throw new HarnessError('GH_ERR_PARAM', `${op.id}: missing required path parameter '${name}'`);
    }
    return encodeURIComponent(String(value));
  });
}

function queryString(query: Readonly<Record<string, string | number | undefined>>): string {
  const parts: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

export function buildRequest(operation: Operation | string, input: RequestInput, target: TargetConnection): BuiltRequest {
  const op = toOperation(operation);
  const template = resolveOperationPath(op, target.writePaths);
  const base = target.baseUrl.replace(/\/+$/, '');
  const url = `${base}${fillPath(op, template, input.path ?? {})}${queryString(input.query ?? {})}`;

  const headers: Record<string, string> = { Accept: 'application/json' };
  for (const [name, value] of Object.entries(input.headers ?? {})) {
    if (name.toLowerCase() === 'authorization') continue;
    headers[name] = value;
  }
  if (input.acceptLanguage !== undefined) headers['Accept-Language'] = input.acceptLanguage;
  if (input.omitAuthorization !== true) headers.Authorization = input.authorization ?? basicAuthorization(target.user, target.password);

  if (input.body === undefined) return { operationId: op.id, method: op.method, url, headers };
  const body = typeof input.body === 'string' ? input.body : JSON.stringify(input.body);
  if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
  return { operationId: op.id, method: op.method, url, headers, body };
}
