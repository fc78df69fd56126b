// LOOKUP: the sandbox's mobile lookup supports numbers of Jamaica, India, Pakistan and Mexico only; any other
// country's number is not a success. FMT: top-up numbers that break the country's format are rejected, nothing charged.
import type { ApiVersion } from '../../api/operations.ts';
import { notSuccessful, successful } from '../checks.ts';
import { SANDBOX_LOOKUP_COUNTRIES, SPEC_JAMAICA_PLAN, type Fixtures } from '../fixtures.ts';
import type { CaseContext, ConformanceCase } from '../types.ts';
import { ASSUMED, SECTION, V, VERSIONS, need, rtrTarget, topupBody } from './common.ts';
import { expectNothingCharged } from './len.ts';

const LOOKUP_RULE =
  'Mobile number lookup support: sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico; a number with a valid country code from these).';
const FORMAT_RULE =
  "Mobile top-up in the sandbox accepts any number, but it must follow the country's format (example: Jamaica country code 1876 followed by 7 digits).";

const lookupOp = (version: ApiVersion): string => (version === 'v1' ? 'v1.catalog.lookup-mobile' : 'v2.lookup.mobile');

/** A country outside the four whose dialing prefix cannot be mistaken for theirs (Spain first: named by the spec). */
function otherCountry(ctx: CaseContext, fx: Fixtures): { code: string; mobile: string } {
  const supported = SANDBOX_LOOKUP_COUNTRIES.map((c) => fx.plan(c)?.prefix).filter((p): p is string => p !== undefined);
  const candidates = [...fx.countries].sort((a, b) => Number(b.code === 'ES') - Number(a.code === 'ES'));
  for (const country of candidates) {
    if ((SANDBOX_LOOKUP_COUNTRIES as readonly string[]).includes(country.code) || country.plan === undefined) continue;
    const prefix = country.plan.prefix;
    if (supported.some((p) => p.startsWith(prefix) || prefix.startsWith(p))) continue;
    const mobile = fx.mobile(country.code);
    if (mobile !== undefined) return { code: country.code, mobile };
  }
  return ctx.skip('the catalog lists no other country with a number plan distinct from JM/IN/PK/MX');
}

function lookupCase(version: ApiVersion, code: string): ConformanceCase {
  return {
    kind: 'scenario',
    id: `LOOKUP-${code}-${V(version)}`,
    group: 'LOOKUP',
    title: `lookup of a ${code} number succeeds`,
    specSection: SECTION.overview,
    rule: LOOKUP_RULE,
    api: version,
    ...(code === 'JM' ? {} : { assumed: [ASSUMED.numberPlan] }),
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const mobile = need(ctx, fx.mobile(code), `a number plan for ${code}`);
      ctx.check(successful, await ctx.call(lookupOp(version), { path: { mobile } }));
    },
  };
}

function otherLookupCase(version: ApiVersion): ConformanceCase {
  return {
    kind: 'scenario',
    id: `LOOKUP-OTHER-${V(version)}`,
    group: 'LOOKUP',
    title: 'lookup of a number of another country is not a success',
    specSection: SECTION.overview,
    rule: LOOKUP_RULE,
    api: version,
    assumed: [ASSUMED.numberPlan],
    async scenario(ctx) {
      const { code, mobile } = otherCountry(ctx, await ctx.fixtures());
      ctx.note(`looked up a ${code} number`);
      ctx.check(notSuccessful, await ctx.call(lookupOp(version), { path: { mobile } }));
    },
  };
}

interface BadNumber {
  readonly key: string;
  readonly title: string;
  /** Builds the malformed number; Jamaica's plan is the spec's own example. */
  readonly mobile: () => string;
}

const digits = (n: number): string => Array.from({ length: n }, () => String(1 + Math.floor(Math.random() * 4))).join('');

const BAD_NUMBERS: readonly BadNumber[] = [
  { key: 'JM-SHORT', title: 'Jamaica 1876 + 6 digits', mobile: () => SPEC_JAMAICA_PLAN.prefix + digits(SPEC_JAMAICA_PLAN.nationalLength - 1) },
  { key: 'JM-LONG', title: 'Jamaica 1876 + 8 digits', mobile: () => SPEC_JAMAICA_PLAN.prefix + digits(SPEC_JAMAICA_PLAN.nationalLength + 1) },
  { key: 'JM-ALPHA', title: 'Jamaica 1876 + letters', mobile: () => `${SPEC_JAMAICA_PLAN.prefix}ab${digits(SPEC_JAMAICA_PLAN.nationalLength - 2)}` },
];

function formatCase(version: ApiVersion, bad: BadNumber): ConformanceCase {
  return {
    kind: 'scenario',
    id: `FMT-${bad.key}-${V(version)}`,
    group: 'FMT',
    title: `top-up to ${bad.title} (Jamaica RTR SKU) is rejected, nothing charged`,
    specSection: SECTION.overview,
    rule: FORMAT_RULE,
    api: version,
    exclusive: true,
    assumed: [ASSUMED.skuFields],
    async scenario(ctx) {
      const { sku } = rtrTarget(ctx, await ctx.fixtures(), ['JM']);
      const body = topupBody(ctx, sku, bad.mobile());
      await expectNothingCharged(ctx, version, `${version}.transaction.topup`, body, { statusCheck: true });
    },
  };
}

export const LOOKUP_CASES: readonly ConformanceCase[] = VERSIONS.flatMap((version) => [
  ...SANDBOX_LOOKUP_COUNTRIES.map((code) => lookupCase(version, code)),
  otherLookupCase(version),
]);

export const FMT_CASES: readonly ConformanceCase[] = VERSIONS.flatMap((version) => BAD_NUMBERS.map((bad) => formatCase(version, bad)));
