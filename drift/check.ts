// The drift check: every catalog operation's fresh observations against its baseline entry, classified by the spec's
// Versioning rules, plus what could not be checked and why. The verdict: breaking → fail; nothing checked → incomplete.
import { OPERATIONS } from '../api/operations.ts';
import type { Baseline } from './baseline-files.ts';
import { compareHeaders, compareSchema, CHANGES, type DriftFinding } from './compare.ts';
import { accumulate } from './infer-schema.ts';
import type { OperationObservation } from './observe.ts';

export interface NotChecked {
  readonly operationId: string;
  readonly reason: string;
  /** True when the baseline has a shape for it: an operation the check should have verified (a skip). */
  readonly skipped: boolean;
}

export interface DriftCheckResult {
  readonly baselineDir: string;
  readonly findings: readonly DriftFinding[];
  /** Operations compared with a baseline shape (or found added). */
  readonly checked: readonly string[];
  readonly notChecked: readonly NotChecked[];
}

function operationFindings(operationId: string, obs: OperationObservation, baseline: Baseline): DriftFinding[] | NotChecked {
  const indexed = baseline.index.operations.find((o) => o.operationId === operationId);
  const entry = baseline.entries.get(operationId);
  const added = (detail: string): DriftFinding[] => [
    { operationId, path: '$', kind: CHANGES['operation-added'].kind, change: 'operation-added', detail },
  ];
  if (indexed === undefined || (indexed.state === 'unavailable' && obs.state === 'observed')) {
    if (obs.state === 'observed') {
      return added(
        indexed === undefined
          ? 'not in the baseline; answers successfully now'
          : `unavailable when the baseline was recorded (${indexed.reason ?? ''}); answers successfully now`,
      );
    }
    return {
      operationId,
      reason: `not in the baseline, and ${obs.state === 'failed' ? `fails now: ${obs.reason ?? ''}` : `not called now: ${obs.reason ?? ''}`}`,
      skipped: false,
    };
  }
  if (indexed.state !== 'observed' || entry === undefined) {
    return { operationId, reason: `no shape in the baseline (${indexed.reason ?? indexed.state})`, skipped: false };
  }
  if (obs.state === 'not-run') return { operationId, reason: `not called now: ${obs.reason ?? ''}`, skipped: true };
  if (obs.state === 'failed') {
    const change = obs.gone === true ? 'operation-gone' : 'operation-failing';
    const detail =
      obs.gone === true
        ? `answered successfully in the baseline; now HTTP 404/405 (${obs.reason ?? ''})`
        : `answered successfully in the baseline; now ${obs.calls} of ${obs.calls} calls fail (first: ${obs.reason ?? ''})`;
    return [{ operationId, path: '$', kind: CHANGES[change].kind, change, detail }];
  }
  return [...compareSchema(entry, accumulate(obs.samples)), ...compareHeaders(entry, obs.headerSets)];
}

/**
 * Compares the observations of every catalog operation with the baseline. `selected`: the operations this run set out
 * to observe (e.g. one API version); the others are listed as not checked without counting as skips.
 */
export function compareWithBaseline(
  baseline: Baseline,
  observations: ReadonlyMap<string, OperationObservation>,
  options: { readonly selected?: ReadonlySet<string> } = {},
): DriftCheckResult {
  const findings: DriftFinding[] = [];
  const checked: string[] = [];
  const notChecked: NotChecked[] = [];
  for (const op of OPERATIONS) {
    const obs = observations.get(op.id);
    if (obs === undefined) {
      const deselected = options.selected !== undefined && !options.selected.has(op.id);
      const inBaseline = baseline.entries.has(op.id);
      notChecked.push({
        operationId: op.id,
        reason: deselected ? 'not selected in this run (another API version)' : 'not selected in this run',
        skipped: inBaseline && !deselected,
      });
      continue;
    }
    const result = operationFindings(op.id, obs, baseline);
    if (Array.isArray(result)) {
      findings.push(...result);
      checked.push(op.id);
    } else {
      notChecked.push(result);
    }
  }
  for (const entry of baseline.index.operations) {
    if (!OPERATIONS.some((op) => op.id === entry.operationId)) {
      notChecked.push({
        operationId: entry.operationId,
        reason: "not in this harness's catalog (a baseline from another version?)",
        skipped: false,
      });
    }
  }
  return { baselineDir: baseline.dir, findings, checked, notChecked };
}
