// What discovery reads in a payload record: its leaves (dotted path -> value) and the spelling-blind comparison of
// paths (case, '_' and '-' ignored), so a default such as `min.faceValue` is recognized as `Min.FaceValue` or `min.face_value`.

type Rec = Record<string, unknown>;

export interface Leaf {
  readonly path: string;
  readonly value: unknown;
}

export const isRecord = (value: unknown): value is Rec => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Scalar leaves and arrays of scalars of a record, objects followed up to `depth` levels. */
export function leavesOf(record: unknown, depth = 3, prefix = ''): Leaf[] {
  if (!isRecord(record) || depth <= 0) return [];
  const out: Leaf[] = [];
  for (const [key, value] of Object.entries(record)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    if (isRecord(value)) out.push(...leavesOf(value, depth - 1, path));
    else if (!Array.isArray(value) || value.every((item) => !isRecord(item) && !Array.isArray(item))) out.push({ path, value });
  }
  return out;
}

const normSegment = (segment: string): string => segment.toLowerCase().replace(/[_-]/g, '');

/** A path compared without regard to case, '_' and '-' (per segment). */
export const normPath = (path: string): string => path.split('.').map(normSegment).join('.');

/** The value of a leaf as an integer id: a number, or a decimal string (ids typed as strings). */
export function asInteger(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/** The value at an exact leaf path of a record (no spelling tolerance: the path came from this record's leaves). */
export function leafValue(record: unknown, path: string): unknown {
  return leavesOf(record).find((leaf) => leaf.path === path)?.value;
}

/** The path with its 'min' word turned into 'max' (same spelling), e.g. `price.min` -> `price.max`, `Min.FaceValue` -> `Max.FaceValue`. */
export function maxCounterpart(path: string): string | undefined {
  const swapped = path.replace(
    /(^|[._-])(min|Min|MIN)(?=$|[._-]|[A-Z])|(?<=[a-z0-9])Min(?=$|[._-]|[A-Z])/,
    (match: string, lead: string | undefined) =>
      `${lead ?? ''}${{ min: 'max', Min: 'Max', MIN: 'MAX' }[match.slice((lead ?? '').length)] ?? match}`,
  );
  return swapped === path ? undefined : swapped;
}

/** A dotted path in snake_case, segment by segment: `esimDetail.iccid` -> `esim_detail.iccid`. */
export function snakePath(path: string): string {
  return path
    .split('.')
    .map((segment) =>
      segment
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
        .toLowerCase(),
    )
    .join('.');
}
