// LOC: `Accept-Language: ar` localizes SkuName, ProductName, BenefitType, ProductDescription, OperatorName and
// AdditionalInformation of the v2 SKU list, gift card list and lookup; without the header they are English.
import type { RequestInput } from '../../api/request-builder.ts';
import { successful } from '../checks.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import { SECTION, need } from './common.ts';

const RULE =
  "Localization (v2): the SKU list, gift card SKU list and mobile lookup accept the Accept-Language header with a language code (for Arabic the code is 'ar'). Default language is English. The fields SkuName, ProductName, BenefitType, ProductDescription, OperatorName and AdditionalInformation are returned localized.";

/** The spec names these fields (Catalog and other payload records); matched case-insensitively at any depth. */
export const LOCALIZED_FIELDS = ['skuname', 'productname', 'benefittype', 'productdescription', 'operatorname', 'additionalinformation'];
const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
const MAX_DEPTH = 5;

/** Every string value of a localized field in the payload, with its path. */
export function localizedValues(value: unknown, path = '', depth = 0): Array<{ path: string; text: string }> {
  if (depth > MAX_DEPTH || value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => localizedValues(item, `${path}[${i}]`, depth + 1));
  const out: Array<{ path: string; text: string }> = [];
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const here = path === '' ? key : `${path}.${key}`;
    if (typeof item === 'string' && LOCALIZED_FIELDS.includes(key.toLowerCase())) out.push({ path: here, text: item });
    else out.push(...localizedValues(item, here, depth + 1));
  }
  return out;
}

function compare(ctx: CaseContext, english: Exchange, arabic: Exchange): void {
  const ok = [ctx.check(successful, english), ctx.check(successful, arabic)].every(Boolean);
  if (!ok) return;
  const en = localizedValues(english.response.envelope?.payLoad);
  const ar = localizedValues(arabic.response.envelope?.payLoad);
  if (en.length === 0 && ar.length === 0) ctx.skip('the payload carries none of the six localized fields (nothing to compare)');
  const arabicInDefault = en.filter((v) => ARABIC.test(v.text));
  if (arabicInDefault.length > 0) {
    ctx.fail({
      check: 'default-english',
      operation: english.request.operationId,
      message: 'without Accept-Language, localized fields are not English',
      expected: 'English text (no Arabic script)',
      received: arabicInDefault.slice(0, 3).map((v) => `${v.path}=${JSON.stringify(v.text)}`).join('; '),
      request: english.request,
    });
  }
  const arabicTexts = ar.filter((v) => ARABIC.test(v.text));
  if (arabicTexts.length === 0) {
    ctx.fail({
      check: 'arabic-localized',
      operation: arabic.request.operationId,
      message: "with Accept-Language: ar, no localized field is in Arabic",
      expected: 'Arabic script in SkuName/ProductName/… fields',
      received: ar.slice(0, 3).map((v) => `${v.path}=${JSON.stringify(v.text)}`).join('; ') || 'no localized fields',
      request: arabic.request,
    });
  }
  const enCount = Array.isArray(english.response.envelope?.payLoad) ? (english.response.envelope?.payLoad as unknown[]).length : undefined;
  const arCount = Array.isArray(arabic.response.envelope?.payLoad) ? (arabic.response.envelope?.payLoad as unknown[]).length : undefined;
  if (enCount !== arCount) {
    ctx.fail({
      check: 'same-records-localized',
      operation: arabic.request.operationId,
      message: 'the language changed how many records came back (only the named fields are localized)',
      expected: `${String(enCount)} records`,
      received: `${String(arCount)} records`,
      request: arabic.request,
    });
  }
}

function locCase(id: string, operationId: string, what: string, input: (ctx: CaseContext) => Promise<RequestInput>): ConformanceCase {
  return {
    kind: 'scenario',
    id,
    group: 'LOC',
    title: `${what}: Accept-Language ar returns Arabic localized fields; default English`,
    specSection: `${SECTION.versioning} (2); ${SECTION.records}`,
    rule: RULE,
    api: 'v2',
    async scenario(ctx) {
      const base = await input(ctx);
      const [english, arabic] = await Promise.all([ctx.call(operationId, base), ctx.call(operationId, { ...base, acceptLanguage: 'ar' })]);
      compare(ctx, english, arabic);
    },
  };
}

export const LOC_CASES: readonly ConformanceCase[] = [
  locCase('LOC-SKUS', 'v2.catalog.skus', 'v2 SKU list', async () => ({})),
  locCase('LOC-GIFTCARDS', 'v2.catalog.skus-giftcards', 'v2 gift card SKU list', async () => ({ query: { pageSize: 100 } })),
  locCase('LOC-LOOKUP', 'v2.lookup.mobile', 'v2 mobile lookup', async (ctx) => ({ path: { mobile: need(ctx, (await ctx.fixtures()).mobile('JM'), 'a Jamaica number') } })),
];
