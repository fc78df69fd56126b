// The LOC comparison, field by field and record by record: each way a localization can fall short is reported, and
// records or fields that are absent are never held against the target.
import { describe, expect, test } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../../api/field-mapping.ts';
import { compareLocalized } from './loc.ts';

const FIELDS = DEFAULT_FIELD_MAPPING.localized;
const en = (skuId: number, extra: Record<string, unknown> = {}) => ({
  skuId,
  skuName: `Top-up ${skuId}`,
  benefitType: 'Airtime',
  ...extra,
});
const ar = (skuId: number, extra: Record<string, unknown> = {}) => ({ skuId, skuName: `شحن ${skuId}`, benefitType: 'رصيد', ...extra });
const checks = (r: ReturnType<typeof compareLocalized>) => r.problems.map((p) => p.check);

describe('compareLocalized', () => {
  test('every named field Arabic and different, same records: no problem', () => {
    const result = compareLocalized([en(1), en(2)], [ar(2), ar(1)], FIELDS, 'skuId');
    expect(result).toEqual({ compared: 4, problems: [] });
  });

  test('one field left in English (or empty) in one record is reported', () => {
    expect(checks(compareLocalized([en(1), en(2)], [ar(1), ar(2, { benefitType: 'Airtime' })], FIELDS, 'skuId'))).toEqual([
      'arabic-localized',
    ]);
    expect(checks(compareLocalized([en(1)], [ar(1, { benefitType: '' })], FIELDS, 'skuId'))).toEqual(['arabic-localized']);
  });

  test('one Arabic string somewhere is not enough: every field of every record counts', () => {
    const result = compareLocalized([en(1), en(2)], [ar(1), en(2)], FIELDS, 'skuId');
    expect(checks(result)).toEqual(['arabic-localized']);
    expect(result.problems[0]?.message).toMatch(/2 of 4/);
  });

  test('Arabic in the default answer is reported', () => {
    expect(checks(compareLocalized([ar(1)], [ar(1)], FIELDS, 'skuId'))).toContain('default-english');
  });

  test('other records coming back in Arabic is reported', () => {
    expect(checks(compareLocalized([en(1), en(2)], [ar(1), ar(3)], FIELDS, 'skuId'))).toEqual(['same-records-localized']);
  });

  test('fields a record does not carry, or carries empty in English, are not compared', () => {
    expect(compareLocalized([{ skuId: 1, skuName: '' }], [{ skuId: 1 }], FIELDS, 'skuId')).toEqual({ compared: 0, problems: [] });
  });

  test('without readable ids, records are matched by position', () => {
    expect(compareLocalized([{ skuName: 'A' }], [{ skuName: 'ب' }], FIELDS, 'skuId')).toEqual({ compared: 1, problems: [] });
  });
});
