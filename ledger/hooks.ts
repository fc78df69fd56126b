// The money guard in the client core's hooks: `beforeSend` (awaited) refuses a charging request the allowance does not
// cover, reserves its worst case under the cap and makes its ledger line durable before it leaves; `afterResponse`
// records outcomes and settles the reservation. Runtime-neutral: Node commands, engine workers and k6 VUs all use it.
import type { ClientHooks, CoreExchange, OutgoingRequest } from '../api/client-core.ts';
import type { BuiltRequest } from '../api/request-builder.ts';
import { HarnessError } from '../api/errors.ts';
import { readNumber, type FieldMapping } from '../api/field-mapping.ts';
import type { Classification } from '../api/outcome.ts';
import { classifyStatusCheck } from '../api/poll.ts';
import type { SpendBudget } from './budget.ts';
import type { LedgerLine, LedgerOutcomeLine, LedgerRequestLine, OutcomeSource } from './entry.ts';
import { chargedOf } from './ledger-state.ts';
import { chargingRefusal } from './guard.ts';
import { assertCapCurrency, formatMoney, fromCents, toCents, walletCurrencyOf, type MoneySettings } from './money-settings.ts';
import { estimateCharge, type ChargeEstimate, type PriceBook } from './price-book.ts';

/** Where a runtime keeps the ledger and the spend counter. */
export interface MoneyHost {
  /** Present when a cap applies. */
  readonly budget?: SpendBudget;
  /** Makes a line durable (Node and engine: write + fsync; k6: logged for the harness to persist). Absent: no ledger. */
  readonly append?: (line: LedgerLine) => void | Promise<void>;
  /**
   * Present on k6 runs with the runner's recording gate (ledger/recording-gate.ts): a request line travels with its
   * request and the gate makes it durable before it forwards the request; `append` then carries the outcomes only.
   */
  readonly carry?: (line: LedgerRequestLine, built: BuiltRequest) => void;
}

export type RefusalReason = 'production' | 'cap' | 'unbounded' | 'ledger';

/** A charging request the guard did not send. Thrown from `beforeSend`, so the transport never sees it. */
export class MoneyRefusal extends HarnessError {
  readonly reason: RefusalReason;
  readonly operationId: string;
  constructor(reason: RefusalReason, operationId: string, message: string) {
    super(reason === 'production' ? 'GH_ERR_CHARGES' : reason === 'ledger' ? 'GH_ERR_LEDGER' : 'GH_ERR_SPEND_CAP', message);
    this.name = 'MoneyRefusal';
    this.reason = reason;
    this.operationId = operationId;
  }
}

export function isMoneyRefusal(error: unknown): error is MoneyRefusal {
  return error instanceof MoneyRefusal || (error instanceof HarnessError && ['GH_ERR_SPEND_CAP', 'GH_ERR_LEDGER'].includes(error.code));
}

export interface MoneyHooksOptions {
  readonly settings: MoneySettings;
  readonly host: MoneyHost;
  readonly prices: PriceBook;
  /** The target as reports show it (no credentials). */
  readonly target: string;
  readonly runId: string;
  readonly command: string;
  readonly status: { readonly serviceTimeoutMs: number; readonly notFoundCodes: readonly string[] };
  readonly mapping: FieldMapping['transaction'];
  readonly now: () => number;
  readonly newEntryId: () => string;
}

interface OpenEntry {
  readonly line: LedgerRequestLine;
  readonly reservedCents: number;
}

export interface MoneyHooks extends ClientHooks {
  /** Charging requests sent by this instance whose outcome is not final yet. */
  openEntries(): number;
}

function correlationIdOf(body: unknown): string | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const id = (body as Record<string, unknown>).correlationId;
  return typeof id === 'string' && id !== '' ? id : null;
}

/** The body as JSON the hook can read (a test may send a raw string body: it is parsed when it can be). */
function bodyOf(request: OutgoingRequest): unknown {
  const body = request.input.body;
  if (typeof body !== 'string') return body;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

/** One hooks instance: the run's settings and what it sent and has not settled yet. */
interface HookState {
  readonly options: MoneyHooksOptions;
  readonly walletCurrency: string;
  /** Charging requests sent, until their answer. */
  readonly sent: WeakMap<BuiltRequest, OpenEntry>;
  /** Status reads sent, with the correlation id they ask about. */
  readonly statusOf: WeakMap<BuiltRequest, string>;
  /** Charging requests answered with no final outcome yet, by correlation id. */
  readonly open: Map<string, OpenEntry>;
  /** Direct failures on production, held until the status endpoint confirms them. */
  readonly unconfirmed: Map<string, OpenEntry>;
}

export function createMoneyHooks(options: MoneyHooksOptions): MoneyHooks {
  // Charges are counted and settled in the wallet currency, which the target's catalog names; a cap in another one is
  // refused here too (a bundle's init), besides the harness's own refusal before the run.
  assertCapCurrency(options.settings.cap, options.prices.wallet);
  const state: HookState = {
    options,
    walletCurrency: walletCurrencyOf(options.prices, options.settings),
    sent: new WeakMap(),
    statusOf: new WeakMap(),
    open: new Map(),
    unconfirmed: new Map(),
  };
  return {
    beforeSend: (request) => beforeSend(state, request),
    afterResponse: (exchange) => afterResponse(state, exchange),
    openEntries: () => state.open.size,
  };
}

/**
 * A charging request is refused unless the allowance covers it, reserved under the cap and written to the ledger
 * before it leaves; a status read is remembered with the transaction it asks about.
 */
async function beforeSend(state: HookState, request: OutgoingRequest): Promise<void> {
  const { options } = state;
  const op = request.operation;
  if (!op.charges) {
    rememberStatusRead(state, request);
    return;
  }
  const refusal = chargingRefusal(`${options.command}`, [op], options.settings);
  if (refusal !== undefined) throw new MoneyRefusal('production', op.id, refusal);
  const body = bodyOf(request);
  const guess = estimateCharge(op, body, options.prices, state.walletCurrency);
  const reserved = reserveUnderCap(state, op, guess);
  const line = requestLine(state, op, body, guess, reserved.estimate);
  if (options.host.carry !== undefined) options.host.carry(line, request.built);
  else await appendRequestLine(state, op.id, line, reserved.cents);
  state.sent.set(request.built, { line, reservedCents: reserved.cents });
}

function rememberStatusRead(state: HookState, request: OutgoingRequest): void {
  if (request.operation.purpose !== 'transaction.status') return;
  const id = request.input.path?.correlationId;
  if (id !== undefined) state.statusOf.set(request.built, String(id));
}

/** Under a cap, the request's worst case reserved (refused when unbounded or over the cap); nothing without one. */
function reserveUnderCap(
  state: HookState,
  op: OutgoingRequest['operation'],
  guess: ChargeEstimate,
): { readonly cents: number; readonly estimate?: LedgerRequestLine['estimate'] } {
  const budget = state.options.host.budget;
  if (budget === undefined) return { cents: 0 };
  if (!guess.bounded) throw new MoneyRefusal('unbounded', op.id, `${guess.reason}: not sent (--max-spend needs a bound on every charge)`);
  const cents = toCents(guess.wallet);
  if (!budget.reserve(cents)) {
    const cap = state.options.settings.cap;
    throw new MoneyRefusal(
      'cap',
      op.id,
      `${op.id} not sent: its worst case ${formatMoney(fromCents(cents), state.walletCurrency)} would cross the spend cap` +
        (cap === undefined
          ? ''
          : ` ${formatMoney(cap.amount, cap.currency)} (${formatMoney(fromCents(budget.committed()), cap.currency)} committed)`),
    );
  }
  return { cents, estimate: { amount: fromCents(cents), currency: state.walletCurrency } };
}

function requestLine(
  state: HookState,
  op: OutgoingRequest['operation'],
  body: unknown,
  guess: ChargeEstimate,
  estimate: LedgerRequestLine['estimate'] | undefined,
): LedgerRequestLine {
  const { options } = state;
  const at = options.now();
  return {
    v: 1,
    type: 'request',
    entry: options.newEntryId(),
    correlationId: correlationIdOf(body),
    operationId: op.id,
    version: op.version,
    skuId: guess.skuId ?? null,
    amount: guess.amount ?? null,
    currency: guess.currency,
    ...(estimate === undefined ? {} : { estimate }),
    ...(options.prices.wallet === undefined ? {} : { wallet: options.prices.wallet }),
    target: options.target,
    environment: options.settings.environment,
    runId: options.runId,
    command: options.command,
    at: new Date(at).toISOString(),
    sentAt: at,
  };
}

/** No durable line, no charge: a line that cannot be written releases the reservation and refuses the request. */
async function appendRequestLine(state: HookState, operationId: string, line: LedgerRequestLine, reservedCents: number): Promise<void> {
  const { host } = state.options;
  if (host.append === undefined) return;
  try {
    await host.append(line);
  } catch (error) {
    host.budget?.release(reservedCents);
    throw new MoneyRefusal(
      'ledger',
      operationId,
      `${operationId} not sent: its ledger line could not be written (${error instanceof Error ? error.message : String(error)})`,
    );
  }
}

/** A charging request's answer is recorded; a status read's answer settles the open or doubted transaction it asks about. */
async function afterResponse(state: HookState, exchange: CoreExchange): Promise<void> {
  const entry = state.sent.get(exchange.built);
  if (entry !== undefined) {
    state.sent.delete(exchange.built);
    const cls = exchange.response.classification;
    if (!cls.final && entry.line.correlationId !== null) state.open.set(entry.line.correlationId, entry);
    await record(state, entry, exchange, cls, 'response');
    return;
  }
  const id = state.statusOf.get(exchange.built);
  if (id === undefined) return;
  state.statusOf.delete(exchange.built);
  const doubted = state.unconfirmed.get(id);
  if (doubted !== undefined) return confirm(state, doubted, exchange);
  const waiting = state.open.get(id);
  if (waiting !== undefined) await followOpen(state, id, waiting, exchange);
}

/** A status answer about a transaction not final yet: recorded once it is final. */
async function followOpen(state: HookState, id: string, waiting: OpenEntry, exchange: CoreExchange): Promise<void> {
  const { options } = state;
  const cls = classifyStatusCheck(exchange.response, {
    submittedAt: waiting.line.sentAt,
    serviceTimeoutMs: options.status.serviceTimeoutMs,
    notFoundCodes: options.status.notFoundCodes,
    now: options.now,
    // Real money: a target with no record of the request says nothing final about it (ledger/README.md).
    notFoundFinal: waiting.line.environment !== 'production',
  });
  if (!cls.final) return;
  state.open.delete(id);
  await record(state, waiting, exchange, cls, 'status');
}

function outcomeLine(
  state: HookState,
  entry: OpenEntry,
  exchange: CoreExchange,
  cls: Classification,
  source: OutcomeSource,
): LedgerOutcomeLine {
  const { options } = state;
  const response = exchange.response;
  const code = response.envelope?.responseCode;
  const paid = cls.outcome === 'Successful' ? readNumber(response.envelope?.payLoad, options.mapping.chargedAmount) : undefined;
  // Below the SKU's lowest price (the catalog's) is no charge the gateway can have made: settled at the reservation.
  const minimum = entry.line.skuId === null ? undefined : options.prices.skus[String(entry.line.skuId)]?.m;
  const charged = cls.outcome === 'Successful' ? chargedOf(paid, entry.line, state.walletCurrency, minimum) : undefined;
  return {
    v: 1,
    type: 'outcome',
    entry: entry.line.entry,
    correlationId: entry.line.correlationId,
    operationId: entry.line.operationId,
    outcome: cls.outcome,
    final: cls.final,
    rule: cls.rule,
    ...(typeof code === 'string' ? { code } : {}),
    ...(response.httpStatus === undefined ? {} : { httpStatus: response.httpStatus }),
    ...(charged === undefined ? {} : { charged }),
    source,
    at: new Date(options.now()).toISOString(),
  };
}

/**
 * Real money: a direct Failed answer is the gateway's word alone (it may have executed the charge), so the
 * reservation is held until the status endpoint confirms the failure (ledger/README.md "Trusted settlement").
 */
function awaitsConfirmation(entry: OpenEntry, line: LedgerOutcomeLine): boolean {
  return (
    line.final &&
    line.outcome === 'Failed' &&
    line.source === 'response' &&
    entry.line.environment === 'production' &&
    entry.line.correlationId !== null
  );
}

function settle(host: MoneyHost, entry: OpenEntry, line: LedgerOutcomeLine): void {
  const budget = host.budget;
  if (budget === undefined || !line.final) return;
  if (line.outcome === 'Failed') budget.release(entry.reservedCents);
  else budget.settle(entry.reservedCents, line.charged === undefined ? entry.reservedCents : toCents(line.charged.amount));
}

async function record(
  state: HookState,
  entry: OpenEntry,
  exchange: CoreExchange,
  cls: Classification,
  source: OutcomeSource,
): Promise<void> {
  const line = outcomeLine(state, entry, exchange, cls, source);
  if (awaitsConfirmation(entry, line)) state.unconfirmed.set(entry.line.correlationId as string, entry);
  else settle(state.options.host, entry, line);
  // Through the recording gate, no answer at all (the gate gone mid-request) cannot tell whether the gate wrote the
  // request line: its outcome is not written, so no outcome stands without its request; a line written stays open.
  if (state.options.host.carry !== undefined && source === 'response' && exchange.response.httpStatus === undefined) return;
  if (state.options.host.append !== undefined) await state.options.host.append(line);
}

/** A status answer about a direct failure: Successful overrides it (recorded, settled), a failure or "not found" releases it. */
async function confirm(state: HookState, entry: OpenEntry, exchange: CoreExchange): Promise<void> {
  const response = exchange.response;
  const code = response.envelope?.responseCode;
  const notFound = response.httpStatus === 200 && code !== undefined && state.options.status.notFoundCodes.includes(code);
  const cls = classifyStatusCheck(response);
  if (!notFound && !cls.final) return;
  state.unconfirmed.delete(entry.line.correlationId as string);
  if (!notFound && cls.outcome === 'Successful') await record(state, entry, exchange, cls, 'status');
  else state.options.host.budget?.release(entry.reservedCents);
}

/** Hooks in order: every beforeSend (the first that throws stops the request), then every afterResponse. */
export function composeHooks(...all: ReadonlyArray<ClientHooks | undefined>): ClientHooks {
  const hooks = all.filter((h): h is ClientHooks => h !== undefined);
  return {
    async beforeSend(request) {
      for (const h of hooks) if (h.beforeSend !== undefined) await h.beforeSend(request);
    },
    async afterResponse(exchange) {
      for (const h of hooks) if (h.afterResponse !== undefined) await h.afterResponse(exchange);
    },
  };
}
