// The GEN properties: every write's request schema over its whole input space (gen/writes.ts: valid → accepted; one stated
// keyword broken by any distance → refused, nothing charged), filters for every catalog value, cursor walks for every pageSize, money sequences.
import fc from 'fast-check';
import { readNumber } from '../../api/field-mapping.ts';
import { getOperation } from '../../api/operations.ts';
import { notSuccessful, successful } from '../checks.ts';
import { FILTERS, FILTER_ROWS, filterCaseId, judgeFilteredValue, valueAt, type FilterSpec } from '../cases/filters.ts';
import { SECTION, records } from '../cases/common.ts';
import { cursorAfter } from '../cases/page.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import { moneyCase } from './money.ts';
import type { GenOptions } from './options.ts';
import { genCase } from './property.ts';
import { writeGenCases } from './writes.ts';
import { authGenCases } from './auth.ts';

const LANGUAGES = ['en', 'ar'] as const;

// ---------------------------------------------------------------------------------------------------------------
// Paging

const GIFTCARDS = 'v2.catalog.skus-giftcards';
const PAGING_RULE =
  'cursor selects the SKUs starting from that skuId value, limited by pageSize; pageSize must be at least 1 and at most 100. The gift card SKU list (v2) adds two envelope-level integer fields: next and next_cursor.';
const PAGING_SECTION = `${SECTION.v2Reads} (Gift card SKU list paging rules); ${SECTION.limits}`;
/**
 * Pages one generated walk reads at most: a small pageSize over a long list would otherwise spend the budget on one
 * input. A walk cut there is judged on the SKUs it reached (cursor: "the SKUs starting from that skuId value", so the
 * pages so far hold every SKU up to the highest skuId seen).
 */
const WALK_PAGES = 12;
/** The reference walk (pageSize 100) reads the whole list. */
const MAX_PAGES = 1_000;

/** Walks the list with `pageSize`, each next page at the spec's cursor after the last (conformance/cases/page.ts `cursorAfter`). */
async function walk(
  probe: CaseContext,
  pageSize: number,
  acceptLanguage?: string,
  maxPages = MAX_PAGES,
): Promise<{ ids: number[]; complete: boolean; cut: boolean; last?: Exchange }> {
  const ids: number[] = [];
  let cursor: number | undefined;
  let last: Exchange | undefined;
  for (let page = 0; page < maxPages; page++) {
    last = await probe.call(GIFTCARDS, {
      query: { pageSize, ...(cursor === undefined ? {} : { cursor }) },
      ...(acceptLanguage === undefined ? {} : { acceptLanguage }),
    });
    if (!probe.check(successful, last)) return { ids, complete: false, cut: false, last };
    const pageIds = records(last)
      .map((r) => readNumber(r, probe.mapping.giftcardSku.skuId))
      .filter((id): id is number => id !== undefined);
    ids.push(...pageIds);
    const next = cursorAfter(pageIds);
    if (pageIds.length < pageSize || next === undefined || (cursor !== undefined && next <= cursor))
      return { ids, complete: true, cut: false, last };
    cursor = next;
  }
  return { ids, complete: maxPages < MAX_PAGES, cut: true, last };
}

function cursorWalks(options: GenOptions): ConformanceCase {
  let reference: Promise<number[]> | undefined;
  return genCase<{ pageSize: number; lang: (typeof LANGUAGES)[number] }>(options, {
    id: 'GEN-PAGE-WALK',
    title: 'a cursor walk of the gift card list yields every SKU exactly once for every pageSize 1..100 (en/ar)',
    specSection: PAGING_SECTION,
    rule: PAGING_RULE,
    api: 'v2',
    assumed: ['the walk with pageSize 100 is the reference listing'],
    arbitrary() {
      reference = undefined;
      return fc.record({ pageSize: fc.integer({ min: 1, max: 100 }), lang: fc.constantFrom(...LANGUAGES) });
    },
    show: ({ pageSize, lang }) => `pageSize ${pageSize}, Accept-Language ${lang}`,
    async run(probe, { pageSize, lang }) {
      reference ??= walk(probe, 100).then((w) => w.ids);
      const all = await reference;
      const got = await walk(probe, pageSize, lang, WALK_PAGES);
      if (!got.complete) return;
      const seen = new Map<number, number>();
      for (const id of got.ids) seen.set(id, (seen.get(id) ?? 0) + 1);
      const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
      const reached = got.cut ? Math.max(...got.ids) : Infinity;
      const missing = all.filter((id) => id <= reached && !seen.has(id));
      if (twice.length === 0 && missing.length === 0) return;
      probe.fail({
        check: 'walk-every-sku-once',
        operation: GIFTCARDS,
        message: `walking with pageSize ${pageSize} ${missing.length > 0 ? `missed ${missing.length} SKU(s)` : ''}${missing.length > 0 && twice.length > 0 ? ' and ' : ''}${twice.length > 0 ? `returned ${twice.length} SKU(s) twice` : ''}`,
        expected: `the ${got.cut ? `SKUs up to skuId ${reached} (the walk's first ${WALK_PAGES} pages) of` : `${all.length} SKUs of`} the pageSize 100 walk, each once`,
        received: `${got.ids.length} SKUs${missing.length > 0 ? `; missing skuIds ${missing.slice(0, 5).join(', ')}` : ''}${twice.length > 0 ? `; twice ${twice.slice(0, 5).join(', ')}` : ''}`,
        ...(got.last === undefined ? {} : { request: got.last.request }),
      });
    },
  });
}

function pageSizesOutside(options: GenOptions): ConformanceCase {
  return genCase<number>(options, {
    id: 'GEN-PAGE-SIZE-OUTSIDE',
    title: 'a pageSize ≤ 0 or > 100 (any int32) is refused',
    specSection: PAGING_SECTION,
    rule: 'pageSize must be at least 1 and at most 100',
    api: 'v2',
    arbitrary: () => fc.oneof(fc.integer({ min: -(2 ** 31), max: 0 }), fc.integer({ min: 101, max: 2 ** 31 - 1 })),
    show: (pageSize) => `pageSize ${pageSize}`,
    async run(probe, pageSize) {
      probe.check(notSuccessful, await probe.call(GIFTCARDS, { query: { pageSize } }));
    },
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Filters: every value of the catalog

type FieldJudge = Extract<FilterSpec['judge'], { by: 'field' }>;

function filterValues(spec: FilterSpec, judge: FieldJudge, options: GenOptions): ConformanceCase {
  const op = getOperation(spec.operationId);
  let listing: Record<string, unknown>[] = [];
  return genCase<{ value: number | string; lang: (typeof LANGUAGES)[number] }>(options, {
    id: `GEN-${filterCaseId(spec)}`,
    title: `${spec.operationId}?${spec.param}=<any value of the catalog> returns only${spec.paged === true ? '' : ' (and every)'} matching record(s), en/ar`,
    specSection: op.specSection,
    rule: FILTER_ROWS[spec.operationId] ?? spec.operationId,
    api: op.version,
    assumed: [`the record field of the filtered value: fieldMapping.${judge.label}`],
    async arbitrary(ctx) {
      const path = judge.path(ctx.mapping);
      const all = await ctx.call(spec.operationId, spec.paged === true ? { query: { pageSize: 100 } } : {});
      if (!ctx.check(successful, all)) ctx.skip(`the unfiltered ${spec.operationId} listing could not be read`);
      listing = records(all);
      const values = [...new Set(listing.map((r) => valueAt(r, path, judge.kind)).filter((v): v is number | string => v !== undefined))];
      if (values.length < 2) ctx.skip(`fewer than two distinct ${judge.label} values in ${spec.operationId}: filtering cannot be shown`);
      return fc.record({ value: fc.constantFrom(...values), lang: fc.constantFrom(...LANGUAGES) });
    },
    show: ({ value, lang }) => `${spec.param}=${String(value)}, Accept-Language ${lang}`,
    async run(probe, { value, lang }) {
      const path = judge.path(probe.mapping);
      const filtered = await probe.call(spec.operationId, { query: { [spec.param]: value }, acceptLanguage: lang });
      if (!probe.check(successful, filtered)) return;
      const expectedCount = spec.paged === true ? undefined : listing.filter((r) => valueAt(r, path, judge.kind) === value).length;
      const verdict = judgeFilteredValue(records(filtered), path, judge.kind, `${spec.param}=${String(value)}`, value, expectedCount);
      if (verdict === undefined || verdict === 'unreadable') return;
      probe.fail({ ...verdict, operation: spec.operationId, request: filtered.request });
    },
  });
}

/** Every GEN case with these options (seed, budget, replay): the writes' from their schemas, authentication, paging, filters, money. */
export function genCases(options: GenOptions): ConformanceCase[] {
  const filters = FILTERS.flatMap((spec) => (spec.judge.by === 'field' ? [filterValues(spec, spec.judge, options)] : []));
  const writes = writeGenCases(options);
  return [
    ...writes.concurrent,
    ...authGenCases(options),
    cursorWalks(options),
    pageSizesOutside(options),
    ...filters,
    ...writes.exclusive,
    moneyCase(options, 'v1'),
    moneyCase(options, 'v2'),
  ];
}
