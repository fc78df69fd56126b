// ARCHITECTURE.md's recipe, proven: a made-up operation added to a copy of the tree through exactly the recipe's files
// (catalog entry with its input rule, request schema, sandbox handler, the pin) compiles after `npm run gen`, passes
// its pin row, and is exercised by conformance (AUTH, ENV, REQ), the mixed scenario, drift and the OpenAPI export.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, copyTree } from '../fixtures/tree-copy.ts';
import { MADE_UP, RECIPE_FILES, applyRecipe } from './made-up-operation.ts';

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

interface ProbeResult {
  readonly conformance: Record<string, string>;
  readonly mixed: { readonly inScenario: boolean; readonly sent: readonly string[]; readonly warnings: readonly string[] };
  readonly drift: { readonly state: string; readonly calls: number };
  readonly openapi: { readonly operationId?: unknown; readonly requestBody: boolean };
}

let copy: string;
let files: string[];
let changed: string[];
let probe: ProbeResult;

beforeAll(() => {
  ({ dir: copy, files } = copyTree('gh-recipe-'));
  applyRecipe(copy);
  run(copy, 'npm', ['run', '--silent', 'gen']);
  const all = [...new Set([...files, ...RECIPE_FILES])];
  changed = all.filter((file) => hash(join(ROOT, file)) !== hash(join(copy, file))).sort();
  const out = run(copy, 'npx', ['tsx', 'scripts/recipe/probe.ts', MADE_UP.id]).trim().split('\n');
  probe = JSON.parse(out[out.length - 1] as string) as ProbeResult;
}, 180_000);

afterAll(() => {
  if (copy !== undefined) rmSync(copy, { recursive: true, force: true });
});

describe(`the recipe, with a made-up ${MADE_UP.id}`, () => {
  it("edits only the recipe's files; everything else that changes is what `npm run gen` derives", () => {
    const derived = changed.filter((file) => !RECIPE_FILES.includes(file));
    expect(changed).toEqual(expect.arrayContaining([...RECIPE_FILES]));
    expect(derived.filter((file) => !file.startsWith('schemas/generated/') && file !== 'docs/reference.md' && file !== 'docs/assumptions.md')).toEqual([]);
  });

  it('compiles in every typecheck (a body is typed by its schema once generated) and passes the whole pin, counts included', () => {
    expect(() => run(copy, 'npm', ['run', '--silent', 'typecheck'])).not.toThrow();
    const pin = run(copy, 'npx', ['vitest', 'run', 'api/operations.test.ts', '--reporter=verbose']);
    expect(pin).toContain(MADE_UP.id);
    expect(pin).not.toMatch(/\bfailed\b/);
    expect(pin).toMatch(/Tests\s+\d+ passed/);
  }, 240_000);

  it('is exercised by conformance: AUTH (both variants), ENV and every REQ rule its schema gives, all passed', () => {
    const ids = Object.keys(probe.conformance);
    expect(ids).toEqual(
      expect.arrayContaining([`AUTH-NONE-${MADE_UP.id}`, `AUTH-WRONG-${MADE_UP.id}`, `ENV-${MADE_UP.id}`, `REQ-MISSING-${MADE_UP.id}`, `REQ-EMPTY-${MADE_UP.id}`, `REQ-INT32-STRING-${MADE_UP.id}`]),
    );
    expect(Object.entries(probe.conformance).filter(([, status]) => status !== 'passed')).toEqual([]);
  });

  it('joins the mixed scenario by itself and succeeds there, with no warning', () => {
    expect(probe.mixed.inScenario).toBe(true);
    expect(probe.mixed.sent.length).toBeGreaterThan(0);
    expect(probe.mixed.sent.every((outcome) => outcome === 'Successful')).toBe(true);
    expect(probe.mixed.warnings).toEqual([]);
  });

  it("fails loudly, naming the file, when a recipe file no longer has the line an edit goes after", () => {
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

  it("is observed by drift with its representative input, and is in the OpenAPI export with its body", () => {
    expect(probe.drift).toMatchObject({ state: 'observed' });
    expect(probe.openapi).toEqual({ operationId: MADE_UP.id, requestBody: true });
  });
});
