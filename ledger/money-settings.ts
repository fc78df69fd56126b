// What every command decides about money before anything is sent: the target's environment, the allowance
// (--allow-charges with --max-spend), whether a ledger is kept, --dry-run. Runtime-neutral: the k6 bundles read it too.
import { HarnessError } from '../api/errors.ts';
import type { Environment } from '../api/target-config.ts';

/** A spend cap: an amount in a currency (the wallet's: see README "Running against production"). */
export interface SpendCap {
  readonly amount: number;
  readonly currency: string;
}

export interface MoneySettings {
  readonly environment: Environment;
  /** --allow-charges with --max-spend: charging requests may be sent to a production target, up to the cap. */
  readonly allowCharges: boolean;
  readonly cap?: SpendCap;
  /** Keep ledger.jsonl: always on a production target; on a sandbox only when asked (--ledger). */
  readonly ledger: boolean;
}

/** Largest cap: the shared spend counter holds cents in a 32-bit integer across worker threads. */
export const MAX_CAP_AMOUNT = 20_000_000;

/** Cents, rounded up: a reservation never undercounts (4.995 reserves 5.00). */
export function toCents(amount: number): number {
  return Math.ceil(Math.round(amount * 1e6) / 1e4);
}

export function fromCents(cents: number): number {
  return cents / 100;
}

export function formatMoney(amount: number, currency: string): string {
  return `${amount.toFixed(2)} ${currency}`;
}

/**
 * The cap is in the wallet currency (what charges are counted and settled in): a cap in another currency would count
 * wallet amounts as if they were its own. Refused (exit 2) once the target's catalog names the wallet currency;
 * `wallet` undefined = the target does not show it, and the cap's currency is taken at the user's word.
 */
export function capCurrencyProblem(cap: SpendCap | undefined, wallet: string | undefined): string | undefined {
  if (cap === undefined || wallet === undefined || cap.currency.toUpperCase() === wallet.toUpperCase()) return undefined;
  return `--max-spend ${cap.amount} ${cap.currency}: the target's wallet is in ${wallet} (the costCurrency of its SKU records), and the cap counts wallet amounts: give the cap in ${wallet} (--max-spend AMOUNT ${wallet}); nothing charging was sent`;
}

/** The currency charges are stated in: the target's (its catalog), else the cap's, else the word "wallet" (unknown). */
export function walletCurrencyOf(book: { readonly wallet?: string }, settings: Pick<MoneySettings, 'cap'>): string {
  return book.wallet ?? settings.cap?.currency ?? 'wallet';
}

export function assertCapCurrency(cap: SpendCap | undefined, wallet: string | undefined): void {
  const problem = capCurrencyProblem(cap, wallet);
  if (problem !== undefined) throw new HarnessError('GH_ERR_USAGE', problem);
}

/** The one environment variable that carries the money settings to a k6 bundle (JSON; no credential in it). */
export const MONEY_ENV = 'GATEWAY_MONEY';

/** What the harness hands a load bundle: the settings, and where the target's price book is (read with open()). */
export interface BundleMoneySettings extends MoneySettings {
  /** Absolute path of the price book the harness read from the target's catalog (only with a cap). */
  readonly pricesFile?: string;
  /** Set by the harness when it reads ledger lines from k6's output: a bundle run without it cannot keep a ledger. */
  readonly capture?: boolean;
  /** The runner's recording gate (ledger/recording-gate.ts, a loopback URL): a guarded k6 run's charges go through it. */
  readonly recorder?: string;
}

export function encodeBundleMoney(settings: BundleMoneySettings): string {
  return JSON.stringify(settings);
}

/** The bundle's money settings from __ENV; absent = no allowance, no ledger (a plain `k6 run`). */
export function decodeBundleMoney(env: Readonly<Record<string, string | undefined>>, environment: Environment): BundleMoneySettings {
  const text = env[MONEY_ENV];
  if (text === undefined || text.trim() === '') return { environment, allowCharges: false, ledger: environment === 'production' };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new HarnessError('GH_ERR_CONFIG', `${MONEY_ENV} is not valid JSON`);
  }
  const value = (raw ?? {}) as Record<string, unknown>;
  const cap = value.cap as Record<string, unknown> | undefined;
  const validCap =
    cap !== undefined &&
    typeof cap.amount === 'number' &&
    cap.amount > 0 &&
    cap.amount <= MAX_CAP_AMOUNT &&
    typeof cap.currency === 'string';
  if (value.allowCharges === true && !validCap)
    throw new HarnessError('GH_ERR_CONFIG', `${MONEY_ENV}: allowCharges needs a cap { amount, currency }`);
  return {
    environment,
    allowCharges: value.allowCharges === true,
    ...(validCap ? { cap: { amount: cap.amount as number, currency: cap.currency as string } } : {}),
    ledger: value.ledger === true || environment === 'production',
    ...(typeof value.pricesFile === 'string' ? { pricesFile: value.pricesFile } : {}),
    ...(value.capture === true ? { capture: true } : {}),
    ...(typeof value.recorder === 'string' && /^http:\/\/127\.0\.0\.1:[0-9]+$/.test(value.recorder) ? { recorder: value.recorder } : {}),
  };
}
