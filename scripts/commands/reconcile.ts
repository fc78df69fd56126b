// `gateway-harness reconcile LEDGER`: after a crash, a kill or an interrupted run, polls every transaction of a ledger
// that is not final through the status endpoint until final or the deadline, appends what it learns to the ledger, and
// prints a table of final outcomes and the total charged. Exit 0 all final, 1 some still unresolved, 2 usage.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { EXIT, HarnessError } from '../../api/errors.ts';
import type { ResolvedTargetConfig } from '../../api/target-config.ts';
import { createGatewayClient } from '../../client/gateway-client.ts';
import { assertTargetUsable } from '../../client/target-preflight.ts';
import { openLedgerWriter, readLedger } from '../../ledger/ledger-file.ts';
import { K6_SPOOL_FILE, recoverSpool } from '../../ledger/k6-spool.ts';
import { foldLedger, isFinal } from '../../ledger/ledger-state.ts';
import { harnessClientConfig } from '../../ledger/money-session.ts';
import { reconcileTransactions, unpollable } from '../../ledger/reconcile.ts';
import { chargedText, reconcileTable } from '../../ledger/report.ts';
import { credentialSecrets } from '../../reports/redact-report.ts';
import { addTargetOptions, configFromOptions, type TargetOptions } from '../target-options.ts';

interface ReconcileOptions extends TargetOptions {
  deadline?: string;
}

const usage = (message: string): HarnessError => new HarnessError('GH_ERR_USAGE', message);

/** The base URL to poll: the flag/env/config one, else the one URL every request line of the ledger names. */
export function reconcileTarget(configured: string | undefined, ledgerTargets: readonly string[]): string {
  if (configured !== undefined) return configured;
  const urls = [...new Set(ledgerTargets)].filter((t) => /^https?:\/\/[^\s()]+$/.test(t));
  const labels = [...new Set(ledgerTargets)];
  if (labels.length === 1 && urls.length === 1) return urls[0] as string;
  if (labels.length === 0) throw usage('the ledger holds no request line: nothing to reconcile');
  throw usage(`the ledger names ${labels.length === 1 ? `the target "${labels[0]}"` : `${labels.length} targets`}; say which to poll with --target URL (or GATEWAY_BASE_URL)`);
}

function parseDeadline(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d{1,7}(\.\d{1,3})?$/.test(text) || !(Number(text) > 0)) throw usage('--deadline must be a number of seconds greater than 0, e.g. --deadline 300');
  return Math.round(Number(text) * 1000);
}

async function runReconcile(file: string, opts: ReconcileOptions): Promise<number> {
  const path = resolve(file);
  const deadlineMs = parseDeadline(opts.deadline);
  const config = configFromOptions(opts);
  // After a kill, k6 may have written ledger lines the harness never read: they are in the spool beside the ledger.
  const recovered = recoverSpool(path);
  const read = readLedger(path);
  const transactions = foldLedger(read.lines);
  const baseUrl = reconcileTarget(config.baseUrl, transactions.map((t) => t.request.target));
  const resolved: ResolvedTargetConfig = { ...config, baseUrl };
  const open = transactions.filter((t) => !isFinal(t));
  const err = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  if (recovered > 0) err(`reconcile: ${recovered} ledger line${recovered === 1 ? '' : 's'} recovered from k6's output (${K6_SPOOL_FILE})`);
  if (read.badLines > 0) err(`reconcile: ${read.badLines} line${read.badLines === 1 ? '' : 's'} of ${path} could not be read (a line torn by a crash mid-write is expected at the end)`);
  err(`reconcile: ${transactions.length} charging request${transactions.length === 1 ? '' : 's'} in ${path}, ${open.length} not final; polling ${baseUrl}`);
  const walletCurrency = transactions.find((t) => t.request.estimate !== undefined)?.request.estimate?.currency ?? 'wallet';
  // The one preflight of every command, before anything is polled or appended: a dead target is one line in seconds.
  if (open.length > 0) await assertTargetUsable('reconcile', resolved, 'v2');
  const writer = open.length === 0 ? undefined : openLedgerWriter(path, { secrets: credentialSecrets(config.user, config.password) });
  const client = createGatewayClient(harnessClientConfig(resolved));
  try {
    const result = await reconcileTransactions(transactions, {
      client,
      mapping: config.fieldMapping.transaction,
      walletCurrency,
      now: () => Date.now(),
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
      ...(writer === undefined ? {} : { append: (line) => writer.append(line) }),
      progress: (done, total) => {
        if (done === total || done % 50 === 0) err(`reconcile: ${done}/${total} polled`);
      },
    });
    // `reconcile LEDGER | head` closes the pipe early: that is not an error (the ledger is already up to date).
    process.stdout.once('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
    });
    const out = (line: string): void => {
      process.stdout.write(`${line}\n`);
    };
    const unresolved = result.totals.unresolved;
    out(
      unresolved.length === 0
        ? `PASS: all ${result.totals.entries} charging requests are final (${result.totals.successful} successful, ${result.totals.failed} failed); charged ${chargedText(result.totals.charged)}`
        : `INCOMPLETE: ${unresolved.length} of ${result.totals.entries} charging requests still not final; charged so far ${chargedText(result.totals.charged)}`,
    );
    for (const line of reconcileTable(result.transactions)) out(line);
    out(`total charged: ${chargedText(result.totals.charged)}`);
    const blind = unresolved.filter(unpollable).length;
    if (blind > 0) out(`${blind} request${blind === 1 ? '' : 's'} carried no correlationId: the status endpoint cannot find ${blind === 1 ? 'it' : 'them'}`);
    return unresolved.length === 0 ? EXIT.ok : EXIT.checkFailed;
  } finally {
    writer?.close();
    await client.close();
  }
}

export function register(program: Command): void {
  const cmd = program
    .command('reconcile')
    .description(
      'Finish the money-safety job after a crash or kill: every transaction of a ledger.jsonl that is not final is polled through the status\n' +
        'endpoint (with its correlationId) until final or the deadline; the outcomes are appended to the ledger. Prints a table of final\n' +
        'outcomes and the total charged. Exit 0 all final, 1 some still unresolved, 2 usage/config error.',
    )
    .argument('<ledger>', 'path of a ledger.jsonl (a run\'s report dir has one)')
    .option('--deadline <seconds>', 'polling deadline per transaction (default: the config\'s poll deadline, scaled)');
  addTargetOptions(cmd);
  cmd.action(async (ledger: string, opts: ReconcileOptions) => {
    process.exitCode = await runReconcile(ledger, opts);
  });
}
