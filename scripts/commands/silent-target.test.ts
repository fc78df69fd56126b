// Issue #32 finding 8: a target that answers the preflight and then stops answering. Every command ends within a bound
// its own settings give (SILENT_READ_TIMEOUTS response timeouts per catalog read), saying the target went silent and in
// which phase (unusable, exit 2: never a gateway rule FAIL); a signal in catalog discovery stops it within seconds.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SILENT_READ_TIMEOUTS } from '../../api/faults.ts';
import { PREFLIGHT_LIMITS } from '../../api/preflight.ts';
import { k6ComparisonSlots } from '../../load/runner/k6-binaries.ts';
import type { RunReport } from '../../reports/model.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { DEFAULT_SETTINGS } from '../../target/settings.ts';
import { childEnv, expectInterrupted } from '../fixtures/interrupted-run.ts';
import { spawnCli, waitUntil, type CliChild } from '../fixtures/run-cli.ts';
import { startSilentAfterPreflight, type SilentFrom, type SilentTarget } from '../fixtures/silent-after-preflight.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-silent-'));
let upstream: RunningSandbox;
const targets: SilentTarget[] = [];
const children: CliChild[] = [];

/** A baseline of the sandbox behind the silent targets, for `baseline check`. */
const baseline = join(dir, 'baseline-clean');

beforeAll(async () => {
  upstream = await startSandbox({ host: '127.0.0.1', port: 0, timeScale: 0.01 });
  writeFileSync(join(dir, 'empty.config.json'), '{}\n');
  // Loan numbers named: with a config file and none named, first contact would look for them (a discovery of its own).
  writeFileSync(join(dir, 'loans.settings.json'), `${JSON.stringify({ loanNumbers: ['18765550777'] })}\n`);
  const record = spawnCli(
    ['baseline', 'record', '--target', upstream.url, '--time-scale', '0.01', '--out-dir', baseline, '--report-dir', join(dir, 'record')],
    { env: childEnv() },
  );
  children.push(record);
  expect((await record.exited).code, record.output()).toBe(0);
}, 120_000);
afterAll(async () => {
  await Promise.all(children.map((c) => c.stop()));
  await Promise.all(targets.map((t) => t.close()));
  await upstream.close();
  rmSync(dir, { recursive: true, force: true });
});

async function silentTarget(after: SilentFrom = 'preflight'): Promise<SilentTarget> {
  const target = await startSilentAfterPreflight(upstream.url, after);
  targets.push(target);
  return target;
}

function start(args: readonly string[], k6?: string): CliChild {
  const child = spawnCli(args, { env: childEnv(k6) });
  children.push(child);
  return child;
}

/** Time scale of the runs: each response timeout is the real-time floor of a request (DEFAULT_SETTINGS, 5 s). */
const SCALE = '0.1';
const RESPONSE_MS = DEFAULT_SETTINGS.minRequestTimeoutMs;

/**
 * The bound every command must end within, from its settings: the preflight's bounded read, then at most
 * SILENT_READ_TIMEOUTS response timeouts per catalog read (the reads of one phase go in parallel), plus the start-up
 * of a child process and of k6 on a loaded 2-core box. Before #32 a silent read was retried 5 times.
 */
const BOUND_MS = PREFLIGHT_LIMITS.answerMs + SILENT_READ_TIMEOUTS * RESPONSE_MS * 2 + 60_000;

/** What the silent target held per path: no catalog read was sent more than SILENT_READ_TIMEOUTS times. */
function expectBoundedReads(target: SilentTarget): void {
  const perPath = new Map<string, number>();
  for (const path of target.heldPaths()) perPath.set(path, (perPath.get(path) ?? 0) + 1);
  for (const [path, n] of perPath) expect(n, `${path} sent ${n} times to a silent target`).toBeLessThanOrEqual(SILENT_READ_TIMEOUTS);
}

function summaryOf(reportDir: string): RunReport {
  return JSON.parse(readFileSync(join(reportDir, 'summary.json'), 'utf8')) as RunReport;
}

/** A command run against the silent target: its arguments but the target, whether it writes a report, what it says. */
interface Case {
  readonly name: string;
  readonly args: (reportDir: string) => string[];
  readonly writesReport: boolean;
  readonly error: RegExp;
  readonly k6?: string;
}

const K6S = k6ComparisonSlots('silent-target.test');
const CASES: readonly Case[] = [
  {
    name: 'load (Node engine)',
    args: (r) => ['load', '--scenario', 'catalog-browse', '--engine', 'node', '--duration', '5s', '--report-dir', r],
    writesReport: true,
    error: /setup\(\) did not complete/,
  },
  ...K6S.flatMap(([label, k6]): Case[] =>
    k6 === undefined
      ? []
      : [
          {
            name: `load (${label})`,
            args: (r) => ['load', '--scenario', 'catalog-browse', '--engine', 'k6', '--duration', '5s', '--report-dir', r],
            writesReport: true,
            error: /setup\(\) did not complete/,
            k6,
          },
        ],
  ),
  {
    name: 'conformance (its catalog discovery and funds check)',
    args: (r) => [
      'conformance',
      '--config',
      join(dir, 'empty.config.json'),
      '--settings',
      join(dir, 'loans.settings.json'),
      '--report-dir',
      r,
    ],
    writesReport: true,
    // The catalog is read first (the funds check prices the SKUs of the countries with numbers): its reads meet the silence.
    error: /the target went silent after the preflight/,
  },
  {
    name: 'conformance (first contact)',
    args: (r) => ['conformance', '--report-dir', r],
    writesReport: false,
    error: /discovery: the target went silent after the preflight/,
  },
  {
    name: 'gate',
    args: (r) => ['gate', '--report-dir', r],
    writesReport: false,
    error: /discovery: the target went silent after the preflight/,
  },
  { name: 'migrate', args: (r) => ['migrate', '--report-dir', r], writesReport: true, error: /catalog discovery: the target went silent/ },
  {
    name: 'baseline check',
    args: (r) => ['baseline', 'check', '--baseline', baseline, '--report-dir', r],
    writesReport: true,
    error: /the funds check: the target went silent/,
  },
  {
    name: 'baseline record',
    args: (r) => ['baseline', 'record', '--out-dir', join(r, 'baseline'), '--reads-only'],
    writesReport: false,
    error: /catalog discovery: the target went silent/,
  },
  { name: 'discover', args: () => ['discover'], writesReport: false, error: /discovery: the target went silent after the preflight/ },
];

describe.concurrent('#32 finding 8: silent after the preflight, every command ends within its bound, unusable', () => {
  it.each(CASES)(
    '$name',
    async ({ name, args, writesReport, error, k6 }) => {
      const target = await silentTarget();
      const reportDir = join(dir, name.replace(/\W+/g, '-'));
      const started = Date.now();
      const child = start([...args(reportDir), '--target', target.url, '--time-scale', SCALE], k6);
      const { code } = await child.exited;
      const took = Date.now() - started;
      expect(code, child.output()).toBe(2);
      expect(target.answered(), 'the preflight was answered').toBeGreaterThan(0);
      expect(target.held()).toBeGreaterThan(0);
      expect(took, child.output()).toBeLessThan(BOUND_MS);
      expectBoundedReads(target);
      if (writesReport) {
        const summary = summaryOf(reportDir);
        expect(summary.verdict, child.output()).toBe('unusable');
        expect(summary.exitCode).toBe(2);
        expect(`${summary.error?.message ?? ''} ${summary.verdictLine}`).toMatch(error);
      } else {
        expect(child.stderr()).toMatch(/gateway-harness: GH_ERR_TARGET: /);
        expect(child.stderr()).toMatch(error);
      }
      // The run's own output says what happened (the load report names the phase: setup).
      expect(child.output()).toMatch(/the target went silent/);
      expect(child.stdout()).not.toMatch(/^(PASS|FAIL)\b/m);
    },
    240_000,
  );
});

/**
 * A target that answers discovery and every read, then goes silent at the first write: the cases (or pairs, or
 * operations) stop once SILENT_READ_TIMEOUTS answers in a row timed out, the rest are "not run: the target went silent"
 * (never FAIL), and the run ends unusable naming the phase. Bound: the preflight and discovery (answered), then the
 * requests in flight when the target went silent, each one response timeout (they run side by side), twice for the
 * few a case sends one after another, plus the start-up on a loaded box. Before, every case waited out its requests.
 */
const LATER_BOUND_MS = PREFLIGHT_LIMITS.answerMs + SILENT_READ_TIMEOUTS * RESPONSE_MS * 2 + 60_000;

interface LaterCase {
  readonly name: string;
  readonly args: (reportDir: string) => string[];
  /** The phase the unusable line names. */
  readonly phase: RegExp;
  /** Where the report lists what the silence kept from running, and why. */
  readonly notRun: (summary: RunReport) => readonly string[];
}

const caseReasons = (summary: RunReport): string[] =>
  (summary.conformance?.cases ?? []).filter((c) => c.status === 'skipped').map((c) => c.skipReason ?? '');
/** The skipped items the silence left (the report's list of what was not verified, and why). */
const silentSkips = (summary: RunReport): string[] => summary.skipped.map((s) => s.reason).filter((r) => r.includes('went silent'));
const LATER: readonly LaterCase[] = [
  {
    name: 'conformance',
    args: (r) => ['conformance', '--config', join(dir, 'empty.config.json'), '--no-gen', '--report-dir', r],
    phase: /conformance cases: the target went silent after the preflight/,
    notRun: caseReasons,
  },
  {
    name: 'gate',
    args: (r) => ['gate', '--config', join(dir, 'empty.config.json'), '--engine', 'node', '--report-dir', r],
    phase: /conformance cases: the target went silent after the preflight/,
    notRun: caseReasons,
  },
  {
    name: 'migrate',
    args: (r) => ['migrate', '--report-dir', r],
    phase: /migrate pairs: the target went silent after the preflight/,
    notRun: silentSkips,
  },
  {
    name: 'baseline check',
    args: (r) => ['baseline', 'check', '--baseline', baseline, '--report-dir', r],
    phase: /baseline check operations: the target went silent after the preflight/,
    notRun: silentSkips,
  },
];

describe.concurrent('#32 finding 8: silent after discovery, at the first write: the rest is not run, unusable, within its bound', () => {
  it.each(LATER)(
    '$name',
    async ({ args, phase, notRun }) => {
      const target = await silentTarget('first-write');
      const reportDir = join(dir, `later-${args('')[0] ?? ''}`);
      const started = Date.now();
      const child = start([...args(reportDir), '--target', target.url, '--time-scale', SCALE]);
      const { code } = await child.exited;
      const took = Date.now() - started;
      expect(code, child.output()).toBe(2);
      expect(target.answered(), 'discovery was answered').toBeGreaterThan(0);
      expect(target.held()).toBeGreaterThan(0);
      expect(took, child.output()).toBeLessThan(LATER_BOUND_MS);
      const summary = summaryOf(reportDir);
      expect(summary.verdict, child.output()).toBe('unusable');
      expect(summary.exitCode).toBe(2);
      expect(summary.error?.message).toMatch(phase);
      expect(child.stderr()).toMatch(/gateway-harness: GH_ERR_TARGET: /);
      const reasons = notRun(summary);
      expect(reasons.length, 'what the silence kept from running is listed').toBeGreaterThan(0);
      // (the drift section puts 'not called now: ' before an operation's reason)
      expect(new Set(reasons.map((r) => r.replace(/^not called now: /, '')))).toEqual(new Set(['not run: the target went silent']));
      // Nothing the silence cut short is a gateway FAIL.
      expect(summary.conformance?.cases.filter((c) => c.status === 'failed').map((c) => c.id) ?? []).toEqual([]);
    },
    400_000,
  );
});

/** Waits until the silent target holds its first unanswered request (the run is in catalog discovery), then signals. */
async function signalInDiscovery(child: CliChild, target: SilentTarget, signal: 'SIGINT' | 'SIGTERM'): Promise<number> {
  await waitUntil('the first request the silent target holds', () => target.held() > 0 || child.hasExited(), 120_000);
  expect(child.hasExited(), `the run ended before it was interrupted:\n${child.output()}`).toBe(false);
  process.kill(child.pid, signal);
  return Date.now();
}

/**
 * Long enough for a child to write its partial reports on a loaded box, and far below the 30 s response timeout of
 * the read in flight (scale 1): a run that waited the read out could not end within it.
 */
const AFTER_SIGNAL_MS = 15_000;

describe('#32: a signal during the preflight of baseline record', () => {
  it('SIGINT while the preflight waits on a silent target: INTERRUPTED (exit 130, the report set), not killed, not its 5 s bound', async () => {
    const target = await silentTarget('start');
    const reportDir = join(dir, 'sigint-record-preflight');
    const child = start(['baseline', 'record', '--target', target.url, '--out-dir', join(dir, 'never'), '--report-dir', reportDir]);
    // The preflight's balance read is held: the run is in its preflight (before: the signal killed the process, exit
    // by signal, no report; and without the signal the preflight would end unusable, exit 2, after PREFLIGHT_LIMITS).
    await waitUntil('the preflight read the silent target holds', () => target.held() > 0 || child.hasExited(), 120_000);
    expect(child.hasExited(), child.output()).toBe(false);
    process.kill(child.pid, 'SIGINT');
    await expectInterrupted(child, reportDir, 'SIGINT', 'baseline record preflight');
    expect(existsSync(join(dir, 'never')), 'no baseline written').toBe(false);
    expect(target.heldPaths()).toEqual(['/api/v2/account/balance']);
  }, 120_000);

  // migrate and baseline check share judgeOnSession: its signal watch starts before the session's preflight too.
  it('migrate: SIGINT while the preflight waits on a silent target: INTERRUPTED (exit 130, the report set)', async () => {
    const target = await silentTarget('start');
    const reportDir = join(dir, 'sigint-migrate-preflight');
    const child = start(['migrate', '--target', target.url, '--report-dir', reportDir]);
    await waitUntil('the preflight read the silent target holds', () => target.held() > 0 || child.hasExited(), 120_000);
    expect(child.hasExited(), child.output()).toBe(false);
    process.kill(child.pid, 'SIGINT');
    await expectInterrupted(child, reportDir, 'SIGINT', 'migrate preflight');
    expect(target.heldPaths()).toEqual(['/api/v2/account/balance']);
  }, 120_000);
});

describe.concurrent('#32 finding 8: a signal during catalog discovery stops the run within seconds (scale 1: 30 s reads)', () => {
  const judged: ReadonlyArray<[string, (reportDir: string) => string[], string]> = [
    ['migrate', (r) => ['migrate', '--report-dir', r], 'migrate'],
    [
      'conformance',
      (r) => ['conformance', '--config', join(dir, 'empty.config.json'), '--settings', join(dir, 'loans.settings.json'), '--report-dir', r],
      'conformance',
    ],
  ];
  it.each(judged)(
    '%s: SIGINT in catalog discovery: the partial reports say INTERRUPTED, exit 130',
    async (name, args, during) => {
      const target = await silentTarget();
      const reportDir = join(dir, `sigint-${name}`);
      const child = start([...args(reportDir), '--target', target.url]);
      const signalled = await signalInDiscovery(child, target, 'SIGINT');
      await child.exited;
      expect(Date.now() - signalled, child.output()).toBeLessThan(AFTER_SIGNAL_MS);
      await expectInterrupted(child, reportDir, 'SIGINT', during);
    },
    240_000,
  );

  const loads: ReadonlyArray<[string, string | undefined]> = [
    ['the Node engine', undefined],
    ...K6S.filter((slot): slot is [string, string] => slot[1] !== undefined),
  ];
  it.each(loads)(
    "load on %s: SIGINT in setup()'s catalog reads: INTERRUPTED, exit 130",
    async (label, k6) => {
      const target = await silentTarget();
      const reportDir = join(dir, `sigint-load-${label.replace(/\W+/g, '-')}`);
      const child = start(
        [
          'load',
          '--scenario',
          'catalog-browse',
          '--engine',
          k6 === undefined ? 'node' : 'k6',
          '--duration',
          '5s',
          '--report-dir',
          reportDir,
          '--target',
          target.url,
        ],
        k6,
      );
      const signalled = await signalInDiscovery(child, target, 'SIGINT');
      await child.exited;
      expect(Date.now() - signalled, child.output()).toBeLessThan(AFTER_SIGNAL_MS);
      await expectInterrupted(child, reportDir, 'SIGINT', 'load');
    },
    240_000,
  );

  it('baseline check: SIGTERM in catalog discovery: INTERRUPTED, exit 143, every operation left for that reason', async () => {
    const target = await silentTarget();
    const reportDir = join(dir, 'sigterm-check');
    const child = start(['baseline', 'check', '--baseline', baseline, '--target', target.url, '--report-dir', reportDir]);
    const signalled = await signalInDiscovery(child, target, 'SIGTERM');
    await child.exited;
    expect(Date.now() - signalled, child.output()).toBeLessThan(AFTER_SIGNAL_MS);
    const summary = await expectInterrupted(child, reportDir, 'SIGTERM', 'baseline check');
    expect(summary.drift?.verdict).toBe('interrupted');
  }, 240_000);

  it('discover (no report of its own): SIGINT in discovery: exit 130 and one line, no stack', async () => {
    const target = await silentTarget();
    const child = start(['discover', '--target', target.url]);
    const signalled = await signalInDiscovery(child, target, 'SIGINT');
    const { code, signal } = await child.exited;
    expect(Date.now() - signalled, child.output()).toBeLessThan(AFTER_SIGNAL_MS);
    // Not killed by the signal (before: no handler, the process died mid-request).
    expect({ code, signal }, child.output()).toEqual({ code: 130, signal: null });
    expect(child.stderr().trim()).toBe('gateway-harness: discover: interrupted by SIGINT; nothing written');
    expect(child.stdout()).toBe('');
  }, 240_000);

  // Before: the signal watch came after first contact (conformance, gate) or not at all (baseline record): the process
  // died by the signal with no report.
  const early: ReadonlyArray<[string, (reportDir: string) => string[], string]> = [
    ['conformance (first contact)', (r) => ['conformance', '--report-dir', r], 'first contact'],
    ['gate (first contact)', (r) => ['gate', '--engine', 'node', '--report-dir', r], 'first contact'],
    [
      'baseline record',
      (r) => ['baseline', 'record', '--out-dir', join(r, 'baseline'), '--reads-only', '--report-dir', r],
      'baseline record',
    ],
  ];
  it.each(early)(
    '%s: SIGINT there: INTERRUPTED report set, exit 130',
    async (name, args, during) => {
      const target = await silentTarget();
      const reportDir = join(dir, `sigint-early-${name.replace(/\W+/g, '-')}`);
      const child = start([...args(reportDir), '--target', target.url]);
      const signalled = await signalInDiscovery(child, target, 'SIGINT');
      const { signal } = await child.exited;
      expect(signal, child.output()).toBeNull();
      expect(Date.now() - signalled, child.output()).toBeLessThan(AFTER_SIGNAL_MS);
      const summary = await expectInterrupted(child, reportDir, 'SIGINT', during);
      expect(existsSync(join(reportDir, 'baseline')), 'no partial baseline is written').toBe(false);
      if (during !== 'first contact') return;
      // What first contact sent before the signal is in the report: the preflight's answered reads and the reads held
      // (abandoned at the signal by the harness: no fault of the target's). Before: no firstContact part at all.
      const none = { timeout: 0, connection: 0, 'server-error': 0, malformed: 0, total: 0 };
      expect(summary.firstContact, child.output()).toEqual({ requests: target.answered() + target.held(), faults: none });
      expect(summary.faults).toEqual(none);
    },
    240_000,
  );
});
