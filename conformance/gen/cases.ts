// The GEN properties: the request rules over their whole input space (valid → not refused, envelope kept; invalid by any
// distance → refused, nothing charged), filters for every catalog value, cursor walks for every pageSize, money sequences.
import fc from 'fast-check';
import { readField, readNumber, readString } from '../../api/field-mapping.ts';
import { getOperation, type RequestBodyName } from '../../api/operations.ts';
import { notSuccessful, successful } from '../checks.ts';
import { FILTERS, FILTER_ROWS, filterCaseId, judgeFiltered, type FilterSpec } from '../cases/filters.ts';
import { expectAllRefused, expectStatusNotSuccessful } from '../cases/len.ts';
import { SECTION, records, submitAndFinish } from '../cases/common.ts';
import { cursorAfter } from '../cases/page.ts';
import type { Fixtures } from '../../target/fixtures.ts';
import { bodyFacts } from '../request-rules.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import {
  amountBounds,
  amountOutside,
  applyBreak,
  breaks,
  quotedRows,
  showWrite,
  uniqueId,
  usableSkus,
  validWrite,
  type AmountBounds,
  type Break,
  type BreakKind,
  type ValidWrite,
} from './arbitraries.ts';
import { moneyCase } from './money.ts';
import type { GenOptions } from './options.ts';
import { genCase } from './property.ts';

const TOPUP: RequestBodyName = 'topup';
const TOPUP_OP = getOperation('v2.transaction.topup');
const STATUS_RULE =
  "Status check: returns the final status of an earlier RTR or PIN (and gift card) transaction identified by its correlationId. '852' means in progress; poll repeatedly until another code is returned. '000' means success.";
const LANGUAGES = ['en', 'ar'] as const;

/** The top-up SKUs a generated body may use, with a number of their country; skips when the catalog has none. */
function topupSkus(ctx: CaseContext, fx: Fixtures): ReturnType<typeof usableSkus> {
  const skus = usableSkus(fx, bodyFacts(TOPUP)).filter((s) => s.countryCode !== undefined && fx.mobile(s.countryCode) !== undefined);
  if (skus.length === 0) ctx.skip('the catalog has no RTR SKU with readable amount bounds in a country with a number plan');
  return skus;
}

/** The body of a generated valid top-up: a fresh number of the SKU's country (never a trigger suffix), the id made unique. */
async function topupBody(probe: CaseContext, fx: Fixtures, w: ValidWrite): Promise<Record<string, unknown>> {
  return { skuId: w.sku.skuId, mobile: fx.mobile(w.sku.countryCode as string), correlationId: await uniqueId(w.id, probe), ...w.amount };
}

/** A refused request leaves no success behind (its correlationId when it is a string the status path can carry). */
async function statusNotSuccessful(probe: CaseContext, correlationId: unknown): Promise<void> {
  if (typeof correlationId === 'string' && correlationId !== '' && correlationId.length <= 200) await expectStatusNotSuccessful(probe, 'v2', correlationId);
}

function validTopups(options: GenOptions): ConformanceCase {
  return genCase<{ write: ValidWrite; lang: (typeof LANGUAGES)[number] }>(options, {
    id: 'GEN-TOPUP-VALID-V2',
    title: 'any top-up the request table allows (any RTR SKU, any amount within its bounds to the cent, any correlationId of 1..50 characters, en/ar) succeeds and is found by its correlationId',
    specSection: `${SECTION.requests} (Top-up request); ${SECTION.limits}; ${SECTION.writes} (Status check)`,
    rule: `${quotedRows(TOPUP, ['skuId', 'amount', 'mobile', 'correlationId'])}; Top-up amount bounds | per denomination; ${STATUS_RULE}`,
    api: 'v2',
    assumed: ['numbers of each country from its number plan (conformance settings / catalog/countries)', 'the wallet holds enough funds for the generated top-ups'],
    arbitrary: (ctx, fx) => fc.record({ write: validWrite(topupSkus(ctx, fx), 50), lang: fc.constantFrom(...LANGUAGES) }),
    show: ({ write, lang }) => `${showWrite(write)}, Accept-Language ${lang}`,
    async run(probe, { write }, fx) {
      const body = await topupBody(probe, fx, write);
      const { submitted, final } = await submitAndFinish(probe, 'v2', TOPUP_OP.id, body);
      if (!probe.check(successful, final ?? submitted)) return;
      const status = await probe.call('v2.transaction.status', { path: { correlationId: body.correlationId as string } });
      probe.check(successful, status);
    },
  });
}

function invalidTopups(options: GenOptions, id: string, kinds: readonly BreakKind[], what: string): ConformanceCase {
  return genCase<{ write: ValidWrite; broken: Break }>(options, {
    id,
    title: `a top-up with exactly one rule broken (${what}, by any distance) is refused and charges nothing`,
    specSection: `${SECTION.requests} (Top-up request); ${SECTION.limits}; ${SECTION.states}`,
    rule: `${quotedRows(TOPUP)}; a refused request leaves the balance unchanged and its status is not a success`,
    api: 'v2',
    exclusive: true,
    arbitrary: (ctx, fx) =>
      validWrite(topupSkus(ctx, fx), 50).chain((write) =>
        fc.record({ write: fc.constant(write), broken: breaks(TOPUP, kinds, (field) => ({ skuId: write.sku.skuId, amount: write.amount.amount, mobile: '18765550100', correlationId: 'x' })[field]) }),
      ),
    show: ({ write, broken }) => `${broken.label}; otherwise ${showWrite(write)}`,
    async run(probe, { write, broken }, fx) {
      const body = await applyBreak(await topupBody(probe, fx, write), broken, probe);
      await expectAllRefused(probe, 'v2', TOPUP_OP.id, [{ label: broken.label, body }]);
      await statusNotSuccessful(probe, body.correlationId);
    },
  });
}

function amountsOutside(options: GenOptions): ConformanceCase {
  return genCase<{ write: ValidWrite; outside: { amount: number; side: 'below' | 'above' } }>(options, {
    id: 'GEN-TOPUP-AMOUNT-OUTSIDE-V2',
    title: 'a top-up amount below the minimum (by any amount, negatives included) or above the maximum of its denomination is refused and charges nothing',
    specSection: `${SECTION.requests} (Top-up request); ${SECTION.errors}; ${SECTION.limits}`,
    rule: "Top-up amount bounds | per denomination, reported in the 001 message; 001 | Amount outside the allowed range of the denomination",
    api: 'v2',
    exclusive: true,
    arbitrary: (ctx, fx) => {
      const ranges = topupSkus(ctx, fx).filter((s) => {
        const b = amountBounds(s);
        return b !== undefined && b.max > b.min;
      });
      if (ranges.length === 0) ctx.skip('the catalog has no RTR denomination with an open amount range');
      return validWrite(ranges, 50).chain((write) => fc.record({ write: fc.constant(write), outside: amountOutside(amountBounds(write.sku) as AmountBounds) }));
    },
    show: ({ write, outside }) => {
      const b = amountBounds(write.sku) as AmountBounds;
      return `amount ${outside.amount} (${outside.side} the bounds ${b.min}..${b.max}${b.transactionCurrencyCode === undefined ? '' : ` ${b.transactionCurrencyCode}`}); SKU ${write.sku.skuId}`;
    },
    async run(probe, { write, outside }, fx) {
      const body: Record<string, unknown> = { ...(await topupBody(probe, fx, write)), amount: outside.amount };
      await expectAllRefused(probe, 'v2', TOPUP_OP.id, [{ label: `amount ${outside.amount} ${outside.side} the bounds`, body }]);
      await statusNotSuccessful(probe, body.correlationId);
    },
  });
}

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
async function walk(probe: CaseContext, pageSize: number, acceptLanguage?: string, maxPages = MAX_PAGES): Promise<{ ids: number[]; complete: boolean; cut: boolean; last?: Exchange }> {
  const ids: number[] = [];
  let cursor: number | undefined;
  let last: Exchange | undefined;
  for (let page = 0; page < maxPages; page++) {
    last = await probe.call(GIFTCARDS, { query: { pageSize, ...(cursor === undefined ? {} : { cursor }) }, ...(acceptLanguage === undefined ? {} : { acceptLanguage }) });
    if (!probe.check(successful, last)) return { ids, complete: false, cut: false, last };
    const pageIds = records(last)
      .map((r) => readNumber(r, probe.mapping.giftcardSku.skuId))
      .filter((id): id is number => id !== undefined);
    ids.push(...pageIds);
    const next = cursorAfter(pageIds);
    if (pageIds.length < pageSize || next === undefined || (cursor !== undefined && next <= cursor)) return { ids, complete: true, cut: false, last };
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

const valueOf = (record: unknown, path: string, kind: 'int' | 'code'): number | string | undefined =>
  kind === 'int' ? readNumber(record, path) : readString(record, path)?.toUpperCase();

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
      const values = [...new Set(listing.map((r) => valueOf(r, path, judge.kind)).filter((v): v is number | string => v !== undefined))];
      if (values.length < 2) ctx.skip(`fewer than two distinct ${judge.label} values in ${spec.operationId}: filtering cannot be shown`);
      return fc.record({ value: fc.constantFrom(...values), lang: fc.constantFrom(...LANGUAGES) });
    },
    show: ({ value, lang }) => `${spec.param}=${String(value)}, Accept-Language ${lang}`,
    async run(probe, { value, lang }) {
      const path = judge.path(probe.mapping);
      const filtered = await probe.call(spec.operationId, { query: { [spec.param]: value }, acceptLanguage: lang });
      if (!probe.check(successful, filtered)) return;
      const expectedCount = spec.paged === true ? undefined : listing.filter((r) => valueOf(r, path, judge.kind) === value).length;
      const verdict = judgeFiltered(
        records(filtered),
        (r) => {
          const got = valueOf(r, path, judge.kind);
          return got === undefined ? undefined : got === value;
        },
        (r) => String(readField(r, path)),
        `${spec.param}=${String(value)}`,
        expectedCount,
      );
      if (verdict === undefined || verdict === 'unreadable') return;
      probe.fail({ ...verdict, operation: spec.operationId, request: filtered.request });
    },
  });
}

/** Every GEN case with these options (seed, budget, replay). */
export function genCases(options: GenOptions): ConformanceCase[] {
  const filters = FILTERS.flatMap((spec) => (spec.judge.by === 'field' ? [filterValues(spec, spec.judge, options)] : []));
  return [
    validTopups(options),
    cursorWalks(options),
    pageSizesOutside(options),
    ...filters,
    invalidTopups(options, 'GEN-TOPUP-LENGTH-V2', ['over-long'], 'a string over its length limit by 1..200 characters'),
    invalidTopups(options, 'GEN-TOPUP-REQUIRED-V2', ['empty', 'null', 'missing'], 'a required field empty, null or missing'),
    invalidTopups(options, 'GEN-TOPUP-TYPES-V2', ['wrong-type', 'int32-overflow'], 'a field of another JSON type, or an int32 field beyond int32'),
    amountsOutside(options),
    moneyCase(options),
  ];
}
