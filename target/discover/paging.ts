// Learns the gift card list's envelope cursor: its spelling (the spec names next and next_cursor) and what it means,
// by comparing a page of 2 with a page of 3 from the start. The spec only says "cursor selects the SKUs starting from that skuId value".
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { learned, unknown, type Finding } from './findings.ts';
import { resolveKey, spellingIn } from './evidence.ts';
import { asInteger, leafValue } from './records.ts';
import type { Samples } from './samples.ts';

/** The config key the meaning goes to (api/giftcard-paging.ts): every walk of the gift card list follows it. */
export const CURSOR_MEANING_KEY = 'paging.giftcardCursor';

export function learnPaging(samples: Samples, skuIdPath: string): Finding[] {
  const envelope = samples.giftcardPage.envelope;
  const defaultPath = DEFAULT_FIELD_MAPPING.giftcardList.nextCursor;
  if (envelope === undefined)
    return [unknown('fieldMapping.giftcardList.nextCursor', defaultPath, 'the gift card list (pageSize=2) gave no envelope')];
  const spelling = spellingIn([envelope], defaultPath);
  const cursorFinding = resolveKey(
    'fieldMapping.giftcardList.nextCursor',
    defaultPath,
    spelling,
    'the gift card list envelope (pageSize=2)',
  );
  const cursor = spelling === undefined ? undefined : asInteger(leafValue(envelope, spelling));
  const ids = samples.giftcardPage.firstThree.map((r) => asInteger(leafValue(r, skuIdPath)));
  const next = asInteger(envelope['next']);
  return [cursorFinding, meaningOf(cursor, ids, next)];
}

function meaningOf(cursor: number | undefined, ids: readonly (number | undefined)[], next: number | undefined): Finding {
  const [, second, third] = ids;
  const nextWord =
    next === undefined
      ? 'next is not an integer'
      : next > 1
        ? `next = ${next}: a count (of pages that follow)`
        : `next = ${next}: a flag or a count of 1, the facts allow both`;
  if (cursor === undefined || third === undefined)
    return unknown(
      CURSOR_MEANING_KEY,
      'spec',
      `no cursor or fewer than 3 gift cards to compare (${nextWord}); the walks follow the spec's definition`,
    );
  if (cursor === third) {
    const meaning = next !== undefined && next > 1 ? 'page-count' : 'next-start';
    return learned(
      CURSOR_MEANING_KEY,
      meaning,
      `page of 2: next_cursor ${cursor} = the 3rd skuId of a page of 3, where the next page starts (${nextWord})`,
    );
  }
  if (cursor === second)
    return learned(
      CURSOR_MEANING_KEY,
      'last-of-page',
      `page of 2: next_cursor ${cursor} = its own last skuId; the next page starts after it (${nextWord})`,
    );
  return unknown(
    CURSOR_MEANING_KEY,
    'spec',
    `page of 2: next_cursor ${cursor} is neither its last skuId (${String(second)}) nor the next one (${third}) (${nextWord}); the walks follow the spec's definition`,
  );
}
