// The money side of one Node-run command (migrate, baseline, load's harness half): the ledger file, the price book and
// the balance read before the run, the guard's hooks for the command's client, and the end of the run — every
// transaction not final reconciled through the status endpoint, the balance read again, the LedgerSection built.
import { join } from 'node:path';
import type { ClientCore, ClientHooks } from '../api/client-core.ts';
import type { FieldMapping } from '../api/field-mapping.ts';
import type { GiftcardCursorMeaning } from '../api/giftcard-paging.ts';
import type { ResolvedTargetConfig } from '../api/target-config.ts';
import type { LedgerSection } from '../reports/model.ts';
import { createLocalBudget, type SpendBudget } from './budget.ts';
import { createEntryIds, LEDGER_FILE, runtimeToken, type LedgerLine } from './entry.ts';
import { createMoneyHooks, MoneyRefusal, type MoneyHooks } from './hooks.ts';
import { whyNotWritten } from './disk-headroom.ts';
import { recoverSpool } from './k6-spool.ts';
import { ledgerDefects, openLedgerWriter, readLedger, type LedgerWriter } from './ledger-file.ts';
import { foldLedger, isFinal, type LedgerTransaction } from './ledger-state.ts';
import { assertCapCurrency, toCents, walletCurrencyOf, type MoneySettings } from './money-settings.ts';
import { EMPTY_PRICE_BOOK, type PriceBook } from './price-book.ts';
import { readBalance, readPriceBook, readWalletCurrency } from './read-prices.ts';
import { reconcileTransactions, type ReconcileResult } from './reconcile.ts';
import { buildLedgerSection, ledgerLines } from './report.ts';

export interface MoneySessionOptions {
  readonly settings: MoneySettings;
  readonly command: string;
  readonly runId: string;
  readonly reportDir: string;
  /** Strings scrubbed from every ledger line (the password and its Basic token). */
  readonly secrets: readonly string[];
  /** The version whose balance endpoint is read (default v2). */
  readonly balanceVersion?: 'v1' | 'v2';
  readonly now?: () => number;
  readonly info?: (line: string) => void;
}

/** The target as the session needs it, known once the command has one (an embedded sandbox listens first). */
export interface MoneyTarget {
  /** As reports show it (no credentials). */
  readonly label: string;
  readonly mapping: FieldMapping;
  /** How the gift card list's pages are walked for the price book (paging.giftcardCursor); default the spec's definition. */
  readonly giftcardCursor?: GiftcardCursorMeaning;
  readonly status: { readonly serviceTimeoutMs: number; readonly notFoundCodes: readonly string[] };
}

export interface MoneyFinish {
  /** Absent when no ledger was kept (a sandbox target without --ledger). */
  readonly section?: LedgerSection;
  readonly result?: ReconcileResult;
  /** What to print about money (the ledger line, cap, balance, unresolved transactions). */
  readonly lines: readonly string[];
}

export interface MoneySession {
  /** For the command's client: they refuse every charging request until prepare() has run. */
  readonly hooks: ClientHooks;
  readonly settings: MoneySettings;
  /** ledger.jsonl of this run (undefined without a ledger). */
  readonly ledgerPath?: string;
  /** The open ledger (the k6 capture writes through it). */
  readonly writer?: LedgerWriter;
  readonly prices: PriceBook;
  /** The balance read before the run (a capped run), for the balance watch. */
  readonly balanceBefore: number | undefined;
  /** Reads what a capped run needs (price book, balance) and arms the hooks. */
  prepare(client: Pick<ClientCore, 'call'>, target: MoneyTarget): Promise<void>;
  /** Reconciles this run's unresolved transactions and builds the section; `refused` adds refusals counted elsewhere. */
  finish(
    client: Pick<ClientCore, 'call' | 'pollStatus'>,
    options: {
      readonly allowSkips: boolean;
      readonly refused?: number;
      readonly deadlineMs?: number;
      readonly defects?: readonly string[];
    },
  ): Promise<MoneyFinish>;
  close(): void;
}

/** Real-time floors of the harness's own reads (price book, balance, reconciliation) at a fast time scale. */
const MIN_RESPONSE_MS = 5_000;
const POLL_SLACK_MS = 5_000;

/**
 * The harness's client config: at the embedded sandbox's scale 0.01 a 30 s response timeout is 300 ms, too short for
 * a whole SKU catalog on a busy machine; the floors have no effect at scale 1, where the configured values are above them.
 */
export function harnessClientConfig(config: ResolvedTargetConfig): ResolvedTargetConfig {
  const scale = config.timeScale > 0 ? config.timeScale : 1;
  return {
    ...config,
    timeouts: { ...config.timeouts, responseMs: Math.max(config.timeouts.responseMs, Math.ceil(MIN_RESPONSE_MS / scale)) },
    poll: { ...config.poll, deadlineMs: config.poll.deadlineMs + Math.ceil(POLL_SLACK_MS / scale) },
  };
}

/** What the guard counted against the cap: charged amounts plus the worst case of what is still unresolved. */
export function committedOf(transactions: readonly LedgerTransaction[]): number {
  let cents = 0;
  for (const t of transactions) {
    if (isFinal(t)) {
      if (t.outcome?.outcome === 'Successful' && t.outcome.charged !== undefined) cents += toCents(t.outcome.charged.amount);
    } else if (t.request.estimate !== undefined) {
      cents += toCents(t.request.estimate.amount);
    }
  }
  return cents / 100;
}

/** The spool's lines the ledger lacks, appended; a disk that still refuses them is a defect of the run, not a crash. */
function recoverOrSay(ledgerPath: string): string[] {
  try {
    recoverSpool(ledgerPath);
    return [];
  } catch (error) {
    return [`k6's lines not recovered from its output: ${whyNotWritten(ledgerPath, error)}`];
  }
}

/** One session: its options and ledger, and what it learns as the run goes (prepare() fills the rest in). */
interface SessionState {
  readonly options: MoneySessionOptions;
  readonly now: () => number;
  readonly balanceVersion: 'v1' | 'v2';
  readonly ledgerPath: string | undefined;
  readonly writer: LedgerWriter | undefined;
  prices: PriceBook;
  budget: SpendBudget | undefined;
  /** The guard's hooks, once prepare() has read what they need. */
  inner: MoneyHooks | undefined;
  balanceBefore: number | undefined;
  /** The target prepare() was given; finish() reconciles through its field mapping. */
  known: MoneyTarget | undefined;
}

/** The hooks the command's client gets at once: every charging request is refused until prepare() armed the guard. */
function hooksArmedByPrepare(state: SessionState): ClientHooks {
  return {
    async beforeSend(request) {
      if (state.inner === undefined) {
        if (request.operation.charges)
          throw new MoneyRefusal(
            'ledger',
            request.operation.id,
            `${request.operation.id} not sent: the money guard is not ready (internal order error)`,
          );
        return;
      }
      await state.inner.beforeSend?.(request);
    },
    async afterResponse(exchange) {
      await state.inner?.afterResponse?.(exchange);
    },
  };
}

/** Reads what a capped run needs (price book, balance), or a ledger's wallet currency, and arms the hooks. */
async function prepareSession(state: SessionState, client: Pick<ClientCore, 'call'>, target: MoneyTarget): Promise<void> {
  const { options, writer } = state;
  const { settings } = options;
  state.known = target;
  if (settings.cap !== undefined) {
    const read = await readPriceBook(client, target.mapping, target.giftcardCursor);
    state.prices = read.book;
    for (const p of read.problems) options.info?.(`money: price book: ${p}`);
    // Before anything charging leaves: a cap in another currency than the wallet's is refused (exit 2).
    assertCapCurrency(settings.cap, state.prices.wallet);
    options.info?.(
      `money: price book of ${Object.keys(state.prices.skus).length} SKUs read from the target's catalog; ` +
        (state.prices.wallet === undefined
          ? `wallet currency not shown by the target: the cap's ${settings.cap.currency} is taken as the wallet's`
          : `wallet currency ${state.prices.wallet}`),
    );
    state.budget = createLocalBudget(toCents(settings.cap.amount));
    state.balanceBefore = await readBalance(client, state.balanceVersion);
  } else if (writer !== undefined) {
    // A ledger without a cap still states charges in the wallet's currency code.
    const wallet = await readWalletCurrency(client);
    if (wallet !== undefined) state.prices = { skus: {}, wallet };
  }
  const budget = state.budget;
  state.inner = createMoneyHooks({
    settings,
    host: {
      ...(budget === undefined ? {} : { budget }),
      ...(writer === undefined ? {} : { append: (line: LedgerLine) => writer.append(line) }),
    },
    prices: state.prices,
    target: target.label,
    runId: options.runId,
    command: options.command,
    status: target.status,
    mapping: target.mapping.transaction,
    now: state.now,
    newEntryId: createEntryIds(`${options.command.replace(/\W/g, '')}-${runtimeToken()}`),
  });
}

/** This run's transactions in the ledger (k6's spooled lines recovered first), and what is wrong with the file. */
function thisRunsTransactions(
  ledgerPath: string,
  runId: string,
  moreDefects: readonly string[] | undefined,
): { transactions: LedgerTransaction[]; defects: string[] } {
  const unrecovered = recoverOrSay(ledgerPath);
  const read = readLedger(ledgerPath);
  const defects = [...ledgerDefects(read), ...(moreDefects ?? []), ...unrecovered];
  const mine = read.lines.filter((l) => l.type !== 'request' || l.runId === runId);
  const entries = new Set(mine.filter((l) => l.type === 'request').map((l) => l.entry));
  return { transactions: foldLedger(mine.filter((l) => entries.has(l.entry))), defects };
}

/** Reconciles this run's transactions not final through the status endpoint, reads the balance again, builds the section. */
async function finishSession(
  state: SessionState,
  client: Pick<ClientCore, 'call' | 'pollStatus'>,
  finishOptions: Parameters<MoneySession['finish']>[1],
): Promise<MoneyFinish> {
  const { options, ledgerPath, writer, known, now } = state;
  const { settings } = options;
  if (ledgerPath === undefined || writer === undefined || known === undefined) return { lines: [] };
  const { transactions, defects } = thisRunsTransactions(ledgerPath, options.runId, finishOptions.defects);
  const open = transactions.filter((t) => !isFinal(t)).length;
  let unwritten = 0;
  if (open > 0) options.info?.(`money: reconciling ${open} transaction${open === 1 ? '' : 's'} not final through the status endpoint`);
  const result = await reconcileTransactions(transactions, {
    client,
    mapping: known.mapping.transaction,
    walletCurrency: walletCurrencyOf(state.prices, settings),
    // A disk that refuses what reconciling learnt: the outcome still counts here, and the ledger says it is missing.
    append: (line) => {
      try {
        writer.append(line);
      } catch (error) {
        if (unwritten++ === 0) defects.push(`outcomes learnt by reconciling not written: ${whyNotWritten(ledgerPath, error)}`);
      }
    },
    now,
    ...(finishOptions.deadlineMs === undefined ? {} : { deadlineMs: finishOptions.deadlineMs }),
  });
  const { balanceBefore } = state;
  const balanceAfter = balanceBefore === undefined ? undefined : await readBalance(client, state.balanceVersion);
  const refused = (state.budget?.refused() ?? 0) + (finishOptions.refused ?? 0);
  const section = buildLedgerSection(
    {
      result,
      ...(settings.cap === undefined ? {} : { cap: settings.cap, committed: committedOf(result.transactions) }),
      // With a cap always said (0 included); without one, when something was refused (a line the gate could not make durable).
      ...(settings.cap === undefined && refused === 0 ? {} : { refused }),
      ...(balanceBefore === undefined || balanceAfter === undefined ? {} : { balance: { before: balanceBefore, after: balanceAfter } }),
      ...(defects.length === 0 ? {} : { defects }),
    },
    { allowSkips: finishOptions.allowSkips, file: LEDGER_FILE },
  );
  return { section, result, lines: ledgerLines(section, ledgerPath) };
}

export function createMoneySession(options: MoneySessionOptions): MoneySession {
  const now = options.now ?? (() => Date.now());
  const ledgerPath = options.settings.ledger ? join(options.reportDir, LEDGER_FILE) : undefined;
  const writer = ledgerPath === undefined ? undefined : openLedgerWriter(ledgerPath, { secrets: options.secrets });
  const state: SessionState = {
    options,
    now,
    balanceVersion: options.balanceVersion ?? 'v2',
    ledgerPath,
    writer,
    prices: EMPTY_PRICE_BOOK,
    budget: undefined,
    inner: undefined,
    balanceBefore: undefined,
    known: undefined,
  };
  return {
    hooks: hooksArmedByPrepare(state),
    settings: options.settings,
    ...(ledgerPath === undefined ? {} : { ledgerPath }),
    ...(writer === undefined ? {} : { writer }),
    get prices() {
      return state.prices;
    },
    get balanceBefore() {
      return state.balanceBefore;
    },
    prepare: (client, target) => prepareSession(state, client, target),
    finish: (client, finishOptions) => finishSession(state, client, finishOptions),
    close() {
      writer?.close();
    },
  };
}
