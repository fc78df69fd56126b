// The CLI as a real child process (bin/gateway-harness.mjs), for what only a process can show: signals, exit codes,
// stdout as the shell sees it. Tests reach it through scripts/fixtures/run-cli.ts; the shape proof (shape-proof.ts) too.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** One finished run of the CLI: its exit code and what it wrote. */
export interface CliProcessRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr as they interleaved. */
  readonly output: string;
}

const BIN = fileURLToPath(new URL('../bin/gateway-harness.mjs', import.meta.url));

/** GATEWAY_* variables of the test process removed: a child sees only what its test gives it. */
export function cleanEnv(extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('GATEWAY_')) env[key] = value;
  return { ...env, ...extra };
}

/** The CLI as a real child process (bin/gateway-harness.mjs), for what only a process can show: signals, exit codes. */
export interface CliChild {
  readonly pid: number;
  /** What it wrote so far. */
  stdout(): string;
  stderr(): string;
  /** stdout and stderr as they interleaved. */
  output(): string;
  /** Resolves when it has exited: its code (null when a signal ended it) and that signal. */
  readonly exited: Promise<{ readonly code: number | null; readonly signal: NodeJS.Signals | null }>;
  hasExited(): boolean;
  /** Ends it if it still runs (tests call this in finally). */
  stop(): Promise<void>;
}

export function spawnCli(args: readonly string[], options: { readonly env?: NodeJS.ProcessEnv; readonly cwd?: string } = {}): CliChild {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: options.env ?? process.env,
    cwd: options.cwd ?? process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  let done = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    output += chunk;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit, failExit) => {
    child.once('error', failExit);
    child.once('close', (code, signal) => {
      done = true;
      resolveExit({ code, signal });
    });
  });
  return {
    pid: child.pid as number,
    stdout: () => stdout,
    stderr: () => stderr,
    output: () => output,
    exited,
    hasExited: () => done,
    stop: async () => {
      if (done) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/**
 * The CLI as a user runs it, to its end: a child process (exit code, stdout and stderr as the shell sees them), with
 * `env` as its whole GATEWAY_* environment. Bounded: the child is killed after `timeoutMs`.
 */
export async function runCliProcess(
  args: readonly string[],
  options: { readonly env?: Readonly<Record<string, string>>; readonly cwd?: string; readonly timeoutMs?: number } = {},
): Promise<CliProcessRun> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const child = spawnCli(args, { env: cleanEnv(options.env), ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    const end = await Promise.race([child.exited, late]);
    if (end === 'late') {
      await child.stop();
      throw new Error(`gateway-harness ${args.join(' ')}: still running after ${timeoutMs} ms (killed)\n${child.output()}`);
    }
    return { code: end.code ?? (end.signal === null ? -1 : 128), stdout: child.stdout(), stderr: child.stderr(), output: child.output() };
  } finally {
    clearTimeout(timer);
  }
}
