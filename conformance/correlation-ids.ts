// The one maker of a conformance run's correlationIds: every case (hand-written and GEN) asks the run for an id of a
// length and a character class, and the run never hands out the same id twice (spec: "Unique id from the client system").

export const ID_CLASSES = ['alnum', 'digits', 'upper', 'lower', 'symbols'] as const;
export type IdClass = (typeof ID_CLASSES)[number];

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = UPPER.toLowerCase();
const DIGITS = '0123456789';
const ALPHABETS: Readonly<Record<IdClass, string>> = {
  alnum: UPPER + LOWER + DIGITS,
  digits: DIGITS,
  upper: UPPER,
  lower: LOWER,
  // Characters a client id may carry besides letters and digits and that stay one path segment in the status URL.
  symbols: UPPER + LOWER + DIGITS + '-_',
};

export function randomChars(n: number, chars: IdClass = 'alnum'): string {
  const alphabet = ALPHABETS[chars];
  let out = '';
  for (let i = 0; i < n; i++) out += alphabet[Math.floor(Math.random() * alphabet.length)];
  // The symbol class always carries a symbol (at the end: never a leading '-').
  if (chars === 'symbols' && n >= 2 && !/[-_]/.test(out)) out = out.slice(0, -1) + (Math.random() < 0.5 ? '-' : '_');
  return out;
}

/** Thrown when a run has sent every id of a tiny shape (10 one-digit ids): the caller skips that input. */
export class IdsExhausted extends Error {
  constructor(length: number, chars: IdClass) {
    super(`no unused correlationId of ${length} ${chars} character(s) left in this run`);
    this.name = 'IdsExhausted';
  }
}

/**
 * The ids of one run. An alphanumeric id long enough carries the run's tag and a counter, unique by construction; any
 * other (short, or of one character class) is random and remembered, so the run never sends it twice. Random, so a
 * real sandbox's earlier runs are unlikely to hold it.
 */
export class RunCorrelationIds {
  readonly runTag = randomChars(6);
  private counter = 0;
  private readonly sent = new Set<string>();

  next(length: number, chars: IdClass = 'alnum'): string {
    this.counter += 1;
    if (length <= 0) return '';
    const tagged = `cf${this.runTag}${this.counter.toString(36)}`;
    if (chars === 'alnum' && length > tagged.length) return tagged + randomChars(length - tagged.length);
    for (let attempt = 0; attempt < 10_000; attempt++) {
      const id = randomChars(length, chars);
      if (!this.sent.has(id)) {
        this.sent.add(id);
        return id;
      }
    }
    throw new IdsExhausted(length, chars);
  }
}
