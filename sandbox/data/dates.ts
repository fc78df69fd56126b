// Date/time text in a destination country's time zone (promotions are "in the destination country time zone").
// Intl formatters are costly to build, so one per time zone is kept (a fixed, small set: the country list).

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f === undefined) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

const pad = (n: number, width = 2): string => String(Math.trunc(Math.abs(n))).padStart(width, '0');

/** "YYYY-MM-DDTHH:mm:ss±HH:MM": the wall-clock time in `timeZone`, with that zone's offset at that instant. */
export function formatInTimeZone(epochMs: number, timeZone: string): string {
  const parts: Record<string, number> = {};
  for (const part of formatterFor(timeZone).formatToParts(new Date(epochMs))) {
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const y = parts.year ?? 1970;
  const mo = parts.month ?? 1;
  const d = parts.day ?? 1;
  const h = parts.hour ?? 0;
  const mi = parts.minute ?? 0;
  const s = parts.second ?? 0;
  const wallAsUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const offsetMin = Math.round((wallAsUtc - Math.floor(epochMs / 1000) * 1000) / 60_000);
  const sign = offsetMin < 0 ? '-' : '+';
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${sign}${pad(offsetMin / 60)}:${pad(offsetMin % 60)}`;
}

/** "YYYY-MM-DD" of an instant in UTC (bill due dates). */
export function formatUtcDate(epochMs: number): string {
  const d = new Date(epochMs);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

const DAY_MS = 86_400_000;

/** Start of the UTC day containing the instant. */
export function startOfUtcDay(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS) * DAY_MS;
}

export { DAY_MS };
