// One line of text for what came back (a response, a value): the words of conformance failures, drift's and migrate's
// notes. A leaf below all three, so none of them imports another room's checks to describe a response.
import type { GatewayResponse } from './envelope.ts';
import { printable } from './printable.ts';

const MAX_TEXT = 240;

export function clip(text: string, max = MAX_TEXT): string {
  const flat = text.replace(/\s+/g, ' ');
  return printable(flat.length <= max ? flat : `${flat.slice(0, max)}…`);
}

export function show(value: unknown): string {
  if (value === undefined) return 'absent';
  try {
    return clip(JSON.stringify(value) ?? String(value));
  } catch {
    return clip(String(value));
  }
}

/** How a `received` text of a client timeout begins (what `--under-load` reads as "no answer in time", never a rule). */
export const TIMED_OUT_RECEIVED = 'no response: client timed out';

/** One line describing what came back, for `received` texts. */
export function describeResponse(response: GatewayResponse): string {
  if (response.timedOut) return `${TIMED_OUT_RECEIVED} after ${Math.round(response.timings.totalMs)} ms`;
  if (response.transportError !== undefined) return `no response: ${response.transportError.code} ${response.transportError.message}`;
  const status = `HTTP ${response.httpStatus ?? '?'}`;
  if (response.envelope === undefined) {
    return `${status}, body not an envelope (${response.parseError ?? 'no body'})`;
  }
  const env = response.envelope;
  const kind = payloadKindOf(env.payLoad);
  return `${status}, responseCode '${printable(env.responseCode)}', responseMessage ${show(env.responseMessage)}, payLoad ${kind}${
    kind === 'array' ? `[${(env.payLoad as unknown[]).length}]` : kind === 'number' ? ` ${String(env.payLoad)}` : ''
  }`;
}

export function payloadKindOf(value: unknown): string {
  if (value === undefined) return 'absent';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
