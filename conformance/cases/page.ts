// PAGE: the v2 gift card SKU list's paging rules — default listing of 100, pageSize bounds 1..100, cursor walks that
// yield every SKU exactly once, and integer next/next_cursor in the envelope.
import { readNumber } from '../../api/field-mapping.ts';
import { DEFAULT_GIFTCARD_CURSOR, nextGiftcardCursor, specCursorAfter, type GiftcardCursorMeaning } from '../../api/giftcard-paging.ts';
import { itemCount, notSuccessful, successful } from '../checks.ts';
import type { CaseContext, Check, ConformanceCase, Exchange } from '../types.ts';
import { SECTION, records } from './common.ts';

const OP = 'v2.catalog.skus-giftcards';
const PAGING_RULE =
  'when neither cursor nor pageSize is given, only 100 gift card SKUs are returned. cursor selects the SKUs starting from that skuId value, limited by pageSize; pageSize must be at least 1 and at most 100.';
const SECTIONS = `${SECTION.v2Reads} (Gift card SKU list paging rules); ${SECTION.limits}`;
/** Bound on pages of one walk (the catalog would need > 100 000 gift cards to hit it). */
const MAX_PAGES = 1_000;

function skuIds(ctx: CaseContext, exchange: Exchange): number[] {
  const path = ctx.mapping.giftcardSku.skuId;
  return records(exchange)
    .map((r) => readNumber(r, path))
    .filter((id): id is number => id !== undefined);
}

interface Walk {
  readonly ids: number[];
  readonly pages: number;
  readonly complete: boolean;
}

/**
 * The cursor of the page after one, by the spec's own definition: "cursor selects the SKUs starting from that skuId
 * value", so the SKUs not yet seen start at the page's highest skuId + 1. The envelope's next_cursor is not followed:
 * the spec names it but not its meaning (#31 item 3). Undefined for an empty page (the walk ends there).
 */
export function cursorAfter(pageIds: readonly number[]): number | undefined {
  return specCursorAfter(pageIds);
}

/**
 * Walks the list the way the config says the target's next / next_cursor mean (paging.giftcardCursor), bounded; the
 * ids in the order seen. A meaning that does not fit is the harness's gap (a warning), never the gateway's failure.
 */
async function walkByMeaning(ctx: CaseContext, meaning: GiftcardCursorMeaning, pageSize: number): Promise<number[]> {
  const ids: number[] = [];
  let cursor: number | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const exchange = await ctx.call(OP, { query: { pageSize, ...(cursor === undefined ? {} : { cursor }) } });
    if (exchange.response.classification.outcome !== 'Successful') return ids;
    const pageIds = skuIds(ctx, exchange);
    ids.push(...pageIds);
    const next = nextGiftcardCursor(meaning, {
      ids: pageIds,
      pageSize,
      envelope: exchange.response.envelope,
      nextCursorPath: ctx.mapping.giftcardList.nextCursor,
    });
    if (next === undefined || (cursor !== undefined && next <= cursor)) return ids;
    cursor = next;
  }
  return ids;
}

/** The configured cursor meaning against the spec's walk: the same SKUs once each, or a warning naming the key. */
async function checkCursorMeaning(ctx: CaseContext, specWalk: readonly number[], pageSize: number): Promise<void> {
  const meaning = ctx.giftcardCursor ?? DEFAULT_GIFTCARD_CURSOR;
  if (meaning === 'spec') return;
  const walked = await walkByMeaning(ctx, meaning, pageSize);
  const seen = new Set(walked);
  const expected = new Set(specWalk);
  const missed = [...expected].filter((id) => !seen.has(id));
  const repeated = duplicates(walked);
  if (missed.length === 0 && repeated.length === 0 && seen.size === expected.size) {
    ctx.note(`paging.giftcardCursor "${meaning}" fits: following next/next_cursor by it gives the spec walk's ${expected.size} SKUs`);
    return;
  }
  ctx.fail({
    severity: 'warning',
    check: 'cursor-meaning-fits',
    operation: OP,
    message: `paging.giftcardCursor "${meaning}" does not fit this target: following next/next_cursor by it (pageSize ${pageSize}) does not give the spec walk's SKUs once each; the walk judged above follows the spec's definition, so this is the config's gap, not the gateway's: set paging.giftcardCursor (discover learns it) or leave it at "spec"`,
    expected: `the ${expected.size} SKUs of the spec's cursor walk, once each`,
    received: `${walked.length} SKUs; missed: ${missed.slice(0, 6).join(', ') || '-'}; repeated: ${repeated.slice(0, 6).join(', ') || '-'}`,
  });
}

/**
 * Walks the list with `pageSize`, each next page at `cursorAfter` the last. Stops on a short page (the spec's "limited
 * by pageSize": a full page may have more after it), a cursor that does not advance, or a failure (recorded).
 */
async function walk(ctx: CaseContext, pageSize: number): Promise<Walk> {
  const ids: number[] = [];
  let cursor: number | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const exchange = await ctx.call(OP, { query: { pageSize, ...(cursor === undefined ? {} : { cursor }) } });
    if (!ctx.check(successful, exchange)) return { ids, pages: page + 1, complete: false };
    const pageIds = skuIds(ctx, exchange);
    ids.push(...pageIds);
    if (cursor !== undefined && pageIds.some((id) => id < cursor!)) {
      ctx.fail({
        check: 'cursor-starts-at-sku',
        operation: OP,
        message: `a page requested with cursor ${cursor} holds skuIds below it`,
        expected: `every skuId ≥ ${cursor}`,
        received: `skuIds ${pageIds
          .filter((id) => id < cursor!)
          .slice(0, 5)
          .join(', ')}`,
        request: exchange.request,
      });
    }
    const next = cursorAfter(pageIds);
    if (pageIds.length < pageSize || next === undefined || (cursor !== undefined && next <= cursor)) {
      return { ids, pages: page + 1, complete: true };
    }
    cursor = next;
  }
  return { ids, pages: MAX_PAGES, complete: false };
}

function duplicates(ids: readonly number[]): number[] {
  const seen = new Set<number>();
  const dup = new Set<number>();
  for (const id of ids) (seen.has(id) ? dup : seen).add(id);
  return [...dup];
}

/** A full page of 100, unless the whole list is shorter (then the page holds all of it). */
async function expectHundred(ctx: CaseContext, exchange: Exchange): Promise<void> {
  const count = records(exchange).length;
  if (count === 100) return;
  if (count < 100) {
    const total = await walk(ctx, 100);
    if (total.complete && new Set(total.ids).size === count) {
      ctx.note(`the target lists only ${count} gift cards in total`);
      return;
    }
  }
  ctx.check(itemCount(100, 'exactly'), exchange);
}

function requestCase(id: string, title: string, query: Record<string, number>, expect: Check[]): ConformanceCase {
  return {
    kind: 'request',
    id,
    group: 'PAGE',
    title,
    specSection: SECTIONS,
    rule: PAGING_RULE,
    api: 'v2',
    operationId: OP,
    input: () => ({ query }),
    expect,
  };
}

export const PAGE_CASES: readonly ConformanceCase[] = [
  {
    kind: 'scenario',
    id: 'PAGE-DEFAULT-100',
    group: 'PAGE',
    title: 'no cursor and no pageSize → exactly 100 gift card SKUs (when the list has more)',
    specSection: SECTIONS,
    rule: 'when neither cursor nor pageSize is given, only 100 gift card SKUs are returned. (Limits: default listing without cursor and pageSize returns 100 items)',
    api: 'v2',
    async scenario(ctx) {
      const exchange = await ctx.call(OP, {});
      if (ctx.check(successful, exchange)) await expectHundred(ctx, exchange);
    },
  },
  requestCase('PAGE-SIZE-0', 'pageSize 0 is refused', { pageSize: 0 }, [notSuccessful]),
  requestCase('PAGE-SIZE-1', 'pageSize 1 → exactly one SKU', { pageSize: 1 }, [successful, itemCount(1, 'exactly')]),
  {
    kind: 'scenario',
    id: 'PAGE-SIZE-100',
    group: 'PAGE',
    title: 'pageSize 100 → 100 SKUs (when the list has that many)',
    specSection: SECTIONS,
    rule: PAGING_RULE,
    api: 'v2',
    async scenario(ctx) {
      const exchange = await ctx.call(OP, { query: { pageSize: 100 } });
      if (ctx.check(successful, exchange)) await expectHundred(ctx, exchange);
    },
  },
  requestCase('PAGE-SIZE-101', 'pageSize 101 is refused', { pageSize: 101 }, [notSuccessful]),
  {
    kind: 'scenario',
    id: 'PAGE-WALK',
    group: 'PAGE',
    title: 'walking the list with cursor/pageSize yields every SKU exactly once (pageSize 100 and 37 agree)',
    specSection: SECTIONS,
    rule: `${PAGING_RULE} The gift card SKU list (v2) adds two envelope-level integer fields: next and next_cursor.`,
    api: 'v2',
    async scenario(ctx) {
      const [big, odd] = [await walk(ctx, 100), await walk(ctx, 37)];
      ctx.note(`walks: pageSize 100 → ${big.ids.length} SKUs in ${big.pages} pages; pageSize 37 → ${odd.ids.length} in ${odd.pages}`);
      for (const [size, w] of [
        [100, big],
        [37, odd],
      ] as const) {
        const dup = duplicates(w.ids);
        if (dup.length > 0) {
          ctx.fail({
            check: 'walk-no-duplicates',
            operation: OP,
            message: `walking with pageSize ${size} returned some SKUs twice`,
            expected: 'every skuId once',
            received: `duplicates: ${dup.slice(0, 10).join(', ')}${dup.length > 10 ? ', …' : ''}`,
          });
        }
        if (!w.complete) {
          ctx.fail({
            check: 'walk-completes',
            operation: OP,
            message: `the walk with pageSize ${size} did not reach the end`,
            expected: 'a last page',
            received: `${w.pages} pages`,
          });
        }
      }
      const a = new Set(big.ids);
      const b = new Set(odd.ids);
      const onlyA = [...a].filter((id) => !b.has(id));
      const onlyB = [...b].filter((id) => !a.has(id));
      if (onlyA.length > 0 || onlyB.length > 0) {
        ctx.fail({
          check: 'walk-no-gaps',
          operation: OP,
          message: 'walks with different page sizes see different SKUs (a gap at page boundaries)',
          expected: 'the same set of skuIds',
          received: `only with pageSize 100: ${onlyA.slice(0, 8).join(', ') || '-'}; only with pageSize 37: ${onlyB.slice(0, 8).join(', ') || '-'}`,
        });
      }
      await checkCursorMeaning(ctx, odd.ids, 37);
      const first = await ctx.call(OP, {});
      const firstIds = skuIds(ctx, first);
      const missing = firstIds.filter((id) => !a.has(id));
      if (missing.length > 0) {
        ctx.fail({
          check: 'walk-covers-default',
          operation: OP,
          message: 'SKUs of the default listing are missing from the walk',
          expected: 'the walk contains every SKU of the default listing',
          received: `missing: ${missing.slice(0, 8).join(', ')}`,
        });
      }
    },
  },
];
