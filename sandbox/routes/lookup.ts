// Mobile number lookup (v1 catalog/lookup/mobile, v2 lookup/mobile). Spec: the sandbox supports only numbers of
// Jamaica, India, Pakistan and Mexico; production all countries except the United States and Spain.
import { lookupNumber } from '../data/lookup.ts';
import { countryOfNumber, isValidNumberForCountry } from '../data/number-plan.ts';
import type { RouteReply } from '../envelope.ts';
import { successWith } from '../envelope.ts';
import type { RouteContext, RouteTable } from './context.ts';
import { fail, stringArg } from './context.ts';

function lookup(ctx: RouteContext): RouteReply {
  const { env } = ctx;
  const mobile = stringArg(ctx, 'mobile') ?? '';
  const country = countryOfNumber(env.data, mobile);
  if (country === undefined) return fail(env, 'invalidNumber', 'The Subscriber number is not valid: no country matches its country code');
  const { sandbox, productionExcluded } = env.behaviour.lookupCountries;
  const supported = env.mode === 'sandbox' ? sandbox.includes(country.countryCode) : !productionExcluded.includes(country.countryCode);
  if (!supported) {
    const rule =
      env.mode === 'sandbox'
        ? `the sandbox supports only numbers of ${sandbox.join(', ')}`
        : `numbers of ${productionExcluded.join(', ')} are not supported`;
    return fail(env, 'lookupUnsupported', `Mobile number lookup is not supported for ${country.countryName}: ${rule}`);
  }
  if (!isValidNumberForCountry(country, mobile)) {
    return fail(env, 'invalidNumber', `The Subscriber number is not valid for ${country.countryName}`);
  }
  const result = lookupNumber(env.data, mobile);
  if (result === undefined) return fail(env, 'lookupUnsupported', `No operator of ${country.countryName} is known for this number`);
  // The payload depends only on the operator (and language), so it is cached per operator, not per number.
  return env.cache.reply(`${ctx.op.id}|${ctx.lang}|op=${result.operator.operatorId}`, () =>
    successWith(env.codes, ctx.op.version === 'v1' ? result.v1 : result.v2[ctx.lang]),
  );
}

export const LOOKUP_ROUTES: RouteTable = {
  'v1.catalog.lookup-mobile': lookup,
  'v2.lookup.mobile': lookup,
};
