// The evidence discovery weighs for one mapping key: the records' own spelling of the default name, and the fields
// whose values match a fact the spec states. One rule turns the two into a finding (resolveKey).
import { ambiguous, confirmed, learned, unknown, type Finding } from './findings.ts';
import { leavesOf, normPath } from './records.ts';

/** The spelling of `defaultPath` most records use (spelling-blind), among the first 50. */
export function spellingIn(records: readonly unknown[], defaultPath: string): string | undefined {
  const wanted = normPath(defaultPath);
  const counts = new Map<string, number>();
  for (const record of records.slice(0, 50)) {
    const leaf = leavesOf(record).find((l) => normPath(l.path) === wanted);
    if (leaf !== undefined) counts.set(leaf.path, (counts.get(leaf.path) ?? 0) + 1);
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

export interface FactMatch {
  /** Fields whose values match the fact. */
  readonly candidates: readonly string[];
  /** The fact and where it was seen, e.g. "skus?skuId=193 returned one record". */
  readonly evidence: string;
  /** Among several candidates, the one a consistency rule prefers (e.g. the spelling the v2 SKU records use). */
  readonly preferred?: string;
}

const sameName = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

function byName(key: string, defaultPath: string, spelling: string, where: string): Finding {
  return sameName(spelling, defaultPath)
    ? confirmed(key, spelling, `${where} carry ${spelling} (the default's name)`)
    : learned(key, spelling, `${where} carry ${spelling}: the default ${defaultPath} spelled otherwise`);
}

/**
 * One key's finding. With a fact: the records' spelling when the fact agrees, else the one field the fact leaves, else
 * ambiguous (both readings said, neither picked). Without a fact: the records' spelling of the default, else unknown.
 */
export function resolveKey(key: string, defaultPath: string, spelling: string | undefined, where: string, fact?: FactMatch): Finding {
  if (fact === undefined || fact.candidates.length === 0) {
    if (spelling !== undefined) return byName(key, defaultPath, spelling, where);
    const note = fact === undefined ? '' : `; ${fact.evidence}, and no field matched`;
    return unknown(key, defaultPath, `no field of ${where} is ${defaultPath} under any spelling${note}`);
  }
  if (spelling !== undefined && fact.candidates.includes(spelling)) {
    const finding = byName(key, defaultPath, spelling, where);
    return { ...finding, evidence: `${finding.evidence}; ${fact.evidence}: ${spelling} matches` };
  }
  const only = fact.candidates.length === 1 ? fact.candidates[0] : fact.preferred;
  if (only !== undefined) {
    const as = sameName(only, defaultPath) ? confirmed : learned;
    const others =
      fact.candidates.length > 1
        ? ` (also ${fact.candidates.filter((c) => c !== only).join(', ')}; preferred as the spelling the v2 SKU records use)`
        : '';
    return as(key, only, `${fact.evidence}: ${only} matches${others}`);
  }
  return ambiguous(
    key,
    defaultPath,
    `${fact.evidence}: ${fact.candidates.length} fields match, the facts allow each reading; none picked`,
    fact.candidates,
  );
}
