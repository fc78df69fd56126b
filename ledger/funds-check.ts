// The reads behind ledger/funds.ts: the balance, the price book and the catalog's SKUs per category, then the plan
// priced against the funds. Every command that charges calls it once (Node side), before its first charging request.
import { readCatalogSkus, type CatalogSku } from '../api/catalog-facts.ts';
import type { ClientCore } from '../api/client-core.ts';
import type { GatewayResponse } from '../api/envelope.ts';
import type { FieldMapping } from '../api/field-mapping.ts';
import { CATEGORY_IDS, type Operation } from '../api/operations.ts';
import { giftcardCursorOf, type ResolvedTargetConfig, type WalletTerms } from '../api/target-config.ts';
import type { GiftcardCursorMeaning } from '../api/giftcard-paging.ts';
import { createGatewayClient } from '../client/gateway-client.ts';
import { harnessClientConfig } from './money-session.ts';
import { fitPlan, fundsLine, readFunds, type FundsPlan, type PricedPlan, type SkusOf } from './funds.ts';
import { readBalance, readPriceBook } from './read-prices.ts';

export interface FundsCheck {
  readonly client: Pick<ClientCore, 'call'>;
  readonly mapping: FieldMapping;
  readonly balanceVersion: 'v1' | 'v2';
  readonly terms?: WalletTerms;
  readonly plan: FundsPlan;
  /** How the gift card list's pages are walked (paging.giftcardCursor); default the spec's definition. */
  readonly cursor?: GiftcardCursorMeaning;
}

async function records(client: Pick<ClientCore, 'call'>, operationId: string, query?: Record<string, number>): Promise<unknown[]> {
  const { response } = await client.call(operationId, query === undefined ? {} : { query });
  const payLoad = response.envelope?.payLoad;
  return response.classification.outcome === 'Successful' && Array.isArray(payLoad) ? payLoad : [];
}

/** The SKUs of each operation's input rule category (v2 SKUs; gift cards from the first page of their list). */
export async function readSkusOf(client: Pick<ClientCore, 'call'>, mapping: FieldMapping): Promise<SkusOf> {
  const skus = readCatalogSkus(await records(client, 'v2.catalog.skus'), 'v2', mapping);
  const giftcards = readCatalogSkus(await records(client, 'v2.catalog.skus-giftcards', { pageSize: 100 }), 'giftcard', mapping);
  return (op: Operation): readonly CatalogSku[] => {
    const category = op.inputs?.sku?.category;
    if (category === undefined) return [];
    if (category === 'any') return [...skus, ...giftcards];
    return category === 'Gift Card' ? giftcards : skus.filter((s) => s.categoryId === CATEGORY_IDS[category]);
  };
}

/** What the check decided: the line to say, and the value each elastic part of the plan runs with. */
export interface FundsDecision {
  readonly line: string;
  /** Every elastic part's value (its full value when nothing was cut); empty when the plan has none or was not priced. */
  readonly values: ReadonlyMap<string, number>;
  /** What was cut to fit the wallet, and why, in words (for the report); empty when nothing. */
  readonly cuts: readonly string[];
}

/**
 * Reads the balance, prices the plan from the target's catalog and fits it to the funds (ledger/funds.ts fitPlan):
 * elastic parts cut when the whole plan does not fit, GH_ERR_FUNDS (exit 2) thrown when even the smallest does not.
 * Reads only: nothing charging has been sent when it throws.
 */
export async function checkFunds(check: FundsCheck): Promise<FundsDecision & { readonly priced: PricedPlan }> {
  const funds = readFunds(await readBalance(check.client, check.balanceVersion), check.terms);
  const prices = (await readPriceBook(check.client, check.mapping, check.cursor)).book;
  const skusOf = await readSkusOf(check.client, check.mapping);
  const fitted = fitPlan(check.plan, skusOf, prices, prices.wallet ?? 'wallet currency', funds);
  return {
    line: fundsLine(fitted.plan, fitted.priced, funds, fitted.cuts),
    priced: fitted.priced,
    values: fitted.values,
    cuts: fitted.cuts,
  };
}

/**
 * The check on the command's own short-lived client (the harness's real-time floors): the decision, or GH_ERR_FUNDS
 * thrown. A plan with nothing to price (no charging request, or bounded by time only) reads nothing and says so.
 */
export async function checkTargetFunds(
  config: ResolvedTargetConfig,
  plan: FundsPlan,
  balanceVersion: 'v1' | 'v2',
  onResponse?: (response: GatewayResponse) => void,
  stop?: AbortSignal,
): Promise<FundsDecision> {
  if (plan.lines.length === 0) {
    return {
      line: plan.unbounded.length === 0 ? `money: ${plan.what} sends nothing that charges` : `money: ${plan.unbounded.join('; ')}`,
      values: new Map(),
      cuts: [],
    };
  }
  // Its responses count with the command's (the fault tally: every response that was no gateway answer is counted).
  // A target silent after the preflight ends the check in a few response timeouts; a signal (`stop`) ends it at once.
  const client = createGatewayClient(harnessClientConfig(config), {
    ...(onResponse === undefined ? {} : { hooks: { afterResponse: (exchange) => onResponse(exchange.response) } }),
    silentPhase: 'the funds check',
    ...(stop === undefined ? {} : { signal: stop }),
  });
  try {
    const check = { client, mapping: config.fieldMapping, balanceVersion, plan, cursor: giftcardCursorOf(config) };
    const { line, values, cuts } = await checkFunds(config.walletTerms === undefined ? check : { ...check, terms: config.walletTerms });
    return { line, values, cuts };
  } finally {
    await client.close();
  }
}
