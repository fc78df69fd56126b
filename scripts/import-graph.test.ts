// The rooms hold: no import between rooms that ARCHITECTURE.md's table does not allow, no circle, and the table names
// every room there is. Each check is also shown failing on a small made-up repository, naming the edge or the circle.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkRooms,
  describeCycle,
  forbiddenImports,
  importCycles,
  isOutsideRooms,
  parseRoomTable,
  readImportEdges,
  tableCycles,
  type ImportEdge,
} from './import-graph.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('the repository', () => {
  it('imports only what the room table allows, with no circle', () => {
    expect(checkRooms(ROOT)).toEqual([]);
  });

  it('the table names every room directory, and every room it names exists', () => {
    const table = parseRoomTable(readFileSync(join(ROOT, 'ARCHITECTURE.md'), 'utf8'));
    const hasSource = (dir: string): boolean =>
      readdirSync(join(ROOT, dir)).some(
        (name) => /\.(ts|mjs)$/.test(name) || (statSync(join(ROOT, dir, name)).isDirectory() && hasSource(join(dir, name))),
      );
    const dirs = readdirSync(ROOT, { withFileTypes: true })
      .filter(
        (e) =>
          e.isDirectory() && !e.name.startsWith('.') && !['node_modules', 'dist', 'bin', 'examples'].includes(e.name) && hasSource(e.name),
      )
      .map((e) => e.name)
      .sort();
    expect([...table.rooms.keys()].sort()).toEqual(dirs);
    // Spot checks of the reading: a cell's backticked rooms, prose ignored, scripts/ may import everything.
    expect(table.rooms.get('api')).toEqual(new Set(['schemas']));
    expect(table.rooms.get('schemas')).toEqual(new Set());
    expect(table.rooms.get('scripts')).toBe('everything');
    expect(table.rooms.get('client')).toEqual(new Set(['api']));
  });
});

/** A made-up architecture page: c may import b and a, b may import a, a nothing, top everything. */
const DOC = `# Architecture

## The rooms

| Room | Job | May import |
|---|---|---|
| \`a/\` | The bottom. | nothing |
| \`b/\` | The middle; the \`tsconfig.json\` is prose. | \`a/\` |
| \`c/\` | The top of the code. | \`a/generated/\`, \`b/\` (its helpers) |
| \`top/\` | The CLI. | everything; nothing imports it but tests |

## Recipe

| \`z/\` | not a room: another section | \`a/\` |
`;

describe('reading the table', () => {
  it('takes each backticked room of the "May import" cell, and only the rooms section', () => {
    const table = parseRoomTable(DOC);
    expect([...table.rooms.keys()]).toEqual(['a', 'b', 'c', 'top']);
    expect(table.rooms.get('c')).toEqual(new Set(['a', 'b']));
    expect(table.rooms.get('top')).toBe('everything');
    expect(tableCycles(table)).toEqual([]);
  });

  it('fails on a table whose rooms may import each other (no order, so some import would run back up)', () => {
    const table = parseRoomTable(DOC.replace('| The bottom. | nothing |', '| The bottom. | `c/` |'));
    expect(tableCycles(table)).toEqual([['a', 'b', 'c']]);
  });

  it('fails without a rooms table', () => {
    expect(() => parseRoomTable('# nothing here')).toThrow(/no "## The rooms" section/);
  });
});

describe('checking imports', () => {
  const table = parseRoomTable(DOC);
  const edge = (from: string, to: string): ImportEdge => ({ from, to });

  it('names an import that runs back up, and an import of a root file', () => {
    const edges = [
      edge('c/x.ts', 'b/y.ts'),
      edge('b/y.ts', 'a/z.ts'),
      edge('a/z.ts', 'c/x.ts'),
      edge('b/y.ts', 'vitest.config.ts'),
      edge('b/y.ts', 'package.json'),
    ];
    expect(forbiddenImports(edges, table)).toEqual([
      'a/z.ts → c/x.ts (a/ may not import c/)',
      "b/y.ts → vitest.config.ts (b/ → the root's vitest.config.ts)",
    ]);
  });

  it('leaves tests, fixtures and the root tooling outside the rooms; benches are checked as their room', () => {
    expect(['a/z.test.ts', 'a/fixtures/f.ts', 'bin/cli.mjs', 'vitest.config.ts'].filter((f) => !isOutsideRooms(f, table))).toEqual([]);
    expect(isOutsideRooms('a/z.ts', table)).toBe(false);
    expect(isOutsideRooms('a/bench/b.ts', table)).toBe(false);
    // A bench that reaches above its room is caught (engine/bench imported load/ and reports/ unseen); one may use fixtures.
    expect(
      forbiddenImports(
        [edge('a/bench/b.ts', 'c/x.ts'), edge('a/bench/b.ts', 'a/fixtures/f.ts'), edge('b/bench/b.ts', 'a/bench/q.ts')],
        table,
      ),
    ).toEqual(['a/bench/b.ts → c/x.ts (a/ may not import c/)']);
    expect(
      forbiddenImports([edge('a/z.test.ts', 'c/x.ts'), edge('top/cli.ts', 'c/x.ts'), edge('a/fixtures/f.ts', 'a/bench/b.ts')], table),
    ).toEqual([]);
    // ...as long as no room imports them (the exemption would hide what they import).
    expect(forbiddenImports([edge('a/z.ts', 'a/fixtures/f.ts'), edge('top/cli.ts', 'c/bench/b.ts')], table)).toEqual([
      'a/z.ts → a/fixtures/f.ts (a/ may not import a test, fixture or bench)',
      'top/cli.ts → c/bench/b.ts (top/ may not import a test, fixture or bench)',
    ]);
  });

  it('names a circle between files in import order, type-only imports included', () => {
    const edges = [
      edge('b/one.ts', 'b/two.ts'),
      edge('b/two.ts', 'b/three.ts'),
      edge('b/three.ts', 'b/one.ts'),
      edge('b/three.ts', 'a/z.ts'),
      edge('c/self.ts', 'c/self.ts'),
    ];
    const cycles = importCycles(edges);
    expect(cycles).toEqual([['b/one.ts', 'b/three.ts', 'b/two.ts'], ['c/self.ts']]);
    expect(cycles.map((c) => describeCycle(c, edges))).toEqual(['b/one.ts → b/two.ts → b/three.ts → b/one.ts', 'c/self.ts → c/self.ts']);
    expect(importCycles([edge('b/one.ts', 'b/two.ts'), edge('b/two.ts', 'a/z.ts')])).toEqual([]);
    // A tangle: one concrete circle, and every file of the tangle named.
    const tangle = [
      edge('b/one.ts', 'b/two.ts'),
      edge('b/two.ts', 'b/one.ts'),
      edge('b/two.ts', 'b/three.ts'),
      edge('b/three.ts', 'b/two.ts'),
    ];
    expect(importCycles(tangle).map((c) => describeCycle(c, tangle))).toEqual([
      'b/one.ts → b/two.ts → b/one.ts (3 files in the circle: b/one.ts, b/three.ts, b/two.ts)',
    ]);
  });
});

describe('a made-up repository end to end', () => {
  const dir = mkdtempSync(join(tmpdir(), 'import-graph-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };

  it('reads every form of import (not strings or comments) and reports the broken rule and the circle', () => {
    write('ARCHITECTURE.md', DOC);
    write('a/z.ts', "import type { X } from '../c/x.ts';\nexport const z = 1;\n");
    write(
      'b/y.ts',
      "export * from '../a/z.ts';\nconst lazy = () => import('./w.ts');\n// import { no } from '../c/x.ts';\nconst text = `import { no } from '../c/x.ts'`;\n",
    );
    write('b/w.ts', 'export const w = 1;\n');
    write('c/x.ts', "import { y } from '../b/y.ts';\nexport interface X { readonly y: typeof y }\n");
    write('c/x.test.ts', "import { t } from '../top/cli.ts';\n");
    write('top/cli.ts', "import '../c/x.ts';\n");
    const edges = readImportEdges(dir);
    expect(
      edges
        .filter((e) => e.from === 'b/y.ts')
        .map((e) => e.to)
        .sort(),
    ).toEqual(['a/z.ts', 'b/w.ts']);
    expect(checkRooms(dir)).toEqual([
      'import against the room table: a/z.ts → c/x.ts (a/ may not import c/)',
      'import circle: a/z.ts → c/x.ts → b/y.ts → a/z.ts',
    ]);
  });
});
