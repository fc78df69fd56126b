// The money flags every command that can send a charging request shares (--allow-charges, --max-spend, --dry-run,
// --ledger), registered one way like scripts/target-options.ts, and their translation into ledger/ MoneySettings.
import type { Command } from 'commander';
import { HarnessError } from '../api/errors.ts';
import type { Environment } from '../api/target-config.ts';
import { MAX_CAP_AMOUNT, type MoneySettings, type SpendCap } from '../ledger/money-settings.ts';

export interface MoneyOptions {
  allowCharges?: boolean;
  maxSpend?: string[];
  dryRun?: boolean;
  ledger?: boolean;
}

/** `ledger: false` for a command that never keeps one (conformance never runs against production). */
export function addMoneyOptions(cmd: Command, options: { readonly ledger?: boolean } = {}): Command {
  cmd
    .option(
      '--allow-charges',
      'allow charging requests (top-ups, PINs, gift cards, bill payments, ...) to a production target; needs --max-spend',
    )
    .option(
      '--max-spend <amount-currency...>',
      "spend cap in the wallet currency, e.g. --max-spend 50 USD (refused when the target's catalog names another): no charging request is sent once its worst case would cross it (counted across all VUs and threads)",
    )
    .option('--dry-run', 'print the plan (charging operations, how many, worst-case spend) and send nothing');
  if (options.ledger !== false) {
    cmd.option(
      '--ledger',
      'keep ledger.jsonl (every charging request, fsynced before it is sent) on a sandbox target too; always kept on production',
    );
  }
  return cmd;
}

const usage = (message: string): HarnessError => new HarnessError('GH_ERR_USAGE', message);

/** `50 USD`, `50USD`, `12.5 eur` → { amount, currency }. */
export function parseMaxSpend(parts: readonly string[]): SpendCap {
  const text = parts.join(' ').trim();
  const match = /^(\d{1,9}(?:\.\d{1,6})?)\s*([A-Za-z]{3})$/.exec(text);
  if (match === null) throw usage(`--max-spend must be AMOUNT CURRENCY, e.g. --max-spend 50 USD (got "${text.slice(0, 30)}")`);
  const amount = Number(match[1]);
  if (!(amount > 0)) throw usage('--max-spend must be greater than 0');
  if (amount > MAX_CAP_AMOUNT) throw usage(`--max-spend must be at most ${MAX_CAP_AMOUNT}`);
  return { amount, currency: (match[2] as string).toUpperCase() };
}

/**
 * The money settings of a command: a cap is mandatory with --allow-charges (and meaningless without it). A cap also
 * applies on a sandbox target (so a run can be rehearsed there); the ledger is kept on production, with a cap, or with --ledger.
 */
export function moneySettingsFrom(opts: MoneyOptions, environment: Environment): MoneySettings {
  const allowCharges = opts.allowCharges === true;
  const given = opts.maxSpend !== undefined && opts.maxSpend.length > 0;
  if (allowCharges && !given) throw usage('--allow-charges needs a spend cap: add --max-spend AMOUNT CURRENCY, e.g. --max-spend 50 USD');
  if (!allowCharges && given) throw usage('--max-spend caps what --allow-charges allows: add --allow-charges too');
  const cap = given ? parseMaxSpend(opts.maxSpend as string[]) : undefined;
  return {
    environment,
    allowCharges,
    ...(cap === undefined ? {} : { cap }),
    ledger: environment === 'production' || cap !== undefined || opts.ledger === true,
  };
}
