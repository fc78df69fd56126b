// Tests of the comparison: each change class on small hand-made samples, including the cases that must NOT be
// findings (data changes) and a rename reported once, not as a removal plus an addition.
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { getOperation } from '../api/operations.ts';
import { compareHeaders, compareSchema, CHANGES, type DriftFinding } from './compare.ts';
import { accumulate } from './infer-schema.ts';
import type { OperationObservation } from './observe.ts';
import { entryFromObservation } from './record.ts';

const OP = 'v2.catalog.countries';

function entryOf(samples: unknown[], headerSets: string[][] = samples.map(() => ['content-type'])) {
  const obs: OperationObservation = { operationId: OP, state: 'observed', samples, headerSets, calls: samples.length };
  return entryFromObservation(getOperation(OP), obs, DEFAULT_FIELD_MAPPING);
}

const envelope = (payLoad: unknown): unknown => ({ responseCode: '000', responseMessage: null, payLoad });
const countries = (records: Record<string, unknown>[]): unknown[] => [envelope(records)];
const BASE = [
  { countryCode: 'JM', countryName: 'Jamaica', numberLength: '10' },
  { countryCode: 'IN', countryName: 'India', numberLength: '10' },
  { countryCode: 'MX', countryName: 'Mexico', numberLength: '10' },
];

function diff(base: unknown[], fresh: unknown[]): DriftFinding[] {
  return compareSchema(entryOf(base), accumulate(fresh));
}

const brief = (findings: DriftFinding[]) => findings.map((f) => `${f.kind} ${f.change} ${f.path}`);

describe('compareSchema: no finding for data changes', () => {
  it('finds nothing when only values change', () => {
    const fresh = countries([{ countryCode: 'GB', countryName: 'United Kingdom', numberLength: '10' }]);
    expect(diff(countries(BASE), fresh)).toEqual([]);
  });

  it('treats integer and fractional numbers as one type', () => {
    expect(diff([envelope({ rate: 10 })], [envelope({ rate: 10.25 })])).toEqual([]);
  });

  it('tells nothing about a type from a null on either side', () => {
    expect(diff([envelope({ detail: null })], [envelope({ detail: { a: 1 } })])).toEqual([]);
    expect(diff([envelope({ detail: { a: 1 } })], [envelope({ detail: null })])).toEqual([]);
  });

  it('does not compare items of arrays that are empty now', () => {
    expect(diff([envelope([{ a: 1 }])], [envelope([])])).toEqual([]);
  });
});

describe('compareSchema: classified changes', () => {
  it('reports a removed field as breaking', () => {
    const fresh = countries(BASE.map(({ countryCode, countryName }) => ({ countryCode, countryName })));
    expect(brief(diff(countries(BASE), fresh))).toEqual(['breaking field-removed $.payLoad[*].numberLength']);
  });

  it('reports a rename once: same type, same values under a new name', () => {
    const fresh = countries(BASE.map(({ countryName, ...rest }) => ({ ...rest, name: countryName })));
    const findings = diff(countries(BASE), fresh);
    expect(brief(findings)).toEqual(['breaking field-renamed $.payLoad[*].countryName']);
    expect(findings[0]?.detail).toContain("renamed to 'name'");
  });

  it('reports a rename in letter case alone as a rename', () => {
    const fresh = countries(BASE.map(({ countryCode, ...rest }) => ({ ...rest, CountryCode: countryCode })));
    expect(brief(diff(countries(BASE), fresh))).toEqual(['breaking field-renamed $.payLoad[*].countryCode']);
  });

  it('reports a removal and an addition when the new field holds other values', () => {
    const fresh = countries(BASE.map(({ countryName: _old, ...rest }, i) => ({ ...rest, label: `other ${i}` })));
    expect(brief(diff(countries(BASE), fresh))).toEqual([
      'breaking field-removed $.payLoad[*].countryName',
      'non-breaking field-added $.payLoad[*].label',
    ]);
  });

  it('reports an added field as non-breaking', () => {
    const fresh = countries(BASE.map((r) => ({ ...r, region: 'Caribbean' })));
    expect(brief(diff(countries(BASE), fresh))).toEqual(['non-breaking field-added $.payLoad[*].region']);
  });

  it('sees a payload field named __proto__ added, and removed (issue #32)', () => {
    // JSON.parse makes `__proto__` an own member, as a gateway's body does.
    const withProto = countries(
      BASE.map((r) => JSON.parse(JSON.stringify(r).replace('{', '{"__proto__":"x",')) as Record<string, unknown>),
    );
    expect(brief(diff(countries(BASE), withProto))).toEqual(['non-breaking field-added $.payLoad[*].__proto__']);
    expect(brief(diff(withProto, countries(BASE)))).toEqual(['breaking field-removed $.payLoad[*].__proto__']);
  });

  it('reports a changed type as breaking', () => {
    const fresh = countries(BASE.map((r) => ({ ...r, numberLength: 10 })));
    expect(brief(diff(countries(BASE), fresh))).toEqual(['breaking type-changed $.payLoad[*].numberLength']);
  });

  it('reports a field that was always present and now is missing from some records as breaking', () => {
    const fresh = countries(BASE.map((r, i) => (i === 0 ? { countryCode: r.countryCode, countryName: r.countryName } : r)));
    const findings = diff(countries(BASE), fresh);
    expect(brief(findings)).toEqual(['breaking no-longer-always-present $.payLoad[*].numberLength']);
    expect(findings[0]?.detail).toContain('1 of 3');
  });

  it('reports an optional field not seen any more without failing', () => {
    const base = countries([{ countryCode: 'JM', note: 'x' }, { countryCode: 'IN' }]);
    expect(brief(diff(base, countries([{ countryCode: 'JM' }])))).toEqual(['non-breaking optional-field-not-seen $.payLoad[*].note']);
  });

  it('reports values leaving a recognized format as non-breaking', () => {
    const findings = diff([envelope({ due: '2024-05-01' })], [envelope({ due: '01/05/2024' })]);
    expect(brief(findings)).toEqual(['non-breaking format-changed $.payLoad.due']);
  });

  it('reports a category value none of the spec names as a new value, and a spec name as data', () => {
    const base = [envelope([{ category: 'Rtr' }, { category: 'Pin' }])];
    expect(diff(base, [envelope([{ category: 'Rtr' }, { category: 'Gift Card' }])])).toEqual([]);
    expect(brief(diff(base, [envelope([{ category: 'Rtr' }, { category: 'Data' }])]))).toEqual([
      'non-breaking new-value $.payLoad[*].category',
    ]);
  });

  it('classifies every change kind by the table', () => {
    for (const [change, { kind, why }] of Object.entries(CHANGES)) {
      expect(['breaking', 'non-breaking']).toContain(kind);
      expect(why.length, change).toBeGreaterThan(20);
    }
    expect(CHANGES['field-renamed'].why).toContain('removing or renaming response fields or headers');
  });
});

describe('compareHeaders', () => {
  const entry = entryOf(
    [envelope(1), envelope(2)],
    [
      ['content-type', 'x-request-id'],
      ['content-type', 'x-request-id'],
    ],
  );

  it('finds nothing for the same header names', () => {
    expect(compareHeaders(entry, [['content-type', 'x-request-id']])).toEqual([]);
  });

  it('reports a header no longer sent as breaking', () => {
    expect(brief(compareHeaders(entry, [['content-type']]))).toEqual(["breaking header-removed headers['x-request-id']"]);
  });

  it('reports a header missing from some responses as breaking', () => {
    const findings = compareHeaders(entry, [['content-type', 'x-request-id'], ['content-type']]);
    expect(brief(findings)).toEqual(["breaking header-removed headers['x-request-id']"]);
    expect(findings[0]?.detail).toContain('1 of 2');
  });

  it('reports a new header as non-breaking', () => {
    expect(brief(compareHeaders(entry, [['content-type', 'x-request-id', 'x-rate-limit']]))).toEqual([
      "non-breaking header-added headers['x-rate-limit']",
    ]);
  });
});
