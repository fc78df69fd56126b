// The plan as data: stable unique ids, a quoted rule per case, full catalog coverage of the matrix groups, the
// required boundaries and triggers, and no hard-coded SKU id besides the spec's trigger skuId 193.
import { planWithGen } from './gen/plan.ts';
import { DEFAULT_GEN_BUDGET } from './gen/options.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { OPERATIONS } from '../api/operations.ts';
import { ALL_CASES, selectCases } from './plan.ts';
import { DEFAULT_SETTINGS } from '../target/settings.ts';
import { CASE_GROUPS } from './types.ts';

const ids = ALL_CASES.map((c) => c.id);

describe('conformance plan', () => {
  test('ids are unique, start with their group and carry no running index', () => {
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of ALL_CASES) {
      expect(c.id.startsWith(`${c.group}-`), c.id).toBe(true);
      expect(c.id).toMatch(/^[A-Z]+-[A-Za-z0-9.-]+$/);
      expect(c.rule.length, `${c.id} quotes a rule`).toBeGreaterThan(20);
      expect(c.specSection.length, `${c.id} names a section`).toBeGreaterThan(3);
    }
  });

  test('every group of the requirement has cases', () => {
    // GEN's cases are generated per seed and budget (conformance/gen/): the plan the command and the gate run.
    const planned = planWithGen({}, { seed: 1, budget: DEFAULT_GEN_BUDGET });
    for (const group of CASE_GROUPS)
      expect(
        planned.some((c) => c.group === group),
        group,
      ).toBe(true);
  });

  test('AUTH covers every operation twice (no credentials, wrong ones); ENV every operation once', () => {
    for (const op of OPERATIONS) {
      expect(ids).toContain(`AUTH-NONE-${op.id}`);
      expect(ids).toContain(`AUTH-WRONG-${op.id}`);
      expect(ids).toContain(`ENV-${op.id}`);
    }
  });

  test("TRG covers each row of the spec's trigger table on v1 and v2", () => {
    for (const key of ['510', '500', '001', '555555', '666666']) for (const v of ['V1', 'V2']) expect(ids).toContain(`TRG-${key}-${v}`);
  });

  test('LEN covers every length rule at its boundaries; over-limit cases are exclusive (they read the balance)', () => {
    const stems = { 'LEN-CORR': [0, 1, 50, 51], 'LEN-PIN': [6, 7], 'LEN-BILLCUR': [3, 4], 'LEN-AREA': [3, 4] } as const;
    for (const [stem, lengths] of Object.entries(stems)) {
      for (const n of lengths) for (const v of ['V1', 'V2']) expect(ids).toContain(`${stem}-${n}-${v}`);
    }
    for (const id of ['LEN-CORR-0-V1', 'LEN-CORR-51-V2', 'LEN-PIN-7-V1', 'LEN-BILLCUR-4-V2', 'LEN-AREA-4-V1']) {
      expect(ALL_CASES.find((c) => c.id === id)?.exclusive, id).toBe(true);
    }
  });

  test('PAGE, balance-sensitive cases and the POLL load', () => {
    for (const id of ['PAGE-DEFAULT-100', 'PAGE-SIZE-0', 'PAGE-SIZE-1', 'PAGE-SIZE-100', 'PAGE-SIZE-101', 'PAGE-WALK'])
      expect(ids).toContain(id);
    for (const c of ALL_CASES.filter((x) => x.group === 'BAL')) expect(c.exclusive, c.id).toBe(true);
    expect(DEFAULT_SETTINGS.pollLoadTransactions).toBeGreaterThanOrEqual(50);
  });

  test('no SKU id is hard-coded in the case tables except the trigger skuId 193', () => {
    const dir = fileURLToPath(new URL('./cases/', import.meta.url));
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const text = readFileSync(dir + file, 'utf8');
      const literals = [...text.matchAll(/skuId['"]?\s*[:=]\s*(\d+)/gi)].map((m) => m[1]);
      expect(
        literals.filter((n) => n !== '193'),
        file,
      ).toEqual([]);
      const constants = [...text.matchAll(/SKU_ID\s*=\s*(\d+)/g)].map((m) => m[1]);
      expect(
        constants.filter((n) => n !== '193'),
        file,
      ).toEqual([]);
    }
  });

  test('selection by API version and id pattern', () => {
    expect(selectCases({ api: 'v1' }).every((c) => c.api === 'v1')).toBe(true);
    expect(selectCases({ api: 'v2' }).some((c) => c.api === 'v1')).toBe(false);
    expect(selectCases({ grep: '^TRG-510' }).map((c) => c.id)).toEqual(['TRG-510-V1', 'TRG-510-V2']);
    expect(selectCases({ api: 'v2', grep: 'trg-510' }).map((c) => c.id)).toEqual(['TRG-510-V2']);
    expect(() => selectCases({ grep: '(' })).toThrow(/--grep/);
  });
});
