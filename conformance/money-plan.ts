// The money of a conformance run, known before it starts: for every selected case, the most charging requests it sends
// when the gateway follows the spec, and at which amounts — priced against the wallet by ledger/funds.ts.
import { getOperation, OPERATIONS, type ApiVersion, type Operation } from '../api/operations.ts';
import { needsTransaction, prerequisiteWrite } from '../api/inputs.ts';
import type { ElasticPart, FundsLine, FundsPlan, PlannedAmount } from '../ledger/funds.ts';
import type { ConformanceSettings } from '../target/settings.ts';
import { chargingRuns, type GenOptions } from './gen/options.ts';
import { chargingWrites, moneyQuota } from './gen/money.ts';
import { GEN_MONEY_SKUS, amountBounds } from './gen/arbitraries.ts';
import { genWriteId, spendsCheaply, validRuns } from './gen/writes.ts';
import type { ConformanceCase } from './types.ts';
import { triggerCaseOperation, TRIGGERS, type TriggerSpec } from './cases/trg.ts';
import { amountBody, amountCandidates, amountPick, type Boundary, type Currency } from './cases/amount.ts';
import { faceSkuOf } from './cases/cur.ts';
import {
  CHEAP_AMOUNT_SPAN,
  SANDBOX_LOOKUP_COUNTRIES,
  cheapestSkus,
  faceAmount,
  rtrSkusOf,
  validAmount,
  type CatalogSku,
} from '../api/catalog-facts.ts';

const write = (version: ApiVersion, purpose: string): Operation => getOperation(`${version}.${purpose}`);

interface Need {
  readonly purposes: readonly string[];
  readonly count: number;
  readonly amount: PlannedAmount;
  /** The count follows an elastic part of the plan (GEN_CHARGING, POLL_TOPUPS): its count at the part's value. */
  readonly elastic?: FundsLine['elastic'];
}

/** The elastic parts of a conformance plan: what a wallet too small for the whole plan cuts first. */
const GEN_CHARGING = 'GEN charging budget';
const POLL_TOPUPS = 'POLL top-ups';
/** The fewest POLL top-ups the case is meaningful with (settings pollLoadTransactions minimum). */
const POLL_MIN = 6;

const one = (purpose: string, amount: PlannedAmount = 'first'): Need[] => [{ purposes: [purpose], count: 1, amount }];

type Body = Readonly<Record<string, unknown>>;
const picks = (pick: (skus: readonly CatalogSku[], numbered: boolean) => Body[]): PlannedAmount => ({ picks: pick });

/**
 * What a case that takes the first country (in `countries`' order) with a fitting SKU sends: with the countries that
 * have numbers known (`numbered`: the SKUs given are theirs), its one pick; else one pick per country alone, since the
 * case takes one of those whichever countries the target gives numbers for.
 */
function eachWay(countries: readonly string[], numbered: boolean, pickIn: (countries: readonly string[]) => Body | undefined): Body[] {
  const bodies = numbered ? [pickIn(countries)] : countries.map((code) => pickIn([code]));
  return bodies.filter((b): b is Body => b !== undefined);
}

/** An RTR SKU at its smallest amount as `rtrTarget` (conformance/cases/common.ts) takes it. */
function rtrBodies(skus: readonly CatalogSku[], countries: readonly string[], numbered: boolean): Body[] {
  return eachWay(countries, numbered, (cs) => {
    const sku = cs.map((code) => rtrSkusOf(skus, code)[0]).find((s) => s !== undefined);
    return sku === undefined ? undefined : { skuId: sku.skuId, ...validAmount(sku) };
  });
}
const rtrPicks = (countries: readonly string[]): PlannedAmount => picks((skus, numbered) => rtrBodies(skus, countries, numbered));

/** The trigger row's own body when it names its SKU and amount (the 001 row), else an ordinary RTR top-up's. */
function triggerPicks(trigger: TriggerSpec | undefined, settings: ConformanceSettings): PlannedAmount {
  if (trigger?.match.skuId === undefined) return rtrPicks(SANDBOX_LOOKUP_COUNTRIES);
  return { body: { skuId: trigger.match.skuId, amount: settings.trigger001Amount } };
}

const triggerOf = (key: string | undefined): TriggerSpec | undefined => TRIGGERS.find((t) => t.key === key);

/** AMOUNT-<currency>-AT-<bound>: the candidate the case takes (cases/amount.ts) among the lookup countries. */
function amountPicks(currency: Currency, boundary: Boundary): PlannedAmount {
  return picks((skus, numbered) =>
    eachWay(SANDBOX_LOOKUP_COUNTRIES, numbered, (cs) => {
      const pick = amountPick(
        amountCandidates((code) => rtrSkusOf(skus, code), cs, currency),
        currency,
        boundary,
      );
      return pick === undefined ? undefined : amountBody(pick, boundary);
    }),
  );
}

/** CUR-TOPUP-FACE: the first face-amount RTR SKU of the lookup countries (cases/cur.ts), at its face amount. */
const facePicks = picks((skus, numbered) =>
  eachWay(SANDBOX_LOOKUP_COUNTRIES, numbered, (cs) => {
    const sku = cs.map((code) => faceSkuOf(rtrSkusOf(skus, code))).find((s) => s !== undefined);
    return sku === undefined ? undefined : { skuId: sku.skuId, ...faceAmount(sku) };
  }),
);

/**
 * GEN's charging writes: one of the GEN_MONEY_SKUS cheapest SKUs a valid body can be built for (gen/writes.ts
 * writeSkus: no bundle, readable bounds, a country with numbers), up to CHEAP_AMOUNT_SPAN above the smallest amount.
 * Without the countries known: among twice as many of the category's cheapest.
 */
const genPicks = picks((skus, numbered) => {
  const pool = numbered
    ? cheapestSkus(
        skus.filter((s) => s.requireFetchBundle !== true && amountBounds(s) !== undefined),
        GEN_MONEY_SKUS,
      )
    : cheapestSkus(skus, GEN_MONEY_SKUS * 2);
  return pool.map((sku) => {
    const valid = validAmount(sku);
    return { skuId: sku.skuId, ...(valid === undefined ? {} : { ...valid, amount: valid.amount + CHEAP_AMOUNT_SPAN }) };
  });
});

/** GIFT-852: the gift card list's first SKU with a readable amount (cases/gift.ts), at its smallest amount. */
const firstGiftcard = picks((skus) => {
  const sku = skus.find((s) => validAmount(s) !== undefined);
  return sku === undefined ? [] : [{ skuId: sku.skuId, ...validAmount(sku) }];
});

/**
 * Scenario cases that charge, by id: what each sends when the gateway follows the spec, priced at the SKU and amount
 * the case itself takes. A request the spec says is refused (a broken rule, an amount outside the bounds, a length
 * over its limit) is counted where the case sends it as valid only; a sandbox trigger's request is counted (a target
 * without the trigger charges it). A failing GEN property shrinks with more requests (bounded by its time limit, not
 * by count): not counted.
 */
const SCENARIO_NEEDS: ReadonlyArray<readonly [RegExp, (settings: ConformanceSettings, gen: GenOptions | undefined, id: string) => Need[]]> =
  [
    [
      /^POLL-MIXED-/,
      (s) => [
        {
          purposes: ['transaction.topup'],
          count: s.pollLoadTransactions,
          // Ordinary top-ups of each lookup country first, and the spec's trigger rows (cases/poll.ts).
          amount: picks((skus, numbered) => [
            ...SANDBOX_LOOKUP_COUNTRIES.flatMap((code) => rtrBodies(skus, [code, ...SANDBOX_LOOKUP_COUNTRIES], numbered)),
            ...TRIGGERS.flatMap((t) => (t.match.skuId === undefined ? [] : [{ skuId: t.match.skuId, amount: s.trigger001Amount }])),
          ]),
          elastic: { part: POLL_TOPUPS, count: (n) => n },
        },
      ],
    ],
    // Each charging write within its quota of the case (cut with the GEN charging budget), among its category's cheapest SKUs.
    [
      /^GEN-MONEY-SEQUENCE-/,
      (_s, gen) =>
        gen === undefined
          ? []
          : chargingWrites('v2').map((op) => ({
              purposes: [op.purpose],
              count: moneyQuota(gen, op),
              amount: genPicks,
              elastic: { part: GEN_CHARGING, count: (runs: number) => moneyQuota({ ...gen, chargingRuns: runs }, op) },
            })),
    ],
    // GEN-AUTH: the top-up's right credentials charge once a run; the status check reads a top-up it made first.
    [
      /^GEN-AUTH-v[12]\.transaction\.topup$/,
      (_s, gen) => [
        {
          purposes: ['transaction.topup'],
          count: gen === undefined ? 0 : chargingRuns(gen),
          amount: 'first',
          elastic: { part: GEN_CHARGING, count: (runs) => runs },
        },
      ],
    ],
    [/^GEN-AUTH-v[12]\.transaction\.status$/, () => one('transaction.topup')],
    // A bound itself: the SKU the case takes at that bound. A loan on top of a bundle's face value: the loan amount is
    // the target's (bundles endpoint), so the case sends it only within its spend limit (cases/loan.ts), priced here.
    [/^AMOUNT-(WALLET|FACE)-AT-(MIN|MAX)-/, (_s, _g, id) => one('transaction.topup', amountPicks(amountCurrency(id), amountBoundary(id)))],
    [/^LOAN-/, (s) => one('transaction.topup', { body: { amount: s.loanSpendLimit } })],
    [/^CUR-TOPUP-FACE-/, () => one('transaction.topup', facePicks)],
    // LEN: the lengths within the limit charge; the ones over it are refused (conformance/cases/len.ts within/over).
    [/^BAL-CHARGE-|^LEN-CORR-(1|50)-|^LEN-PIN-6-/, () => one('transaction.topup', rtrPicks(SANDBOX_LOOKUP_COUNTRIES))],
    [/^STATUS-TOPUP-000-/, () => one('transaction.topup')],
    [/^STATUS-TOPUP-/, (s, _g, id) => one('transaction.topup', triggerPicks(triggerOf(/^STATUS-TOPUP-(\d+)-/.exec(id)?.[1]), s))],
    [/^LEN-BILLCUR-3-/, () => one('transaction.billpay', 'face')],
    [/^LEN-AREA-3-/, () => one('transaction.sim-portin')],
    [/^STATUS-PIN-/, () => one('transaction.pin')],
    [/^STATUS-GIFTCARD-/, () => one('transaction.giftcard')],
    [/^GIFT-852-/, () => one('transaction.giftcard', firstGiftcard)],
  ];

const amountCurrency = (id: string): Currency => (id.startsWith('AMOUNT-FACE-') ? 'FACE' : 'WALLET');
const amountBoundary = (id: string): Boundary => (id.includes('-AT-MAX-') ? 'AT-MAX' : 'AT-MIN');

/** ENV-<operation>: the operation itself when it charges, or the write a linked read is prepared with. */
function envNeeds(testCase: ConformanceCase): Need[] {
  const op = OPERATIONS.find((o) => `ENV-${o.id}` === testCase.id);
  if (op === undefined) return [];
  if (op.charges) return one(op.purpose);
  const prior = needsTransaction(op) ? prerequisiteWrite(op) : undefined;
  return prior === undefined ? [] : one(prior.purpose);
}

/** GEN-<write>-VALID-<V>: every charging write's valid space, a charge a run at the cheap end of its cheapest SKUs' bounds. */
function genValidNeeds(testCase: ConformanceCase, gen: GenOptions | undefined): Need[] {
  const op = OPERATIONS.find((o) => o.charges && o.version === testCase.api && genWriteId(o, 'VALID') === testCase.id);
  if (op === undefined || gen === undefined) return [];
  const amount: PlannedAmount = spendsCheaply(op) ? genPicks : 'near-smallest';
  return [
    {
      purposes: [op.purpose],
      count: validRuns(gen, op),
      amount,
      elastic: { part: GEN_CHARGING, count: (runs) => validRuns({ ...gen, chargingRuns: runs }, op) },
    },
  ];
}

/**
 * TRG-<key>-<V>: the write whose trigger row it checks, once: a top-up at the row's own body or as an ordinary top-up
 * (cases/trg.ts triggerBody); another write's row at the builder's picks.
 */
function triggerNeeds(testCase: ConformanceCase, settings: ConformanceSettings): Need[] {
  const op = triggerCaseOperation(testCase.id);
  if (op === undefined) return [];
  if (op.purpose !== 'transaction.topup') return one(op.purpose, 'smallest');
  return one(op.purpose, triggerPicks(triggerOf(/^TRG-(.+)-V[12]$/.exec(testCase.id)?.[1]), settings));
}

/** What one case sends that charges (empty when nothing). */
export function caseNeeds(testCase: ConformanceCase, settings: ConformanceSettings, gen: GenOptions | undefined): Need[] {
  if (testCase.kind === 'request')
    return getOperation(testCase.operationId).charges ? one(getOperation(testCase.operationId).purpose, 'smallest') : [];
  if (testCase.id.startsWith('ENV-')) return envNeeds(testCase);
  if (testCase.id.startsWith('TRG-')) return triggerNeeds(testCase, settings);
  if (/^GEN-.*-VALID-V[12]$/.test(testCase.id)) return genValidNeeds(testCase, gen);
  const rule = SCENARIO_NEEDS.find(([match]) => match.test(testCase.id));
  return rule === undefined ? [] : rule[1](settings, gen, testCase.id);
}

/** The run's plan: one line per case that charges, in the case's version. */
export function conformanceFundsLines(
  cases: readonly ConformanceCase[],
  settings: ConformanceSettings,
  gen: GenOptions | undefined,
): FundsLine[] {
  return cases.flatMap((c) =>
    caseNeeds(c, settings, gen)
      .filter((need) => need.count > 0)
      .map((need) => ({
        operations: need.purposes.map((p) => write(c.api, p)),
        count: need.count,
        amount: need.amount,
        what: c.id,
        numbered: true,
        ...(need.elastic === undefined ? {} : { elastic: need.elastic }),
      })),
  );
}

/** The conformance plan of a command ("conformance", "gate"): its elastic parts, and what a smaller one is, in words. */
export function conformanceFundsPlan(
  what: string,
  cases: readonly ConformanceCase[],
  settings: ConformanceSettings,
  gen: GenOptions | undefined,
): FundsPlan {
  const timeBound = gen !== undefined && gen.budget.runs >= 100_000;
  const lines = conformanceFundsLines(cases, settings, gen).filter((line) => !(timeBound && line.what.startsWith('GEN-')));
  const has = (part: string): boolean => lines.some((l) => l.elastic?.part === part);
  const elastic: ElasticPart[] = [
    ...(gen !== undefined && has(GEN_CHARGING)
      ? [{ part: GEN_CHARGING, full: chargingRuns(gen), min: 1, unit: 'runs per charging property' }]
      : []),
    ...(has(POLL_TOPUPS)
      ? [
          {
            part: POLL_TOPUPS,
            full: settings.pollLoadTransactions,
            min: Math.min(POLL_MIN, settings.pollLoadTransactions),
            unit: 'top-ups per version',
          },
        ]
      : []),
  ];
  return {
    what,
    lines,
    unbounded: timeBound ? ['GEN with a time budget only (--gen-budget <duration>): its runs are bounded by time'] : [],
    smaller: 'fewer GEN runs (--gen-budget 5) or fewer POLL top-ups (settings pollLoadTransactions)',
    elastic,
  };
}

/** The GEN options and settings of a plan the wallet fitted (ledger/funds.ts fitPlan values): what the run executes. */
export function fittedRun(
  values: ReadonlyMap<string, number>,
  gen: GenOptions | undefined,
  settings: ConformanceSettings,
): { gen: GenOptions | undefined; settings: ConformanceSettings } {
  const runs = values.get(GEN_CHARGING);
  const poll = values.get(POLL_TOPUPS);
  return {
    gen: gen === undefined || runs === undefined ? gen : { ...gen, chargingRuns: runs },
    settings: poll === undefined ? settings : { ...settings, pollLoadTransactions: poll },
  };
}
