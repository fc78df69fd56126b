// GEN for every write of the catalog (v1 and v2), derived from its request schema: the valid space the spec names is
// accepted, and a break of exactly one stated keyword (gen/keywords.ts) by any distance is refused and charges nothing.
import fc from 'fast-check';
import { cheapestSkus } from '../../api/catalog-facts.ts';
import { OPERATIONS, type Operation, type RequestBodyName } from '../../api/operations.ts';
import { successful } from '../checks.ts';
import { expectAllRefused, expectStatusNotSuccessful, type Attempt } from '../cases/len.ts';
import { ASSUMED, SECTION, V, submitAndFinish } from '../cases/common.ts';
import { bodyForSku } from '../bodies.ts';
import type { Fixtures, SkuFixture } from '../../target/fixtures.ts';
import { bodyFacts, categoryName, type BodyFacts } from '../request-rules.ts';
import type { CaseContext, ConformanceCase } from '../types.ts';
import { ID_CLASSES } from '../correlation-ids.ts';
import {
  amountBounds,
  amountChoices,
  amountOutside,
  amountWithin,
  cheapBounds,
  GEN_MONEY_SKUS,
  applyBreak,
  idShape,
  quotedRows,
  showWrite,
  uniqueId,
  usableSkus,
  type AmountBounds,
  type Break,
  type ValidWrite,
} from './arbitraries.ts';
import { bodyKeywords, patternValid, rulesOf, type KeywordGroup, type KeywordRule } from './keywords.ts';
import { chargingRuns, type GenOptions } from './options.ts';
import { genCase } from './property.ts';

const STATUS_RULE =
  "Status check: returns the final status of an earlier RTR or PIN (and gift card) transaction identified by its correlationId. '852' means in progress; poll repeatedly until another code is returned. '000' means success.";
/** The categories the Status check rule names ("RTR or PIN (and gift card)"): their valid writes are then found by correlationId. */
const STATUS_CATEGORIES = ['Rtr', 'Pin', 'Gift Card'];
/** The Rules cell that makes null and the empty string mean the wallet currency (Bill payment request). */
const WALLET_WHEN_EMPTY = /when null or empty the customer wallet currency applies/;
const CURRENCY = 'transactionCurrencyCode';

/** `GEN-<write>-<kind>-<V1|V2>`, e.g. GEN-TOPUP-VALID-V2, GEN-SIM-PORTIN-LENGTH-V1. */
/**
 * Runs of a write's VALID property: a charging write other than the v2 top-up gets half the budget (each run charges the
 * wallet, and fourteen writes charge in a gate); a time-bound budget is left as it is (money-plan.ts leaves it unpriced).
 */
export function validRuns(options: GenOptions, op: Operation): number {
  if (!spendsCheaply(op)) return options.budget.runs;
  const runs = chargingRuns(options);
  return op.id !== 'v2.transaction.topup' && runs < 100_000 ? Math.ceil(runs / 2) : runs;
}

/**
 * A charging write explores its category's cheapest SKUs, so a gate stays within a sandbox's default wallet; all but the
 * v2 top-up on half the budget. The v2 top-up keeps the whole budget: the spec states its amount rules ("Top-up amount
 * bounds | per denomination") and GEN's cents bugs live in its amounts.
 */
export const spendsCheaply = (op: Operation): boolean => op.charges;

export const genWriteId = (op: Operation, kind: string): string =>
  `GEN-${op.id.slice(op.id.indexOf('transaction.') + 'transaction.'.length).toUpperCase()}-${kind}-${V(op.version)}`;

/** How a wallet-currency amount says so: no transactionCurrencyCode, or (where the spec says so) null or empty. */
type WalletForm = 'absent' | 'null' | 'empty';

export interface WriteInput {
  readonly write: ValidWrite;
  readonly wallet: WalletForm;
  /** Optional fields with a stated pattern, at a value it allows (operatorPin: '', null or 4..6 digits). */
  readonly extras: Readonly<Record<string, string | null>>;
}

const walletForms = (facts: BodyFacts): WalletForm[] =>
  WALLET_WHEN_EMPTY.test(facts.rows[CURRENCY]?.rule ?? '') ? ['absent', 'null', 'empty'] : ['absent'];

/** The SKUs of the write's category a valid body can be built for (a number plan, readable bounds, the input rule filled). */
function writeSkus(ctx: CaseContext, fx: Fixtures, facts: BodyFacts, filter: (s: SkuFixture) => boolean = () => true): SkuFixture[] {
  const skus = usableSkus(fx, facts).filter((s) => filter(s) && bodyForSku(ctx, fx, facts, s) !== undefined);
  if (skus.length === 0)
    ctx.skip(
      `the catalog has no ${facts.skuCategory === undefined ? '' : `${categoryName(facts.skuCategory) ?? ''} `}SKU a valid ${facts.table} can be built for`,
    );
  return skus;
}

/** Any valid write: SKU, amount in any currency of it to the cent, correlationId of any length and class, and the optional pattern fields. */
export function writeInput(facts: BodyFacts, skus: readonly SkuFixture[], onlyFaceCurrency = false): fc.Arbitrary<WriteInput> {
  const maxId = facts.properties.includes('correlationId') ? 50 : 1;
  const extras = Object.fromEntries(
    facts.properties
      .filter((f) => f !== CURRENCY && !facts.required.includes(f))
      .flatMap((f) => {
        const valid = patternValid(facts.name, f);
        return valid === undefined ? [] : [[f, fc.option(valid, { nil: undefined })] as const];
      }),
  );
  const write = fc.constantFrom(...skus).chain((sku) => {
    const choices = amountChoices(sku).filter((b) => !onlyFaceCurrency || b.transactionCurrencyCode !== undefined);
    // The cheap end of each currency's bounds, every cent in it: the spend stays small and priced (money-plan.ts).
    return fc.record({
      sku: fc.constant(sku),
      amount: fc.constantFrom(...choices).chain((b) => amountWithin(cheapBounds(b))),
      id: idShape(1, maxId),
    });
  });
  return fc.record({
    write,
    wallet: fc.constantFrom(...walletForms(facts)),
    extras: fc
      .record(extras, { requiredKeys: [] })
      .map((e) => Object.fromEntries(Object.entries(e).filter(([, v]) => v !== undefined)) as Record<string, string | null>),
  });
}

const walletItem = (form: WalletForm): string =>
  `${CURRENCY} ${form === 'absent' ? 'absent' : form === 'null' ? 'null' : '""'}: the wallet currency`;

/** The valid space's items the report counts: the currency forms the request table allows and each correlationId character class. */
function validSpace(facts: BodyFacts): string[] {
  const forms = walletForms(facts);
  return [
    ...(facts.properties.includes('amount') ? ['amount in the wallet currency'] : []),
    ...(facts.properties.includes(CURRENCY) ? ['amount in a FaceValueCurrency of the SKU'] : []),
    ...(forms.length > 1 ? forms.map(walletItem) : []),
    ...(facts.properties.includes('correlationId') ? ID_CLASSES.map((c) => `correlationId of ${c}`) : []),
  ];
}

/** The items of validSpace one input reaches. */
function validItems(facts: BodyFacts, input: WriteInput): string[] {
  const inWallet = input.write.amount.transactionCurrencyCode === undefined;
  return [
    facts.properties.includes('amount') ? (inWallet ? 'amount in the wallet currency' : 'amount in a FaceValueCurrency of the SKU') : '',
    inWallet && walletForms(facts).length > 1 ? walletItem(input.wallet) : '',
    facts.properties.includes('correlationId') ? `correlationId of ${input.write.id.chars}` : '',
  ].filter((item) => item !== '');
}

export const showInput = (input: WriteInput): string => {
  const wallet =
    input.write.amount.transactionCurrencyCode === undefined && input.wallet !== 'absent'
      ? ` (${CURRENCY} ${input.wallet === 'null' ? 'null' : '""'}: wallet currency)`
      : '';
  const extras = Object.entries(input.extras)
    .map(([f, v]) => `, ${f} ${JSON.stringify(v)}`)
    .join('');
  return `${showWrite(input.write)}${wallet}${extras}`;
};

/** The valid body of the input: the input rule's (api/inputs.ts) with the generated amount, currency, id and optional fields. */
export async function validBody(
  probe: CaseContext,
  fx: Fixtures,
  op: Operation,
  facts: BodyFacts,
  input: WriteInput,
): Promise<Record<string, unknown>> {
  const base = bodyForSku(probe, fx, facts, input.write.sku);
  fc.pre(base !== undefined);
  const body: Record<string, unknown> = { ...base, ...input.extras };
  delete body[CURRENCY];
  if (facts.properties.includes('amount')) {
    const { amount, transactionCurrencyCode } = input.write.amount;
    body.amount = amount;
    if (transactionCurrencyCode !== undefined) body[CURRENCY] = transactionCurrencyCode;
    else if (input.wallet !== 'absent') body[CURRENCY] = input.wallet === 'null' ? null : '';
  }
  if (facts.properties.includes('correlationId')) body.correlationId = await uniqueId(input.write.id, probe, op.version);
  return body;
}

const assumedOf = (op: Operation): string[] => [
  'numbers of each country from its number plan (conformance settings / catalog/countries)',
  'the wallet holds enough funds for the generated writes',
  ...(op.pathAssumed ? [ASSUMED.writePath(op)] : []),
];

function validCase(options: GenOptions, op: Operation, facts: BodyFacts): ConformanceCase {
  const status = facts.skuCategory !== undefined && STATUS_CATEGORIES.includes(categoryName(facts.skuCategory) ?? '');
  const wallet = walletForms(facts).length > 1 ? `; ${quotedRows(facts.name, [CURRENCY])}` : '';
  return genCase<WriteInput>(
    { ...options, budget: { ...options.budget, runs: validRuns(options, op) } },
    {
      id: genWriteId(op, 'VALID'),
      title: `any ${facts.table} the request table allows (any SKU of its category${spendsCheaply(op) ? ` among its ${GEN_MONEY_SKUS} cheapest` : ''}, any amount at the cheap end of its bounds to the cent in any of its currencies, any correlationId of 1..50 characters) is accepted${status ? ' and found by its correlationId' : ''}`,
      specSection: `${SECTION.requests} (${facts.table}); ${SECTION.limits}${status ? `; ${SECTION.writes} (Status check)` : ''}`,
      rule: `${quotedRows(facts.name, facts.required)}${wallet}${status ? `; ${STATUS_RULE}` : ''}`,
      api: op.version,
      assumed: assumedOf(op),
      // A charging write picks among its category's cheapest SKUs (as the money sequences do): its spend stays priced.
      arbitrary: (ctx, fx) =>
        writeInput(facts, spendsCheaply(op) ? cheapestSkus(writeSkus(ctx, fx, facts), GEN_MONEY_SKUS) : writeSkus(ctx, fx, facts)),
      show: showInput,
      space: () => validSpace(facts),
      async run(probe, input, fx) {
        const body = await validBody(probe, fx, op, facts, input);
        for (const item of validItems(facts, input)) probe.cover(item);
        const { submitted, final } = await submitAndFinish(probe, op.version, op.id, body);
        if (!probe.check(successful, final ?? submitted) || !status) return;
        probe.check(
          successful,
          await probe.call(`${op.version}.transaction.status`, { path: { correlationId: body.correlationId as string } }),
        );
      },
    },
  );
}

/** A refused request leaves no success behind (its correlationId when it is a string the status path can carry). */
async function statusNotSuccessful(probe: CaseContext, op: Operation, correlationId: unknown): Promise<void> {
  if (typeof correlationId === 'string' && correlationId !== '' && correlationId.length <= 250)
    await expectStatusNotSuccessful(probe, op.version, correlationId);
}

/** A keyword rule as the coverage table names it: the field and the keyword a break of it breaks. */
const ruleItem = (r: KeywordRule): string => `${r.field} ${r.keyword}`;

const GROUP_WORDS: Readonly<Record<KeywordGroup, string>> = {
  LENGTH: 'a string over its stated length limit by 1..200 characters',
  REQUIRED: 'a required field empty, null or missing',
  TYPES: 'a field of another JSON type, or an int32 field beyond int32 by any amount',
  PATTERN: 'a character or a length the stated format excludes',
};

/**
 * The balance each refused input leaves, carried to the next (exclusive: nothing else moves it), so an input costs one
 * balance read, not two; reset when the property starts.
 */
function balanceCarry(): { reset(): void; refused(probe: CaseContext, op: Operation, attempt: Attempt): Promise<void> } {
  let last: number | undefined;
  return {
    reset: () => {
      last = undefined;
    },
    async refused(probe, op, attempt) {
      last = await expectAllRefused(probe, op.version, op.id, [attempt], undefined, last === undefined ? {} : { before: last });
      await statusNotSuccessful(probe, op, attempt.body.correlationId);
    },
  };
}

function invalidCase(options: GenOptions, op: Operation, facts: BodyFacts, group: KeywordGroup): ConformanceCase {
  const rules = rulesOf(facts.name, group);
  const fields = [...new Set(rules.map((r) => r.field))];
  const carry = balanceCarry();
  return genCase<{ input: WriteInput; broken: Break & { readonly rule: string } }>(options, {
    id: genWriteId(op, group),
    title: `a ${facts.table} with exactly one stated rule broken (${GROUP_WORDS[group]}) is refused and charges nothing`,
    specSection: `${SECTION.requests} (${facts.table}); ${SECTION.limits}; ${SECTION.states}`,
    rule: `${[...new Set(rules.map((r) => r.quote))].join('; ')}; a refused request leaves the balance unchanged and its status is not a success`,
    api: op.version,
    exclusive: true,
    assumed: assumedOf(op),
    arbitrary: (ctx, fx) => {
      carry.reset();
      // A currency format is broken from a currency the SKU takes: the break is then of the format alone.
      return writeInput(
        facts,
        writeSkus(
          ctx,
          fx,
          facts,
          (s) => group !== 'PATTERN' || !fields.includes(CURRENCY) || amountChoices(s).some((b) => b.transactionCurrencyCode !== undefined),
        ),
        group === 'PATTERN' && fields.includes(CURRENCY),
      ).chain((input) =>
        fc.record({
          input: fc.constant(input),
          broken: fc.oneof(
            ...rules.map((r) =>
              r
                .breaks(
                  r.field === 'amount'
                    ? input.write.amount.amount
                    : r.field === CURRENCY
                      ? input.write.amount.transactionCurrencyCode
                      : r.field === 'skuId'
                        ? input.write.sku.skuId
                        : input.extras[r.field],
                )
                .map((b) => ({ ...b, rule: ruleItem(r) })),
            ),
          ),
        }),
      );
    },
    show: ({ input, broken }) => `${broken.label}; otherwise ${showInput(input)}`,
    space: () => [...new Set(rules.map(ruleItem))],
    async run(probe, { input, broken }, fx) {
      probe.cover(broken.rule);
      const body = await applyBreak(await validBody(probe, fx, op, facts, input), broken, probe, op.version);
      await carry.refused(probe, op, { label: broken.label, body });
    },
  });
}

/** "Top-up amount bounds | per denomination": stated for the top-up only, so only bodies named topup get it. */
function amountsOutside(options: GenOptions, op: Operation, facts: BodyFacts): ConformanceCase {
  const carry = balanceCarry();
  return genCase<{ input: WriteInput; outside: { amount: number; side: 'below' | 'above' } }>(options, {
    id: genWriteId(op, 'AMOUNT-OUTSIDE'),
    title:
      'a top-up amount below the minimum (by any amount, negatives included) or above the maximum of its denomination is refused and charges nothing',
    specSection: `${SECTION.requests} (${facts.table}); ${SECTION.errors}; ${SECTION.limits}`,
    rule: 'Top-up amount bounds | per denomination, reported in the 001 message; 001 | Amount outside the allowed range of the denomination',
    api: op.version,
    exclusive: true,
    assumed: assumedOf(op),
    arbitrary: (ctx, fx) => {
      carry.reset();
      return writeInput(
        facts,
        writeSkus(ctx, fx, facts, (s) => amountChoices(s).some((b) => b.max > b.min)),
      ).chain((input) => {
        const bounds =
          amountChoices(input.write.sku).find((b) => b.transactionCurrencyCode === input.write.amount.transactionCurrencyCode) ??
          (amountBounds(input.write.sku) as AmountBounds);
        return fc.record({ input: fc.constant(input), outside: amountOutside(bounds) });
      });
    },
    show: ({ input, outside }) => `amount ${outside.amount} (${outside.side} the bounds); ${showInput(input)}`,
    space: () => ['amount below the minimum', 'amount above the maximum'],
    async run(probe, { input, outside }, fx) {
      probe.cover(`amount ${outside.side} the ${outside.side === 'below' ? 'minimum' : 'maximum'}`);
      const body: Record<string, unknown> = { ...(await validBody(probe, fx, op, facts, input)), amount: outside.amount };
      await carry.refused(probe, op, { label: `amount ${outside.amount} ${outside.side} the bounds`, body });
    },
  });
}

/** Every write of the catalog with a request schema gets these cases by itself: VALID, one per keyword group it has, AMOUNT-OUTSIDE for top-ups. */
export function writeGenCases(options: GenOptions): { concurrent: ConformanceCase[]; exclusive: ConformanceCase[] } {
  const concurrent: ConformanceCase[] = [];
  const exclusive: ConformanceCase[] = [];
  for (const op of OPERATIONS.filter((o) => o.requestBody !== undefined)) {
    const facts = bodyFacts(op.requestBody as RequestBodyName);
    concurrent.push(validCase(options, op, facts));
    const groups = [...new Set(bodyKeywords(facts.name).rules.map((r) => r.group))];
    for (const group of groups) exclusive.push(invalidCase(options, op, facts, group));
    if (facts.name === 'topup') exclusive.push(amountsOutside(options, op, facts));
  }
  return { concurrent, exclusive };
}
