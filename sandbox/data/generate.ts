// Seeded generator of the sandbox catalog: operators, products, SKUs of every category, gift cards, promotions.
// Same (seed, now) gives deep-equal data; skuId 193 (Jamaica RTR, 5.00-100.00 USD) and the country list never vary.

import { buildArabicSku, registerArabicSku } from './localize.ts';
import { toV1Sku } from './v1.ts';
import { COUNTRY_PLANS, EXTRA_COUNTRY_PLANS, type CountryPlan } from './countries.ts';
import { DAY_MS, formatInTimeZone, startOfUtcDay } from './dates.ts';
import { formatAmount, priceOf, round2 } from './money.ts';
import { BILLER_BRANDS, BILLER_KINDS, ESIM_BRANDS, GIFTCARD_BRANDS, PROMOTION_KINDS, TELCO_BRANDS } from './names.ts';
import { createRng, type Rng } from './rng.ts';
import { CATEGORY_ID_BY_NAME, WALLET_CURRENCY } from './types.ts';
import type {
  Carrier,
  CategoryName,
  Country,
  DenominationType,
  ExchangeRate,
  GenerateOptions,
  Lang,
  Logo,
  LookupResult,
  Operator,
  Product,
  Promotion,
  SandboxData,
  SandboxSamples,
  Sku,
  SkuAmount,
  SkuDescription,
  SkuMeta,
  V1LookupRecord,
  V1Sku,
} from './types.ts';

/** The spec's trigger anchor: "skuId 193, amount below the minimum of that denomination (5.00 USD)". */
export const ANCHOR_SKU_ID = 193;
const ANCHOR_MIN_USD = 5;
const ANCHOR_MAX_USD = 100;
/** Fewest gift card SKUs the list holds (paging needs more than two pages of 100). */
export const MIN_GIFTCARD_SKUS = 250;
const GIFTCARD_TARGET = 260;

/**
 * Numbers that carry an outstanding loan whatever the seed. The rule (see lookup.ts): a valid number of a country
 * with bundle products whose national number ends in "77d" owes d + 1 USD.
 */
export const SAMPLE_LOAN_NUMBERS: readonly string[] = ['18762345775', '919876543772', '923001234771'];
/** Bill account number used as a sample (any non-empty alphanumeric account has a bill). */
export const SAMPLE_BILL_ACCOUNT = '100200300';

const IMAGE_BASE = 'https://assets.sandbox.example';

interface SkuInput {
  skuId: number;
  product: Product;
  country: Country;
  subCategory: string;
  benefitType: string;
  validityDays: number;
  denomination: DenominationType;
  faceCurrency: string;
  minFace: number;
  maxFace: number;
  skuName: string;
  additionalInformation: string;
  discount: number;
  fee: number;
  allowDecimal: boolean;
  isBundle?: boolean;
  dataAllowanceMb?: number;
}

interface Built {
  sku: Sku;
  meta: Omit<SkuMeta, 'localized' | 'v1'>;
}

/** Monotonic id allocator with seeded start and gaps (ids look real and differ per seed). */
function idAllocator(rng: Rng, start: number, maxStep: number, reserved: ReadonlySet<number> = new Set()): () => number {
  let next = start;
  return () => {
    while (reserved.has(next)) next += 1;
    const id = next;
    next += rng.int(1, maxStep);
    return id;
  };
}

/** A price that reads like a real denomination in its currency. */
function nice(value: number): number {
  if (value >= 1000) return Math.round(value / 100) * 100;
  if (value >= 100) return Math.round(value / 10) * 10;
  if (value >= 10) return Math.round(value);
  return Math.max(0.5, Math.round(value * 2) / 2);
}

function daysText(days: number): string {
  return days === 1 ? '1 day' : `${days} days`;
}

function validityText(days: number): string {
  return days > 0 ? `${days}D` : '';
}

/** What the sandbox keeps beside a SKU (never served): its ids, denomination, currencies' factors, gift card, bundle, validity. */
function skuMeta(input: SkuInput, walletPerFaceUnit: number, deliveryPerFaceUnit: number): Built['meta'] {
  const { product, country } = input;
  return {
    skuId: input.skuId,
    productId: product.productId,
    operatorId: product.operatorId,
    countryCode: country.countryCode,
    category: product.category,
    categoryId: product.categoryId,
    denominationType: input.denomination,
    faceValueCurrencies: [input.faceCurrency],
    walletPerFaceUnit,
    deliveryPerFaceUnit,
    isGiftcard: product.category === 'Gift Card',
    isBundle: input.isBundle ?? false,
    validityDays: input.validityDays,
    ...(input.dataAllowanceMb !== undefined ? { dataAllowanceMb: input.dataAllowanceMb } : {}),
  };
}

class Generator {
  private readonly rng: Rng;
  private readonly fx = new Map<string, number>();
  private readonly arabicCache = new Map<string, string>();
  private readonly nextOperatorId: () => number;
  private readonly nextProductId: () => number;
  private readonly nextSkuId: () => number;
  private readonly nextGiftcardId: () => number;

  readonly operators: Operator[] = [];
  readonly products: Product[] = [];
  readonly built: Built[] = [];
  readonly giftBuilt: Built[] = [];
  readonly rtrOperatorsByCountry = new Map<string, Operator[]>();
  readonly bundleProductsByCountry = new Map<string, Product[]>();
  readonly topupProductByOperator = new Map<number, Product>();
  readonly productsByOperator = new Map<number, Product[]>();

  constructor(readonly seed: number) {
    this.rng = createRng(seed);
    const rng = this.rng;
    this.nextOperatorId = idAllocator(rng, rng.int(10, 60), 3);
    this.nextProductId = idAllocator(rng, rng.int(1000, 1400), 4);
    this.nextSkuId = idAllocator(rng, rng.int(100, 140), 3, new Set([ANCHOR_SKU_ID]));
    this.nextGiftcardId = idAllocator(rng, rng.int(5000, 5600), 4);
    for (const plan of COUNTRY_PLANS) {
      const code = plan.country.currencyCode;
      if (this.fx.has(code)) continue;
      const jitter = code === WALLET_CURRENCY ? 1 : 1 + (rng.next() - 0.5) * 0.06;
      const rate = plan.baseFxPerUsd * jitter;
      this.fx.set(code, rate >= 100 ? round2(rate) : Math.round(rate * 10_000) / 10_000);
    }
  }

  fxOf(currency: string): number {
    const rate = this.fx.get(currency);
    if (rate === undefined) throw new Error(`no exchange rate for ${currency}`);
    return rate;
  }

  fxMap(): ReadonlyMap<string, number> {
    return this.fx;
  }

  /** A local-currency price worth about `usd`. */
  local(country: Country, usd: number): number {
    return country.currencyCode === WALLET_CURRENCY ? usd : nice(usd * this.fxOf(country.currencyCode));
  }

  addOperator(name: string, country: Country): Operator {
    const operatorId = this.nextOperatorId();
    const op: Operator = {
      operatorId,
      operatorName: name,
      imageUrl: `${IMAGE_BASE}/operators/${operatorId}.png`,
      countryCode: country.countryCode,
    };
    this.operators.push(op);
    return op;
  }

  addProduct(
    op: Operator,
    country: Country,
    name: string,
    category: CategoryName,
    description: string,
    requireFetchBundle = false,
  ): Product {
    const productId = this.nextProductId();
    const product: Product = {
      productId,
      productName: name,
      category,
      categoryId: CATEGORY_ID_BY_NAME[category],
      countryCode: country.countryCode,
      operatorId: op.operatorId,
      operatorName: op.operatorName,
      imageUrl: `${IMAGE_BASE}/products/${productId}.png`,
      description,
      requireFetchBundle,
      currencyCode: country.currencyCode,
    };
    this.products.push(product);
    const list = this.productsByOperator.get(op.operatorId) ?? [];
    list.push(product);
    this.productsByOperator.set(op.operatorId, list);
    return product;
  }

  discount(): number {
    return this.rng.int(10, 80) / 10;
  }

  fee(): number {
    return this.rng.chance(0.2) ? this.rng.int(1, 5) / 10 : 0;
  }

  buildSku(input: SkuInput): Built {
    const { product, country } = input;
    const localFx = this.fxOf(country.currencyCode);
    const faceFx = this.fxOf(input.faceCurrency);
    const walletPerFaceUnit = 1 / faceFx;
    const deliveryPerFaceUnit = localFx / faceFx;
    const salesTaxed = country.countryCode === 'US' && (product.category === 'Pin' || product.category === 'Sim');
    const amount = (face: number): SkuAmount => {
      const wallet = round2(face * walletPerFaceUnit);
      return {
        faceValue: round2(face),
        faceValueCurrency: input.faceCurrency,
        deliveredAmount: round2(face * deliveryPerFaceUnit),
        deliveryCurrencyCode: country.currencyCode,
        cost: priceOf(wallet, input.discount, input.fee),
        costCurrency: WALLET_CURRENCY,
        faceValueInWalletCurrency: wallet,
      };
    };
    const sku: Sku = {
      skuId: input.skuId,
      skuName: input.skuName,
      productId: product.productId,
      productName: product.productName,
      category: product.category,
      subCategory: input.subCategory,
      operatorId: product.operatorId,
      operatorName: product.operatorName,
      countryCode: country.countryCode,
      region: country.region,
      imageUrl: product.imageUrl,
      productDescription: product.description,
      additionalInformation: input.additionalInformation,
      benefitType: input.benefitType,
      validity: validityText(input.validityDays),
      discount: input.discount,
      fee: input.fee,
      exchangeRate: localFx,
      isSalesTaxCharged: salesTaxed,
      salesTax: salesTaxed ? 6.25 : 0,
      localPhoneNumberLength: country.nationalNumberLength,
      internationalCountryCode: country.dialPrefixes.slice(),
      allowDecimal: input.allowDecimal,
      deliveryAmountType: input.faceCurrency === country.currencyCode ? 'Exact' : 'Estimated',
      requireFetchBundle: product.requireFetchBundle,
      loanAmountInFaceValueCurrency: 0,
      loanAmountInDeliveryCurrency: 0,
      loanAmountInWalletCurrency: 0,
      min: amount(input.minFace),
      max: amount(input.maxFace),
    };
    const meta = skuMeta(input, walletPerFaceUnit, deliveryPerFaceUnit);
    const built = { sku, meta };
    (meta.isGiftcard ? this.giftBuilt : this.built).push(built);
    return built;
  }

  fixedSkus(
    product: Product,
    country: Country,
    faceCurrency: string,
    faces: number[],
    extra: Omit<
      SkuInput,
      'skuId' | 'product' | 'country' | 'denomination' | 'faceCurrency' | 'minFace' | 'maxFace' | 'skuName' | 'discount' | 'fee'
    >,
    gift = false,
  ): void {
    const discount = this.discount();
    const fee = this.fee();
    const unique = [...new Set(faces.map(round2))].sort((a, b) => a - b);
    for (const face of unique) {
      this.buildSku({
        ...extra,
        skuId: gift ? this.nextGiftcardId() : this.nextSkuId(),
        product,
        country,
        denomination: 'Fixed',
        faceCurrency,
        minFace: face,
        maxFace: face,
        skuName: `${product.productName} ${formatAmount(face)} ${faceCurrency}`,
        discount,
        fee,
      });
    }
  }

  /** Top-up product: one open-range SKU and 3..5 fixed SKUs (Jamaica's first operator holds the 193 anchor). */
  topup(plan: CountryPlan, op: Operator, anchor: boolean): Product {
    const { country } = plan;
    const rng = this.rng;
    const product = this.addProduct(
      op,
      country,
      `${op.operatorName} Top-up`,
      'Rtr',
      `Mobile airtime top-up for ${op.operatorName} prepaid numbers in ${country.countryName}`,
    );
    this.topupProductByOperator.set(op.operatorId, product);
    const rangeCurrency = anchor || rng.chance(0.5) ? WALLET_CURRENCY : country.currencyCode;
    const minUsd = anchor ? ANCHOR_MIN_USD : rng.int(1, 5);
    const maxUsd = anchor ? ANCHOR_MAX_USD : rng.pick([50, 75, 100, 150, 200]);
    const minFace = rangeCurrency === WALLET_CURRENCY ? minUsd : this.local(country, minUsd);
    const maxFace = rangeCurrency === WALLET_CURRENCY ? maxUsd : this.local(country, maxUsd);
    const discount = this.discount();
    const fee = this.fee();
    this.buildSku({
      skuId: anchor ? ANCHOR_SKU_ID : this.nextSkuId(),
      product,
      country,
      subCategory: 'Airtime',
      benefitType: 'Airtime',
      validityDays: 0,
      denomination: 'Range',
      faceCurrency: rangeCurrency,
      minFace,
      maxFace,
      skuName: `${product.productName} Open Range`,
      additionalInformation: `Any amount between ${formatAmount(minFace)} ${rangeCurrency} and ${formatAmount(maxFace)} ${rangeCurrency}`,
      discount,
      fee,
      allowDecimal: true,
    });
    const ladder = rng.shuffle([1, 2, 3, 5, 10, 15, 20, 25, 30, 50]).slice(0, rng.int(2, 4));
    this.fixedSkus(
      product,
      country,
      country.currencyCode,
      ladder.map((usd) => this.local(country, usd)),
      {
        subCategory: 'Airtime',
        benefitType: 'Airtime',
        validityDays: rng.pick([0, 30]),
        additionalInformation: 'Delivered instantly to the mobile number',
        allowDecimal: false,
      },
    );
    return product;
  }

  /** Dynamic bundles (requireFetchBundle): fixed data-and-minutes SKUs, served per number by bundlesFor. */
  bundles(plan: CountryPlan, op: Operator): void {
    const { country } = plan;
    const rng = this.rng;
    const product = this.addProduct(
      op,
      country,
      `${op.operatorName} Bundles`,
      'Rtr',
      `Data and minutes bundles for ${op.operatorName} prepaid numbers in ${country.countryName}`,
      true,
    );
    const list = this.bundleProductsByCountry.get(country.countryCode) ?? [];
    list.push(product);
    this.bundleProductsByCountry.set(country.countryCode, list);
    const options = rng
      .shuffle([
        { gb: 1, minutes: 0, days: 1, usd: 1 },
        { gb: 2, minutes: 50, days: 3, usd: 3 },
        { gb: 5, minutes: 100, days: 7, usd: 6 },
        { gb: 10, minutes: 300, days: 30, usd: 12 },
        { gb: 20, minutes: 500, days: 30, usd: 20 },
      ])
      .slice(0, rng.int(3, 5))
      .sort((a, b) => a.usd - b.usd);
    const discount = this.discount();
    for (const o of options) {
      const face = this.local(country, o.usd);
      this.buildSku({
        skuId: this.nextSkuId(),
        product,
        country,
        subCategory: 'Bundle',
        benefitType: o.minutes > 0 ? 'Data and Minutes' : 'Data',
        validityDays: o.days,
        denomination: 'Fixed',
        faceCurrency: country.currencyCode,
        minFace: face,
        maxFace: face,
        skuName: `${product.productName} ${formatAmount(face)} ${country.currencyCode}`,
        additionalInformation:
          o.minutes > 0
            ? `${o.gb} GB data and ${o.minutes} minutes valid ${daysText(o.days)}`
            : `${o.gb} GB data valid ${daysText(o.days)}`,
        discount,
        fee: 0,
        allowDecimal: false,
        isBundle: true,
        dataAllowanceMb: o.gb * 1024,
      });
    }
  }

  pin(plan: CountryPlan, op: Operator): void {
    const { country } = plan;
    const rng = this.rng;
    const product = this.addProduct(
      op,
      country,
      `${op.operatorName} PIN`,
      'Pin',
      `Prepaid PIN for ${op.operatorName} in ${country.countryName}, delivered by SMS`,
    );
    const currency = rng.chance(0.3) ? WALLET_CURRENCY : country.currencyCode;
    const usd = rng.shuffle([2, 5, 10, 20, 25]).slice(0, rng.int(3, 4));
    this.fixedSkus(
      product,
      country,
      currency,
      usd.map((u) => (currency === WALLET_CURRENCY ? u : this.local(country, u))),
      {
        subCategory: 'PIN',
        benefitType: 'PIN',
        validityDays: rng.pick([30, 60, 90]),
        additionalInformation: 'PIN delivered by SMS to the recipient',
        allowDecimal: false,
      },
    );
  }

  billers(plan: CountryPlan): void {
    const { country } = plan;
    const rng = this.rng;
    const brands = rng.shuffle(BILLER_BRANDS).slice(0, rng.int(1, 2));
    const kinds = rng.shuffle(BILLER_KINDS);
    brands.forEach((brand, i) => {
      const kind = kinds[i % kinds.length] as (typeof BILLER_KINDS)[number];
      const op = this.addOperator(`${brand} ${kind.word}`, country);
      const product = this.addProduct(
        op,
        country,
        `${op.operatorName} Bill Payment`,
        'Bill Pay',
        `Bill payment for ${op.operatorName} accounts in ${country.countryName}`,
      );
      const minFace = this.local(country, 1);
      const maxFace = this.local(country, rng.pick([300, 500, 1000]));
      this.buildSku({
        skuId: this.nextSkuId(),
        product,
        country,
        subCategory: kind.subCategory,
        benefitType: 'Bill Payment',
        validityDays: 0,
        denomination: 'Range',
        faceCurrency: country.currencyCode,
        minFace,
        maxFace,
        skuName: `${product.productName} Open Range`,
        additionalInformation: 'Payment is posted to the account within 24 hours',
        discount: this.discount(),
        fee: round2(rng.int(0, 10) / 10),
        allowDecimal: true,
      });
    });
  }

  sim(plan: CountryPlan, op: Operator): void {
    const { country } = plan;
    const rng = this.rng;
    const product = this.addProduct(
      op,
      country,
      `${op.operatorName} SIM Plans`,
      'Sim',
      `Prepaid SIM activation plans from ${op.operatorName}`,
    );
    const plans = rng
      .shuffle([
        { gb: 2, usd: 15 },
        { gb: 5, usd: 25 },
        { gb: 10, usd: 35 },
        { gb: 25, usd: 50 },
      ])
      .slice(0, rng.int(2, 3))
      .sort((a, b) => a.usd - b.usd);
    const discount = this.discount();
    for (const p of plans) {
      const face = this.local(country, p.usd);
      this.buildSku({
        skuId: this.nextSkuId(),
        product,
        country,
        subCategory: 'Plan',
        benefitType: 'Plan',
        validityDays: 30,
        denomination: 'Fixed',
        faceCurrency: country.currencyCode,
        minFace: face,
        maxFace: face,
        skuName: `${product.productName} ${formatAmount(face)} ${country.currencyCode}`,
        additionalInformation: `Unlimited talk and text with ${p.gb} GB data for 30 days`,
        discount,
        fee: 0,
        allowDecimal: false,
        dataAllowanceMb: p.gb * 1024,
      });
    }
  }

  esim(plan: CountryPlan): void {
    const { country } = plan;
    const rng = this.rng;
    const brand = rng.pick(ESIM_BRANDS);
    const op = this.addOperator(`${brand} eSIM`, country);
    const product = this.addProduct(
      op,
      country,
      `${brand} ${country.countryName} eSIM`,
      'eSim',
      `Prepaid eSIM data plans for travel in ${country.countryName}`,
    );
    const plans = rng
      .shuffle([
        { gb: 1, days: 7, usd: 4.5 },
        { gb: 3, days: 15, usd: 9 },
        { gb: 5, days: 30, usd: 14 },
        { gb: 10, days: 30, usd: 22 },
        { gb: 20, days: 30, usd: 35 },
      ])
      .slice(0, rng.int(3, 4))
      .sort((a, b) => a.usd - b.usd);
    const discount = this.discount();
    for (const p of plans) {
      const face = round2(p.usd * (1 + rng.int(-5, 5) / 100));
      this.buildSku({
        skuId: this.nextSkuId(),
        product,
        country,
        subCategory: 'Data',
        benefitType: 'Data',
        validityDays: p.days,
        denomination: 'Fixed',
        faceCurrency: WALLET_CURRENCY,
        minFace: face,
        maxFace: face,
        skuName: `${product.productName} ${p.gb} GB ${p.days} Days`,
        additionalInformation: `${p.gb} GB data valid ${daysText(p.days)}`,
        discount,
        fee: 0,
        allowDecimal: false,
        dataAllowanceMb: p.gb * 1024,
      });
    }
  }

  giftcardProduct(plan: CountryPlan, brand: (typeof GIFTCARD_BRANDS)[number]): void {
    const { country } = plan;
    const rng = this.rng;
    const op = this.addOperator(brand.name, country);
    const product = this.addProduct(
      op,
      country,
      `${brand.name} ${country.countryName} Gift Card`,
      'Gift Card',
      `${brand.name} digital gift card for use in ${country.countryName}`,
    );
    const info = rng.chance(0.5) ? 'Redeem online or in store' : 'Redeem online';
    const usd = rng.shuffle([5, 10, 15, 20, 25, 50, 75, 100, 150, 200]).slice(0, rng.int(6, 9));
    this.fixedSkus(
      product,
      country,
      country.currencyCode,
      usd.map((u) => this.local(country, u)),
      {
        subCategory: brand.subCategory,
        benefitType: 'Gift Card',
        validityDays: 365,
        additionalInformation: info,
        allowDecimal: false,
      },
      true,
    );
    if (rng.chance(0.3)) {
      const minFace = this.local(country, 10);
      const maxFace = this.local(country, 500);
      this.buildSku({
        skuId: this.nextGiftcardId(),
        product,
        country,
        subCategory: brand.subCategory,
        benefitType: 'Gift Card',
        validityDays: 365,
        denomination: 'Range',
        faceCurrency: country.currencyCode,
        minFace,
        maxFace,
        skuName: `${product.productName} Open Range`,
        additionalInformation: info,
        discount: this.discount(),
        fee: 0,
        allowDecimal: true,
      });
    }
  }

  /** Everything one country offers: RTR operators (with bundles, PIN, SIM), billers, eSIM, some gift card brands. */
  private country(plan: CountryPlan, giftPlans: CountryPlan[], giftBrandsLeft: Map<string, (typeof GIFTCARD_BRANDS)[number][]>): void {
    const rng = this.rng;
    const { country } = plan;
    const isJamaica = country.countryCode === 'JM';
    const count = rng.int(plan.rtrOperators[0], plan.rtrOperators[1]);
    const brands = rng.shuffle(TELCO_BRANDS).slice(0, count);
    const rtrOps: Operator[] = [];
    brands.forEach((brand, k) => {
      const op = this.addOperator(`${brand} ${country.countryName}`, country);
      rtrOps.push(op);
      this.topup(plan, op, isJamaica && k === 0);
      if (plan.bundles && (k === 0 || rng.chance(0.4))) this.bundles(plan, op);
      if (plan.pin && k === 0) this.pin(plan, op);
      if (plan.sim && k < 2) this.sim(plan, op);
    });
    this.rtrOperatorsByCountry.set(country.countryCode, rtrOps);
    if (plan.billPay) this.billers(plan);
    if (plan.esim) this.esim(plan);
    if (plan.giftcards) {
      giftPlans.push(plan);
      const shuffled = rng.shuffle(GIFTCARD_BRANDS);
      const take = rng.int(3, 5);
      for (const brand of shuffled.slice(0, take)) this.giftcardProduct(plan, brand);
      giftBrandsLeft.set(country.countryCode, shuffled.slice(take));
    }
  }

  run(): void {
    const giftPlans: CountryPlan[] = [];
    const giftBrandsLeft = new Map<string, (typeof GIFTCARD_BRANDS)[number][]>();
    for (const plan of COUNTRY_PLANS) this.country(plan, giftPlans, giftBrandsLeft);
    // Top up the gift card list until paging has well over two pages; bounded by the brand pool.
    for (let round = 0; this.giftBuilt.length < GIFTCARD_TARGET && round < GIFTCARD_BRANDS.length; round++) {
      for (const plan of giftPlans) {
        if (this.giftBuilt.length >= GIFTCARD_TARGET) break;
        const brand = giftBrandsLeft.get(plan.country.countryCode)?.shift();
        if (brand !== undefined) this.giftcardProduct(plan, brand);
      }
    }
  }

  /**
   * Countries added after the base catalog: the RNG and id allocators continue where run() stopped, so every base
   * record (ids, names, prices) is exactly what a generation without extras gives.
   */
  runExtras(plans: readonly CountryPlan[]): void {
    for (const plan of plans) {
      const code = plan.country.currencyCode;
      if (!this.fx.has(code)) this.fx.set(code, plan.baseFxPerUsd);
      this.country(plan, [], new Map());
    }
  }

  arabic(sku: Sku): Sku {
    return buildArabicSku(sku, this.arabicCache);
  }
}

function promotions(rng: Rng, now: number, products: Product[], countries: ReadonlyMap<string, Country>): SandboxData['promotions'] {
  const hourNow = Math.floor(now / 3_600_000) * 3_600_000;
  const candidates = rng.shuffle(products.filter((p) => p.category === 'Rtr' && !p.requireFetchBundle));
  const currentCount = rng.int(4, 7);
  const upcomingCount = rng.int(3, 5);
  const make = (product: Product, start: number, end: number): Promotion => {
    const country = countries.get(product.countryCode) as Country;
    const kind = rng.pick(PROMOTION_KINDS);
    const minUsd = rng.pick([5, 10, 15]);
    const maxUsd = rng.pick([50, 75, 100]);
    return {
      promotionName: `${product.operatorName} ${kind.name}`,
      startDate: formatInTimeZone(start, country.timeZone),
      endDate: formatInTimeZone(end, country.timeZone),
      description: kind.description,
      restriction: kind.restriction,
      promotionMinMax: `${formatAmount(minUsd)} ${WALLET_CURRENCY} - ${formatAmount(maxUsd)} ${WALLET_CURRENCY}`,
      product: {
        productId: product.productId,
        productName: product.productName,
        countryCode: product.countryCode,
        operatorName: product.operatorName,
      },
    };
  };
  const current = candidates.slice(0, currentCount).map((p) => {
    const start = hourNow - rng.int(1, 10) * DAY_MS - rng.int(0, 23) * 3_600_000;
    const end = hourNow + rng.int(2, 20) * DAY_MS + rng.int(0, 23) * 3_600_000;
    return make(p, start, end);
  });
  const upcoming = candidates.slice(currentCount, currentCount + upcomingCount).map((p) => {
    const start = hourNow + rng.int(1, 14) * DAY_MS + rng.int(1, 23) * 3_600_000;
    return make(p, start, start + rng.int(3, 21) * DAY_MS);
  });
  return { current, upcoming };
}

function sampleNational(length: number): string {
  return '23456789012345'.slice(0, length);
}

function firstSku(skus: Sku[], metas: ReadonlyMap<number, SkuMeta>, test: (sku: Sku, meta: SkuMeta) => boolean): number {
  for (const sku of skus) {
    const meta = metas.get(sku.skuId) as SkuMeta;
    if (test(sku, meta)) return sku.skuId;
  }
  throw new Error('sandbox data: no SKU matches a required sample');
}

/** Build the whole sandbox catalog for a seed. Pure: the same (seed, now) always gives deep-equal data. */
/** The extra country plans a profile asks for (spec Versioning 3: new countries), each known by ISO code. */
function extraPlansOf(options: GenerateOptions): CountryPlan[] {
  return (options.extraCountries ?? []).map((code) => {
    const plan = EXTRA_COUNTRY_PLANS.get(code);
    if (plan === undefined)
      throw new Error(`sandbox data: no extra country plan '${code}' (known: ${[...EXTRA_COUNTRY_PLANS.keys()].join(', ')})`);
    return plan;
  });
}

interface FinishedSkus {
  readonly en: Sku[];
  readonly ar: Sku[];
  readonly v1: V1Sku[];
}

/** SKUs in id order with their Arabic and v1 twins, registered in the two id indexes as they are finished. */
function finishSkus(gen: Generator, list: readonly Built[], skuMetaById: Map<number, SkuMeta>, skuById: Map<number, Sku>): FinishedSkus {
  const sorted = list.slice().sort((a, b) => a.sku.skuId - b.sku.skuId);
  const out: FinishedSkus = { en: [], ar: [], v1: [] };
  for (const { sku, meta } of sorted) {
    const arabic = gen.arabic(sku);
    registerArabicSku(sku, arabic);
    const v1Sku = toV1Sku(sku);
    skuMetaById.set(sku.skuId, { ...meta, localized: { en: sku, ar: arabic }, v1: v1Sku });
    skuById.set(sku.skuId, sku);
    out.en.push(sku);
    out.ar.push(arabic);
    out.v1.push(v1Sku);
  }
  return out;
}

function groupByProduct(skus: readonly Sku[]): Map<number, Sku[]> {
  const byProduct = new Map<number, Sku[]>();
  for (const sku of skus) {
    const list = byProduct.get(sku.productId) ?? [];
    list.push(sku);
    byProduct.set(sku.productId, list);
  }
  return byProduct;
}

interface DerivedRecords {
  readonly exchangeRates: ExchangeRate[];
  readonly logos: Logo[];
  readonly carriers: Carrier[];
  readonly skuDescriptions: SkuDescription[];
}

/** The records other endpoints serve, each derived from the products and SKUs (exchange rates, logos, carriers, descriptions). */
function derivedRecords(
  products: readonly Product[],
  allSkus: readonly Sku[],
  skusByProductId: ReadonlyMap<number, Sku[]>,
  skuMetaById: ReadonlyMap<number, SkuMeta>,
): DerivedRecords {
  const isRange = (p: Product): boolean =>
    (skusByProductId.get(p.productId) ?? []).some((s) => skuMetaById.get(s.skuId)?.denominationType === 'Range');
  return {
    exchangeRates: allSkus.map((s) => ({
      skuId: s.skuId,
      productName: s.productName,
      currencyCode: s.min.deliveryCurrencyCode,
      exchangeRate: s.exchangeRate,
    })),
    logos: products.map((p) => ({ productId: p.productId, imageUrl: p.imageUrl })),
    carriers: products.map((p) => ({
      productId: p.productId,
      carrierName: p.operatorName,
      category: p.category,
      countryCode: p.countryCode,
      denominationType: isRange(p) ? 'Range' : 'Fixed',
      currencyCode: p.currencyCode,
    })),
    skuDescriptions: allSkus.map((s) => ({
      skuId: s.skuId,
      productName: s.productName,
      description: `${s.skuName}, ${s.additionalInformation}`,
    })),
  };
}

/** Mobile lookup answers per RTR operator: its top-up and PIN products and SKUs, as v1 and v2 (both languages) serve them. */
function lookupIndex(
  gen: Generator,
  skusByProductId: ReadonlyMap<number, Sku[]>,
  skuMetaById: ReadonlyMap<number, SkuMeta>,
): Map<number, Omit<LookupResult, 'country'>> {
  const meta = (s: Sku): SkuMeta => skuMetaById.get(s.skuId) as SkuMeta;
  const lookupByOperatorId = new Map<number, Omit<LookupResult, 'country'>>();
  for (const operator of [...gen.rtrOperatorsByCountry.values()].flat()) {
    const opProducts = (gen.productsByOperator.get(operator.operatorId) ?? []).filter((p) => p.category === 'Rtr' || p.category === 'Pin');
    const skus = opProducts.flatMap((p) => skusByProductId.get(p.productId) ?? []);
    const main = gen.topupProductByOperator.get(operator.operatorId) as Product;
    const v1: V1LookupRecord = {
      productId: main.productId,
      productName: main.productName,
      category: main.category,
      countryCode: main.countryCode,
      operator: operator.operatorName,
      operatorId: operator.operatorId,
      denominationType: 'Range',
      skus: (skusByProductId.get(main.productId) ?? []).map((s) => meta(s).v1),
    };
    const v2: Record<Lang, Sku[]> = { en: skus, ar: skus.map((s) => meta(s).localized.ar) };
    lookupByOperatorId.set(operator.operatorId, { operator, products: opProducts, skus, v1, v2 });
  }
  return lookupByOperatorId;
}

/** The sample ids and numbers tests and settings use: one SKU of each kind the suites need, valid numbers, loan numbers. */
function sampleFacts(
  gen: Generator,
  catalog: FinishedSkus,
  gift: FinishedSkus,
  countries: readonly Country[],
  skuMetaById: ReadonlyMap<number, SkuMeta>,
): SandboxSamples {
  const jmTopup = gen.topupProductByOperator.get((gen.rtrOperatorsByCountry.get('JM') ?? [])[0]?.operatorId ?? -1);
  const first = (test: (sku: Sku, meta: SkuMeta) => boolean): number => firstSku(catalog.en, skuMetaById, test);
  return {
    rtrRangeSkuId: ANCHOR_SKU_ID,
    rtrFixedSkuId: first((s, m) => s.productId === jmTopup?.productId && m.denominationType === 'Fixed'),
    rtrLocalCurrencySkuId: first((s, m) => s.countryCode === 'IN' && s.category === 'Rtr' && !m.isBundle && m.denominationType === 'Fixed'),
    pinSkuId: first((s) => s.category === 'Pin' && s.countryCode === 'JM'),
    billPaySkuId: first((s) => s.category === 'Bill Pay' && s.countryCode === 'JM'),
    billPayAccountNumber: SAMPLE_BILL_ACCOUNT,
    simSkuId: first((s) => s.category === 'Sim' && s.countryCode === 'US'),
    esimSkuId: first((s) => s.category === 'eSim' && s.countryCode === 'US'),
    giftcardSkuId: (gift.en[0] as Sku).skuId,
    bundleProductId: ((gen.bundleProductsByCountry.get('JM') ?? [])[0] as Product).productId,
    validMobiles: Object.fromEntries(
      countries.map((c) => [c.countryCode, `${c.dialPrefixes[0] ?? ''}${sampleNational(c.nationalNumberLength)}`]),
    ),
    loanNumbers: SAMPLE_LOAN_NUMBERS,
  };
}

/** What the list endpoints serve as they are (countries as their records, SKUs per language, v1 SKUs). */
function servedRecords(countries: readonly Country[], catalog: FinishedSkus, gift: FinishedSkus): SandboxData['served'] {
  return {
    countries: countries.map((c) => ({
      countryCode: c.countryCode,
      countryName: c.countryName,
      region: c.region,
      internationalCountryCode: c.internationalCountryCode,
      areaCodes: c.areaCodes,
      numberLength: c.numberLength,
    })),
    skus: { en: catalog.en, ar: catalog.ar },
    giftcardSkus: { en: gift.en, ar: gift.ar },
    v1Skus: [...catalog.v1, ...gift.v1].sort((a, b) => a.skuId - b.skuId),
  };
}

/** Dialing prefixes longest first, so a number is matched by its most specific prefix (1876 before 1). */
function dialPrefixIndex(countries: readonly Country[]): SandboxData['index']['dialPrefixes'] {
  return countries
    .flatMap((country) => country.dialPrefixes.map((prefix) => ({ prefix, country })))
    .sort((a, b) => b.prefix.length - a.prefix.length || a.prefix.localeCompare(b.prefix));
}

export function generateSandboxData(seed: number, options: GenerateOptions = {}): SandboxData {
  const now = options.now ?? startOfUtcDay(Date.now());
  const extraPlans = extraPlansOf(options);
  const gen = new Generator(seed);
  gen.run();
  const baseProductCount = gen.products.length;
  gen.runExtras(extraPlans);

  const countries = [...COUNTRY_PLANS, ...extraPlans].map((p) => p.country).sort((a, b) => (a.countryName < b.countryName ? -1 : 1));
  const countryByCode = new Map(countries.map((c) => [c.countryCode, c]));
  const skuMetaById = new Map<number, SkuMeta>();
  const skuById = new Map<number, Sku>();
  const catalog = finishSkus(gen, gen.built, skuMetaById, skuById);
  const gift = finishSkus(gen, gen.giftBuilt, skuMetaById, skuById);
  const skusByProductId = groupByProduct([...catalog.en, ...gift.en]);
  const products = gen.products.slice().sort((a, b) => a.productId - b.productId);
  const operators = gen.operators.slice().sort((a, b) => a.operatorId - b.operatorId);
  const allSkus = [...catalog.en, ...gift.en].sort((a, b) => a.skuId - b.skuId);
  const derived = derivedRecords(products, allSkus, skusByProductId, skuMetaById);
  // Promotions from the base products only, so added countries leave the base promotions as they were.
  const baseProducts = gen.products.slice(0, baseProductCount).sort((a, b) => a.productId - b.productId);

  return {
    seed,
    generatedAt: now,
    walletCurrency: WALLET_CURRENCY,
    countries,
    operators,
    products,
    skus: catalog.en,
    giftcardSkus: gift.en,
    promotions: promotions(createRng(seed + 0x5eed), now, baseProducts, countryByCode),
    ...derived,
    samples: sampleFacts(gen, catalog, gift, countries, skuMetaById),
    served: servedRecords(countries, catalog, gift),
    index: {
      countryByCode,
      operatorById: new Map(operators.map((o) => [o.operatorId, o])),
      productById: new Map(products.map((p) => [p.productId, p])),
      skuById,
      skuMetaById,
      skusByProductId,
      exchangeRateBySkuId: new Map(derived.exchangeRates.map((r) => [r.skuId, r])),
      dialPrefixes: dialPrefixIndex(countries),
      fxPerUsd: gen.fxMap(),
      rtrOperatorsByCountry: gen.rtrOperatorsByCountry,
      bundleProductsByCountry: gen.bundleProductsByCountry,
      lookupByOperatorId: lookupIndex(gen, skusByProductId, skuMetaById),
    },
  };
}
