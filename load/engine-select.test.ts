// Engine selection: K6_BIN first, then k6 on PATH; `auto` falls back to the Node engine, `k6` insists; a wrong
// K6_BIN is an error, never a reason to run something else. A second k6 for tests: K6_LATEST_BIN or k6-latest beside.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findK6, findLatestK6, selectEngine } from './engine-select.ts';

let dir: string;
let binA: string;
let binB: string;

function executable(path: string): void {
  writeFileSync(path, '#!/bin/sh\nexit 0\n');
  chmodSync(path, 0o755);
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gh-engine-'));
  binA = join(dir, 'a');
  binB = join(dir, 'b');
  mkdirSync(binA);
  mkdirSync(binB);
  executable(join(binB, 'k6'));
  executable(join(binB, 'k6-latest'));
  executable(join(dir, 'my-k6'));
  writeFileSync(join(binA, 'k6'), 'not executable');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('findK6', () => {
  it('takes K6_BIN first', () => {
    expect(findK6({ K6_BIN: join(dir, 'my-k6'), PATH: binB })).toEqual({ path: join(dir, 'my-k6'), source: 'K6_BIN' });
  });

  it('then the first executable k6 on PATH (a non-executable file is skipped)', () => {
    expect(findK6({ PATH: [binA, binB].join(delimiter) })).toEqual({ path: join(binB, 'k6'), source: 'PATH' });
  });

  it('finds nothing on an empty PATH', () => {
    expect(findK6({ PATH: binA })).toBeUndefined();
  });

  it('refuses a K6_BIN that is not an executable file', () => {
    expect(() => findK6({ K6_BIN: join(dir, 'nope'), PATH: binB })).toThrow(/K6_BIN=.*nope is not an executable file/);
  });
});

describe('selectEngine', () => {
  it('auto runs k6 when found', () => {
    expect(selectEngine('auto', { PATH: binB })).toMatchObject({ engine: 'k6', k6: { source: 'PATH' } });
  });

  it('auto falls back to the Node engine without k6', () => {
    expect(selectEngine('auto', { PATH: binA })).toEqual({ engine: 'node' });
  });

  it('k6 without a k6 is a usage error naming K6_BIN and PATH', () => {
    expect(() => selectEngine('k6', { PATH: binA })).toThrow(/--engine k6: no k6 found \(set K6_BIN or put k6 on PATH/);
  });

  it('node always uses the Node engine', () => {
    expect(selectEngine('node', { PATH: binB })).toEqual({ engine: 'node' });
  });
});

describe('findLatestK6', () => {
  it('looks for k6-latest beside the first k6, or takes K6_LATEST_BIN', () => {
    expect(findLatestK6({}, { path: join(binB, 'k6'), source: 'PATH' })).toBe(join(binB, 'k6-latest'));
    expect(findLatestK6({ K6_LATEST_BIN: join(dir, 'my-k6') }, undefined)).toBe(join(dir, 'my-k6'));
    expect(findLatestK6({}, { path: join(dir, 'my-k6'), source: 'K6_BIN' })).toBeUndefined();
  });
});
