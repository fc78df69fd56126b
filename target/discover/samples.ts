// The catalog reads discovery learns from, made once: v1/v2 SKUs (SKU 193 by id), gift cards, countries, products,
// operators, carriers, logos and descriptions. Every read is a GET: nothing here can charge.
import type { DiscoveryReader } from './reader.ts';
import { recordsOf } from './reader.ts';
import { SKU_193 } from './facts.ts';
import type { FieldMapping } from '../../api/field-mapping.ts';

export type SectionName = keyof FieldMapping;

export interface Samples {
  /** Records per mapping section (bundle and transaction records are not read: see mapping.ts). */
  readonly records: Partial<Record<SectionName, readonly unknown[]>>;
  /** The v2 SKU list filtered by skuId=193 (the spec's SKU). */
  readonly sku193: readonly unknown[];
  /** The gift card list's envelope of its first page of 2, and the first 3 records without paging fields. */
  readonly giftcardPage: { readonly envelope?: Readonly<Record<string, unknown>>; readonly firstThree: readonly unknown[] };
}

const READS: readonly [SectionName, string, Record<string, string | number>][] = [
  ['v2Sku', 'v2.catalog.skus', {}],
  ['giftcardSku', 'v2.catalog.skus-giftcards', { pageSize: 100 }],
  ['v1Sku', 'v1.catalog.skus', {}],
  ['country', 'v2.catalog.countries', {}],
  ['product', 'v2.catalog.getproducts', {}],
  ['operator', 'v2.catalog.operators', {}],
  ['carrier', 'v1.catalog.carriers', {}],
  ['logo', 'v1.catalog.sku-logos', {}],
  ['skuDescription', 'v1.catalog.sku-description', {}],
];

export async function readSamples(reader: DiscoveryReader): Promise<Samples> {
  const records: Partial<Record<SectionName, readonly unknown[]>> = {};
  const lists = await Promise.all(READS.map(([, operationId, query]) => reader.read(operationId, { query })));
  READS.forEach(([section], i) => {
    const response = lists[i];
    if (response !== undefined) records[section] = recordsOf(response);
  });
  const [sku193, pageOfTwo, firstThree] = await Promise.all([
    reader.read('v2.catalog.skus', { query: { skuId: SKU_193.skuId } }),
    reader.read('v2.catalog.skus-giftcards', { query: { pageSize: 2 } }),
    reader.read('v2.catalog.skus-giftcards', { query: { pageSize: 3 } }),
  ]);
  return {
    records,
    sku193: recordsOf(sku193),
    giftcardPage: { ...(pageOfTwo.envelope === undefined ? {} : { envelope: pageOfTwo.envelope }), firstThree: recordsOf(firstThree) },
  };
}
