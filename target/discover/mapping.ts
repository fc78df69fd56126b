// Learns the payload field mapping (api/field-mapping.ts) from a target's own catalog: each key's spelling in the
// records, checked against facts the spec states (SKU 193, its 5.00 USD minimum, 1876, category ids, filters that take ids).
import { DEFAULT_FIELD_MAPPING, FIELD_MAPPING_SECTIONS, categoryIdOf, type FieldMapping } from '../../api/field-mapping.ts';
import { learned, unknown, type Finding } from './findings.ts';
import { resolveKey, spellingIn, type FactMatch } from './evidence.ts';
import { LOOKUP_COUNTRIES, SKU_193 } from './facts.ts';
import { asInteger, leafValue, leavesOf, maxCounterpart, snakePath } from './records.ts';
import type { DiscoveryReader } from './reader.ts';
import { recordsOf } from './reader.ts';
import type { Samples, SectionName } from './samples.ts';

type FactFinder = (ctx: LearnContext) => Promise<FactMatch | undefined> | FactMatch | undefined;

export interface LearnContext {
  readonly reader: DiscoveryReader;
  readonly samples: Samples;
  /** Findings so far, by key (`v2Sku.skuId`): later keys lean on earlier ones (max beside min, products beside SKUs). */
  readonly found: Map<string, Finding>;
}

const topLevel = (record: unknown): { path: string; value: unknown }[] => leavesOf(record).filter((leaf) => !leaf.path.includes('.'));
const text = (value: unknown): string => (Array.isArray(value) ? value.map(String).join(',') : String(value));
const valueOf = (ctx: LearnContext, key: string): string | undefined => {
  const v = ctx.found.get(key)?.value;
  return typeof v === 'string' ? v : undefined;
};

/** Fields of a record a filter may select by: integers other than 0 (ids) or two-letter upper-case codes (ISO country codes). */
function filterCandidates(record: unknown, kind: 'id' | 'country'): string[] {
  const fits = (v: unknown): boolean => (kind === 'id' ? (asInteger(v) ?? 0) > 0 : typeof v === 'string' && /^[A-Z]{2}$/.test(v));
  return topLevel(record)
    .filter((leaf) => fits(leaf.value))
    .map((leaf) => leaf.path);
}

/** Distinct values sent as a filter, at most this many per key: each is one read. */
const FILTER_VALUES_MAX = 10;

/**
 * Fact: the endpoint's filter `param` takes this value (the spec names the parameter). The field whose value, sent as
 * the filter, comes back in every record of the answer is the one the filter selects by.
 */
function filterFact(section: SectionName, operationId: string, param: string, kind: 'id' | 'country'): FactFinder {
  return async (ctx) => {
    const record = ctx.samples.records[section]?.[0];
    if (record === undefined) return undefined;
    const paths = filterCandidates(record, kind);
    const values = [...new Set(paths.map((path) => text(leafValue(record, path))))].slice(0, FILTER_VALUES_MAX);
    const candidates: string[] = [];
    for (const value of values) {
      const answer = recordsOf(await ctx.reader.read(operationId, { query: { [param]: value } }));
      const selected = paths.filter(
        (path) => text(leafValue(record, path)) === value && answer.length > 0 && answer.every((r) => text(leafValue(r, path)) === value),
      );
      candidates.push(...selected);
    }
    return {
      candidates,
      evidence: `${operationId}?${param}=<value> returns only records with that value there (${values.length} values tried)`,
    };
  };
}

/** Fact: SKU 193's record (the spec's SKU) carries `predicate`-matching values at these top-level or nested leaves. */
function sku193Fact(what: string, predicate: (value: unknown) => boolean, deep = false): FactFinder {
  return (ctx) => {
    const record = ctx.samples.sku193[0];
    if (record === undefined) return undefined;
    const leaves = deep ? leavesOf(record) : topLevel(record);
    return {
      candidates: leaves.filter((leaf) => predicate(leaf.value)).map((leaf) => leaf.path),
      evidence: `skus?skuId=193 (the spec's SKU 193) has ${what}`,
    };
  };
}

/** Fact: SKU 193's 5.00 USD minimum ("amount below the minimum of that denomination (5.00 USD)"), less fields other keys claim by name. */
const minimumFact: FactFinder = (ctx) => {
  const record = ctx.samples.sku193[0];
  if (record === undefined) return undefined;
  const claimed = new Set(['minFaceValueInWalletCurrency', 'maxFaceValueInWalletCurrency'].map((k) => valueOf(ctx, `v2Sku.${k}`)));
  const fives = leavesOf(record).filter(
    (leaf) => Number(leaf.value) === SKU_193.minimum && typeof leaf.value !== 'boolean' && !claimed.has(leaf.path),
  );
  return {
    candidates: fives.map((leaf) => leaf.path),
    evidence: `SKU 193's minimum is 5.00 USD (spec, Sandbox simulation triggers); its record has 5 at ${fives.length} field(s) the wallet-currency keys do not claim`,
  };
};

/** Fact: a max bound sits where the min bound's path says max, and is at least the minimum. */
function counterpartFact(minKey: string): FactFinder {
  return (ctx) => {
    const min = valueOf(ctx, minKey);
    const max = min === undefined ? undefined : maxCounterpart(min);
    const record = ctx.samples.sku193[0];
    if (min === undefined || max === undefined || record === undefined) return undefined;
    const ok = Number(leafValue(record, max)) >= Number(leafValue(record, min));
    return { candidates: ok ? [max] : [], evidence: `SKU 193 has ${max} beside ${min} (the min bound's max counterpart)` };
  };
}

/** Fact: category names/ids the spec lists. In SKU records every value is one and two categories at least appear. */
function categoryFact(section: SectionName): FactFinder {
  return (ctx) => {
    const records = ctx.samples.records[section] ?? [];
    const first = records[0];
    if (first === undefined) return undefined;
    const candidates = topLevel(first)
      .map((leaf) => leaf.path)
      .filter((path) => {
        const ids = records.map((r) => categoryIdOf(leafValue(r, path)));
        return ids.every((id) => id !== undefined) && (section === 'giftcardSku' || new Set(ids).size >= 2);
      });
    return {
      candidates,
      evidence: `every ${section} record holds one of the spec's category names or ids (Pin = 1, Rtr = 2, Bill Pay = 4, Sim = 5, Gift Card = 6, eSim = 7) there`,
      ...preferSkuSpelling(ctx, 'category', candidates),
    };
  };
}

/** Fact: getproducts?categoryId=2 (Rtr) returns records whose field names category 2 in every record. */
const productCategoryFact: FactFinder = async (ctx) => {
  const records = recordsOf(await ctx.reader.read('v2.catalog.getproducts', { query: { categoryId: 2 } }));
  const first = records[0];
  if (first === undefined) return undefined;
  const candidates = topLevel(first)
    .map((l) => l.path)
    .filter((path) => records.every((r) => categoryIdOf(leafValue(r, path)) === 2));
  return {
    candidates,
    evidence: 'getproducts?categoryId=2 (Rtr) returns records naming category 2 there',
    ...preferSkuSpelling(ctx, 'category', candidates),
  };
};

function preferSkuSpelling(ctx: LearnContext, field: string, candidates: readonly string[]): { preferred?: string } {
  const sku = valueOf(ctx, `v2Sku.${field}`);
  return sku !== undefined && candidates.includes(sku) ? { preferred: sku } : {};
}

/** Fact: Jamaica (a lookup country the spec names) and its ISO code JM in the countries list. */
function jamaicaFact(what: 'name' | 'iso'): FactFinder {
  return (ctx) => {
    const records = ctx.samples.records.country ?? [];
    const jamaica = records.find((r) => leavesOf(r).some((l) => l.value === 'Jamaica'));
    if (jamaica === undefined) return undefined;
    const want = what === 'name' ? 'Jamaica' : LOOKUP_COUNTRIES[0].iso;
    return {
      candidates: topLevel(jamaica)
        .filter((l) => l.value === want)
        .map((l) => l.path),
      evidence: `the countries record of Jamaica (a lookup country of the spec) has ${want}`,
    };
  };
}

/** The v2 SKU record's spelling, where a section is assumed to share it (gift card records, bundle records). */
function sameAsSku(field: string, skuField = field): FactFinder {
  return (ctx) => {
    const sku = valueOf(ctx, `v2Sku.${skuField}`);
    const records = ctx.samples.records.giftcardSku ?? [];
    if (sku === undefined) return undefined;
    return {
      candidates: records.some((r) => leafValue(r, sku) !== undefined) ? [sku] : [],
      evidence: `the records carry ${sku}, the v2 SKU records' ${skuField}`,
    };
  };
}

const isJm = (v: unknown): boolean => v === 'JM';

/** Fact: v1 sku/description?skuId=<value> answers records whose skuId (as learned there) is that value. */
const v1SkuIdFact: FactFinder = async (ctx) => {
  const record = ctx.samples.records.v1Sku?.[0];
  const descriptionSkuId = valueOf(ctx, 'skuDescription.skuId');
  if (record === undefined || descriptionSkuId === undefined) return undefined;
  const paths = filterCandidates(record, 'id');
  const values = [...new Set(paths.map((path) => text(leafValue(record, path))))].slice(0, FILTER_VALUES_MAX);
  const candidates: string[] = [];
  for (const value of values) {
    const answer = recordsOf(await ctx.reader.read('v1.catalog.sku-description', { query: { skuId: value } }));
    if (answer.length > 0 && answer.every((r) => text(leafValue(r, descriptionSkuId)) === value))
      candidates.push(...paths.filter((p) => text(leafValue(record, p)) === value));
  }
  return {
    candidates,
    evidence: `v1 sku/description?skuId=<value> answers records whose ${descriptionSkuId} is that value (${values.length} values tried)`,
  };
};

/** Fact: a v1 SKU of Jamaica (1876 among its dialing codes, as learned) carries JM, Jamaica's ISO code. */
const v1CountryFact: FactFinder = (ctx) => {
  const dialing = valueOf(ctx, 'v1Sku.internationalCountryCode');
  const record = (ctx.samples.records.v1Sku ?? []).find((r) => dialing !== undefined && has1876(leafValue(r, dialing)));
  if (record === undefined) return undefined;
  return {
    candidates: topLevel(record)
      .filter((l) => isJm(l.value))
      .map((l) => l.path),
    evidence: `a v1 SKU record with 1876 (Jamaica) at ${String(dialing)} has JM there`,
  };
};
const has1876 = (v: unknown): boolean => text(v).split(',').includes(SKU_193.dialingCode);

/** The facts per key; keys without one are learned by the records' spelling alone. Order matters: see LearnContext. */
const FACTS: Readonly<Record<string, FactFinder>> = {
  'v2Sku.skuId': sku193Fact('193 there', (v) => asInteger(v) === SKU_193.skuId),
  'v2Sku.productId': filterFact('v2Sku', 'v2.catalog.skus', 'productId', 'id'),
  'v2Sku.category': categoryFact('v2Sku'),
  'v2Sku.countryCode': sku193Fact('JM (Jamaica, 1876) there', isJm),
  'v2Sku.minFaceValue': minimumFact,
  'v2Sku.maxFaceValue': counterpartFact('v2Sku.minFaceValue'),
  'v2Sku.internationalCountryCode': sku193Fact('1876 (Jamaica) there', has1876, true),
  'giftcardSku.skuId': filterFact('giftcardSku', 'v2.catalog.skus-giftcards', 'skuId', 'id'),
  'giftcardSku.productId': filterFact('giftcardSku', 'v2.catalog.skus-giftcards', 'productId', 'id'),
  'giftcardSku.countryCode': filterFact('giftcardSku', 'v2.catalog.skus-giftcards', 'countryCode', 'country'),
  'giftcardSku.category': categoryFact('giftcardSku'),
  'giftcardSku.minFaceValue': sameAsSku('minFaceValue'),
  'giftcardSku.maxFaceValue': sameAsSku('maxFaceValue'),
  'v1Sku.skuId': v1SkuIdFact,
  'v1Sku.countryCode': v1CountryFact,
  'v1Sku.productId': filterFact('v1Sku', 'v1.catalog.skus', 'productid', 'id'),
  'v1Sku.category': categoryFact('v1Sku'),
  'country.countryName': jamaicaFact('name'),
  'country.countryCode': jamaicaFact('iso'),
  'product.category': productCategoryFact,
  'product.operatorId': filterFact('product', 'v2.catalog.getproducts', 'operatorId', 'id'),
  'product.countryCode': filterFact('product', 'v2.catalog.getproducts', 'countryCode', 'country'),
  'operator.operatorId': filterFact('operator', 'v2.catalog.operators', 'operatorId', 'id'),
  'operator.countryCode': filterFact('operator', 'v2.catalog.operators', 'countryCode', 'country'),
  'carrier.countryCode': filterFact('carrier', 'v1.catalog.carriers', 'countryCode', 'country'),
  'logo.productId': filterFact('logo', 'v1.catalog.sku-logos', 'productId', 'id'),
  'skuDescription.skuId': filterFact('skuDescription', 'v1.catalog.sku-description', 'skuId', 'id'),
};

/** Sections whose records discovery reads elsewhere, or cannot read at all without a transaction. */
const RECORDS_OF: Partial<Record<SectionName, SectionName>> = { localized: 'v2Sku', bundle: 'v2Sku' };
const NOT_READABLE: Partial<Record<SectionName, string>> = {
  transaction:
    'transaction results exist only after a write succeeds, and discovery never charges: learned on the first charge (gate and conformance find the result field the transaction-taking read accepts and echoes, and print its config line), or set fieldMapping.transaction',
  giftcardList: 'envelope field, learned by learnPaging',
};

/** Transaction keys no read takes, so not even a run's first charge can confirm them (target/discover/charge-learning.ts). */
const NOT_LEARNED_ON_CHARGE: Readonly<Record<string, string>> = {
  'transaction.chargedAmount':
    'transaction results exist only after a write succeeds, and discovery never charges; no read takes the charged amount, so not even a first charge confirms it: set fieldMapping.transaction.chargedAmount if the results name it otherwise',
};

function orderedKeys(): [SectionName, string][] {
  const keys: [SectionName, string][] = [];
  for (const section of FIELD_MAPPING_SECTIONS)
    for (const field of Object.keys(DEFAULT_FIELD_MAPPING[section])) keys.push([section, field]);
  // Wallet-currency bounds before the 5.00 minimum (it leaves their fields out); SKU keys before the sections that lean on them.
  const rank = (s: SectionName, f: string): number => {
    if (s === 'v2Sku') return f.endsWith('InWalletCurrency') ? 0 : 1;
    if (s === 'skuDescription') return 2;
    return s === 'v1Sku' && (f === 'skuId' || f === 'countryCode') ? 4 : 3;
  };
  return keys.sort((a, b) => rank(...a) - rank(...b));
}

/** Fewest renamed catalog fields that make a spelling convention (one or two could be chance). */
const CONVENTION_MIN = 5;

/**
 * A key no read can show (transaction results): spelled as the default in snake_case when every catalog field found
 * under another name is exactly that (a convention, said as such: no value confirms it); else unknown.
 */
function byConvention(ctx: LearnContext, key: string, defaultPath: string, why: string): Finding {
  const renamed = [...ctx.found.values()].filter((f) => f.status === 'learned' && f.key.startsWith('fieldMapping.'));
  const snake = renamed.filter((f) => {
    const [, section, field] = f.key.split('.') as [string, SectionName, string];
    const fallback = (DEFAULT_FIELD_MAPPING[section] as unknown as Record<string, string>)[field] ?? '';
    return f.value === snakePath(fallback);
  });
  if (renamed.length < CONVENTION_MIN || snake.length !== renamed.length || snakePath(defaultPath) === defaultPath)
    return unknown(key, defaultPath, why);
  return learned(
    key,
    snakePath(defaultPath),
    `not read: ${why.split(':')[0]}; spelled by the catalog's convention (all ${renamed.length} catalog fields found under another name are their default in snake_case), confirmed by no value`,
  );
}

/** A fact's candidates less the fields other keys of the section already hold (a field answers one key). */
function withoutClaimed(fact: FactMatch | undefined, ctx: LearnContext, section: SectionName): FactMatch | undefined {
  if (fact === undefined) return undefined;
  const claimed = new Set(
    [...ctx.found.entries()]
      .filter(([k, f]) => k.startsWith(`${section}.`) && f.status !== 'unknown' && f.status !== 'ambiguous')
      .map(([, f]) => f.value),
  );
  return { ...fact, candidates: fact.candidates.filter((c) => !claimed.has(c)) };
}

export async function learnMapping(reader: DiscoveryReader, samples: Samples): Promise<Finding[]> {
  const ctx: LearnContext = { reader, samples, found: new Map() };
  for (const [section, field] of orderedKeys()) {
    const key = `${section}.${field}`;
    const defaultPath = (DEFAULT_FIELD_MAPPING[section] as unknown as Record<string, string>)[field] as string;
    const notReadable = NOT_READABLE[section];
    if (notReadable !== undefined) {
      if (section !== 'giftcardList')
        ctx.found.set(key, byConvention(ctx, `fieldMapping.${key}`, defaultPath, NOT_LEARNED_ON_CHARGE[key] ?? notReadable));
      continue;
    }
    const records = samples.records[RECORDS_OF[section] ?? section] ?? [];
    const fact = withoutClaimed(await FACTS[key]?.(ctx), ctx, section);
    const where = `${records.length} ${RECORDS_OF[section] ?? section} records`;
    ctx.found.set(key, resolveKey(`fieldMapping.${key}`, defaultPath, spellingIn(records, defaultPath), where, fact));
  }
  return [...ctx.found.values()];
}

export type { FieldMapping };
