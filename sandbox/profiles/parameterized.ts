// Profiles named with their parameters, made on demand: slow-op:<operationId>:<pct>% slows exactly one operation,
// fail-op:<operationId>:<pct>%[:<codeKey>] fails a share of one operation's answers with a business code (HTTP 200).
import { OPERATIONS } from '../../api/operations.ts';
import { DEFAULT_RESPONSE_CODES, type ResponseCodeKey } from '../error-codes.ts';
import type { SandboxProfile } from './types.ts';

export interface ParameterizedProfile {
  /** How the name is written, for usage and error lines. */
  readonly usage: string;
  /** The profile this name stands for; undefined when the name is not of this family; a reason when malformed. */
  readonly make: (name: string) => SandboxProfile | string | undefined;
}

/** "25%" or "25" → 0.25; undefined when not a percentage. */
function percent(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)%?$/.exec(text);
  return m === null ? undefined : Number(m[1]) / 100;
}

function knownOperation(id: string): string | undefined {
  return OPERATIONS.some((op) => op.id === id) ? undefined : `unknown operation '${id}' (e.g. ${OPERATIONS[0]?.id ?? ''})`;
}

const slowOp: ParameterizedProfile = {
  usage: 'slow-op:<operationId>:<pct>%',
  make(name) {
    const m = /^slow-op:([^:]+):([^:]+)$/.exec(name);
    if (name.startsWith('slow-op:') && m === null) return `write it ${this.usage}, e.g. slow-op:v2.catalog.skus:25%`;
    if (m === null) return undefined;
    const [, operation = '', pct = ''] = m;
    const fraction = percent(pct);
    if (fraction === undefined) return `'${pct}' is not a percentage (e.g. 25%)`;
    const unknown = knownOperation(operation);
    if (unknown !== undefined) return unknown;
    return {
      name,
      description: `Faithful, but ${operation} takes ${(fraction * 100).toFixed(1)} % longer: each of its responses is held that fraction of the time the sandbox spends on it (response latency + handling). Every other operation unchanged.`,
      behaviour: { operationSlowdown: { [operation]: fraction } },
    };
  },
};

const failOp: ParameterizedProfile = {
  usage: 'fail-op:<operationId>:<pct>%[:<codeKey>]',
  make(name) {
    const m = /^fail-op:([^:]+):([^:]+)(?::([A-Za-z]+))?$/.exec(name);
    if (name.startsWith('fail-op:') && m === null) return `write it ${this.usage}, e.g. fail-op:v2.catalog.skus:2%`;
    if (m === null) return undefined;
    const [, operation = '', pct = '', keyText] = m;
    const share = percent(pct);
    if (share === undefined || share > 1) return `'${pct}' is not a percentage 0..100 (e.g. 2%)`;
    const unknown = knownOperation(operation);
    if (unknown !== undefined) return unknown;
    const key = (keyText ?? 'internalError') as ResponseCodeKey;
    if (!(key in DEFAULT_RESPONSE_CODES) || key === 'success' || key === 'inProgress') {
      return `'${key}' is not a failure code key (e.g. internalError, outOfStock)`;
    }
    return {
      name,
      description: `Faithful, but exactly ${(share * 100).toFixed(1)} % of ${operation}'s requests (evenly spread) are answered HTTP 200 with business code ${DEFAULT_RESPONSE_CODES[key].code} (${key}) before any processing.`,
      behaviour: { operationFailures: { [operation]: { share, key } } },
    };
  },
};

export const PARAMETERIZED_PROFILES: readonly ParameterizedProfile[] = [slowOp, failOp];
