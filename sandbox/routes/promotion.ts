// Current and upcoming promotions (v1 under catalog/, v2 without it); dates are in the destination's time zone,
// computed by the data generator. Served from the listing cache: the list never changes while the sandbox runs.
import type { RouteContext, RouteTable } from './context.ts';
import { listingKey, ok } from './context.ts';

const current = (ctx: RouteContext): ReturnType<typeof ok> =>
  ctx.env.cache.reply(listingKey(ctx), () => ok(ctx.env, ctx.env.data.promotions.current).envelope);
const upcoming = (ctx: RouteContext): ReturnType<typeof ok> =>
  ctx.env.cache.reply(listingKey(ctx), () => ok(ctx.env, ctx.env.data.promotions.upcoming).envelope);

export const PROMOTION_ROUTES: RouteTable = {
  'v1.catalog.promotion-current': current,
  'v1.catalog.promotion-upcoming': upcoming,
  'v2.promotion.current': current,
  'v2.promotion.upcoming': upcoming,
};
