// JSON paths of positions in an envelope, as findings and baseline files name them: `$.payLoad[*].min.faceValue`.
// One spelling everywhere, so a finding's path can be looked up in the baseline file it came from.

const PLAIN_KEY = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** The path of an object member: `.key`, or `['odd key']` when the name is not a plain identifier. */
export function childPath(parent: string, key: string): string {
  return PLAIN_KEY.test(key) ? `${parent}.${key}` : `${parent}[${JSON.stringify(key).replace(/^"|"$/g, "'")}]`;
}

/** The path of every item of an array. */
export function itemsPath(parent: string): string {
  return `${parent}[*]`;
}

/** The path of a response header (headers are not part of the JSON body, so they get their own root). */
export function headerPath(name: string): string {
  return `headers['${name.toLowerCase()}']`;
}

/** The last member name of a path, if it ends with one. */
export function lastKey(path: string): string | undefined {
  const quoted = /\['((?:[^'\\]|\\.)*)'\]$/.exec(path);
  if (quoted !== null) return quoted[1];
  const plain = /\.([A-Za-z_$][A-Za-z0-9_$-]*)$/.exec(path);
  return plain === null ? undefined : plain[1];
}

/**
 * The JSON path of a JSON pointer into `root` (`/payLoad/0/skuId` → `$.payLoad[*].skuId`): array indices become `[*]`,
 * so a path names a position in the schema, never a value or an index (a bounded metric label). Without `root`, a
 * numeric token is taken as an index.
 */
export function pathOfPointer(pointer: string, root?: unknown): string {
  let path = '$';
  let node: unknown = root;
  if (pointer === '') return path;
  for (const raw of pointer.slice(1).split('/')) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const isIndex = root === undefined ? /^\d+$/.test(token) : Array.isArray(node);
    path = isIndex ? itemsPath(path) : childPath(path, token);
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[token] : undefined;
  }
  return path;
}
