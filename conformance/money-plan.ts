// The money of a conformance run, known before it starts: for every selected case, the most charging requests it sends
// when the gateway follows the spec, and at which amounts — priced against the wallet by ledger/funds.ts.
import { getOperation, OPERATIONS, type ApiVersion, type Operation } from '../api/operations.ts';
import { needsTransaction, prerequisiteWrite } from '../api/inputs.ts';
import type { ElasticPart, FundsLine, FundsPlan, PlannedAmount } from '../ledger/funds.ts';
import type { ConformanceSettings } from '../target/settings.ts';
import { chargingRuns, type GenOptions } from './gen/options.ts';
import { chargingWrites, moneyQuota } from './gen/money.ts';
import { GEN_MONEY_SKUS } from './gen/arbitraries.ts';
import { genWriteId, spendsCheaply, validRuns } from './gen/writes.ts';
import type { ConformanceCase } from './types.ts';
import { triggerCaseOperation } from './cases/trg.ts';

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

const one = (purpose: string, amount: PlannedAmount = 'smallest'): Need[] => [{ purposes: [purpose], count: 1, amount }];

/**
 * Scenario cases that charge, by id: what each sends when the gateway follows the spec. A request the spec says is
 * refused (a trigger, a broken rule, an amount outside the bounds) is counted where the case sends it as valid only.
 * A failing GEN property shrinks with more requests (bounded by its time limit, not by count): not counted.
 */
const SCENARIO_NEEDS: ReadonlyArray<readonly [RegExp, (settings: ConformanceSettings, gen: GenOptions | undefined) => Need[]]> = [
  [
    /^POLL-MIXED-/,
    (s) => [
      {
        purposes: ['transaction.topup'],
        count: s.pollLoadTransactions,
        amount: 'smallest',
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
            amount: { cheapest: GEN_MONEY_SKUS },
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
        amount: 'smallest',
        elastic: { part: GEN_CHARGING, count: (runs) => runs },
      },
    ],
  ],
  [/^GEN-AUTH-v[12]\.transaction\.status$/, () => one('transaction.topup')],
  // A bound itself, a face value amount, a loan on top of the face value: up to the SKU's highest price.
  [/^AMOUNT-.*-AT-MAX-|^LOAN-/, () => one('transaction.topup', 'highest')],
  [/^CUR-TOPUP-FACE-/, () => one('transaction.topup', 'face')],
  // LEN: the lengths within the limit charge; the ones over it are refused (conformance/cases/len.ts within/over).
  [/^AMOUNT-.*-AT-MIN-|^BAL-CHARGE-|^LEN-CORR-(1|50)-|^LEN-PIN-6-|^STATUS-TOPUP-/, () => one('transaction.topup')],
  [/^LEN-BILLCUR-3-/, () => one('transaction.billpay', 'face')],
  [/^LEN-AREA-3-/, () => one('transaction.sim-portin')],
  [/^STATUS-PIN-/, () => one('transaction.pin')],
  [/^STATUS-GIFTCARD-|^GIFT-852-/, () => one('transaction.giftcard')],
];

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
  const amount: PlannedAmount = spendsCheaply(op) ? { cheapest: GEN_MONEY_SKUS } : 'near-smallest';
  return [
    {
      purposes: [op.purpose],
      count: validRuns(gen, op),
      amount,
      elastic: { part: GEN_CHARGING, count: (runs) => validRuns({ ...gen, chargingRuns: runs }, op) },
    },
  ];
}

/** TRG-<key>-<V>: the write whose trigger row it checks, once. */
function triggerNeeds(testCase: ConformanceCase): Need[] {
  const op = triggerCaseOperation(testCase.id);
  return op === undefined ? [] : one(op.purpose);
}

/** What one case sends that charges (empty when nothing). */
export function caseNeeds(testCase: ConformanceCase, settings: ConformanceSettings, gen: GenOptions | undefined): Need[] {
  if (testCase.kind === 'request') return getOperation(testCase.operationId).charges ? one(getOperation(testCase.operationId).purpose) : [];
  if (testCase.id.startsWith('ENV-')) return envNeeds(testCase);
  if (testCase.id.startsWith('TRG-')) return triggerNeeds(testCase);
  if (/^GEN-.*-VALID-V[12]$/.test(testCase.id)) return genValidNeeds(testCase, gen);
  const rule = SCENARIO_NEEDS.find(([match]) => match.test(testCase.id));
  return rule === undefined ? [] : rule[1](settings, gen);
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
