// The room table of ARCHITECTURE.md as a rule: every import between the project's files is checked against the
// table's "May import" column (read from the doc, so the doc and the rule are one), and the file graph has no cycle.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** One import of one project file by another, both as paths relative to the repository root. */
export interface ImportEdge {
  readonly from: string;
  readonly to: string;
}

/** The table: each room and the rooms it may import; `everything` for a room that may import any room. */
export interface RoomTable {
  readonly rooms: ReadonlyMap<string, ReadonlySet<string> | 'everything'>;
}

/**
 * Files outside the rooms whose imports are not checked: tests and their fixtures stand beside the code they test
 * (nothing but tests and benches imports them), and the root's tooling (bin/, vitest.config.ts) runs the project from
 * outside. Benches are checked as their room's code: a bench that needs a room above its own lives in that room.
 */
export function isOutsideRooms(path: string, table: RoomTable): boolean {
  if (path.endsWith('.test.ts')) return true;
  const parts = path.split('/');
  if (parts.slice(0, -1).some((dir) => dir === 'fixtures')) return true;
  return !table.rooms.has(parts[0] ?? '') || parts.length === 1;
}

/** A test helper or a bench: what only tests and benches may import. */
function isTestOrBenchOnly(path: string, table: RoomTable): boolean {
  return isOutsideRooms(path, table) || path.split('/').slice(0, -1).includes('bench');
}

const isBench = (path: string): boolean => path.split('/').slice(0, -1).includes('bench');

/** Root files any room may import: the version in package.json and the one bundle build (ARCHITECTURE.md says so). */
export const ROOT_FILES_ANY_ROOM_MAY_IMPORT: readonly string[] = ['package.json', 'esbuild.config.mjs'];

/** The rooms table of ARCHITECTURE.md: rows `| \`room/\` | job | may import |`, may-import read from its backticked rooms. */
export function parseRoomTable(markdown: string): RoomTable {
  const start = markdown.indexOf('## The rooms');
  if (start < 0) throw new Error('ARCHITECTURE.md has no "## The rooms" section');
  const rows: Array<{ room: string; mayImport: string }> = [];
  for (const line of markdown.slice(start).split('\n').slice(1)) {
    if (line.startsWith('## ')) break;
    const row = /^\|\s*`([a-z-]+)\/`\s*\|.*\|([^|]*)\|\s*$/.exec(line);
    if (row !== null) rows.push({ room: row[1] as string, mayImport: row[2] as string });
  }
  if (rows.length === 0) throw new Error('the rooms table of ARCHITECTURE.md has no rows');
  const names = new Set(rows.map((r) => r.room));
  const rooms = new Map<string, ReadonlySet<string> | 'everything'>();
  for (const { room, mayImport } of rows) {
    if (/^\s*everything\b/.test(mayImport)) {
      rooms.set(room, 'everything');
      continue;
    }
    // A backticked path names its room by its first segment (`schemas/generated/` is schemas/); other words are prose.
    const allowed = new Set<string>();
    for (const match of mayImport.matchAll(/`([a-z-]+)\/[^`]*`/g))
      if (names.has(match[1] as string) && match[1] !== room) allowed.add(match[1] as string);
    rooms.set(room, allowed);
  }
  return { rooms };
}

/** Room cycles in the table itself (a room that may import a room that may import it back): none, or no order holds. */
export function tableCycles(table: RoomTable): string[][] {
  const graph = new Map<string, string[]>();
  for (const [room, allowed] of table.rooms) graph.set(room, allowed === 'everything' ? [] : [...allowed]);
  // A room that may import everything (scripts/) is the top: nothing may import it, so it closes no cycle.
  return stronglyConnected(graph);
}

/** Every import that the table does not allow, as one line each: `from → to (room → room)`. */
export function forbiddenImports(edges: readonly ImportEdge[], table: RoomTable): string[] {
  const out: string[] = [];
  for (const { from, to } of edges) {
    if (isOutsideRooms(from, table)) continue;
    const fromRoom = from.split('/')[0] as string;
    const toRoom = to.includes('/') ? (to.split('/')[0] as string) : undefined;
    // The exemption holds only while nothing but tests and benches imports what stands outside (or a bench).
    if (toRoom !== undefined && isTestOrBenchOnly(to, table) && table.rooms.has(toRoom) && !isBench(from)) {
      out.push(`${from} → ${to} (${fromRoom}/ may not import a test, fixture or bench)`);
      continue;
    }
    if (toRoom === fromRoom) continue;
    if (toRoom === undefined) {
      if (!ROOT_FILES_ANY_ROOM_MAY_IMPORT.includes(to)) out.push(`${from} → ${to} (${fromRoom}/ → the root's ${to})`);
      continue;
    }
    const allowed = table.rooms.get(fromRoom);
    if (allowed === 'everything' || allowed?.has(toRoom) === true) continue;
    out.push(`${from} → ${to} (${fromRoom}/ may not import ${toRoom}/)`);
  }
  return out;
}

/** The file graph's cycles (strongly connected components of more than one file, or a file importing itself). */
export function importCycles(edges: readonly ImportEdge[]): string[][] {
  const graph = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!graph.has(from)) graph.set(from, []);
    if (!graph.has(to)) graph.set(to, []);
    graph.get(from)?.push(to);
  }
  return stronglyConnected(graph);
}

/** Tarjan's algorithm, iterative (no recursion limit on long import chains); components sorted for stable messages. */
function stronglyConnected(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  for (const root of [...graph.keys()].sort()) {
    if (index.has(root)) continue;
    const work: Array<{ node: string; edge: number }> = [{ node: root, edge: 0 }];
    index.set(root, next);
    low.set(root, next++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1] as { node: string; edge: number };
      const targets = graph.get(frame.node) ?? [];
      if (frame.edge < targets.length) {
        const target = targets[frame.edge++] as string;
        if (!index.has(target)) {
          index.set(target, next);
          low.set(target, next++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, edge: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(target) as number));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) found.push(component.sort());
    }
  }
  return found.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}

/** One cycle as a readable line: its files in an order that follows the imports (`a → b → c → a`). */
export function describeCycle(component: readonly string[], edges: readonly ImportEdge[]): string {
  const members = new Set(component);
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) if (members.has(from) && members.has(to)) next.set(from, [...(next.get(from) ?? []), to]);
  // Walk from the first file until a file repeats: that loop is one concrete cycle inside the component.
  const path: string[] = [];
  let at = component[0] as string;
  while (!path.includes(at)) {
    path.push(at);
    at = (next.get(at) ?? [])[0] ?? at;
  }
  const loop = path.slice(path.indexOf(at));
  const more = component.length > loop.length ? ` (${component.length} files in the circle: ${component.join(', ')})` : '';
  return `${[...loop, at].join(' → ')}${more}`;
}

const SOURCE = /\.(ts|mts|mjs|js)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'out', 'coverage']);

function sourceFiles(root: string, dir = ''): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
    const path = dir === '' ? entry.name : `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED_DIRS.has(entry.name)) found.push(...sourceFiles(root, path));
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) {
      found.push(path);
    }
  }
  return found;
}

/**
 * Every module specifier of one source: static imports and `import type`, `export … from`, `import()` and `require()`
 * of a literal. The compiler's own scanner reads them, so a string or a comment that looks like an import never counts.
 */
export function moduleSpecifiers(source: string): string[] {
  return [...new Set(ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName))].sort();
}

/** Every relative import of every source file under `root`, as an edge between two paths relative to it. */
export function readImportEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(root)) {
    for (const fileName of moduleSpecifiers(readFileSync(join(root, file), 'utf8'))) {
      if (!fileName.startsWith('.')) continue;
      const to = relative(root, normalize(join(root, dirname(file), fileName)))
        .split('\\')
        .join('/');
      edges.push({ from: file, to });
    }
  }
  return edges;
}

/** The whole check over the repository: problems as lines (empty when the rooms hold). */
export function checkRooms(root: string): string[] {
  const table = parseRoomTable(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'));
  const edges = readImportEdges(root);
  return [
    ...tableCycles(table).map((cycle) => `the room table itself has a circle: ${cycle.join(', ')}`),
    ...forbiddenImports(edges, table).map((line) => `import against the room table: ${line}`),
    ...importCycles(edges).map((cycle) => `import circle: ${describeCycle(cycle, edges)}`),
  ];
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === normalize(process.argv[1])) {
  const problems = checkRooms(fileURLToPath(new URL('..', import.meta.url)));
  for (const line of problems) process.stderr.write(`${line}\n`);
  if (problems.length > 0) {
    process.stderr.write(`${problems.length} problem(s): see the rooms table of ARCHITECTURE.md\n`);
    process.exitCode = 1;
  }
}
