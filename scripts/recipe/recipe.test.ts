// ARCHITECTURE.md's recipe, proven: two made-up operations (a v2 quote that never charges; a charging write in v1 and
// v2 with its own trigger row) added to a copy of the tree through exactly the files the recipe table lists compile in
// every typecheck after `npm run gen`, pass the whole pin, and are exercised by conformance (AUTH, ENV, REQ, CATEGORY;
// the trigger row's TRG cases, failing under their derived planted bug; the money plan), the mixed scenario, drift
// and the OpenAPI export.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, copyTree } from '../fixtures/tree-copy.ts';
import type { MadeUp } from './edits.ts';
import { DATA_TOPUP_TRIGGER } from './made-up-charging-write.ts';
import { MADE_UP, MADE_UPS, MADE_UP_QUOTE, RECIPE_FILES, applyRecipe } from './made-up-operation.ts';

const hash = (path: string): string => {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return 'absent';
  }
};

function run(cwd: string, command: string, args: readonly string[]): string {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
}

/** What `npm run gen` derives from a new operation (nobody edits them). */
const isDerived = (file: string): boolean =>
  file.startsWith('schemas/generated/') || file === 'docs/reference.md' || file === 'docs/assumptions.md';

/** The File column of ARCHITECTURE.md's recipe table (`<name>`, `<group>` as written), in table order. */
function recipeTableFiles(architecture: string): string[] {
  const section = architecture.slice(architecture.indexOf('## Recipe: add an operation'));
  const table = section.slice(section.indexOf('| # | File | What |'), section.indexOf('\n\n', section.indexOf('| # | File | What |')));
  return table
    .split('\n')
    .slice(2)
    .map((row) => /^\|[^|]*\|\s*`([^`]+)`/.exec(row)?.[1])
    .filter((file): file is string => file !== undefined);
}

const instantiate = (files: readonly string[], made: MadeUp): string[] =>
  files.map((file) => file.replace('<name>', made.name).replace('<group>', made.group)).sort();

interface OperationProbe {
  readonly conformance: Record<string, string>;
  readonly underBug: Record<string, Record<string, string>>;
  readonly moneyPlan: Record<string, readonly string[]>;
  readonly mixed: { readonly inScenario: boolean; readonly sent: readonly string[]; readonly warnings: readonly string[] };
  readonly drift: { readonly state: string; readonly calls: number };
  readonly openapi: { readonly operationId?: unknown; readonly requestBody: boolean };
}

const CHARGING = MADE_UPS.find((made) => made !== MADE_UP_QUOTE) as MadeUp;
const ALL_IDS = MADE_UPS.flatMap((made) => made.ids);
let copy: string;
let files: string[];
let changed: string[];
let probe: Record<string, OperationProbe>;

beforeAll(() => {
  ({ dir: copy, files } = copyTree('gh-recipe-'));
  applyRecipe(copy);
  run(copy, 'npm', ['run', '--silent', 'gen']);
  const all = [...new Set([...files, ...RECIPE_FILES])];
  changed = all.filter((file) => hash(join(ROOT, file)) !== hash(join(copy, file))).sort();
  const out = run(copy, 'npx', ['tsx', 'scripts/recipe/probe.ts', ...ALL_IDS])
    .trim()
    .split('\n');
  probe = JSON.parse(out[out.length - 1] as string) as Record<string, OperationProbe>;
}, 600_000);

afterAll(() => {
  if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
});

describe(`the recipe, with a made-up ${MADE_UP.id} and a charging ${CHARGING.ids.join(' + ')} with a trigger row`, () => {
  it("touches exactly the files ARCHITECTURE.md's recipe table lists, per operation; everything else that changes is what `npm run gen` derives", () => {
    const table = recipeTableFiles(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));
    expect(table).toHaveLength(4);
    for (const made of MADE_UPS)
      expect([...new Set(made.edits.map((edit) => edit.file))].sort(), made.name).toEqual(instantiate(table, made));
    const listed = [...new Set(MADE_UPS.flatMap((made) => instantiate(table, made)))].sort();
    expect(changed.filter((file) => !isDerived(file))).toEqual(listed);
  });

  // Bounds, not speed: four tsc projects take ~1 min alone and several on the shared 2-core box.
  it('compiles in every typecheck (a body is typed by its schema once generated)', () => {
    expect(() => run(copy, 'npm', ['run', '--silent', 'typecheck'])).not.toThrow();
  }, 600_000);

  it('passes the whole pin, its rows and the counts they change', () => {
    const pin = run(copy, 'npx', ['vitest', 'run', 'api/operations.test.ts', '--reporter=verbose']);
    for (const id of ALL_IDS) expect(pin).toContain(id);
    expect(pin).not.toMatch(/\bfailed\b/);
    expect(pin).toMatch(/Tests\s+\d+ passed/);
  }, 300_000);

  it.each(ALL_IDS)('%s is exercised by conformance: AUTH (both variants), ENV and every REQ rule its schema gives, all passed', (id) => {
    const ids = Object.keys(probe[id]!.conformance);
    expect(ids).toEqual(
      expect.arrayContaining([
        `AUTH-NONE-${id}`,
        `AUTH-WRONG-${id}`,
        `ENV-${id}`,
        `REQ-MISSING-${id}`,
        `REQ-EMPTY-${id}`,
        `REQ-INT32-STRING-${id}`,
      ]),
    );
    expect(Object.entries(probe[id]!.conformance).filter(([, status]) => status !== 'passed')).toEqual([]);
  });

  it.each(CHARGING.ids)('%s: its trigger row is a TRG case that passes, and fails under the planted bug derived from it', (id) => {
    const trg = `TRG-${DATA_TOPUP_TRIGGER.key}-${id.slice(0, 2).toUpperCase()}`;
    expect(probe[id]!.conformance[trg]).toBe('passed');
    expect(probe[id]!.underBug).toEqual({
      [`bug-trg-${DATA_TOPUP_TRIGGER.key}-ignored`]: expect.objectContaining({ [trg]: 'failed', [`ENV-${id}`]: 'passed' }),
    });
  });

  it.each(CHARGING.ids)('%s charges: the money plan counts its ENV and TRG cases against it, and nothing for the quote', (id) => {
    const trg = `TRG-${DATA_TOPUP_TRIGGER.key}-${id.slice(0, 2).toUpperCase()}`;
    expect(probe[id]!.moneyPlan).toEqual({ [`ENV-${id}`]: [id], [trg]: [id] });
    expect(probe[MADE_UP.id]!.moneyPlan).toEqual({});
  });

  it.each(ALL_IDS)('%s joins the mixed scenario by itself and succeeds there, with no warning', (id) => {
    const mixed = probe[id]!.mixed;
    expect(mixed.inScenario).toBe(true);
    expect(mixed.sent.length).toBeGreaterThan(0);
    expect(mixed.sent.every((outcome) => outcome === 'Successful')).toBe(true);
    expect(mixed.warnings).toEqual([]);
  });

  it('fails loudly, naming the file, when a recipe file no longer has the line an edit goes after', () => {
    const bare = mkdtempSync(join(tmpdir(), 'gh-recipe-bare-'));
    try {
      mkdirSync(join(bare, 'api'), { recursive: true });
      mkdirSync(join(bare, 'schemas'), { recursive: true });
      writeFileSync(join(bare, 'api/operations.ts'), '// no writes here\n');
      expect(() => applyRecipe(bare)).toThrow(/api\/operations.ts: no line contains/);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it.each(ALL_IDS)('%s is observed by drift with its representative input, and is in the OpenAPI export with its body', (id) => {
    expect(probe[id]!.drift).toMatchObject({ state: 'observed' });
    expect(probe[id]!.openapi).toEqual({ operationId: id, requestBody: true });
  });
});
