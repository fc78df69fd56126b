// Runs one bundle on a real k6 as a child process: settings and credentials in its environment (never `-e` flags,
// which show up in process lists), output passed through for progress, exit code returned. Results are read from files.
import { spawn } from 'node:child_process';

export interface K6RunRequest {
  readonly k6: string;
  readonly bundle: string;
  /** The run's variables (load/run-settings.ts runEnvironment); merged over the inherited environment. */
  readonly env: Readonly<Record<string, string>>;
  /** `--out json=FILE`: k6's NDJSON metric stream. */
  readonly outJson?: string;
  /** One more `--out json=` to the runner's named pipe (k6-metrics-pipe.ts): the stream the per-second aggregates read. */
  readonly metricsPipe?: string;
  /** `--out experimental-prometheus-rw` (its settings are K6_PROMETHEUS_RW_* in `env`). */
  readonly prometheus?: boolean;
  /** `--tag NAME=VALUE` for every sample (e.g. the run's testid). */
  readonly tags?: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Where k6's stdout and stderr go; default inherited (its progress bar and our handleSummary text). */
  readonly stdio?: 'inherit' | 'pipe';
  readonly onOutput?: (chunk: string) => void;
  /**
   * k6's stderr (where it logs console output, the money ledger's lines among them) as an open file descriptor: the
   * harness tails the file (ledger/k6-spool.ts). stdout is then a pipe forwarded to `onOutput` (or this process's
   * stdout), so that k6 dies of SIGPIPE within a second (its progress line) if the harness is killed.
   */
  readonly stderrFd?: number;
  /** Told k6's pid once it is spawned (the generator monitor samples its /proc figures). */
  readonly onSpawn?: (pid: number) => void;
  /**
   * The harness's interruption (reports/interrupt-watch.ts): when `signal` aborts, the signal the harness received is
   * sent to k6 once (k6 stops gracefully and still writes its summary, exit 105); when `forced` aborts, k6 is killed.
   */
  readonly interrupt?: {
    readonly signal: AbortSignal;
    readonly forced: AbortSignal;
    readonly received: () => { readonly signal: NodeJS.Signals } | undefined;
  };
  /** When it aborts, k6 is killed at once (SIGKILL): the money guard can no longer make its ledger lines durable. */
  readonly kill?: AbortSignal;
}

export interface K6RunResult {
  /** k6's exit code (0 passed, 99 thresholds crossed, 107 script error, ...); 1 when it died by a signal. */
  readonly exitCode: number;
  readonly signal?: NodeJS.Signals;
}

/**
 * k6 variables the harness sets for every run (each only when the user has not set it):
 * - K6_NO_USAGE_REPORT: k6 would send a usage report to the internet; the harness talks to the target only.
 * - K6_NEW_MACHINE_READABLE_SUMMARY (v2 option): keep the handleSummary data format every supported k6 shares.
 * - K6_DEBUG_SOURCEMAP_FILESIZE_LIMIT: k6 v0.48 passes ES modules through Babel; without source maps that pass takes
 *   about 40% less time (the bundles carry no source map to map back to anyway). Unknown to k6 versions without Babel.
 */
export const K6_DEFAULT_ENV: Readonly<Record<string, string>> = Object.freeze({
  K6_NO_USAGE_REPORT: 'true',
  K6_NEW_MACHINE_READABLE_SUMMARY: 'false',
  K6_DEBUG_SOURCEMAP_FILESIZE_LIMIT: '0',
});

/** The child's arguments: no `-e`, no credentials; system variables explicitly on (k6's default on v0.48 and v2). */
export function k6Arguments(request: Pick<K6RunRequest, 'bundle' | 'outJson' | 'metricsPipe' | 'prometheus' | 'tags'>): string[] {
  return [
    'run',
    '--include-system-env-vars',
    ...(request.outJson === undefined ? [] : ['--out', `json=${request.outJson}`]),
    ...(request.metricsPipe === undefined ? [] : ['--out', `json=${request.metricsPipe}`]),
    ...(request.prometheus === true ? ['--out', 'experimental-prometheus-rw'] : []),
    ...Object.entries(request.tags ?? {}).flatMap(([name, value]) => ['--tag', `${name}=${value}`]),
    request.bundle,
  ];
}

export function k6Environment(inherited: NodeJS.ProcessEnv, runEnv: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...inherited };
  for (const [name, value] of Object.entries(K6_DEFAULT_ENV)) if (env[name] === undefined) env[name] = value;
  return { ...env, ...runEnv };
}

/**
 * Spawns k6 and waits for it. k6 runs in its own process group, so Ctrl-C in a terminal reaches only the harness,
 * which forwards exactly one signal (two would make k6 abort without its summary) and knows the run was interrupted.
 * Without `interrupt`, SIGINT and SIGTERM to the harness are forwarded as they come (the first stops k6 gracefully).
 */
export function runK6(request: K6RunRequest): Promise<K6RunResult> {
  return new Promise((resolvePromise, reject) => {
    const spooled = request.stderrFd !== undefined;
    const out = request.stdio === 'pipe' || spooled ? 'pipe' : 'inherit';
    const child = spawn(request.k6, k6Arguments(request), {
      cwd: request.cwd,
      env: k6Environment(process.env, request.env),
      stdio: ['ignore', out, request.stderrFd ?? out],
      // Its own process group: a terminal's Ctrl-C (sent to the foreground group) must not reach k6 a second time.
      detached: true,
    });
    if (child.pid !== undefined) request.onSpawn?.(child.pid);
    if (out === 'pipe') {
      child.stdout
        ?.setEncoding('utf8')
        .on('data', (chunk: string) => (request.onOutput === undefined ? process.stdout.write(chunk) : request.onOutput(chunk)));
    }
    if (!spooled && request.stdio === 'pipe') child.stderr?.setEncoding('utf8').on('data', (chunk: string) => request.onOutput?.(chunk));
    const interrupt = request.interrupt;
    const forward = (): void => {
      child.kill(interrupt?.received()?.signal ?? 'SIGINT');
    };
    const kill = (): void => {
      child.kill('SIGKILL');
    };
    const onSignal = (signal: NodeJS.Signals): void => {
      child.kill(signal);
    };
    if (interrupt === undefined) {
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    } else {
      if (interrupt.signal.aborted) forward();
      else interrupt.signal.addEventListener('abort', forward, { once: true });
      interrupt.forced.addEventListener('abort', kill, { once: true });
    }
    if (request.kill?.aborted === true) kill();
    else request.kill?.addEventListener('abort', kill, { once: true });
    const cleanup = (): void => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      interrupt?.signal.removeEventListener('abort', forward);
      interrupt?.forced.removeEventListener('abort', kill);
      request.kill?.removeEventListener('abort', kill);
    };
    child.once('error', (error) => {
      cleanup();
      reject(error);
    });
    child.once('close', (code, signal) => {
      cleanup();
      resolvePromise(code === null ? { exitCode: 1, ...(signal === null ? {} : { signal }) } : { exitCode: code });
    });
  });
}
