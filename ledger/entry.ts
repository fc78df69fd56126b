// The lines of ledger.jsonl: one `request` line per charging request (durable before it is sent) and `outcome` lines
// as its outcome becomes known. Runtime-neutral: written by Node, by engine workers, and logged by k6 bundles.
import type { Outcome, OutcomeRule } from '../api/outcome.ts';

export const LEDGER_VERSION = 1;
export const LEDGER_FILE = 'ledger.jsonl';

/** A charging request about to be sent. Never a credential: the target is the base URL the config holds (no userinfo). */
export interface LedgerRequestLine {
  readonly v: 1;
  readonly type: 'request';
  /** Unique per request line (a correlationId may repeat: conformance sends duplicates on purpose). */
  readonly entry: string;
  /** null when the body carries no usable correlationId (the gateway must refuse it; nothing to reconcile). */
  readonly correlationId: string | null;
  readonly operationId: string;
  readonly version: 'v1' | 'v2';
  readonly skuId: number | null;
  /** The request's own amount and its currency (null = the wallet currency), as sent. */
  readonly amount: number | null;
  readonly currency: string | null;
  /** Most it can take from the wallet, as counted against the cap (absent without a cap). */
  readonly estimate?: { readonly amount: number; readonly currency: string };
  /** The wallet currency as the target's catalog names it (absent when it does not): what charged amounts are in. */
  readonly wallet?: string;
  readonly target: string;
  readonly environment: 'sandbox' | 'production';
  readonly runId: string;
  readonly command: string;
  /** ISO time the line was written, just before the request leaves; `sentAt` the same in epoch ms (reconcile's clock). */
  readonly at: string;
  readonly sentAt: number;
}

export type OutcomeSource = 'response' | 'status' | 'reconcile';

export interface LedgerOutcomeLine {
  readonly v: 1;
  readonly type: 'outcome';
  readonly entry: string;
  readonly correlationId: string | null;
  readonly operationId: string;
  readonly outcome: Outcome;
  readonly final: boolean;
  readonly rule: OutcomeRule;
  readonly code?: string;
  readonly httpStatus?: number;
  /** What the wallet was charged for a Successful transaction: the payload's amount (field mapping) or the estimate. */
  readonly charged?: { readonly amount: number; readonly currency: string; readonly from: 'payload' | 'estimate' | 'request' };
  readonly source: OutcomeSource;
  readonly at: string;
}

export type LedgerLine = LedgerRequestLine | LedgerOutcomeLine;

/**
 * Prefix of a ledger line on a k6 bundle's console (k6 writes console.log to stderr; the harness reads them from
 * there). Chosen so no other output starts with it.
 */
export const CONSOLE_PREFIX = 'GH-LEDGER ';

/**
 * JSON with every non-ASCII character escaped: a console line survives any logger quoting (k6's logfmt `msg="..."`)
 * with only `"` and `\` to undo.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

export function isLedgerLine(value: unknown): value is LedgerLine {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    v.v === LEDGER_VERSION &&
    (v.type === 'request' || v.type === 'outcome') &&
    typeof v.entry === 'string' &&
    typeof v.operationId === 'string'
  );
}

/** A new entry id: time, a per-runtime token and a counter (unique across VUs, threads and processes). */
export function createEntryIds(token: string): () => string {
  let n = 0;
  return () => `${token}-${(++n).toString(36)}`;
}

export function runtimeToken(random: () => number = Math.random): string {
  return `${Date.now().toString(36)}${Math.floor(random() * 0x1000000).toString(36)}`;
}
