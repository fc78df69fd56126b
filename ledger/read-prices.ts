// Reads the target's price book once, before a capped run: v2 SKUs, every page of the v2 gift card list, and the v1
// SKUs (for ids v2 does not list). Reads only (nothing charges); a version that does not answer is skipped.
import type { ClientCore } from '../api/client-core.ts';
import { readNumber, type FieldMapping } from '../api/field-mapping.ts';
import { DEFAULT_GIFTCARD_CURSOR, nextGiftcardCursor, type GiftcardCursorMeaning } from '../api/giftcard-paging.ts';
import { buildPriceBook, costCurrencies, priceOfV1Record, priceOfV2Record, type PriceBook, type SkuPrice } from './price-book.ts';

/** Most gift card pages read (100 SKUs each): bounded whatever the target answers. */
const MAX_GIFTCARD_PAGES = 100;
/** Gift card SKUs asked for per page (the spec's largest pageSize). */
const GIFTCARD_PAGE = 100;

export interface PriceRead {
  readonly book: PriceBook;
  /** Reads that did not answer with a successful array (named, for the run's output). */
  readonly problems: readonly string[];
}

async function readArray(
  client: Pick<ClientCore, 'call'>,
  operationId: string,
  query?: Record<string, number>,
): Promise<{ items?: unknown[]; envelope?: unknown; problem?: string }> {
  const { response } = await client.call(operationId, query === undefined ? {} : { query });
  const payLoad = response.envelope?.payLoad;
  if (response.classification.outcome !== 'Successful' || !Array.isArray(payLoad)) {
    const why =
      response.transportError?.message ?? `HTTP ${response.httpStatus ?? '-'}, responseCode ${response.envelope?.responseCode ?? '-'}`;
    return { problem: `${operationId}: ${why}` };
  }
  return { items: payLoad, envelope: response.envelope };
}

/**
 * The price book: v2 SKUs, the gift card list's pages walked as the config's cursor meaning says (api/giftcard-paging.ts:
 * the spec's definition by default, the one walk every command makes), v1 SKUs.
 */
export async function readPriceBook(
  client: Pick<ClientCore, 'call'>,
  mapping: FieldMapping,
  cursorMeaning: GiftcardCursorMeaning = DEFAULT_GIFTCARD_CURSOR,
): Promise<PriceRead> {
  const problems: string[] = [];
  const entries: Array<[number, SkuPrice] | undefined> = [];
  const v2 = await readArray(client, 'v2.catalog.skus');
  if (v2.problem !== undefined) problems.push(v2.problem);
  for (const record of v2.items ?? []) entries.push(priceOfV2Record(record, mapping.v2Sku));
  const wallet = walletOf(v2.items ?? [], problems);
  let cursor: number | undefined;
  for (let page = 0; page < MAX_GIFTCARD_PAGES; page++) {
    const gifts = await readArray(client, 'v2.catalog.skus-giftcards', {
      pageSize: GIFTCARD_PAGE,
      ...(cursor === undefined ? {} : { cursor }),
    });
    if (gifts.problem !== undefined) {
      problems.push(gifts.problem);
      break;
    }
    const records = gifts.items ?? [];
    for (const record of records) entries.push(priceOfV2Record(record, mapping.giftcardSku));
    const ids = records.map((r) => readNumber(r, mapping.giftcardSku.skuId)).filter((id): id is number => id !== undefined);
    const next = nextGiftcardCursor(cursorMeaning, {
      ids,
      pageSize: GIFTCARD_PAGE,
      envelope: gifts.envelope,
      nextCursorPath: mapping.giftcardList.nextCursor,
    });
    if (next === undefined || next === cursor) break;
    cursor = next;
  }
  const v1 = await readArray(client, 'v1.catalog.skus');
  if (v1.problem !== undefined) problems.push(v1.problem);
  for (const record of v1.items ?? []) entries.push(priceOfV1Record(record, mapping.v1Sku));
  return { book: buildPriceBook(entries, wallet), problems };
}

/** The one cost currency of the records (the wallet's), or undefined with the reason among the problems. */
function walletOf(records: readonly unknown[], problems: string[]): string | undefined {
  const found = costCurrencies(records);
  if (found.length === 1) return found[0];
  problems.push(
    found.length === 0
      ? 'no SKU record shows its costCurrency: the wallet currency is not known from the target'
      : `SKU records state their cost in ${found.join(', ')}: the wallet currency is not known from the target`,
  );
  return undefined;
}

/** The wallet currency from the target's v2 SKU records (one read), for a ledger kept without a cap and for reconcile. */
export async function readWalletCurrency(client: Pick<ClientCore, 'call'>): Promise<string | undefined> {
  const v2 = await readArray(client, 'v2.catalog.skus');
  const found = costCurrencies(v2.items ?? []);
  return found.length === 1 ? found[0] : undefined;
}

/** The wallet balance (a number payload), or undefined when the target does not answer one. */
export async function readBalance(client: Pick<ClientCore, 'call'>, version: 'v1' | 'v2'): Promise<number | undefined> {
  const { response } = await client.call(`${version}.account.balance`);
  const payLoad = response.envelope?.payLoad;
  return response.classification.outcome === 'Successful' && typeof payLoad === 'number' && Number.isFinite(payLoad) ? payLoad : undefined;
}
