// The one decision of whose an assumed path's 404 is: the harness's gap, not the gateway's failure. Conformance, both
// load engines and real k6 ask it (runtime-neutral), so a path the spec does not show never counts against a gateway.
import type { GatewayResponse } from './envelope.ts';
import { linksOf } from './inputs.ts';
import { OPERATIONS, type Operation } from './operations.ts';

/**
 * An operation whose path the harness assumed (`pathAssumed`: the spec shows none) answered HTTP 404 without an
 * envelope: the target has no such path, so the harness's path map needs the target's. A 404 on a path the spec shows,
 * or any answer with an envelope (the gateway's own refusal), stays the gateway's to answer for.
 */
export function assumedPathMissing(
  operation: Pick<Operation, 'pathAssumed'>,
  response: Pick<GatewayResponse, 'httpStatus' | 'envelope'>,
): boolean {
  return operation.pathAssumed && response.httpStatus === 404 && response.envelope === undefined;
}

/** What to set, said wherever the gap is reported: the config key of the operation's write path. */
export function assumedPathHint(operation: Pick<Operation, 'id' | 'path'>): string {
  return `assumed path ${operation.path} answered HTTP 404 without an envelope on this target; set writePaths.${operation.id}`;
}

/**
 * The operations that take an input from `operation`'s results (`{ from: <its purpose> }`, same version): with its path
 * missing they get nothing to read, so what they measure is unverified too (a port-in status without a port-in).
 */
export function linkedReadsOf(operation: Pick<Operation, 'purpose' | 'version'>): Operation[] {
  return OPERATIONS.filter((op) => op.version === operation.version && linksOf(op).some(({ link }) => link.from === operation.purpose));
}
