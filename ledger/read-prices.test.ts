// The price book's walk of the gift card list follows the one cursor meaning every command uses (api/giftcard-paging.ts):
// the spec's definition by default, or the target's meaning of next / next_cursor as the config says.
import { describe, expect, it } from 'vitest';
import type { ClientCore } from '../api/client-core.ts';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { readPriceBook } from './read-prices.ts';

const GIFTCARDS = 250;
const record = (skuId: number) => ({
  skuId,
  min: { faceValue: 10, faceValueCurrency: 'USD', faceValueInWalletCurrency: 10, costCurrency: 'USD' },
});

/**
 * A target whose list keeps the spec ("cursor selects the SKUs starting from that skuId value, limited by pageSize")
 * and whose envelope says `next` = the number of pages that follow, `next_cursor` = where the next one starts.
 */
function pagesTarget(): { client: Pick<ClientCore, 'call'>; cursors: Array<number | undefined> } {
  const cursors: Array<number | undefined> = [];
  const answer = (envelope: Record<string, unknown>) =>
    ({ response: { envelope, classification: { outcome: 'Successful' } } }) as unknown as Awaited<ReturnType<ClientCore['call']>>;
  const client: Pick<ClientCore, 'call'> = {
    call: async (operationId, input) => {
      if (operationId !== 'v2.catalog.skus-giftcards') return answer({ responseCode: '000', payLoad: [] });
      const query = (input as { query?: { cursor?: number; pageSize?: number } }).query ?? {};
      cursors.push(query.cursor);
      const from = query.cursor ?? 1;
      const size = query.pageSize ?? 100;
      const ids = Array.from({ length: GIFTCARDS }, (_, i) => i + 1).filter((id) => id >= from);
      const page = ids.slice(0, size);
      const left = Math.ceil((ids.length - page.length) / size);
      return answer({ responseCode: '000', payLoad: page.map(record), next: left, next_cursor: left > 0 ? from + size : 0 });
    },
  };
  return { client, cursors };
}

describe('the price book walks the gift card pages by the configured cursor meaning', () => {
  it("by default the spec's definition: every page, whatever next / next_cursor mean (here next counts pages)", async () => {
    const { client, cursors } = pagesTarget();
    const read = await readPriceBook(client, DEFAULT_FIELD_MAPPING);
    expect(Object.keys(read.book.skus)).toHaveLength(GIFTCARDS);
    expect(cursors).toEqual([undefined, 101, 201]);
  });

  it('paging.giftcardCursor page-count: the target’s own meaning, the same pages', async () => {
    const { client, cursors } = pagesTarget();
    const read = await readPriceBook(client, DEFAULT_FIELD_MAPPING, 'page-count');
    expect(Object.keys(read.book.skus)).toHaveLength(GIFTCARDS);
    expect(cursors).toEqual([undefined, 101, 201]);
  });
});
