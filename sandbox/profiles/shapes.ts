// Shape profiles: gateways that keep every rule of the spec and differ only where it is silent (payload field names,
// the unshown write paths, the meaning of next / next_cursor, extra fields, a small wallet). Each declares its truth.
import { DEFAULT_FIELD_MAPPING, FIELD_MAPPING_SECTIONS, type FieldMapping, type FieldMappingOverrides } from '../../api/field-mapping.ts';
import { reshapePayload, shapePath, type PayloadShape } from '../shaping.ts';
import type { ProfileHooks } from './hooks.ts';
import type { SandboxProfile, ShapeChange } from './types.ts';

type Rec = Record<string, unknown>;

/** The envelope's own next / next_cursor are the spec's names: never re-spelled, so their section is left out. */
const ENVELOPE_SECTIONS: ReadonlySet<keyof FieldMapping> = new Set(['giftcardList']);

/** The field mapping a payload shape implies: every default path as the shape spells it, only where it differs. */
export function mappingOfShape(shape: PayloadShape): FieldMappingOverrides {
  const out: Record<string, Record<string, string>> = {};
  for (const section of FIELD_MAPPING_SECTIONS) {
    if (ENVELOPE_SECTIONS.has(section)) continue;
    for (const [field, path] of Object.entries(DEFAULT_FIELD_MAPPING[section] as unknown as Record<string, string>)) {
      const shaped = shapePath(path, shape);
      if (shaped.toLowerCase() !== path.toLowerCase()) (out[section] ??= {})[field] = shaped;
    }
  }
  return out as FieldMappingOverrides;
}

function payloadHook(shape: PayloadShape): NonNullable<ProfileHooks['onEnvelope']> {
  return (ctx) => {
    const payload = ctx.envelope['payLoad'];
    if (payload === null || typeof payload !== 'object') return undefined;
    ctx.envelope['payLoad'] = reshapePayload(payload, shape);
    return { envelope: ctx.envelope };
  };
}

const EXTRA_RECORD_FIELDS: Readonly<Rec> = Object.freeze({
  sortOrder: 3,
  legacyCode: 'X-01',
  links: { self: '/records/1', rel: 'self' },
  flags: [],
});

/** Extra envelope fields (paging-like words included) and extra fields on every top-level payload record. */
const extraFields: NonNullable<ProfileHooks['onEnvelope']> = (ctx) => {
  ctx.envelope['traceId'] = 'trace-0001';
  ctx.envelope['total'] = Array.isArray(ctx.envelope['payLoad']) ? ctx.envelope['payLoad'].length : 1;
  ctx.envelope['version'] = '2.9';
  const payload = ctx.envelope['payLoad'];
  const records = Array.isArray(payload) ? payload : [payload];
  for (const record of records) {
    if (record !== null && typeof record === 'object' && !Array.isArray(record)) {
      for (const [key, value] of Object.entries(EXTRA_RECORD_FIELDS)) if (!(key in record)) (record as Rec)[key] = structuredClone(value);
    }
  }
  return { envelope: ctx.envelope };
};

/** Other paths for every write the spec does not show, each a common shape discovery probes. */
export const OTHER_WRITE_PATHS: Readonly<Record<string, string>> = Object.freeze({
  'v1.transaction.pin': '/api/v1/transaction/pin/purchase',
  'v1.transaction.billpay': '/api/v1/transaction/bill-pay',
  'v1.transaction.giftcard': '/api/v1/transaction/giftcard/purchase',
  'v1.transaction.sim-activation': '/api/v1/transaction/sim/activation',
  'v1.transaction.sim-portin': '/api/v1/transaction/sim/port-in',
  'v1.transaction.esim': '/api/v1/transaction/esim/purchase',
  'v2.transaction.pin': '/api/v2/pin/order',
  'v2.transaction.billpay': '/api/v2/billpay/pay',
  'v2.transaction.giftcard': '/api/v2/transaction/gift-card/order',
  'v2.transaction.sim-activation': '/api/v2/sim/activate',
  'v2.transaction.sim-portin': '/api/v2/transaction/sim/portIn',
  'v2.transaction.esim': '/api/v2/transaction/esim/activate',
  'v2.transaction.estimated-cost': '/api/v2/transaction/estimated-cost',
});

const RENAMED: PayloadShape = {
  renames: {
    skuId: 'denominationId',
    category: 'categoryName',
    countryCode: 'countryIsoCode',
    'min.faceValue': 'price.min',
    'max.faceValue': 'price.max',
    transactionId: 'orderReference',
  },
};

function shapeProfile(
  name: string,
  description: string,
  change: Omit<ShapeChange, 'truth'> & { truth?: Partial<ShapeChange['truth']> },
  extra: Partial<SandboxProfile> = {},
): SandboxProfile {
  const payload = change.payload;
  const truth: ShapeChange['truth'] = {
    fieldMapping: payload === undefined ? {} : mappingOfShape(payload),
    writePaths: {},
    giftcardCursorMeaning: 'next-start',
    ...change.truth,
  };
  const hooks = payload === undefined ? extra.hooks : { onEnvelope: payloadHook(payload) };
  return {
    name,
    description,
    ...extra,
    ...(hooks === undefined ? {} : { hooks }),
    shape: { change: change.change, ...(payload === undefined ? {} : { payload }), truth },
  };
}

export const SHAPE_PROFILES: readonly SandboxProfile[] = [
  shapeProfile('shape-pascal', 'Shape: every payload field in PascalCase (SkuId, Min.FaceValue, ...).', {
    change: 'payload field names in PascalCase',
    payload: { keyCase: 'pascal' },
  }),
  shapeProfile('shape-snake', 'Shape: every payload field in snake_case (sku_id, min.face_value, ...).', {
    change: 'payload field names in snake_case',
    payload: { keyCase: 'snake' },
  }),
  shapeProfile('shape-renamed', 'Shape: other words for ids, category, country, bounds (price.min) and the transaction id.', {
    change: 'payload fields under other names and nesting',
    payload: RENAMED,
  }),
  shapeProfile('shape-string-ids', 'Shape: every integer id in payload records is a string ("193").', {
    change: 'ids typed as strings in records',
    payload: { idsAsStrings: true },
  }),
  shapeProfile(
    'shape-write-paths',
    'Shape: every write whose path the spec does not show sits at another common path.',
    { change: 'other write paths', truth: { writePaths: OTHER_WRITE_PATHS } },
    { writePaths: OTHER_WRITE_PATHS },
  ),
  shapeProfile(
    'shape-cursor-last',
    "Shape: the gift card list's next_cursor is the last skuId of this page.",
    { change: 'next_cursor = last skuId of the page', truth: { giftcardCursorMeaning: 'last-of-page' } },
    { behaviour: { giftcardCursorMeaning: 'last-of-page' } },
  ),
  shapeProfile(
    'shape-cursor-pages',
    "Shape: the gift card list's next is the number of pages that follow.",
    { change: 'next = pages that follow', truth: { giftcardCursorMeaning: 'page-count' } },
    { behaviour: { giftcardCursorMeaning: 'page-count' } },
  ),
  shapeProfile(
    'shape-extra-fields',
    'Shape: extra envelope fields (traceId, total, version) and extra fields on every payload record.',
    { change: 'extra envelope and record fields' },
    { hooks: { onEnvelope: extraFields } },
  ),
  shapeProfile(
    'shape-small-wallet',
    'Shape: a wallet of 1,000 (wallet currency) instead of 10,000.',
    { change: 'a wallet of 1,000' },
    { behaviour: { initialBalance: 1_000 } },
  ),
];
