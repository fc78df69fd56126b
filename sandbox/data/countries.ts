// The sandbox's fixed country list (an anchor: the same for every seed) with dialing plans and currencies.
// Number formats follow each country's real numbering plan closely enough for the spec's "must follow the country's format".

import type { Country } from './types.ts';

/** What the generator offers in a country, beyond the fixed number plan. */
export interface CountryPlan {
  country: Country;
  /** Arabic country name (localized product and operator names are built from it). */
  nameAr: string;
  /** Local currency units per USD before the seeded jitter. */
  baseFxPerUsd: number;
  /** Number of RTR operators, [min, max]; the seed picks within it. */
  rtrOperators: readonly [number, number];
  bundles: boolean;
  pin: boolean;
  billPay: boolean;
  sim: boolean;
  esim: boolean;
  giftcards: boolean;
}

interface Row {
  code: string;
  name: string;
  nameAr: string;
  region: string;
  itu: string;
  areaCodes: string[];
  nationalLength: number;
  currency: string;
  timeZone: string;
  fx: number;
  ops: readonly [number, number];
  offers: string;
}

// offers: b = bundles, p = PIN, $ = bill pay, s = SIM, e = eSIM, g = gift cards
const ROWS: readonly Row[] = [
  {
    code: 'JM',
    name: 'Jamaica',
    nameAr: 'جامايكا',
    region: 'Caribbean',
    itu: '1',
    areaCodes: ['876'],
    nationalLength: 7,
    currency: 'JMD',
    timeZone: 'America/Jamaica',
    fx: 156.2,
    ops: [2, 3],
    offers: 'bp$',
  },
  {
    code: 'TT',
    name: 'Trinidad and Tobago',
    nameAr: 'ترينيداد وتوباغو',
    region: 'Caribbean',
    itu: '1',
    areaCodes: ['868'],
    nationalLength: 7,
    currency: 'TTD',
    timeZone: 'America/Port_of_Spain',
    fx: 6.78,
    ops: [1, 2],
    offers: 'p',
  },
  {
    code: 'BB',
    name: 'Barbados',
    nameAr: 'باربادوس',
    region: 'Caribbean',
    itu: '1',
    areaCodes: ['246'],
    nationalLength: 7,
    currency: 'BBD',
    timeZone: 'America/Barbados',
    fx: 2.0,
    ops: [1, 2],
    offers: '',
  },
  {
    code: 'DO',
    name: 'Dominican Republic',
    nameAr: 'جمهورية الدومينيكان',
    region: 'Caribbean',
    itu: '1',
    areaCodes: ['809', '829', '849'],
    nationalLength: 7,
    currency: 'DOP',
    timeZone: 'America/Santo_Domingo',
    fx: 59.1,
    ops: [2, 3],
    offers: 'p$',
  },
  {
    code: 'HT',
    name: 'Haiti',
    nameAr: 'هايتي',
    region: 'Caribbean',
    itu: '509',
    areaCodes: [],
    nationalLength: 8,
    currency: 'HTG',
    timeZone: 'America/Port-au-Prince',
    fx: 132.5,
    ops: [1, 2],
    offers: 'p',
  },
  {
    code: 'US',
    name: 'United States',
    nameAr: 'الولايات المتحدة',
    region: 'North America',
    itu: '1',
    areaCodes: [],
    nationalLength: 10,
    currency: 'USD',
    timeZone: 'America/New_York',
    fx: 1,
    ops: [2, 3],
    offers: 'p$seg',
  },
  {
    code: 'MX',
    name: 'Mexico',
    nameAr: 'المكسيك',
    region: 'North America',
    itu: '52',
    areaCodes: [],
    nationalLength: 10,
    currency: 'MXN',
    timeZone: 'America/Mexico_City',
    fx: 17.1,
    ops: [2, 3],
    offers: 'p$seg',
  },
  {
    code: 'GT',
    name: 'Guatemala',
    nameAr: 'غواتيمالا',
    region: 'Central America',
    itu: '502',
    areaCodes: [],
    nationalLength: 8,
    currency: 'GTQ',
    timeZone: 'America/Guatemala',
    fx: 7.8,
    ops: [1, 2],
    offers: 'p$',
  },
  {
    code: 'SV',
    name: 'El Salvador',
    nameAr: 'السلفادور',
    region: 'Central America',
    itu: '503',
    areaCodes: [],
    nationalLength: 8,
    currency: 'USD',
    timeZone: 'America/El_Salvador',
    fx: 1,
    ops: [1, 2],
    offers: '$',
  },
  {
    code: 'HN',
    name: 'Honduras',
    nameAr: 'هندوراس',
    region: 'Central America',
    itu: '504',
    areaCodes: [],
    nationalLength: 8,
    currency: 'HNL',
    timeZone: 'America/Tegucigalpa',
    fx: 24.7,
    ops: [1, 2],
    offers: '$',
  },
  {
    code: 'CO',
    name: 'Colombia',
    nameAr: 'كولومبيا',
    region: 'South America',
    itu: '57',
    areaCodes: [],
    nationalLength: 10,
    currency: 'COP',
    timeZone: 'America/Bogota',
    fx: 3950,
    ops: [2, 3],
    offers: 'e',
  },
  {
    code: 'BR',
    name: 'Brazil',
    nameAr: 'البرازيل',
    region: 'South America',
    itu: '55',
    areaCodes: [],
    nationalLength: 11,
    currency: 'BRL',
    timeZone: 'America/Sao_Paulo',
    fx: 5.05,
    ops: [2, 3],
    offers: 'eg',
  },
  {
    code: 'ES',
    name: 'Spain',
    nameAr: 'إسبانيا',
    region: 'Europe',
    itu: '34',
    areaCodes: [],
    nationalLength: 9,
    currency: 'EUR',
    timeZone: 'Europe/Madrid',
    fx: 0.92,
    ops: [2, 3],
    offers: 'seg',
  },
  {
    code: 'GB',
    name: 'United Kingdom',
    nameAr: 'المملكة المتحدة',
    region: 'Europe',
    itu: '44',
    areaCodes: [],
    nationalLength: 10,
    currency: 'GBP',
    timeZone: 'Europe/London',
    fx: 0.79,
    ops: [2, 3],
    offers: 'seg',
  },
  {
    code: 'IN',
    name: 'India',
    nameAr: 'الهند',
    region: 'South Asia',
    itu: '91',
    areaCodes: [],
    nationalLength: 10,
    currency: 'INR',
    timeZone: 'Asia/Kolkata',
    fx: 83.2,
    ops: [2, 3],
    offers: 'bp$eg',
  },
  {
    code: 'PK',
    name: 'Pakistan',
    nameAr: 'باكستان',
    region: 'South Asia',
    itu: '92',
    areaCodes: [],
    nationalLength: 10,
    currency: 'PKR',
    timeZone: 'Asia/Karachi',
    fx: 278,
    ops: [2, 3],
    offers: 'bp$',
  },
  {
    code: 'BD',
    name: 'Bangladesh',
    nameAr: 'بنغلاديش',
    region: 'South Asia',
    itu: '880',
    areaCodes: [],
    nationalLength: 10,
    currency: 'BDT',
    timeZone: 'Asia/Dhaka',
    fx: 110,
    ops: [2, 3],
    offers: 'p',
  },
  {
    code: 'NP',
    name: 'Nepal',
    nameAr: 'نيبال',
    region: 'South Asia',
    itu: '977',
    areaCodes: [],
    nationalLength: 10,
    currency: 'NPR',
    timeZone: 'Asia/Kathmandu',
    fx: 133,
    ops: [1, 2],
    offers: 'p',
  },
  {
    code: 'PH',
    name: 'Philippines',
    nameAr: 'الفلبين',
    region: 'Southeast Asia',
    itu: '63',
    areaCodes: [],
    nationalLength: 10,
    currency: 'PHP',
    timeZone: 'Asia/Manila',
    fx: 56.4,
    ops: [2, 3],
    offers: 'b$eg',
  },
  {
    code: 'NG',
    name: 'Nigeria',
    nameAr: 'نيجيريا',
    region: 'Africa',
    itu: '234',
    areaCodes: [],
    nationalLength: 10,
    currency: 'NGN',
    timeZone: 'Africa/Lagos',
    fx: 1480,
    ops: [2, 3],
    offers: 'bp$',
  },
  {
    code: 'GH',
    name: 'Ghana',
    nameAr: 'غانا',
    region: 'Africa',
    itu: '233',
    areaCodes: [],
    nationalLength: 9,
    currency: 'GHS',
    timeZone: 'Africa/Accra',
    fx: 12.1,
    ops: [1, 2],
    offers: 'p',
  },
  {
    code: 'KE',
    name: 'Kenya',
    nameAr: 'كينيا',
    region: 'Africa',
    itu: '254',
    areaCodes: [],
    nationalLength: 9,
    currency: 'KES',
    timeZone: 'Africa/Nairobi',
    fx: 129,
    ops: [1, 2],
    offers: 'b',
  },
  {
    code: 'EG',
    name: 'Egypt',
    nameAr: 'مصر',
    region: 'Middle East',
    itu: '20',
    areaCodes: [],
    nationalLength: 10,
    currency: 'EGP',
    timeZone: 'Africa/Cairo',
    fx: 48.3,
    ops: [2, 3],
    offers: 'p$',
  },
  {
    code: 'AE',
    name: 'United Arab Emirates',
    nameAr: 'الإمارات العربية المتحدة',
    region: 'Middle East',
    itu: '971',
    areaCodes: [],
    nationalLength: 9,
    currency: 'AED',
    timeZone: 'Asia/Dubai',
    fx: 3.6725,
    ops: [2, 3],
    offers: 'eg',
  },
];

function toPlan(row: Row, allRows: readonly Row[]): CountryPlan {
  const dialPrefixes = row.areaCodes.length > 0 ? row.areaCodes.map((a) => row.itu + a) : [row.itu];
  // A NANP "1" number whose area code belongs to another listed country is that country's number, not a US one.
  const excludedPrefixes =
    row.areaCodes.length === 0
      ? allRows.filter((r) => r !== row && r.itu === row.itu).flatMap((r) => r.areaCodes.map((a) => r.itu + a))
      : [];
  const digitsAfterItu = row.nationalLength + (dialPrefixes[0] ?? row.itu).length - row.itu.length;
  return {
    country: {
      countryCode: row.code,
      countryName: row.name,
      region: row.region,
      internationalCountryCode: row.itu,
      areaCodes: row.areaCodes.join(','),
      numberLength: String(digitsAfterItu),
      dialPrefixes,
      excludedPrefixes,
      nationalNumberLength: row.nationalLength,
      currencyCode: row.currency,
      timeZone: row.timeZone,
    },
    nameAr: row.nameAr,
    baseFxPerUsd: row.fx,
    rtrOperators: row.ops,
    bundles: row.offers.includes('b'),
    pin: row.offers.includes('p'),
    billPay: row.offers.includes('$'),
    sim: row.offers.includes('s'),
    esim: row.offers.includes('e'),
    giftcards: row.offers.includes('g'),
  };
}

/**
 * Countries the base catalog does not have, for the benign "new catalog records" profile (spec Versioning 3: new
 * countries come without notice). Their ITU codes collide with no base prefix, so no base number changes country.
 */
const EXTRA_ROWS: readonly Row[] = [
  {
    code: 'LK',
    name: 'Sri Lanka',
    nameAr: 'سريلانكا',
    region: 'South Asia',
    itu: '94',
    areaCodes: [],
    nationalLength: 9,
    currency: 'LKR',
    timeZone: 'Asia/Colombo',
    fx: 300,
    ops: [2, 2],
    offers: 'pg',
  },
];

/** The fixed plans, in display order (sorted by country name at serve time is the generator's job). */
export const COUNTRY_PLANS: readonly CountryPlan[] = ROWS.map((r) => toPlan(r, ROWS));

/** Plans a generation may add after the base catalog (GenerateOptions.extraCountries), keyed by ISO code. */
export const EXTRA_COUNTRY_PLANS: ReadonlyMap<string, CountryPlan> = new Map(EXTRA_ROWS.map((r) => [r.code, toPlan(r, ROWS)]));
