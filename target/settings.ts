// Conformance settings: everything a case relies on that the spec does not state (numbers,
// loan numbers, bill accounts), with documented defaults, overridable from a JSON file so a real sandbox can be fitted.
import { z } from 'zod';
import { HarnessError } from '../api/errors.ts';

const digits = z.string().regex(/^[0-9]+$/, 'must be digits only');

/** A number plan: full numbers are `prefix` + `nationalLength` digits (spec example: Jamaica 1876 + 7 digits). */
const NumberPlanSchema = z.strictObject({
  prefix: digits.min(1),
  nationalLength: z.number().int().min(1).max(15),
});
export type NumberPlan = z.infer<typeof NumberPlanSchema>;

export const ConformanceSettingsSchema = z.strictObject({
  /**
   * Number plans per ISO country code. Defaults: Jamaica from the spec's example; every other country from its
   * catalog/countries record (internationalCountryCode + first areaCodes entry, numberLength digits after the calling code).
   */
  numbers: z.record(z.string().regex(/^[A-Z]{2}$/), NumberPlanSchema).default({}),
  /** Numbers that carry an outstanding loan on the target (LOAN); none known → the LOAN case is skipped. */
  loanNumbers: z.array(digits).default([]),
  /**
   * Most the LOAN case may spend, in the wallet currency: its top-up (face value + the loan the target names) priced as the
   * money guard prices it. A larger loan is not sent: the case is not verified, naming this setting. The plan prices LOAN at it.
   */
  loanSpendLimit: z.number().positive().default(25),
  /** Account number for bill payment / fetch-account-detail; default: the number of a digits-only account the target accepts. */
  billpayAccountNumber: z.string().min(1).default('1234567890'),
  /** SIM number and zip code for SIM activation / port-in. */
  simNumber: z.string().min(1).default('8901234567890123456'),
  zipCode: z.number().int().default(10001),
  /** Amount (wallet currency) below the 5.00 USD minimum of skuId 193 for the 001 trigger. */
  trigger001Amount: z.number().positive().default(1),
  /** Concurrent cases at a time (the concurrent phase; exclusive cases always run one at a time). */
  concurrency: z.number().int().min(1).max(256).default(16),
  /** Top-ups in the POLL load case (at least 50 per the requirement). */
  pollLoadTransactions: z.number().int().min(6).max(1000).default(50),
  /** Real-time floor of ordinary client timeouts (see conformance/timing.ts). */
  minRequestTimeoutMs: z.number().int().min(100).default(5_000),
  /** Real-time slack added to polling deadlines. */
  pollSlackMs: z.number().int().min(0).default(5_000),
  /**
   * The agent's credentials of the other environment (production's, when the target is the sandbox), if the operator
   * issued separate ones: GEN-AUTH then sends them to this target and expects a refusal. Never sent anywhere else.
   */
  otherEnvironment: z.strictObject({ user: z.string().min(1), password: z.string().min(1) }).optional(),
});

export type ConformanceSettings = z.infer<typeof ConformanceSettingsSchema>;
export type ConformanceSettingsInput = z.input<typeof ConformanceSettingsSchema>;

export const DEFAULT_SETTINGS: ConformanceSettings = ConformanceSettingsSchema.parse({});

/** Validates settings; a bad value → GH_ERR_CONFIG with one line naming the field and where it came from. */
export function parseSettings(input: unknown, source: string): ConformanceSettings {
  const result = ConformanceSettingsSchema.safeParse(input ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue === undefined || issue.path.length === 0 ? '(root)' : issue.path.join('.');
  throw new HarnessError('GH_ERR_CONFIG', `conformance settings: ${field} (from ${source}): ${issue?.message ?? 'invalid'}`);
}

export function mergeSettings(base: ConformanceSettings, override: ConformanceSettingsInput | undefined): ConformanceSettings {
  if (override === undefined) return base;
  return ConformanceSettingsSchema.parse({
    ...base,
    ...override,
    numbers: { ...base.numbers, ...(override.numbers ?? {}) },
  });
}
