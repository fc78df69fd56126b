// LOC: `Accept-Language: ar` localizes the six named fields of the v2 SKU list, gift card list and lookup. Each field
// of each record that has it is compared with the same record in English: Arabic script, different text, same records.
import type { FieldMapping, LocalizedFieldMapping } from '../../api/field-mapping.ts';
import { mappingHint, readField, readNumber } from '../../api/field-mapping.ts';
import type { RequestInput } from '../../api/request-builder.ts';
import { successful } from '../checks.ts';
import type { CaseContext, ConformanceCase, Exchange } from '../types.ts';
import { SECTION, need, records } from './common.ts';

const RULE =
  "Localization (v2): the SKU list, gift card SKU list and mobile lookup accept the Accept-Language header with a language code (for Arabic the code is 'ar'). Default language is English. The fields SkuName, ProductName, BenefitType, ProductDescription, OperatorName and AdditionalInformation are returned localized.";

const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/;
const SHOWN = 3;

type Rec = Record<string, unknown>;

export interface LocalizationProblem {
  readonly check: 'default-english' | 'arabic-localized' | 'same-records-localized';
  readonly message: string;
  readonly expected: string;
  readonly received: string;
}

export interface LocalizationResult {
  /** (record, field) pairs compared. */
  readonly compared: number;
  readonly problems: readonly LocalizationProblem[];
}

const text = (record: Rec, path: string): string | undefined => {
  const value = readField(record, path);
  return typeof value === 'string' ? value : undefined;
};

/** Records keyed by their id (read through the mapping) or, when no record has a readable id, by position. */
function keyed(items: readonly Rec[], idPath: string | undefined): { byKey: Map<string, Rec>; positional: boolean } {
  const ids = idPath === undefined ? [] : items.map((r) => readNumber(r, idPath));
  const positional = ids.length === 0 || ids.some((id) => id === undefined);
  const byKey = new Map<string, Rec>();
  items.forEach((r, i) => byKey.set(positional ? `#${i}` : `id ${String(ids[i])}`, r));
  return { byKey, positional };
}

/**
 * Compares the English and the Arabic listing field by field. `idPath` identifies a record (e.g. the SKU id);
 * without readable ids records are matched by position.
 */
export function compareLocalized(
  english: readonly Rec[],
  arabic: readonly Rec[],
  fields: LocalizedFieldMapping,
  idPath?: string,
): LocalizationResult {
  const problems: LocalizationProblem[] = [];
  const en = keyed(english, idPath);
  const ar = keyed(arabic, idPath);
  const missing = [...en.byKey.keys()].filter((k) => !ar.byKey.has(k));
  const extra = [...ar.byKey.keys()].filter((k) => !en.byKey.has(k));
  if (missing.length > 0 || extra.length > 0) {
    problems.push({
      check: 'same-records-localized',
      message: 'the language changed which records came back (only the named fields are localized)',
      expected: `the same ${english.length} records${en.positional ? '' : ' (by id)'}`,
      received: `${arabic.length} records; missing ${missing.slice(0, SHOWN).join(', ') || '-'}; extra ${extra.slice(0, SHOWN).join(', ') || '-'}`,
    });
  }
  const notEnglish: string[] = [];
  const notArabic: string[] = [];
  let compared = 0;
  for (const [key, enRecord] of en.byKey) {
    const arRecord = ar.byKey.get(key);
    for (const [name, path] of Object.entries(fields) as Array<[keyof LocalizedFieldMapping, string]>) {
      const enText = text(enRecord, path);
      if (enText !== undefined && ARABIC.test(enText)) notEnglish.push(`${key} ${name}=${JSON.stringify(enText)}`);
      if (arRecord === undefined || enText === undefined || enText.trim() === '') continue;
      compared += 1;
      const arText = text(arRecord, path);
      if (arText === undefined || arText === enText || !ARABIC.test(arText)) {
        notArabic.push(`${key} ${name}: en ${JSON.stringify(enText)} / ar ${arText === undefined ? 'absent' : JSON.stringify(arText)}`);
      }
    }
  }
  if (notEnglish.length > 0) {
    problems.push({
      check: 'default-english',
      message: `without Accept-Language, ${notEnglish.length} localized field value(s) are not English`,
      expected: 'English text (no Arabic script)',
      received: notEnglish.slice(0, SHOWN).join('; '),
    });
  }
  if (notArabic.length > 0) {
    problems.push({
      check: 'arabic-localized',
      message: `with Accept-Language: ar, ${notArabic.length} of ${compared} localized field values are not Arabic text differing from the English`,
      expected: 'each named field that is non-empty in English: Arabic script, not the English text',
      received: notArabic.slice(0, SHOWN).join('; '),
    });
  }
  return { compared, problems };
}

function compare(ctx: CaseContext, english: Exchange, arabic: Exchange, idPath: (m: FieldMapping) => string): void {
  const ok = [ctx.check(successful, english), ctx.check(successful, arabic)].every(Boolean);
  if (!ok) return;
  const result = compareLocalized(records(english), records(arabic), ctx.mapping.localized, idPath(ctx.mapping));
  for (const problem of result.problems) {
    const on = problem.check === 'default-english' ? english : arabic;
    ctx.fail({ ...problem, operation: on.request.operationId, request: on.request });
  }
  if (result.compared === 0 && result.problems.length === 0) {
    const first = records(english)[0];
    ctx.skip(
      `not verified: no record carries a non-empty value of the six localized fields: ${mappingHint('fieldMapping.localized.skuName (and the five others)', first, ctx.mapping.localized.skuName)}`,
    );
  }
  ctx.note(`${result.compared} (record, field) values compared`);
}

function locCase(
  id: string,
  operationId: string,
  what: string,
  idPath: (m: FieldMapping) => string,
  input: (ctx: CaseContext) => Promise<RequestInput>,
): ConformanceCase {
  return {
    kind: 'scenario',
    id,
    group: 'LOC',
    title: `${what}: with Accept-Language ar each localized field of each record is Arabic; default English; same records`,
    specSection: `${SECTION.versioning} (2); ${SECTION.records}`,
    rule: RULE,
    api: 'v2',
    assumed: ['records are matched by their SKU id (field mapping), else by position'],
    async scenario(ctx) {
      const base = await input(ctx);
      const [english, arabic] = await Promise.all([ctx.call(operationId, base), ctx.call(operationId, { ...base, acceptLanguage: 'ar' })]);
      compare(ctx, english, arabic, idPath);
    },
  };
}

export const LOC_CASES: readonly ConformanceCase[] = [
  locCase(
    'LOC-SKUS',
    'v2.catalog.skus',
    'v2 SKU list',
    (m) => m.v2Sku.skuId,
    async () => ({}),
  ),
  locCase(
    'LOC-GIFTCARDS',
    'v2.catalog.skus-giftcards',
    'v2 gift card SKU list',
    (m) => m.giftcardSku.skuId,
    async () => ({ query: { pageSize: 100 } }),
  ),
  locCase(
    'LOC-LOOKUP',
    'v2.lookup.mobile',
    'v2 mobile lookup',
    (m) => m.v2Sku.skuId,
    async (ctx) => ({
      path: { mobile: need(ctx, (await ctx.fixtures()).mobile('JM'), 'a Jamaica number') },
    }),
  ),
];
