// Runs the proof profiles in worker processes (a few runs side by side in each) and hands out one promise per profile,
// so each vitest test waits only for its own profile while all of them run at once.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ProfileOutcome } from './profile-run.ts';
import type { WorkerReply, WorkerRequest } from './profile-worker.ts';

export interface PoolOptions {
  /** Worker processes; default 2. */
  readonly workers?: number;
  /** Runs side by side in one worker; default 6. */
  readonly parallelPerWorker?: number;
}

/**
 * A run mostly waits (on the scaled trigger delays), so several must overlap to keep the cores busy: one worker per
 * core, a few runs side by side in each. More processes do not make a shared 2-core machine faster; they starve each
 * other (and the suite's timing cases) instead.
 */
const DEFAULT_WORKERS = 2;
const DEFAULT_PARALLEL = 6;

const WORKER = fileURLToPath(new URL('./profile-worker.ts', import.meta.url));

interface Deferred {
  readonly promise: Promise<ProfileOutcome>;
  resolve(outcome: ProfileOutcome): void;
  reject(error: Error): void;
}

function deferred(): Deferred {
  let resolve!: (outcome: ProfileOutcome) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<ProfileOutcome>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // A profile nobody awaits (e.g. a filtered test run) must not turn into an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** Starts every profile now; the map's promises settle as the workers report. */
export function runProfiles(profiles: readonly string[], options: PoolOptions = {}): Map<string, Promise<ProfileOutcome>> {
  const workers = Math.max(1, Math.min(options.workers ?? DEFAULT_WORKERS, profiles.length));
  const parallel = options.parallelPerWorker ?? DEFAULT_PARALLEL;
  const pending = new Map(profiles.map((name) => [name, deferred()]));
  // Round robin, so slow profiles spread over the workers.
  const shares = Array.from({ length: workers }, (_, w) => profiles.filter((_, i) => i % workers === w));
  for (const share of shares) {
    const child: ChildProcess = fork(WORKER, [], {
      execArgv: WORKER.endsWith('.ts') ? ['--import', 'tsx'] : [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const open = new Set(share);
    child.on('message', (reply: WorkerReply) => {
      if (reply.type === 'outcome') {
        open.delete(reply.outcome.profile);
        pending.get(reply.outcome.profile)?.resolve(reply.outcome);
      } else if (reply.type === 'error') {
        open.delete(reply.profile);
        pending.get(reply.profile)?.reject(new Error(`proof run of ${reply.profile} failed: ${reply.message}`));
      }
    });
    child.on('exit', (code, signal) => {
      for (const name of open)
        pending.get(name)?.reject(new Error(`proof worker exited (${signal ?? `code ${String(code)}`}) before ${name} finished`));
      open.clear();
    });
    const request: WorkerRequest = { type: 'run', profiles: share, parallel };
    child.send(request);
  }
  return new Map([...pending].map(([name, d]) => [name, d.promise]));
}
