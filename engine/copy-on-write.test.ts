// The copy-on-write view of setup()'s data behaves like the VU's own JSON.parse copy (k6's semantics) under any sequence
// of reads and writes, never changes the shared tree, and keeps VUs apart. fast-check drives the sequences.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CopyOnWriteView } from './copy-on-write.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Container = Json[] | { [key: string]: Json };

const isContainer = (v: unknown): v is Container => typeof v === 'object' && v !== null;

/** Every container reachable from root, in a stable order (the same walk on the copy and on the view). */
function containers(root: unknown): Container[] {
  const out: Container[] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown): void => {
    if (!isContainer(v) || seen.has(v)) return;
    seen.add(v);
    out.push(v);
    for (const key of Object.keys(v)) walk((v as Record<string, unknown>)[key]);
  };
  walk(root);
  return out;
}

type Op =
  | { kind: 'set'; at: number; key: number; value: Json }
  | { kind: 'alias'; at: number; key: number; from: number }
  | { kind: 'delete'; at: number; key: number }
  | { kind: 'push'; at: number; value: Json }
  | { kind: 'pop' | 'reverse' | 'sort' | 'freeze'; at: number }
  | { kind: 'splice'; at: number; key: number; count: number; value: Json }
  | { kind: 'truncate'; at: number; key: number };

const json = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, 0, 1.5, 'a', ''),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', '__proto__', 'length'), tie('value'), { maxKeys: 4 }),
  ),
})).value;

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), key: fc.nat(), value: json }),
  fc.record({ kind: fc.constant('alias' as const), at: fc.nat(), key: fc.nat(), from: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), key: fc.nat() }),
  fc.record({ kind: fc.constant('push' as const), at: fc.nat(), value: json }),
  fc.record({ kind: fc.constantFrom('pop' as const, 'reverse' as const, 'sort' as const, 'freeze' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('splice' as const), at: fc.nat(), key: fc.nat(), count: fc.nat({ max: 2 }), value: json }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat(), key: fc.nat() }),
);

/** Applies op to the tree under root; returns what the operation observed (a thrown error's type included). */
function apply(root: Container, o: Op): string {
  const all = containers(root);
  const node = all[o.at % all.length] as Container;
  const keys = Object.keys(node);
  // Assigning a "__proto__" the node does not own sets its prototype: not modelled (setup data never asks for it, and a
  // prototype chain through a plain object the VU made and a view escapes the spec's cycle check, which stops at proxies).
  const keyOf = (n: number): string => (keys.length === 0 || n % 3 === 0 ? ['a', 'x', '0'][n % 3] : keys[n % keys.length]) as string;
  try {
    switch (o.kind) {
      case 'set':
        (node as Record<string, unknown>)[keyOf(o.key)] = structuredClone(o.value);
        return 'ok';
      case 'alias':
        (node as Record<string, unknown>)[keyOf(o.key)] = all[o.from % all.length];
        return 'ok';
      case 'delete':
        return String(delete (node as Record<string, unknown>)[keyOf(o.key)]);
      case 'truncate':
        if (Array.isArray(node)) node.length = o.key % (node.length + 1);
        return 'ok';
      case 'freeze':
        Object.freeze(node);
        return String(Object.isFrozen(node));
      default:
        if (!Array.isArray(node)) return `${Array.isArray(node)} ${Object.keys(node).join(',')}`;
        if (o.kind === 'push') return String(node.push(structuredClone(o.value)));
        if (o.kind === 'pop') return JSON.stringify(node.pop()) ?? 'undefined';
        if (o.kind === 'reverse') return String(node.reverse().length);
        if (o.kind === 'sort') return JSON.stringify(node.sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y))));
        if (o.kind === 'splice') return JSON.stringify(node.splice(o.key % (node.length + 1), o.count, structuredClone(o.value)));
        return 'unknown op';
    }
  } catch (error) {
    return `threw ${(error as Error).name}`;
  }
}

/** What a script can observe of a tree: its JSON, its shape (arrays, keys, descriptors) and its aliasing. */
function observe(root: unknown): string {
  const all = containers(root);
  const ref = (v: unknown): string | number => (isContainer(v) ? all.indexOf(v) : typeof v);
  const shape = all.map((c) => {
    const described = Object.entries(Object.getOwnPropertyDescriptors(c)).map(
      ([k, d]) => `${k}=${ref(d.value)}${d.writable ? 'w' : ''}${d.enumerable ? 'e' : ''}${d.configurable ? 'c' : ''}`,
    );
    const has = ['a', 'x', '0', 'length', '__proto__'].map((k) => (k in c ? 1 : 0)).join('');
    return `${Array.isArray(c)}:${Object.isFrozen(c)}:${has}:${Object.keys(c).join(',')}:${Object.values(c).map(ref).join(',')}:${described.join(',')}`;
  });
  let text: string;
  try {
    text = JSON.stringify(root);
  } catch (error) {
    text = `threw ${(error as Error).name}`; // an alias made a cycle: the shape still tells the trees apart
  }
  return `${text}|${shape.join(';')}`;
}

describe('copy-on-write view of setup() data', () => {
  it('behaves like the VU own JSON.parse copy under any reads and writes, and never changes the shared tree', () => {
    fc.assert(
      fc.property(json, fc.array(op, { maxLength: 12 }), (data, ops) => {
        const text = JSON.stringify(data);
        const shared = JSON.parse(text) as Json;
        const copy = JSON.parse(text) as Json;
        const view = new CopyOnWriteView().view(shared);
        if (!isContainer(copy) || !isContainer(view)) {
          expect(view).toBe(copy);
          return;
        }
        for (const o of ops) {
          expect(apply(view, o)).toBe(apply(copy, o));
          expect(observe(view)).toBe(observe(copy));
        }
        expect(JSON.stringify(shared)).toBe(text);
        expect(Object.isFrozen(shared)).toBe(false);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps VUs apart: one VU changes its view, another VU sees the original', () => {
    const shared = JSON.parse('{"list":[{"n":1},{"n":2}],"count":0,"deep":{"a":{"b":[1,2,3]}}}') as {
      list: Array<{ n: number }>;
      count: number;
      deep: { a: { b: number[] } };
    };
    const one = new CopyOnWriteView().view(shared);
    const two = new CopyOnWriteView().view(shared);
    one.count++;
    one.list.push({ n: 3 });
    (one.list[0] as { n: number }).n = 10;
    one.deep.a.b[1] = 20;
    expect(JSON.stringify(one)).toBe('{"list":[{"n":10},{"n":2},{"n":3}],"count":1,"deep":{"a":{"b":[1,20,3]}}}');
    expect(JSON.stringify(two)).toBe('{"list":[{"n":1},{"n":2}],"count":0,"deep":{"a":{"b":[1,2,3]}}}');
    expect(JSON.stringify(shared)).toBe(JSON.stringify(two));
  });

  it('gives one identity per node, before and after the node is written', () => {
    const view = new CopyOnWriteView().view(
      JSON.parse('{"a":{"b":{"c":1}},"l":[[1],[2]]}') as { a: { b: { c: number }; x?: number }; l: number[][] },
    );
    const b = view.a.b;
    expect(view.a.b).toBe(b);
    view.a.x = 1;
    expect(view.a.b).toBe(b);
    const first = view.l[0];
    view.l.reverse();
    expect(view.l[1]).toBe(first);
    expect(Array.isArray(view.l)).toBe(true);
    expect([...view.l].map((x) => x[0])).toEqual([2, 1]);
  });

  it('keeps no node the VU holds no reference to: read once each, 1,000 nodes leave only the one it wrote alive', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const tree = { items: Array.from({ length: 1000 }, (_, i) => ({ id: i, tags: [i] })) };
    const data = new CopyOnWriteView().view(tree);
    const seen = data.items.map((item) => new WeakRef(item));
    data.items[7]!.id = -7;
    // WeakRefs keep their targets to the end of the job that made them: collect after it.
    await new Promise((resolveTurn) => setImmediate(resolveTurn));
    gc();
    const alive = seen.filter((ref) => ref.deref() !== undefined);
    // The written node's proxy holds the VU's copy; the rest went (a stack scan may keep a stray one or two).
    expect(alive.length).toBeLessThan(10);
    expect(seen[7]?.deref()).toBe(data.items[7]);
    expect(data.items[7]!.id).toBe(-7);
    expect(data.items[8]!.id).toBe(8);
    expect(tree.items[7]!.id).toBe(7);
  });

  it('refuses a prototype cycle through a view, as on the copy', () => {
    const view = new CopyOnWriteView().view(JSON.parse('{"a":{}}') as { a: object });
    expect(() => Object.setPrototypeOf(view.a, view)).not.toThrow();
    expect(() => Object.setPrototypeOf(view, view.a)).toThrow(TypeError);
    const copy = JSON.parse('{"a":{}}') as { a: object };
    Object.setPrototypeOf(copy.a, copy);
    expect(() => Object.setPrototypeOf(copy, copy.a)).toThrow(TypeError);
  });

  it('shows primitives as they are', () => {
    const v = new CopyOnWriteView();
    expect(v.view(3)).toBe(3);
    expect(v.view(null)).toBe(null);
    expect(v.view('s')).toBe('s');
    expect(v.view(undefined)).toBe(undefined);
  });
});
