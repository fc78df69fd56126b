// Tests of the baseline files: what is written reads back the same, re-writing replaces stale entries, and a broken
// baseline stops with GH_ERR_CONFIG naming the file.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_FIELD_MAPPING } from '../api/field-mapping.ts';
import { HarnessError } from '../api/errors.ts';
import { baselineExists, readBaseline, writeBaseline } from './baseline-files.ts';
import type { OperationObservation } from './observe.ts';
import { buildBaseline } from './record.ts';
import { tempDirsRemovedAfterAll } from '../scripts/fixtures/temp-dirs.ts';

const tempDir = tempDirsRemovedAfterAll('gh-baseline-');

const observed = (operationId: string, samples: unknown[]): OperationObservation => ({
  operationId,
  state: 'observed',
  samples,
  headerSets: samples.map(() => ['content-type', 'date']),
  calls: samples.length,
});

function sampleBaseline(extra: OperationObservation[] = []) {
  const observations = new Map<string, OperationObservation>([
    ['v2.account.balance', observed('v2.account.balance', [{ responseCode: '000', responseMessage: null, payLoad: -10000 }])],
    [
      'v2.catalog.countries',
      observed('v2.catalog.countries', [{ responseCode: '000', responseMessage: null, payLoad: [{ countryCode: 'JM', category: 'Rtr' }] }]),
    ],
    [
      'v1.transaction.topup',
      { operationId: 'v1.transaction.topup', state: 'not-run', reason: 'charges money', samples: [], headerSets: [], calls: 0 },
    ],
    ...extra.map((o) => [o.operationId, o] as const),
  ]);
  return buildBaseline(observations, { target: 'embedded sandbox', environment: 'sandbox', mapping: DEFAULT_FIELD_MAPPING });
}

describe('baseline files', () => {
  it('reads back what was written', () => {
    const dir = tempDir();
    const built = sampleBaseline();
    writeBaseline(dir, built.index, built.entries);
    const read = readBaseline(dir);
    expect(read.index.operations.map((o) => `${o.operationId}:${o.state}`)).toEqual([
      'v1.transaction.topup:not-observed',
      'v2.account.balance:observed',
      'v2.catalog.countries:observed',
    ]);
    expect(read.entries.get('v2.catalog.countries')?.schema).toEqual(
      built.entries.find((e) => e.operationId === 'v2.catalog.countries')?.schema,
    );
    expect(read.entries.get('v2.catalog.countries')?.vocabularies).toEqual({ '$.payLoad[*].category': ['Rtr'] });
    expect(baselineExists(dir)).toBe(true);
  });

  it('writes one file per observed operation plus index.json, with the JSON Schema dialect', () => {
    const dir = tempDir();
    const built = sampleBaseline();
    writeBaseline(dir, built.index, built.entries);
    expect(readdirSync(join(dir, 'operations')).sort()).toEqual(['v2.account.balance.json', 'v2.catalog.countries.json']);
    const doc = JSON.parse(readFileSync(join(dir, 'operations', 'v2.account.balance.json'), 'utf8')) as {
      schema: Record<string, unknown>;
      operationId: string;
    };
    expect(doc.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(Object.keys(doc)[0]).toBe('operationId');
  });

  it('keeps the balance value out of the files', () => {
    const dir = tempDir();
    const built = sampleBaseline();
    writeBaseline(dir, built.index, built.entries);
    expect(readFileSync(join(dir, 'operations', 'v2.account.balance.json'), 'utf8')).not.toContain('10000');
  });

  it('removes the file of an operation no longer observed when re-recorded', () => {
    const dir = tempDir();
    const first = sampleBaseline([observed('v1.catalog.errors', [{ responseCode: '000', responseMessage: null, payLoad: [] }])]);
    writeBaseline(dir, first.index, first.entries);
    const second = sampleBaseline();
    writeBaseline(dir, second.index, second.entries);
    expect(readdirSync(join(dir, 'operations'))).not.toContain('v1.catalog.errors.json');
  });

  it('refuses a directory without index.json with GH_ERR_CONFIG', () => {
    expect(() => readBaseline(tempDir())).toThrow(HarnessError);
    expect(() => readBaseline(tempDir())).toThrow(/has no index\.json/);
  });

  it('refuses an entry file that is not JSON, naming it', () => {
    const dir = tempDir();
    const built = sampleBaseline();
    writeBaseline(dir, built.index, built.entries);
    writeFileSync(join(dir, 'operations', 'v2.account.balance.json'), '{ nope');
    expect(() => readBaseline(dir)).toThrow(/v2\.account\.balance\.json: is not valid JSON/);
  });

  it('refuses an unknown format version', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ format: 99, operations: [] }));
    expect(() => readBaseline(dir)).toThrow(/format 99 is not supported/);
  });
});
