// A VU's own copy of setup()'s data without copying it: one parsed tree per thread, and per VU a copy-on-write view.
// k6 JSON-parses setup()'s result once per VU, so a VU's changes are never seen by another; at 1,000 VUs those copies
// were 126 MB of live heap (and the GC that goes with it). A view reads the shared tree until the VU writes a node: then
// that node alone is copied for the VU (its children stay shared behind their own views).

type Node = Record<PropertyKey, unknown> | unknown[];

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null;
const hasOwn = (node: object, key: PropertyKey): boolean => Object.prototype.hasOwnProperty.call(node, key);

/**
 * One VU's view of a JSON tree that is never written. `view(node)` gives the same proxy for the same node as long as
 * the VU can hold it (identity holds: `data.a === data.a`). A proxy's target starts as an empty object or array of the
 * node's kind and stands in for the node (so Array.isArray, prototypes and the proxy invariants are the node's); on the
 * VU's first write the node's properties are copied into the target (children as their views) and the proxy forwards
 * to it from then on, like any object the VU owns. The shared tree must hold JSON only (plain objects, arrays, primitives).
 *
 * A written node's proxy is kept for the VU's whole life (it holds the VU's copy). An unwritten one is held weakly:
 * once the VU keeps no reference to it, it is collected and the next read makes a new one (the VU cannot tell: it has
 * nothing left to compare with). Holding them all made every node a VU ever read stay alive per VU — a run's memory
 * grew until each VU had read the whole tree (+5.7 % RSS in a 10-minute soak at 100 VUs).
 */
export class CopyOnWriteView {
  /** An unwritten node → its proxy while the VU can still reach it (entries of collected proxies are removed). */
  private readonly views = new WeakMap<object, WeakRef<object>>();
  /** A written node → its proxy, for the VU's whole life. */
  private readonly pinned = new WeakMap<object, object>();
  /** A target → its proxy (to pin it on the first write). */
  private readonly proxies = new WeakMap<object, object>();
  private readonly collected = new FinalizationRegistry<object>((node) => {
    if (this.views.get(node)?.deref() === undefined) this.views.delete(node);
  });
  /** A target whose node is not yet copied → that node. */
  private readonly unwritten = new WeakMap<object, Node>();
  /** A view → its target (a prototype chain through views is followed to their targets). */
  private readonly targets = new WeakMap<object, Node>();
  private readonly handler: ProxyHandler<Node>;

  constructor() {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the traps need the view's maps
    const self = this;
    // A value read from an unwritten node: a child node is shown through its view; anything inherited (methods,
    // Object.prototype through __proto__) as it is.
    const shown = (node: Node, key: PropertyKey): unknown => {
      const value: unknown = Reflect.get(node, key);
      if (!isNode(value) || typeof key === 'symbol' || (key === '__proto__' && !hasOwn(node, key))) return value;
      return self.view(value);
    };
    const written = (target: Node): Node => {
      const node = self.unwritten.get(target);
      if (node !== undefined) {
        self.copyInto(target, node);
        self.pinned.set(node, self.proxies.get(target) as object);
        self.views.delete(node);
      }
      return target;
    };
    this.handler = {
      get(target, key, receiver) {
        const node = self.unwritten.get(target);
        return node === undefined ? Reflect.get(target, key, receiver) : shown(node, key);
      },
      has(target, key) {
        return Reflect.has(self.unwritten.get(target) ?? target, key);
      },
      ownKeys(target) {
        return Reflect.ownKeys(self.unwritten.get(target) ?? target);
      },
      getOwnPropertyDescriptor(target, key) {
        const node = self.unwritten.get(target);
        if (node === undefined) return Reflect.getOwnPropertyDescriptor(target, key);
        const descriptor = Reflect.getOwnPropertyDescriptor(node, key);
        if (descriptor !== undefined && isNode(descriptor.value)) descriptor.value = self.view(descriptor.value);
        return descriptor;
      },
      set: (target, key, value, receiver) => Reflect.set(written(target), key, value, receiver),
      defineProperty: (target, key, descriptor) => Reflect.defineProperty(written(target), key, descriptor),
      deleteProperty: (target, key) => Reflect.deleteProperty(written(target), key),
      preventExtensions: (target) => Reflect.preventExtensions(written(target)),
      // The spec's cycle check stops at a proxy: follow views to their targets, so a cycle fails as on the VU's own copy.
      setPrototypeOf: (target, proto) => !self.inChain(proto, target) && Reflect.setPrototypeOf(written(target), proto),
    };
  }

  /** The VU's view of a shared value: primitives as they are, nodes through their (one) proxy. */
  view<T>(value: T): T {
    if (!isNode(value)) return value;
    let proxy = this.pinned.get(value) ?? this.views.get(value)?.deref();
    if (proxy === undefined) {
      const target: Node = Array.isArray(value) ? [] : {};
      this.unwritten.set(target, value);
      proxy = new Proxy(target, this.handler);
      this.views.set(value, new WeakRef(proxy));
      this.collected.register(proxy, value);
      this.targets.set(proxy, target);
      this.proxies.set(target, proxy);
    }
    return proxy as T;
  }

  private inChain(proto: object | null, target: Node): boolean {
    for (let p = proto; p !== null; p = Reflect.getPrototypeOf(p)) {
      p = this.targets.get(p) ?? p;
      if (p === target) return true;
    }
    return false;
  }

  /** The node's own properties into the VU's target, children as views; from now on the target is the VU's copy. */
  private copyInto(target: Node, node: Node): void {
    this.unwritten.delete(target);
    for (const key of Object.keys(node)) {
      const value: unknown = (node as Record<string, unknown>)[key];
      // defineProperty, not assignment: an own "__proto__" key of the JSON stays a property, as in JSON.parse's copy.
      Object.defineProperty(target, key, { value: this.view(value), writable: true, enumerable: true, configurable: true });
    }
  }
}
