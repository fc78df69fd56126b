// Payload-corruption profiles: each breaks a seeded 10% of one operation's successful payloads in one way, and the
// sandbox counts what it served (stats `corruptions`), so tests hold the harness's violation counts against the truth.
import type { PayloadCorruption } from '../corruption.ts';
import type { SandboxProfile } from './types.ts';

/** Fraction of the operation's successful responses corrupted. */
export const DEFAULT_CORRUPTION_RATE = 0.1;

export interface CorruptionProfile extends SandboxProfile {
  readonly corruptions: readonly [PayloadCorruption];
  /**
   * Which payload check layer must catch it: the spec's payload rules, the envelope schema (with the payload kind), or
   * only the learned baseline (the spec does not name the member; observed payloads do: a warning without a baseline).
   */
  readonly caughtBy: 'spec' | 'envelope' | 'baseline';
}

type Json = Record<string, unknown>;

/** The first record of an array payload, when there is one that is an object. */
function firstRecord(envelope: Json): Json | undefined {
  const payload = envelope.payLoad;
  if (!Array.isArray(payload) || payload.length === 0) return undefined;
  const first: unknown = payload[0];
  return first !== null && typeof first === 'object' && !Array.isArray(first) ? (first as Json) : undefined;
}

function onFirstRecord(change: (record: Json) => boolean) {
  return (envelope: Json): boolean => {
    const record = firstRecord(envelope);
    return record !== undefined && change(record);
  };
}

function profile(
  name: string,
  description: string,
  caughtBy: CorruptionProfile['caughtBy'],
  corruption: Omit<PayloadCorruption, 'rate'>,
): CorruptionProfile {
  return {
    name,
    description: `Payload corruption: ${description} in 10% of successful responses.`,
    caughtBy,
    corruptions: [{ ...corruption, rate: DEFAULT_CORRUPTION_RATE }],
  };
}

export const PAYLOAD_CORRUPTION_PROFILES: readonly CorruptionProfile[] = [
  profile('corrupt-record-scalar', 'v2 catalog/countries: the first record replaced by the number 42', 'spec', {
    operations: ['v2.catalog.countries'],
    path: '$.payLoad[*]',
    corrupt: (envelope) => {
      if (firstRecord(envelope) === undefined) return false;
      (envelope.payLoad as unknown[])[0] = 42;
      return true;
    },
  }),
  profile('corrupt-id-string', "v2 catalog/operators: the first record's operatorId sent as a string", 'baseline', {
    operations: ['v2.catalog.operators'],
    path: '$.payLoad[*].operatorId',
    corrupt: onFirstRecord((record) => {
      if (typeof record.operatorId !== 'number') return false;
      record.operatorId = String(record.operatorId);
      return true;
    }),
  }),
  profile('corrupt-localized-number', "v2 gift card SKU list: the first record's localized productName sent as a number", 'spec', {
    operations: ['v2.catalog.skus-giftcards'],
    path: '$.payLoad[*].productName',
    corrupt: onFirstRecord((record) => {
      if (!('productName' in record)) return false;
      record.productName = 7;
      return true;
    }),
  }),
  profile('corrupt-nested-removed', 'v2 current promotions: the first record without its nested product object', 'baseline', {
    operations: ['v2.promotion.current'],
    path: '$.payLoad[*].product',
    corrupt: onFirstRecord((record) => {
      if (!('product' in record)) return false;
      delete record.product;
      return true;
    }),
  }),
  profile('corrupt-additional-info', 'v2 getproducts: the first record carries an AdditionalInfo element without its value', 'spec', {
    operations: ['v2.catalog.getproducts'],
    path: '$.payLoad[*].additionalInfos[*]',
    corrupt: onFirstRecord((record) => {
      record.additionalInfos = [{ name: 'accountId' }];
      return true;
    }),
  }),
  profile('corrupt-next-cursor', 'v2 gift card SKU list: next_cursor sent as a string', 'envelope', {
    operations: ['v2.catalog.skus-giftcards'],
    path: '$.next_cursor',
    corrupt: (envelope) => {
      if (typeof envelope.next_cursor !== 'number') return false;
      envelope.next_cursor = String(envelope.next_cursor);
      return true;
    },
  }),
  profile('corrupt-lookup-object', 'v2 mobile lookup: the payload an object (its first element) instead of an array', 'envelope', {
    operations: ['v2.lookup.mobile'],
    path: '$.payLoad',
    corrupt: (envelope) => {
      const record = firstRecord(envelope);
      if (record === undefined) return false;
      envelope.payLoad = record;
      return true;
    },
  }),
];

/**
 * Every corruption above at once, each with its own draws (one load run proves them all: the real-k6 tests use it).
 * Two of them touch the gift card list; they break different paths, so each is counted on its own.
 */
export function allCorruptions(rate = DEFAULT_CORRUPTION_RATE): SandboxProfile {
  return {
    name: 'corrupt-all',
    description: `Payload corruption: every corrupt-* profile at once, each in ${Math.round(rate * 100)}% of its operation's successful responses.`,
    corruptions: PAYLOAD_CORRUPTION_PROFILES.map((p) => ({ ...p.corruptions[0], rate })),
  };
}
