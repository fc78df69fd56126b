// FILTERS covers every query parameter of every read operation (or says where it is checked instead), and the
// judgement of a filtered listing fails each way a filter can be broken.
import { describe, expect, test } from 'vitest';
import { FILTERS, NOT_FILTERS, filterCaseId, judgeFiltered, readQueryParams } from './filters.ts';

describe('FILTERS table', () => {
  test('every query parameter of every read operation is a FILTERS case or checked elsewhere (with where)', () => {
    const covered = [...FILTERS.map((f) => `${f.operationId}?${f.param}`), ...Object.keys(NOT_FILTERS)].sort();
    expect(covered).toEqual(readQueryParams().sort());
  });

  test('stable ids, one per filter', () => {
    const ids = FILTERS.map(filterCaseId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain('FILTERS-V1-SKUS-PRODUCTID');
    expect(ids).toContain('FILTERS-V2-GIFTCARDS-COUNTRYCODE');
  });
});

describe('judgeFiltered', () => {
  const rec = (code: string | undefined) => (code === undefined ? {} : { countryCode: code });
  const matches = (r: Record<string, unknown>) => (r.countryCode === undefined ? undefined : r.countryCode === 'JM');
  const show = (r: Record<string, unknown>) => String(r.countryCode);

  test('all matching and complete: holds', () => {
    expect(judgeFiltered([rec('JM'), rec('JM')], matches, show, 'countryCode=JM', 2)).toBeUndefined();
  });
  test('an empty answer although the catalog has such records', () => {
    expect(judgeFiltered([], matches, show, 'countryCode=JM', 2)).toMatchObject({ check: 'filter-finds-record' });
  });
  test('records of another value: the filter is ignored', () => {
    expect(judgeFiltered([rec('JM'), rec('IN')], matches, show, 'countryCode=JM')).toMatchObject({ check: 'filter-only-matching', received: 'IN' });
  });
  test('fewer records than the unfiltered listing holds: the filter drops some', () => {
    expect(judgeFiltered([rec('JM')], matches, show, 'countryCode=JM', 3)).toMatchObject({ check: 'filter-complete' });
  });
  test('records without the field cannot be judged (a skip, never a failure)', () => {
    expect(judgeFiltered([rec(undefined)], matches, show, 'countryCode=JM')).toBe('unreadable');
    expect(judgeFiltered([rec(undefined), rec('JM')], matches, show, 'countryCode=JM')).toBeUndefined();
  });
});
