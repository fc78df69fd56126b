// LOOKUP: the sandbox's mobile lookup supports numbers of Jamaica, India, Pakistan and Mexico only; any other
// country's number is not a success. FMT: top-up numbers that break the country's format are rejected, nothing charged.
import type { ApiVersion } from '../../api/operations.ts';
import { notSuccessful, successful } from '../checks.ts';
import { SANDBOX_LOOKUP_COUNTRIES, SPEC_JAMAICA_PLAN } from '../../api/catalog-facts.ts';
import type { CaseContext, ConformanceCase } from '../types.ts';
import { ASSUMED, SECTION, V, VERSIONS, need, rtrTarget, topupBody } from './common.ts';
import { expectNothingCharged } from './len.ts';

const LOOKUP_RULE =
  'Mobile number lookup support: sandbox supports only numbers of four countries (Jamaica, India, Pakistan, Mexico; a number with a valid country code from these).';
const FORMAT_RULE =
  "Mobile top-up in the sandbox accepts any number, but it must follow the country's format (example: Jamaica country code 1876 followed by 7 digits).";

const lookupOp = (version: ApiVersion): string => (version === 'v1' ? 'v1.catalog.lookup-mobile' : 'v2.lookup.mobile');

/** The two countries the spec names beside the four: excluded even in production, so never a sandbox success. */
export const SPEC_NAMED_OTHERS = [
  { code: 'US', name: 'the United States' },
  { code: 'ES', name: 'Spain' },
] as const;

const SUPPORTED_OR_NAMED = new Set<string>([...SANDBOX_LOOKUP_COUNTRIES, ...SPEC_NAMED_OTHERS.map((c) => c.code)]);

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

/** One lookup per country; every one must not be a success. */
async function expectNoneSucceeds(
  ctx: CaseContext,
  version: ApiVersion,
  numbers: ReadonlyArray<{ code: string; mobile: string }>,
): Promise<void> {
  const exchanges = await Promise.all(
    numbers.map(async (n) => ({ ...n, exchange: await ctx.call(lookupOp(version), { path: { mobile: n.mobile } }) })),
  );
  for (const { exchange } of exchanges) ctx.check(notSuccessful, exchange);
  ctx.note(`looked up numbers of ${numbers.map((n) => n.code).join(', ')}`);
}

function namedOtherCase(version: ApiVersion, country: (typeof SPEC_NAMED_OTHERS)[number]): ConformanceCase {
  return {
    kind: 'scenario',
    id: `LOOKUP-${country.code}-${V(version)}`,
    group: 'LOOKUP',
    title: `lookup of a number of ${country.name} (named by the spec, outside the four) is not a success`,
    specSection: SECTION.overview,
    rule: `${LOOKUP_RULE} Production supports all countries except the United States and Spain.`,
    api: version,
    assumed: [ASSUMED.numberPlan],
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const mobile = need(
        ctx,
        fx.countries.some((c) => c.code === country.code) ? fx.mobile(country.code) : undefined,
        `a number of ${country.name} (the catalog lists no ${country.code} with a number plan)`,
      );
      await expectNoneSucceeds(ctx, version, [{ code: country.code, mobile }]);
    },
  };
}

function otherLookupCase(version: ApiVersion): ConformanceCase {
  return {
    kind: 'scenario',
    id: `LOOKUP-OTHER-${V(version)}`,
    group: 'LOOKUP',
    title: 'lookup of a number of every other catalog country (outside the four, the United States and Spain) is not a success',
    specSection: SECTION.overview,
    rule: LOOKUP_RULE,
    api: version,
    assumed: [ASSUMED.numberPlan],
    async scenario(ctx) {
      const fx = await ctx.fixtures();
      const numbers = fx.countries
        .filter((c) => !SUPPORTED_OR_NAMED.has(c.code))
        .map((c) => ({ code: c.code, mobile: fx.mobile(c.code) }))
        .filter((n): n is { code: string; mobile: string } => n.mobile !== undefined);
      if (numbers.length === 0) ctx.skip('the catalog lists no other country with a number plan');
      await expectNoneSucceeds(ctx, version, numbers);
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
  {
    key: 'JM-SHORT',
    title: 'Jamaica 1876 + 6 digits',
    mobile: () => SPEC_JAMAICA_PLAN.prefix + digits(SPEC_JAMAICA_PLAN.nationalLength - 1),
  },
  {
    key: 'JM-LONG',
    title: 'Jamaica 1876 + 8 digits',
    mobile: () => SPEC_JAMAICA_PLAN.prefix + digits(SPEC_JAMAICA_PLAN.nationalLength + 1),
  },
  {
    key: 'JM-ALPHA',
    title: 'Jamaica 1876 + letters',
    mobile: () => `${SPEC_JAMAICA_PLAN.prefix}ab${digits(SPEC_JAMAICA_PLAN.nationalLength - 2)}`,
  },
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
  ...SPEC_NAMED_OTHERS.map((country) => namedOtherCase(version, country)),
  otherLookupCase(version),
]);

export const FMT_CASES: readonly ConformanceCase[] = VERSIONS.flatMap((version) => BAD_NUMBERS.map((bad) => formatCase(version, bad)));
