// How the harness follows the v2 gift card list's pages. The spec defines the cursor only as a request parameter
// ("cursor selects the SKUs starting from that skuId value") and names next / next_cursor without their meaning: the
// default walks by the spec's definition alone; a target's meaning of next / next_cursor is learned (discover) or set.
import { readField } from './field-mapping.ts';

/**
 * - `spec`: the next page starts after the page's highest skuId (cursor = that + 1); a page shorter than pageSize is the last.
 * - `next-start`: next_cursor is the skuId the next page starts at; next is 1 while more follow.
 * - `last-of-page`: next_cursor is the page's own last skuId (the next page starts after it); next is 1 while more follow.
 * - `page-count`: next_cursor is where the next page starts; next is the number of pages that follow.
 */
export type GiftcardCursorMeaning = 'spec' | 'next-start' | 'last-of-page' | 'page-count';

export const GIFTCARD_CURSOR_MEANINGS: readonly GiftcardCursorMeaning[] = Object.freeze([
  'spec',
  'next-start',
  'last-of-page',
  'page-count',
]);

/** The spec's own definition: what every command follows unless the config says what the target's envelope means. */
export const DEFAULT_GIFTCARD_CURSOR: GiftcardCursorMeaning = 'spec';

/** One page as the walk saw it: its skuIds (read through the mapping), the pageSize asked for, and its envelope. */
export interface GiftcardPage {
  readonly ids: readonly number[];
  readonly pageSize: number;
  readonly envelope: unknown;
  /** Where the envelope's next_cursor is (fieldMapping.giftcardList.nextCursor). */
  readonly nextCursorPath: string;
}

/** The spec's definition: the SKUs not yet seen start after the page's highest skuId; undefined for an empty page. */
export function specCursorAfter(pageIds: readonly number[]): number | undefined {
  return pageIds.length === 0 ? undefined : Math.max(...pageIds) + 1;
}

const integer = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) ? value : undefined);

/** The cursor of the page after this one by `meaning`; undefined when, by that meaning, no page follows. */
export function nextGiftcardCursor(meaning: GiftcardCursorMeaning, page: GiftcardPage): number | undefined {
  if (meaning === 'spec') return page.ids.length < page.pageSize ? undefined : specCursorAfter(page.ids);
  const next = integer(readField(page.envelope, 'next'));
  const cursor = integer(readField(page.envelope, page.nextCursorPath));
  if (cursor === undefined || next === undefined || next <= 0) return undefined;
  if (meaning === 'page-count') return cursor;
  if (next !== 1) return undefined;
  return meaning === 'last-of-page' ? cursor + 1 : cursor;
}
