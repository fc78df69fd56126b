// Tests of localization: the six localized fields in Arabic script for 'ar', English otherwise, other fields untouched,
// and the Accept-Language parsing that picks the language.
import { describe, expect, it } from 'vitest';
import { toArabic, transliterate } from './arabic.ts';
import { generateSandboxData, LOCALIZED_FIELDS, localizeLookup, localizeSku, lookupNumber, parseAcceptLanguage } from './index.ts';
import type { Lang, Sku } from './index.ts';

const data = generateSandboxData(5, { now: Date.UTC(2025, 0, 15) });
const ARABIC = /[\u0600-\u06FF]/;
const LATIN = /[A-Za-z]/;

function checkPair(en: Sku, ar: Sku): void {
  for (const field of LOCALIZED_FIELDS) {
    expect(en[field], `${en.skuId}.${field} en`).not.toMatch(ARABIC);
    if (en[field].length === 0) continue;
    expect(ar[field], `${en.skuId}.${field} ar`).toMatch(ARABIC);
    expect(ar[field], `${en.skuId}.${field} ar`).not.toMatch(LATIN);
  }
  const strip = (s: Sku): Record<string, unknown> =>
    Object.fromEntries(Object.entries(s).filter(([k]) => !(LOCALIZED_FIELDS as readonly string[]).includes(k)));
  expect(strip(ar)).toEqual(strip(en));
}

describe('localized SKU lists', () => {
  it.each(['skus', 'giftcardSkus'] as const)('%s: every Arabic record localizes the six fields and nothing else', (list) => {
    const en = data.served[list].en;
    const ar = data.served[list].ar;
    expect(ar.map((s) => s.skuId)).toEqual(en.map((s) => s.skuId));
    en.forEach((sku, i) => checkPair(sku, ar[i] as Sku));
  });

  it('localizeSku returns the precomputed record, and computes the same for a copy', () => {
    const en = data.index.skuById.get(193) as Sku;
    expect(localizeSku(en, 'en')).toBe(en);
    expect(localizeSku(en, 'ar')).toBe(data.served.skus.ar.find((s) => s.skuId === 193));
    expect(localizeSku({ ...en }, 'ar')).toEqual(localizeSku(en, 'ar'));
  });

  it('localizes the v2 lookup payload', () => {
    const result = lookupNumber(data, data.samples.validMobiles.IN as string);
    expect(result).toBeDefined();
    const ar = localizeLookup(result!, 'ar');
    const en = localizeLookup(result!, 'en');
    expect(ar.length).toBe(en.length);
    expect(ar.length).toBeGreaterThan(0);
    en.forEach((sku, i) => checkPair(sku, ar[i] as Sku));
  });
});

describe('arabic rendering', () => {
  it('uses the phrase table, keeps numbers and transliterates names', () => {
    expect(toArabic('Voxa Jamaica Top-up 1000.00 JMD')).toBe(`${transliterate('Voxa')} جامايكا شحن رصيد 1000.00 دولار جامايكي`);
    expect(toArabic('Gift Card')).toBe('بطاقة هدية');
    expect(transliterate('Shop')).toBe('شوب');
  });
});

describe('parseAcceptLanguage', () => {
  it.each<[string | string[] | undefined, Lang]>([
    [undefined, 'en'],
    ['', 'en'],
    ['ar', 'ar'],
    ['AR', 'ar'],
    ['ar-SA', 'ar'],
    ['ar-SA,ar;q=0.9,en;q=0.8', 'ar'],
    ['en-US,en;q=0.9', 'en'],
    ['en;q=0.5, ar', 'ar'],
    ['ar;q=0.1, en', 'en'],
    ['ar;q=0', 'en'],
    ['fr', 'en'],
    ['*', 'en'],
    [['ar'], 'ar'],
    [`ar${',x'.repeat(400)}`, 'en'],
  ])('%j -> %s', (header, lang) => {
    expect(parseAcceptLanguage(header)).toBe(lang);
  });
});
