// The one maker of run ids: a UTC timestamp to the second, the kind of run, and four random characters, so report
// directories sort by time and two runs started in the same second never share one. Runtime-neutral (no node:*).

/** `20261127T012345Z`: the time of a run as it stands in every run id (ISO 8601 basic format, no milliseconds). */
export function runStamp(now: Date): string {
  return now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** Four lower-case base-36 characters (padded, since Math.random can give a short expansion). */
export function runSuffix(random: () => number = Math.random): string {
  return random().toString(36).slice(2, 6).padEnd(4, '0');
}

/** `<stamp>[-<kind>]-<suffix>`, e.g. `20261127T012345Z-load-k3f9`; conformance, gate and baseline runs name no kind. */
export function newRunId(kind?: string, now = new Date(), random: () => number = Math.random): string {
  return `${runStamp(now)}${kind === undefined ? '' : `-${kind}`}-${runSuffix(random)}`;
}
