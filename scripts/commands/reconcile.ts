// `gateway-harness reconcile LEDGER`: after a crash, a kill or an interrupted run, polls every transaction of a ledger
// that is not final through the status endpoint until final or the deadline, appends what it learns to the ledger, and
// prints a table of final outcomes and the total charged. Exit 0 all final, 1 some still unresolved, 2 usage.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, HarnessError } from '../../api/errors.ts';
import { printable } from '../../api/printable.ts';
import type { Environment, ResolvedTargetConfig } from '../../api/target-config.ts';
import { createGatewayClient } from '../../client/gateway-client.ts';
import { assertTargetUsable } from '../../client/target-preflight.ts';
import { assertLedgerPossible, ledgerDefects, openLedgerWriter, readLedger } from '../../ledger/ledger-file.ts';
import { K6_SPOOL_FILE, recoverSpool } from '../../ledger/k6-spool.ts';
import { foldLedger, isFinal, ledgerTotals, type LedgerTransaction } from '../../ledger/ledger-state.ts';
import { harnessClientConfig } from '../../ledger/money-session.ts';
import { readWalletCurrency } from '../../ledger/read-prices.ts';
import { reconcileTransactions, unpollable, type ReconcileResult } from '../../ledger/reconcile.ts';
import { chargedText, reconcileTable } from '../../ledger/report.ts';
import { credentialSecrets } from '../../reports/redact-report.ts';
import { reportSecrets } from '../report-output.ts';
import { addTargetOptions, configFromOptions, parseTimeScaleFlag, type TargetOptions } from '../target-options.ts';

interface ReconcileOptions extends TargetOptions {
  deadline?: string;
}

const usage = (message: string): HarnessError => new HarnessError('GH_ERR_USAGE', message);

/** The gateway URL a ledger target label names: the label itself, or the URL inside "embedded sandbox (http://…, …)". */
export function targetUrlOf(label: string): string | undefined {
  const url = /^https?:\/\/[^\s(),]+$/.test(label) ? label : /\((https?:\/\/[^\s(),]+)/.exec(label)?.[1];
  if (url === undefined) return undefined;
  try {
    const parsed = new URL(url);
    // Origin: scheme, host (lower case) and a port other than the default: what tells two gateways apart.
    return parsed.origin;
  } catch {
    return undefined;
  }
}

/**
 * The gateway to poll, checked against the targets the ledger's open transactions name: only the gateway that
 * received a request can tell its outcome; any other one has no record of it. Returns the origin, or throws exit 2.
 */
export function reconcileTarget(configured: string | undefined, ledgerTargets: readonly string[]): string {
  const labels = [...new Set(ledgerTargets)];
  if (labels.length === 0) throw usage('the ledger holds no request line: nothing to reconcile');
  const origins = [...new Set(labels.map(targetUrlOf).filter((u): u is string => u !== undefined))];
  if (configured === undefined)
    throw usage(`the ledger names no gateway URL (${labels.join(', ')}); say which to poll with --target URL (or GATEWAY_BASE_URL)`);
  const wanted = targetUrlOf(configured) ?? configured;
  if (origins.includes(wanted)) return wanted;
  throw new HarnessError(
    'GH_ERR_LEDGER',
    `reconcile: the ledger's open transactions were sent to ${origins.length === 0 ? labels.join(', ') : origins.join(', ')}, not to ${wanted} (--target/GATEWAY_BASE_URL/config): refused, nothing was polled or written — ` +
      "only the gateway that received them can tell their outcome (another one has no record of them); drop --target and GATEWAY_BASE_URL to poll the ledger's own target",
    { exitCode: EXIT.usage },
  );
}

/**
 * A ledger is a file anyone may have edited (an artifact of another job): the credentials go only to a target the
 * user configured (--target, GATEWAY_BASE_URL, config file), never to one the ledger alone names. The embedded
 * sandbox's public defaults (user/pass) are no secret, so its ledgers still poll their own target unasked.
 */
export function assertCredentialsStayHome(
  configured: string | undefined,
  credentials: { readonly user: string; readonly password: string },
  ledgerOrigins: readonly string[],
): void {
  if (configured !== undefined || reportSecrets(credentials).length === 0) return;
  const named = ledgerOrigins.length === 0 ? 'no gateway URL' : ledgerOrigins.join(', ');
  throw usage(
    `the ledger names ${named} and no target is configured: the credentials are sent only to a target you name; if that is your gateway, run again with --target ${ledgerOrigins[0] ?? 'URL'} (or GATEWAY_BASE_URL)`,
  );
}

/** The target the user configured (flag, env, config file), without the ledger's: undefined when none is. */
function configuredTarget(opts: ReconcileOptions): string | undefined {
  try {
    return configFromOptions(opts, { warn: () => undefined }).baseUrl;
  } catch {
    // Without the ledger's layer the config may not resolve (production needs a target): then none is configured.
    return undefined;
  }
}

/** The longest --deadline: seven digits of seconds. */
const MAX_DEADLINE_SECONDS = 9_999_999;

function parseDeadline(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,7}(\.\d{1,3})?$/.test(text) || !(Number(text) > 0))
    throw usage(
      `--deadline must be a number of seconds greater than 0 and at most ${MAX_DEADLINE_SECONDS} (about 115 days), e.g. --deadline 300`,
    );
  return Math.round(Number(text) * 1000);
}

/** The one environment the ledger's request lines name, if they agree. */
function ledgerEnvironment(transactions: readonly LedgerTransaction[]): Environment | undefined {
  const kinds = [...new Set(transactions.map((t) => t.request.environment))];
  return kinds.length === 1 ? kinds[0] : undefined;
}

/** The wallet currency the ledger's lines state (the target's catalog's, or the cap's), if any. */
function ledgerWallet(transactions: readonly LedgerTransaction[]): string | undefined {
  for (const t of transactions) if (t.request.wallet !== undefined) return t.request.wallet;
  for (const t of transactions) if (t.request.estimate !== undefined) return t.request.estimate.currency;
  return undefined;
}

/** The ledger as read: its transactions folded, which are not final, and which of those a status endpoint can find. */
interface ReadLedger {
  readonly path: string;
  readonly transactions: LedgerTransaction[];
  readonly open: LedgerTransaction[];
  readonly pollable: LedgerTransaction[];
  /** Unreadable lines that are not a crash's torn one: a charge there would be missing from the totals. */
  readonly defects: string[];
}

type Reconciled = Pick<ReconcileResult, 'transactions' | 'totals'>;

function err(line: string): void {
  process.stderr.write(`${printable(line)}\n`);
}

const requestsIn = (ledger: ReadLedger): string =>
  `${ledger.transactions.length} charging request${ledger.transactions.length === 1 ? '' : 's'} in ${ledger.path}, ${ledger.open.length} not final`;

function readLedgerAt(path: string): ReadLedger {
  // After a kill, k6 may have written ledger lines the harness never read: they are in the spool beside the ledger.
  const recovered = recoverSpool(path);
  const read = readLedger(path);
  // Hand-edited impossibilities (a negative or infinite amount, an outcome without its request) are refused (exit 2).
  assertLedgerPossible(read, path);
  const defects = ledgerDefects(read);
  const transactions = foldLedger(read.lines);
  if (transactions.length === 0) throw usage('the ledger holds no request line: nothing to reconcile');
  const open = transactions.filter((t) => !isFinal(t));
  const pollable = open.filter((t) => !unpollable(t));
  if (recovered > 0) err(`reconcile: ${recovered} ledger line${recovered === 1 ? '' : 's'} recovered from k6's output (${K6_SPOOL_FILE})`);
  if (read.badLines > defects.length) err(`reconcile: a line of ${path} torn by a crash mid-write was not read (its request never left)`);
  return { path, transactions, open, pollable, defects };
}

/**
 * The gateway to poll: the ledger's own target (the first, when it names several) and environment are the defaults,
 * below the config file, env and flags; a configured target must be one the ledger names, its environment the ledger's.
 */
function pollingTarget(pollable: readonly LedgerTransaction[], opts: ReconcileOptions) {
  const ledgerOrigins = [...new Set(pollable.map((t) => targetUrlOf(t.request.target)).filter((u): u is string => u !== undefined))];
  const environment = ledgerEnvironment(pollable);
  const base = {
    label: 'the ledger',
    values: {
      ...(ledgerOrigins.length === 0 ? {} : { baseUrl: ledgerOrigins[0] }),
      ...(environment === undefined ? {} : { environment }),
    },
  };
  const config = configFromOptions(opts, { base });
  assertCredentialsStayHome(configuredTarget(opts), config, ledgerOrigins);
  const baseUrl = reconcileTarget(
    config.baseUrl,
    pollable.map((t) => t.request.target),
  );
  if (environment !== undefined && config.environment !== environment) {
    throw new HarnessError(
      'GH_ERR_LEDGER',
      `reconcile: the ledger's transactions were sent to a ${environment} target, and the environment configured (--target-env/GATEWAY_ENV/config) is ${config.environment}: refused, nothing was polled or written; drop the setting to use the ledger's`,
      { exitCode: EXIT.usage },
    );
  }
  return { config, baseUrl, ledgerOrigins };
}

/** Polls the open transactions sent to the target through its status endpoint; what it learns is appended to the ledger. */
async function pollLedger(
  ledger: ReadLedger,
  opts: ReconcileOptions,
  deadlineMs: number | undefined,
): Promise<{ result: Reconciled; polledTarget: string }> {
  const { path, transactions, pollable } = ledger;
  const { config, baseUrl, ledgerOrigins } = pollingTarget(pollable, opts);
  const mine = (t: LedgerTransaction): boolean => targetUrlOf(t.request.target) === baseUrl;
  const skipped = pollable.filter((t) => !mine(t)).length;
  err(`reconcile: ${requestsIn(ledger)}; polling ${baseUrl}`);
  if (skipped > 0) {
    const others = ledgerOrigins.filter((o) => o !== baseUrl);
    err(
      `reconcile: ${skipped} of them ${skipped === 1 ? 'was' : 'were'} sent to ${others.join(', ')}: not polled here (run reconcile again with --target ${others[0] ?? 'URL'})`,
    );
  }
  const resolved: ResolvedTargetConfig = { ...config, baseUrl };
  // The one preflight of every command, before anything is polled or appended: a dead target is one line in seconds.
  await assertTargetUsable('reconcile', resolved, 'v2');
  const writer = openLedgerWriter(path, { secrets: credentialSecrets(config.user, config.password) });
  const client = createGatewayClient(harnessClientConfig(resolved));
  try {
    const walletCurrency = ledgerWallet(transactions) ?? (await readWalletCurrency(client)) ?? 'wallet';
    const result = await reconcileTransactions(transactions, {
      client,
      mapping: config.fieldMapping.transaction,
      walletCurrency,
      select: mine,
      now: () => Date.now(),
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
      append: (line) => writer.append(line),
      progress: (done, total) => {
        if (done === total || done % 50 === 0) err(`reconcile: ${done}/${total} polled`);
      },
    });
    return { result, polledTarget: baseUrl };
  } finally {
    writer.close();
    await client.close();
  }
}

/** The verdict line, the table of outcomes and the total charged on stdout; exit 0 when all is final and read. */
function printReconciled(ledger: ReadLedger, result: Reconciled, polledTarget: string | undefined): number {
  const { path, defects } = ledger;
  // `reconcile LEDGER | head` closes the pipe early: that is not an error (the ledger is already up to date).
  process.stdout.once('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const out = (line: string): void => {
    process.stdout.write(`${printable(line)}\n`);
  };
  const { totals } = result;
  const unresolved = totals.unresolved;
  // An unreadable line that is not a crash's torn one may be a charge the totals miss: a verdict of its own.
  if (defects.length > 0)
    out(
      `INCOMPLETE: ${path}: ${defects.join('; ')}: a charge there would be missing from the totals below; check it against the account statement`,
    );
  out(
    unresolved.length === 0 && defects.length === 0
      ? `PASS: all ${totals.entries} charging requests are final (${totals.successful} successful, ${totals.failed} failed); charged ${chargedText(totals.charged)}`
      : `INCOMPLETE: ${unresolved.length} of ${totals.entries} charging requests still not final; charged so far ${chargedText(totals.charged)}`,
  );
  for (const line of reconcileTable(result.transactions)) out(line);
  out(`total charged: ${chargedText(totals.charged)}`);
  const unknownThere = result.transactions.filter((t) => !isFinal(t) && t.outcome?.rule === 'not-found-at-target').length;
  if (unknownThere > 0) {
    out(
      `${unknownThere} request${unknownThere === 1 ? ' is' : 's are'} unknown to ${polledTarget ?? 'the target'} after the service-side timeout: not sent, or sent to another gateway; ` +
        'on a production ledger that is not a final outcome, so nothing was counted as failed — check the account statement',
    );
  }
  const blind = unresolved.filter(unpollable).length;
  if (blind > 0)
    out(
      `${blind} request${blind === 1 ? '' : 's'} carried no correlationId: the status endpoint cannot find ${blind === 1 ? 'it' : 'them'}`,
    );
  return unresolved.length === 0 && defects.length === 0 ? EXIT.ok : EXIT.checkFailed;
}

async function runReconcile(file: string, opts: ReconcileOptions): Promise<number> {
  const path = resolve(file);
  const deadlineMs = parseDeadline(opts.deadline);
  // Flags are judged before the ledger is read, as on every command (the rest of the config only when a target is polled).
  if (opts.timeScale !== undefined) parseTimeScaleFlag(opts.timeScale);
  const ledger = readLedgerAt(path);
  if (ledger.pollable.length === 0) {
    // Nothing a gateway could tell: no target is needed (nor asked for).
    err(`reconcile: ${requestsIn(ledger)}; nothing to poll`);
    return printReconciled(ledger, { transactions: ledger.transactions, totals: ledgerTotals(ledger.transactions) }, undefined);
  }
  const { result, polledTarget } = await pollLedger(ledger, opts, deadlineMs);
  return printReconciled(ledger, result, polledTarget);
}

export function register(program: Command): void {
  const cmd = program
    .command('reconcile')
    .description(
      'Finish the money-safety job after a crash or kill: every transaction of a ledger.jsonl that is not final is polled through the status\n' +
        'endpoint (with its correlationId) of the gateway the ledger names, until final or the deadline; the outcomes are appended to the ledger.\n' +
        "A target or environment other than the ledger's is refused (exit 2); a ledger whose transactions are all final needs no target.\n" +
        'Prints a table of final outcomes and the total charged. Exit 0 all final, 1 some still unresolved, 2 usage/config error.',
    )
    .argument('<ledger>', "path of a ledger.jsonl (a run's report dir has one)")
    .option('--deadline <seconds>', "polling deadline per transaction (default: the config's poll deadline, scaled)");
  addTargetOptions(cmd);
  cmd.action(async (ledger: string, opts: ReconcileOptions) => {
    process.exitCode = await runReconcile(ledger, opts);
  });
}
