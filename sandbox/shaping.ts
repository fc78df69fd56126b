// The response-shaping layer of the shape profiles: payload record keys renamed, moved, re-cased and ids typed as
// strings on the way out, driven by data (PayloadShape). Request bodies stay as the spec names them; the envelope's own fields stay.

type Rec = Record<string, unknown>;

/** How a gateway that keeps every spec rule may still spell its payload records (what the spec leaves open). */
export interface PayloadShape {
  /** Dotted path moves applied to every payload object that has the source path, e.g. 'min.faceValue' -> 'price.min'. */
  readonly renames?: Readonly<Record<string, string>>;
  /** Every payload key re-cased after the moves. */
  readonly keyCase?: 'pascal' | 'snake';
  /** Integer values of keys ending in "id" (any case) become decimal strings. */
  readonly idsAsStrings?: boolean;
}

const isRecord = (value: unknown): value is Rec => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `faceValueInWalletCurrency` -> `FaceValueInWalletCurrency` or `face_value_in_wallet_currency`. */
export function recase(key: string, keyCase: 'pascal' | 'snake'): string {
  if (keyCase === 'pascal') return key.charAt(0).toUpperCase() + key.slice(1);
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();
}

/** A dotted path as the shape spells it: moved when a rename covers it (whole path or a prefix), then re-cased per segment. */
export function shapePath(path: string, shape: PayloadShape): string {
  let moved = path;
  for (const [from, to] of Object.entries(shape.renames ?? {})) {
    if (path === from) moved = to;
    else if (path.startsWith(`${from}.`)) moved = `${to}${path.slice(from.length)}`;
  }
  const keyCase = shape.keyCase;
  return keyCase === undefined
    ? moved
    : moved
        .split('.')
        .map((segment) => recase(segment, keyCase))
        .join('.');
}

function take(record: Rec, path: readonly string[]): { found: boolean; value?: unknown } {
  const [head, ...rest] = path;
  if (head === undefined || !Object.prototype.hasOwnProperty.call(record, head)) return { found: false };
  if (rest.length === 0) {
    const value = record[head];
    delete record[head];
    return { found: true, value };
  }
  const child = record[head];
  if (!isRecord(child)) return { found: false };
  const taken = take(child, rest);
  if (taken.found && Object.keys(child).length === 0) delete record[head];
  return taken;
}

function put(record: Rec, path: readonly string[], value: unknown): void {
  let current = record;
  path.slice(0, -1).forEach((segment) => {
    if (!isRecord(current[segment])) current[segment] = {};
    current = current[segment] as Rec;
  });
  current[path[path.length - 1] as string] = value;
}

function moveFields(record: Rec, renames: Readonly<Record<string, string>>): void {
  for (const [from, to] of Object.entries(renames)) {
    const taken = take(record, from.split('.'));
    if (taken.found) put(record, to.split('.'), taken.value);
  }
}

function reshapeValue(value: unknown, shape: PayloadShape, depth: number): unknown {
  if (depth > 8) return value;
  if (Array.isArray(value)) return value.map((item) => reshapeValue(item, shape, depth + 1));
  if (!isRecord(value)) return value;
  if (shape.renames !== undefined) moveFields(value, shape.renames);
  const out: Rec = {};
  for (const [key, child] of Object.entries(value)) {
    const name = shape.keyCase === undefined ? key : recase(key, shape.keyCase);
    const idAsString = shape.idsAsStrings === true && /id$/i.test(key) && typeof child === 'number' && Number.isInteger(child);
    out[name] = idAsString ? String(child) : reshapeValue(child, shape, depth + 1);
  }
  return out;
}

/** The payload as the shape spells it (a fresh value; records are moved in place first, so pass a private copy). */
export function reshapePayload(payload: unknown, shape: PayloadShape): unknown {
  return reshapeValue(payload, shape, 0);
}
