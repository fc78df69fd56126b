// Each gift card cursor meaning honoured: where the next page starts and whether one follows, by the spec's
// definition (the default) and by the three meanings of next / next_cursor a target may have.
import { describe, expect, it } from 'vitest';
import { DEFAULT_GIFTCARD_CURSOR, nextGiftcardCursor, type GiftcardCursorMeaning } from './giftcard-paging.ts';

const page = (envelope: Record<string, unknown>, ids: number[] = [10, 12, 11], pageSize = 3) => ({
  ids,
  pageSize,
  envelope,
  nextCursorPath: 'next_cursor',
});

describe('nextGiftcardCursor', () => {
  it('the default is the spec: after the highest skuId of a full page, none after a short one; next / next_cursor unread', () => {
    expect(DEFAULT_GIFTCARD_CURSOR).toBe('spec');
    expect(nextGiftcardCursor('spec', page({ next: 0, next_cursor: 99 }))).toBe(13);
    expect(nextGiftcardCursor('spec', page({ next: 1, next_cursor: 99 }, [10, 11]))).toBeUndefined();
    expect(nextGiftcardCursor('spec', page({}, []))).toBeUndefined();
  });

  it.each<[GiftcardCursorMeaning, Record<string, unknown>, number | undefined]>([
    ['next-start', { next: 1, next_cursor: 14 }, 14],
    ['next-start', { next: 0, next_cursor: 14 }, undefined],
    ['next-start', { next: 2, next_cursor: 14 }, undefined],
    ['last-of-page', { next: 1, next_cursor: 12 }, 13],
    ['last-of-page', { next: 0, next_cursor: 12 }, undefined],
    ['page-count', { next: 3, next_cursor: 14 }, 14],
    ['page-count', { next: 1, next_cursor: 14 }, 14],
    ['page-count', { next: 0, next_cursor: 14 }, undefined],
    ['next-start', { next: 1, next_cursor: '14' }, undefined],
  ])('%s with %j: %s', (meaning, envelope, expected) => {
    expect(nextGiftcardCursor(meaning, page(envelope))).toBe(expected);
  });

  it('reads next_cursor where the mapping says', () => {
    expect(
      nextGiftcardCursor('next-start', { ids: [1], pageSize: 1, envelope: { next: 1, nextCursor: 5 }, nextCursorPath: 'nextCursor' }),
    ).toBe(5);
  });
});
