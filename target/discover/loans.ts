// Learns target data the conformance settings need and no read lists: numbers with an outstanding loan, by reading
// the bundles endpoint (loan information where dues exist) for a bounded sweep of numbers of each lookup country.
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { learned, unknown, type Finding } from './findings.ts';
import { LOOKUP_COUNTRIES } from './facts.ts';
import { asInteger, leafValue } from './records.ts';
import type { DiscoveryReader } from './reader.ts';
import { recordsOf } from './reader.ts';
import type { Samples } from './samples.ts';

export const LOAN_NUMBERS_KEY = 'settings.loanNumbers';

/** Numbers read per country: national numbers whose last three digits sweep 000..975 in steps of 25. */
const SWEEP = 40;

interface BundleProduct {
  readonly productId: number;
  readonly country: string;
  readonly prefix: string;
  readonly nationalLength: number;
}

type Paths = Readonly<
  Record<'requireFetchBundle' | 'productId' | 'countryCode' | 'internationalCountryCode' | 'localPhoneNumberLength' | 'loan', string>
>;

/** One bundle product (requireFetchBundle) per lookup country, with its number plan, as the SKU records state them. */
function bundleProducts(samples: Samples, paths: Paths): BundleProduct[] {
  const out = new Map<string, BundleProduct>();
  for (const sku of samples.records.v2Sku ?? []) {
    const country = leafValue(sku, paths.countryCode);
    const dialing = leafValue(sku, paths.internationalCountryCode);
    const prefix = String(Array.isArray(dialing) ? dialing[0] : (dialing ?? ''));
    const productId = asInteger(leafValue(sku, paths.productId));
    const nationalLength = asInteger(leafValue(sku, paths.localPhoneNumberLength));
    const wanted = LOOKUP_COUNTRIES.some((c) => c.iso === country) && String(leafValue(sku, paths.requireFetchBundle)) === 'true';
    if (
      !wanted ||
      typeof country !== 'string' ||
      out.has(country) ||
      !/^\d+$/.test(prefix) ||
      productId === undefined ||
      nationalLength === undefined ||
      nationalLength < 4
    )
      continue;
    out.set(country, { productId, country, prefix, nationalLength });
  }
  return [...out.values()];
}

function sweep(product: BundleProduct): string[] {
  const head = '98765432109876'.slice(0, product.nationalLength - 3);
  return Array.from({ length: SWEEP }, (_, k) => `${product.prefix}${head}${String(k * 25).padStart(3, '0')}`);
}

export async function learnLoanNumbers(
  reader: DiscoveryReader,
  samples: Samples,
  value: (key: string, fallback: string) => string,
): Promise<Finding> {
  const v2 = DEFAULT_FIELD_MAPPING.v2Sku;
  const paths: Paths = {
    requireFetchBundle: value('v2Sku.requireFetchBundle', v2.requireFetchBundle),
    productId: value('v2Sku.productId', v2.productId),
    countryCode: value('v2Sku.countryCode', v2.countryCode),
    internationalCountryCode: value('v2Sku.internationalCountryCode', v2.internationalCountryCode),
    localPhoneNumberLength: value('v2Sku.localPhoneNumberLength', v2.localPhoneNumberLength),
    loan: value('bundle.loanInFaceCurrency', DEFAULT_FIELD_MAPPING.bundle.loanInFaceCurrency),
  };
  const products = bundleProducts(samples, paths);
  if (products.length === 0)
    return unknown(
      LOAN_NUMBERS_KEY,
      undefined,
      'no SKU of a lookup country needs its bundles fetched (requireFetchBundle): no bundles endpoint to read loans from',
    );
  const found: string[] = [];
  for (const product of products) {
    for (const mobile of sweep(product)) {
      const records = recordsOf(await reader.read('v2.catalog.bundles', { path: { productId: product.productId, mobileNumber: mobile } }));
      if (records.some((r) => Number(leafValue(r, paths.loan)) > 0)) {
        found.push(mobile);
        break;
      }
    }
  }
  const where = `bundles/{productId}/{number} of ${products.map((p) => `${p.country} product ${p.productId}`).join(', ')}, ${SWEEP} numbers each`;
  return found.length === 0
    ? unknown(
        LOAN_NUMBERS_KEY,
        undefined,
        `${where}: no number showed loan information (${paths.loan} > 0); set loanNumbers in the settings file`,
      )
    : learned(LOAN_NUMBERS_KEY, found.join(','), `${where}: these numbers show an outstanding loan (${paths.loan} > 0)`);
}
