// The target configuration as the runtime sees it: types, defaults and small helpers (no validation library).
// Runtime-neutral and zod-free so it can be bundled into k6; the zod schema that validates user input lives in config/.
import type { FieldMapping } from './field-mapping.ts';
import { DEFAULT_GIFTCARD_CURSOR, type GiftcardCursorMeaning } from './giftcard-paging.ts';

export { scaledMs, clientTimings } from './scale.ts';

export type Environment = 'sandbox' | 'production';

/** Defaults. Timeouts and polling are in real-gateway milliseconds; they scale by timeScale. */
export const CONFIG_DEFAULTS = Object.freeze({
  /** The embedded sandbox's default credentials. */
  user: 'user',
  password: 'pass',
  environment: 'sandbox' as Environment,
  /** A real gateway runs at scale 1. */
  timeScale: 1,
  timeouts: Object.freeze({
    connectMs: 10_000,
    // Assumed: well below the sandbox's 90 s / 120 s delays and the 2-minute service-side timeout.
    responseMs: 30_000,
  }),
  poll: Object.freeze({
    intervalMs: 5_000,
    // The 2-minute service-side timeout (spec: Limits) plus a margin.
    deadlineMs: 180_000,
    /**
     * Status-check codes that mean "no such transaction". Assumed (the spec names none; the embedded sandbox answers
     * '027'): until the 2-minute service-side timeout has passed since submission they leave the transaction Unknown.
     */
    notFoundCodes: Object.freeze(['027']) as readonly string[],
  }),
  sandbox: Object.freeze({ seed: 1 }),
});

/** Time scale of the embedded sandbox when the harness starts it (no baseUrl): the 120 s trigger takes 1.2 s. */
export const EMBEDDED_SANDBOX_TIME_SCALE = 0.01;

/** The resolved configuration every command and the client use. `baseUrl` absent = the embedded sandbox. */
export interface TargetConfig {
  readonly baseUrl?: string;
  readonly user: string;
  readonly password: string;
  readonly environment: Environment;
  readonly timeScale: number;
  readonly timeouts: { readonly connectMs: number; readonly responseMs: number };
  readonly poll: {
    readonly intervalMs: number;
    readonly deadlineMs: number;
    readonly maxAttempts?: number;
    readonly notFoundCodes: readonly string[];
  };
  readonly writePaths: Readonly<Record<string, string>>;
  readonly fieldMapping: FieldMapping;
  readonly sandbox: { readonly seed: number; readonly profile?: string };
  /**
   * How the v2 gift card list's pages are followed (api/giftcard-paging.ts): absent or 'spec', the spec's definition
   * ("cursor selects the SKUs starting from that skuId value"); else what the target's next / next_cursor mean.
   */
  readonly paging?: { readonly giftcardCursor: GiftcardCursorMeaning };
  /**
   * How the balance reads as available funds (ledger/funds.ts): 'prepaid' — the spec's "with prepaid terms the balance
   * is returned with a negative sign to indicate available funds"; 'credit' — "the balance is the amount owed" (no limit
   * shown: a plan is not priced against it); absent/'auto' — a negative balance is prepaid funds, anything else is not judged.
   */
  readonly walletTerms?: WalletTerms;
}

/** The gift card cursor meaning of a config: the spec's definition unless it says otherwise. */
export function giftcardCursorOf(config: Pick<TargetConfig, 'paging'>): GiftcardCursorMeaning {
  return config.paging?.giftcardCursor ?? DEFAULT_GIFTCARD_CURSOR;
}

export type WalletTerms = 'auto' | 'prepaid' | 'credit';

/** A config whose target is known (a given URL, or the embedded sandbox once it listens). */
export type ResolvedTargetConfig = TargetConfig & { readonly baseUrl: string };

/** The config pointed at a concrete URL (e.g. the embedded sandbox once it listens). */
export function withBaseUrl(config: TargetConfig, baseUrl: string): ResolvedTargetConfig {
  return { ...config, baseUrl };
}

/** The target's URL as safe to print (no credentials ever live in it; the schema refuses userinfo). */
export function describeTarget(config: TargetConfig): string {
  return config.baseUrl ?? 'embedded sandbox';
}
