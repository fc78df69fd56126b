// The whole conformance plan (every case table, in group order) and its selection by API version and id pattern.
// The vitest suite, the command and the planted-bug meta-test all select from here, so they run the same cases.
import { HarnessError } from '../api/errors.ts';
import { AMOUNT_CASES } from './cases/amount.ts';
import { AUTH_CASES } from './cases/auth.ts';
import { CAT_CASES } from './cases/cat.ts';
import { CATEGORY_CASES } from './cases/category.ts';
import { CUR_CASES } from './cases/cur.ts';
import { ENV_CASES } from './cases/env.ts';
import { FILTER_CASES } from './cases/filters.ts';
import { BAL_CASES, GIFT_CASES } from './cases/gift.ts';
import { LEN_CASES } from './cases/len.ts';
import { LOAN_CASES } from './cases/loan.ts';
import { LOC_CASES } from './cases/loc.ts';
import { FMT_CASES, LOOKUP_CASES } from './cases/lookup.ts';
import { PAGE_CASES } from './cases/page.ts';
import { POLL_CASES } from './cases/poll.ts';
import { REQ_CASES } from './cases/req.ts';
import { STATUS_CASES } from './cases/status.ts';
import { TRG_CASES } from './cases/trg.ts';
import { CASE_GROUPS, type ConformanceCase } from './types.ts';

export const ALL_CASES: readonly ConformanceCase[] = [
  ...AUTH_CASES,
  ...ENV_CASES,
  ...TRG_CASES,
  ...PAGE_CASES,
  ...LEN_CASES,
  ...CUR_CASES,
  ...CAT_CASES,
  ...LOOKUP_CASES,
  ...FMT_CASES,
  ...LOC_CASES,
  ...POLL_CASES,
  ...GIFT_CASES,
  ...BAL_CASES,
  ...LOAN_CASES,
  ...REQ_CASES,
  ...CATEGORY_CASES,
  ...AMOUNT_CASES,
  ...FILTER_CASES,
  ...STATUS_CASES,
].sort((a, b) => CASE_GROUPS.indexOf(a.group) - CASE_GROUPS.indexOf(b.group));

export type ApiSelection = 'v1' | 'v2' | 'both';

export interface Selection {
  readonly api?: ApiSelection;
  /** Regular expression (case-insensitive) matched against `<id> <title>`. */
  readonly grep?: string;
}

export function compileGrep(pattern: string | undefined): RegExp | undefined {
  if (pattern === undefined || pattern === '') return undefined;
  try {
    return new RegExp(pattern, 'i');
  } catch (error) {
    throw new HarnessError(
      'GH_ERR_USAGE',
      `--grep: not a valid regular expression: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

export function selectCases(selection: Selection = {}, cases: readonly ConformanceCase[] = ALL_CASES): ConformanceCase[] {
  const api = selection.api ?? 'both';
  const grep = compileGrep(selection.grep);
  return cases.filter((c) => (api === 'both' || c.api === api) && (grep === undefined || grep.test(`${c.id} ${c.title}`)));
}
