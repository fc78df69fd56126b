// Localized (Arabic) views of SKU records and lookup results, precomputed at generation and served per request.
// Spec Versioning 2: SkuName, ProductName, BenefitType, ProductDescription, OperatorName, AdditionalInformation in 'ar'.

import { toArabic } from './arabic.ts';
import type { Lang, LookupResult, Sku } from './types.ts';

/** The localized text fields of a SKU record (the spec's list, in the observed camelCase). */
export const LOCALIZED_FIELDS = [
  'skuName',
  'productName',
  'benefitType',
  'productDescription',
  'operatorName',
  'additionalInformation',
] as const satisfies ReadonlyArray<keyof Sku>;

// English record -> Arabic record; filled by the generator so serving never translates.
const arabicOf = new WeakMap<Sku, Sku>();

/** The Arabic copy of an English SKU record (fresh object; other fields shared by value). */
export function buildArabicSku(sku: Sku, cache?: Map<string, string>): Sku {
  const ar: Sku = { ...sku };
  for (const field of LOCALIZED_FIELDS) ar[field] = toArabic(sku[field], cache);
  return ar;
}

/** Remember a precomputed Arabic record for an English one. */
export function registerArabicSku(english: Sku, arabic: Sku): void {
  arabicOf.set(english, arabic);
}

/** The SKU record in the language asked for; English records are returned as they are. */
export function localizeSku(sku: Sku, lang: Lang): Sku {
  if (lang === 'en') return sku;
  let ar = arabicOf.get(sku);
  if (ar === undefined) {
    ar = buildArabicSku(sku);
    arabicOf.set(sku, ar);
  }
  return ar;
}

/** The v2 lookup payload (assumed shape: the operator's localized v2 SKU records) in the language asked for. */
export function localizeLookup(result: Pick<LookupResult, 'v2'>, lang: Lang): Sku[] {
  return result.v2[lang];
}

/**
 * The language of an Accept-Language header: 'ar' when Arabic is its preferred language (highest q), else 'en'.
 * Spec (Versioning 2): "for Arabic the code is 'ar'" and "Default language is English."
 */
export function parseAcceptLanguage(header: string | string[] | undefined): Lang {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text === undefined || text.length === 0 || text.length > 512) return 'en';
  let best: Lang = 'en';
  let bestQ = -1;
  for (const part of text.split(',', 32)) {
    const [tagRaw, ...params] = part.trim().split(';');
    const tag = (tagRaw ?? '').trim().toLowerCase();
    if (tag.length === 0) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(param);
      if (m) q = Number(m[1]);
    }
    if (!Number.isFinite(q) || q <= 0) continue;
    const lang: Lang | undefined = tag === 'ar' || tag.startsWith('ar-') ? 'ar' : tag === '*' ? undefined : 'en';
    if (lang !== undefined && q > bestQ) {
      best = lang;
      bestQ = q;
    }
  }
  return best;
}
