// Remembers what a pure check of a response body found, for the last few distinct body texts of each operation, so a
// load run that fetches the same catalog list again and again checks that text once. Runtime-neutral (k6, Node).

interface Entry<T> {
  readonly text: string;
  readonly context: object;
  readonly value: T;
}

/**
 * A bounded memo keyed by (key, body text, context object). Exact by construction: a hit needs the very same text
 * (string equality, done natively by the runtime) and the very same context object (the check's options), so the
 * remembered value is what computing it again would give, as long as `compute` depends on nothing else. Holds at most
 * `perKey` texts per key, none longer than `maxChars` (longer ones are always computed), the newest first.
 */
export class BodyMemo<T> {
  private readonly entries = new Map<string, Entry<T>[]>();
  private readonly perKey: number;
  private readonly maxChars: number;

  constructor(perKey: number, maxChars: number) {
    this.perKey = perKey;
    this.maxChars = maxChars;
  }

  value(key: string, text: string | undefined, context: object, compute: () => T): T {
    if (text === undefined || text.length > this.maxChars) return compute();
    let list = this.entries.get(key);
    if (list !== undefined) {
      // An index loop, not for-of: goja (k6) runs the iterator protocol several times slower.
      for (let i = 0; i < list.length; i++) {
        const entry = list[i] as Entry<T>;
        if (entry.text === text && entry.context === context) return entry.value;
      }
    } else {
      list = [];
      this.entries.set(key, list);
    }
    const value = compute();
    list.unshift({ text, context, value });
    if (list.length > this.perKey) list.pop();
    return value;
  }
}
