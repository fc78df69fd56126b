// What discovery says about each key it tried to learn: the value, how sure it is, and the evidence (which record,
// which value, which probe). The config is built from these; the printed report lists every one of them.

export type FindingStatus = 'learned' | 'confirmed-default' | 'ambiguous' | 'unknown';

export interface Finding {
  /** Where the value goes: `fieldMapping.v2Sku.skuId`, `writePaths.v2.transaction.pin`, `settings.loanNumbers`, or a note. */
  readonly key: string;
  readonly status: FindingStatus;
  /** The learned value (learned, confirmed-default); for unknown and ambiguous, what stays in effect. */
  readonly value?: string | readonly string[];
  readonly evidence: string;
  /** The readings the facts allow (ambiguous), or the spellings seen (unknown). */
  readonly candidates?: readonly string[];
}

export const learned = (key: string, value: string, evidence: string): Finding => ({ key, status: 'learned', value, evidence });
export const confirmed = (key: string, value: string, evidence: string): Finding => ({ key, status: 'confirmed-default', value, evidence });
export const unknown = (key: string, value: string | undefined, evidence: string, candidates?: readonly string[]): Finding => ({
  key,
  status: 'unknown',
  ...(value === undefined ? {} : { value }),
  evidence,
  ...(candidates === undefined || candidates.length === 0 ? {} : { candidates }),
});
export const ambiguous = (key: string, value: string | undefined, evidence: string, candidates: readonly string[]): Finding => ({
  key,
  status: 'ambiguous',
  ...(value === undefined ? {} : { value }),
  evidence,
  candidates,
});
