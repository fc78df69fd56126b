// Deterministic English-to-Arabic rendering of the sandbox's catalog texts: a phrase table plus transliteration.
// The spec localizes SkuName, ProductName, BenefitType, ProductDescription, OperatorName, AdditionalInformation for 'ar'.

import { COUNTRY_PLANS, EXTRA_COUNTRY_PLANS } from './countries.ts';

// Every word the generator's English templates use; anything else (brand names) is transliterated.
const PHRASES: Readonly<Record<string, string>> = {
  'mobile airtime top-up': 'شحن رصيد مكالمات الجوال',
  'data and minutes bundles': 'باقات بيانات ودقائق',
  'prepaid esim data plans': 'باقات بيانات شريحة إلكترونية مسبقة الدفع',
  'prepaid sim activation plans': 'باقات تفعيل شريحة مسبقة الدفع',
  'prepaid numbers': 'الأرقام مسبقة الدفع',
  'top-up': 'شحن رصيد',
  'open range': 'مبلغ مفتوح',
  'bill payment': 'دفع الفواتير',
  'gift card': 'بطاقة هدية',
  'sim plans': 'باقات الشريحة',
  'data and minutes': 'بيانات ودقائق',
  'cable tv': 'تلفزيون الكابل',
  sms: 'رسالة نصية',
  esim: 'شريحة إلكترونية',
  sim: 'شريحة',
  pin: 'رقم سري',
  bundles: 'باقات',
  bundle: 'باقة',
  airtime: 'رصيد مكالمات',
  data: 'بيانات',
  minutes: 'دقيقة',
  plan: 'باقة',
  plans: 'باقات',
  and: 'و',
  mobile: 'الجوال',
  prepaid: 'مسبق الدفع',
  numbers: 'أرقام',
  number: 'رقم',
  in: 'في',
  delivered: 'يُسلَّم',
  by: 'عبر',
  accounts: 'حسابات',
  account: 'حساب',
  activation: 'تفعيل',
  from: 'من',
  for: 'لـ',
  travel: 'السفر',
  digital: 'رقمية',
  use: 'الاستخدام',
  any: 'أي',
  amount: 'مبلغ',
  between: 'بين',
  instantly: 'فورًا',
  to: 'إلى',
  the: '',
  is: '',
  valid: 'صالحة',
  days: 'يومًا',
  day: 'يوم',
  gb: 'جيجابايت',
  recipient: 'المستلم',
  payment: 'الدفعة',
  posted: 'تُسجَّل',
  within: 'خلال',
  hours: 'ساعة',
  unlimited: 'غير محدودة',
  talk: 'مكالمات',
  text: 'رسائل',
  with: 'مع',
  redeem: 'استبدلها',
  online: 'عبر الإنترنت',
  or: 'أو',
  store: 'المتجر',
  electric: 'للكهرباء',
  water: 'للمياه',
  internet: 'إنترنت',
  utilities: 'للمرافق',
  power: 'للطاقة',
  gas: 'للغاز',
  telecom: 'للاتصالات',
  shopping: 'تسوق',
  gaming: 'ألعاب',
  entertainment: 'ترفيه',
  dining: 'مطاعم',
  streaming: 'بث',
  usd: 'دولار أمريكي',
  jmd: 'دولار جامايكي',
  ttd: 'دولار ترينيدادي',
  bbd: 'دولار باربادوسي',
  dop: 'بيزو دومينيكاني',
  htg: 'غورد هايتي',
  mxn: 'بيزو مكسيكي',
  gtq: 'كتزال غواتيمالي',
  hnl: 'لمبيرا هندوراسية',
  cop: 'بيزو كولومبي',
  brl: 'ريال برازيلي',
  eur: 'يورو',
  gbp: 'جنيه إسترليني',
  inr: 'روبية هندية',
  pkr: 'روبية باكستانية',
  bdt: 'تاكا بنغلاديشي',
  npr: 'روبية نيبالية',
  php: 'بيزو فلبيني',
  ngn: 'نايرا نيجيرية',
  ghs: 'سيدي غاني',
  kes: 'شلن كيني',
  egp: 'جنيه مصري',
  aed: 'درهم إماراتي',
  lkr: 'روبية سريلانكية',
  ...Object.fromEntries([...COUNTRY_PLANS, ...EXTRA_COUNTRY_PLANS.values()].map((p) => [p.country.countryName.toLowerCase(), p.nameAr])),
};

// Phrase lengths (in words) that start with a given first word, longest first: one Map hit per word.
const PHRASE_LENGTHS = new Map<string, number[]>();
for (const key of Object.keys(PHRASES)) {
  const words = key.split(' ');
  const first = words[0] as string;
  const list = PHRASE_LENGTHS.get(first) ?? [];
  if (!list.includes(words.length)) list.push(words.length);
  list.sort((a, b) => b - a);
  PHRASE_LENGTHS.set(first, list);
}

const DIGRAPHS: ReadonlyArray<readonly [string, string]> = [
  ['sh', 'ش'],
  ['ch', 'تش'],
  ['th', 'ث'],
  ['kh', 'خ'],
  ['gh', 'غ'],
  ['ph', 'ف'],
  ['oo', 'و'],
  ['ee', 'ي'],
  ['ou', 'و'],
];
const LETTERS: Readonly<Record<string, string>> = {
  a: 'ا',
  b: 'ب',
  c: 'ك',
  d: 'د',
  e: 'ي',
  f: 'ف',
  g: 'ج',
  h: 'ه',
  i: 'ي',
  j: 'ج',
  k: 'ك',
  l: 'ل',
  m: 'م',
  n: 'ن',
  o: 'و',
  p: 'ب',
  q: 'ق',
  r: 'ر',
  s: 'س',
  t: 'ت',
  u: 'و',
  v: 'ف',
  w: 'و',
  x: 'كس',
  y: 'ي',
  z: 'ز',
};

/** Arabic-script rendering of a Latin word (brand names), letter by letter with common digraphs. */
export function transliterate(word: string): string {
  const lower = word.toLowerCase();
  let out = '';
  for (let i = 0; i < lower.length;) {
    const pair = lower.slice(i, i + 2);
    const digraph = DIGRAPHS.find(([latin]) => latin === pair);
    if (digraph) {
      out += digraph[1];
      i += 2;
      continue;
    }
    const ch = lower[i] as string;
    const mapped = LETTERS[ch];
    if (mapped !== undefined) out += i === 0 && ch === 'a' ? 'أ' : mapped;
    else if (ch === '-' || ch === "'") out += '';
    else out += ch;
    i += 1;
  }
  return out;
}

const NUMERIC = /^[0-9][0-9.,:-]*$/;

function splitPunct(word: string): [string, string] {
  let end = word.length;
  while (end > 0 && ',.;:'.includes(word[end - 1] as string)) end -= 1;
  return [word.slice(0, end), word.slice(end)];
}

/**
 * Arabic rendering of one of the generator's English texts: known phrases from the table (longest match first),
 * numbers kept, anything else transliterated. `cache` (per generation) avoids re-rendering repeated names.
 */
export function toArabic(text: string, cache?: Map<string, string>): string {
  const hit = cache?.get(text);
  if (hit !== undefined) return hit;
  const words = text.split(' ').filter((w) => w.length > 0);
  const bare: string[] = [];
  const punct: string[] = [];
  for (const w of words) {
    const [b, p] = NUMERIC.test(w) ? [w, ''] : splitPunct(w);
    bare.push(b.toLowerCase());
    punct.push(p);
  }
  const out: string[] = [];
  for (let i = 0; i < words.length;) {
    let used = 0;
    for (const n of PHRASE_LENGTHS.get(bare[i] as string) ?? []) {
      if (i + n > words.length) continue;
      const phrase = PHRASES[n === 1 ? (bare[i] as string) : bare.slice(i, i + n).join(' ')];
      if (phrase === undefined) continue;
      if (phrase.length > 0) out.push(phrase + ((punct[i + n - 1] as string).startsWith(',') ? '،' : ''));
      used = n;
      break;
    }
    if (used > 0) {
      i += used;
      continue;
    }
    const word = bare[i] as string;
    out.push((NUMERIC.test(word) ? word : transliterate(word)) + ((punct[i] as string).startsWith(',') ? '،' : ''));
    i += 1;
  }
  const result = out.join(' ');
  cache?.set(text, result);
  return result;
}
