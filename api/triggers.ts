// Sandbox simulation triggers as catalog data: a write's entry in api/operations.ts names the rows that apply to it,
// and the sandbox's behaviour, the TRG conformance cases, their planted bugs and the numbers to avoid derive from them.
import { DELAY_555555_MS, DELAY_666666_MS } from './spec-durations.ts';

/** What a trigger looks at; every field given must match. The number is of the SKU's country, as for any write. */
export interface TriggerMatch {
  /** The mobile number (digits as sent) ends with this. */
  readonly mobileSuffix: string;
  /** The mobile number starts with this. */
  readonly mobilePrefix?: string;
  readonly skuId?: number;
  /** The amount is below the denomination's minimum (in the currency the amount is expressed in). */
  readonly amountBelowMin?: boolean;
}

/** What a matching request gets: this responseCode (a final failure), or its response held this long (real-gateway ms). */
export type TriggerEffect = { readonly code: string } | { readonly delayMs: number };

/** One row of a trigger table. `key` names its cases (`TRG-<key>-V1`) and must be unique across the catalog. */
export interface TriggerRow {
  readonly key: string;
  /** The spec's row, quoted (a conformance case quotes it as the rule it checks). */
  readonly rule: string;
  readonly match: TriggerMatch;
  readonly effect: TriggerEffect;
}

/** The spec's table "Sandbox simulation triggers (top-up operation)", row by row. */
export const SPEC_TOPUP_TRIGGERS: readonly TriggerRow[] = Object.freeze([
  {
    key: '666666',
    rule: 'Mobile number ends with 666666 | Response delayed about 120 seconds (simulates a timeout; the final result is read via the status endpoint)',
    match: { mobileSuffix: '666666' },
    effect: { delayMs: DELAY_666666_MS },
  },
  {
    key: '555555',
    rule: 'Mobile number ends with 555555 | Response delayed 90 seconds (same purpose: the final result is read via the status endpoint)',
    match: { mobileSuffix: '555555' },
    effect: { delayMs: DELAY_555555_MS },
  },
  {
    key: '510',
    rule: 'Mobile number ends with 510 | responseCode 510 (The SKU is out of stock)',
    match: { mobileSuffix: '510' },
    effect: { code: '510' },
  },
  {
    key: '001',
    rule:
      'Number starts with 1876 and ends with 888, skuId 193, amount below the minimum of that denomination (5.00 USD) | responseCode 001; ' +
      "message shape 'The charge amount for Denomination <name> should be between <min> <currency> and <max> <currency>'",
    match: { mobilePrefix: '1876', mobileSuffix: '888', skuId: 193, amountBelowMin: true },
    effect: { code: '001' },
  },
  {
    key: '500',
    rule: 'Mobile number ends with 500 | responseCode 500 (Account not activated)',
    match: { mobileSuffix: '500' },
    effect: { code: '500' },
  },
]);
