// correlationIds for load runs: unique across VUs, iterations and instances (a distributed run splits one test over
// several k6 processes whose VU numbers repeat), and within the spec's limit (Limits: "correlationId length | 1 to 50 characters").

/** Spec Limits: "correlationId length | 1 to 50 characters". */
export const MAX_CORRELATION_ID_LENGTH = 50;

/**
 * A token for this instance (one per k6 VU runtime, or per engine worker), made in the init context: the clock in
 * base 36 plus 48 random bits. Two pods of a distributed run started in the same millisecond still differ.
 */
export function instanceToken(random: () => number = Math.random, now: () => number = Date.now): string {
  let bits = '';
  for (let i = 0; i < 4; i++)
    bits += Math.floor(random() * 4096)
      .toString(36)
      .padStart(3, '0');
  return `${now().toString(36).slice(-6)}${bits}`;
}

export interface CorrelationIds {
  /** A fresh id for the current (VU, iteration): `gh<token>-<vu>-<iteration>-<n>`. */
  next(vu: number, iteration: number): string;
}

/** Ids `gh<instance>-<vu>-<iteration>-<sequence>`; the sequence tells apart the several transactions of one iteration. */
export function createCorrelationIds(instance: string, prefix = 'gh'): CorrelationIds {
  let sequence = 0;
  return {
    next(vu, iteration) {
      sequence += 1;
      const id = `${prefix}${instance}-${vu}-${iteration}-${sequence}`;
      // 2 + 18 + 3 separators + VU, iteration and sequence numbers: about 30 characters in a real run. Refuse rather
      // than truncate into a possible duplicate.
      if (id.length > MAX_CORRELATION_ID_LENGTH)
        throw new Error(`correlationId ${id.slice(0, 20)}... exceeds ${MAX_CORRELATION_ID_LENGTH} characters`);
      return id;
    },
  };
}
