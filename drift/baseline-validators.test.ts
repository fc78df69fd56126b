// The baseline as a per-response check: what drift/compare.ts calls breaking (a member of every sample missing, a JSON
// type the baseline never saw) fails; what it calls non-breaking (new members, null, whole vs fractional numbers,
// formats) passes. The compiled module is the one a `load --baseline` bundle imports.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import type { BaselineValidators } from '../api/payload-checks.ts';
import type { BaselineEntry } from './baseline-files.ts';
import { baselineValidatorsModule, validationSchemaOf } from './baseline-validators.ts';
import { inferSchema } from './infer-schema.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-baseline-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const samples = [
  {
    responseCode: '000',
    responseMessage: null,
    payLoad: [{ skuId: 1, price: 10, name: 'a', min: { faceValue: 1 }, when: '2026-01-01', note: 'x' }],
  },
  {
    responseCode: '000',
    responseMessage: null,
    payLoad: [{ skuId: 2, price: 10.5, name: 'b', min: { faceValue: 2 }, when: '2026-01-02' }],
  },
];

function entry(operationId: string): BaselineEntry {
  return {
    operationId,
    method: 'GET',
    path: '/x',
    pathAssumed: false,
    responseHeaders: { always: [], sometimes: [] },
    schema: inferSchema(samples),
    valueSketches: {},
    vocabularies: {},
  };
}

async function compiled(): Promise<BaselineValidators> {
  const file = join(dir, 'baseline-validators.mjs');
  writeFileSync(file, baselineValidatorsModule({ dir, entries: new Map([['v2.catalog.skus', entry('v2.catalog.skus')]]) }));
  const module = (await import(pathToFileURL(file).href)) as { BASELINE_VALIDATORS: BaselineValidators };
  return module.BASELINE_VALIDATORS;
}

const envelope = (record: Record<string, unknown>): unknown => ({ responseCode: '000', responseMessage: null, payLoad: [record] });
const faithful = { skuId: 3, price: 7, name: 'c', min: { faceValue: 3 }, when: 'not a date' };

describe('the compiled baseline validators', () => {
  it('pass a fresh answer whose differences are non-breaking: new members, null, a fraction, another format, an optional member gone', async () => {
    const validate = (await compiled())['v2.catalog.skus'];
    expect(validate).toBeDefined();
    expect(validate?.(envelope({ ...faithful, extra: { any: 1 } }))).toBe(true);
    expect(validate?.(envelope({ ...faithful, name: null, price: 7.25 }))).toBe(true);
    expect(validate?.({ responseCode: '000', responseMessage: null, payLoad: [], next_cursor: 1 })).toBe(true);
  });

  it('fail what the drift rules call breaking: a member of every sample missing (removed or renamed), a new JSON type', async () => {
    const validate = (await compiled())['v2.catalog.skus'];
    const { min: _removed, ...withoutMin } = faithful;
    expect(validate?.(envelope(withoutMin))).toBe(false);
    expect(validate?.errors?.[0]).toMatchObject({ instancePath: '/payLoad/0', keyword: 'required', params: { missingProperty: 'min' } });
    expect(validate?.(envelope({ ...faithful, skuId: '3' }))).toBe(false);
    expect(validate?.errors?.[0]).toMatchObject({ instancePath: '/payLoad/0/skuId', keyword: 'type' });
    expect(validate?.(envelope({ ...faithful, min: {} }))).toBe(false);
    expect(validate?.({ responseCode: '000', responseMessage: null, payLoad: 42 })).toBe(false);
  });
});

describe('validationSchemaOf', () => {
  it('keeps types (with null) and required members; drops formats; a null-only position says nothing', () => {
    expect(validationSchemaOf({ type: 'string', format: 'date' })).toEqual({ type: ['string', 'null'] });
    expect(validationSchemaOf({ type: 'null' })).toEqual({});
    expect(validationSchemaOf({ type: ['integer', 'null'] })).toEqual({ type: ['number', 'null'] });
    expect(validationSchemaOf({ type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })).toEqual({
      type: ['object', 'null'],
      properties: { a: { type: ['string', 'null'] } },
      required: ['a'],
    });
  });
});
