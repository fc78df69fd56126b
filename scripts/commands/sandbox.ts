// `gateway-harness sandbox`: runs the embedded sandbox on a socket until SIGINT/SIGTERM, for curl, k6 or a second harness.
// Its first stdout line is the contract other tools parse: `sandbox listening on http://HOST:PORT`.
import type { Command } from 'commander';
import { z } from 'zod';
import { HarnessError } from '../../api/errors.ts';
import { DEFAULT_FUNDS, LOAD_SANDBOX_FUNDS } from '../../sandbox/behaviour.ts';
import { DEFAULT_FAULT_RATE, DEFAULT_FAULT_SLOW_MS } from '../../sandbox/profiles/faults.ts';
import { renamedOption } from '../flag-vocabulary.ts';
import { getProfile, listProfiles } from '../../sandbox/profiles/registry.ts';
import { PARAMETERIZED_PROFILES } from '../../sandbox/profiles/parameterized.ts';
import { DEFAULT_HOST, isLoopbackHost, startSandbox } from '../../sandbox/server.ts';
import type { RunningSandbox } from '../../sandbox/server.ts';
import { parseTimeScaleFlag, TIME_SCALE_HELP } from '../target-options.ts';

/** Raw flag values as commander hands them over (strings; booleans for switches). */
interface RawFlags {
  port: string;
  host?: string;
  timeScale: string;
  mode: string;
  user: string;
  password: string;
  seed: string;
  profile?: string;
  /** `--sandbox-profile` (or the old `--profile`): what `profile` takes. */
  sandboxProfile?: string;
  faults?: boolean;
  funds?: string;
  faultRate?: string;
  faultSlowMs?: string;
  listProfiles?: boolean;
}

const digits = (flag: string, max: number) =>
  z
    .string()
    .regex(/^\d{1,16}$/, `${flag} must be a whole number`)
    .transform(Number)
    .pipe(z.number().int().max(max, `${flag} must be at most ${max}`));

/** The flag table: each value is validated here so a bad one ends the command with exit 2 and a one-line reason. */
const FLAGS = z.object({
  port: digits('--port', 65_535),
  host: z
    .string()
    .trim()
    .min(1, '--host must not be empty')
    .max(255, '--host is too long')
    .regex(/^[A-Za-z0-9.:[\]%-]+$/, '--host must be a host name or an IP address')
    .optional(),
  // The simulator's own speed, judged by the same rule and message as every command's --time-scale.
  timeScale: z.string().transform(parseTimeScaleFlag),
  mode: z.enum(['sandbox', 'production'], { error: '--mode must be sandbox or production' }),
  user: z
    .string()
    .min(1, '--user must not be empty')
    .max(200, '--user is too long')
    .regex(/^[^:]*$/, '--user must not contain ":" (HTTP Basic)'),
  password: z.string().min(1, '--password must not be empty').max(200, '--password is too long'),
  seed: digits('--seed', 2 ** 31 - 1),
  profile: z.string().min(1, '--sandbox-profile must not be empty').max(100, '--sandbox-profile is too long'),
  faults: z.boolean().default(false),
  funds: z
    .string()
    .regex(/^\d{1,16}(\.\d{1,9})?(e\d{1,2})?$/i, '--funds must be a non-negative amount in the wallet currency (USD), e.g. 10000 or 1e9')
    .transform(Number)
    .pipe(z.number().max(1e15, '--funds must be at most 1e15'))
    .optional(),
  faultRate: z
    .string()
    .regex(/^(0(\.\d+)?|1(\.0+)?)$/, '--fault-rate must be a fraction 0..1, e.g. 0.1')
    .transform(Number)
    .optional(),
  faultSlowMs: digits('--fault-slow-ms', 3_600_000).optional(),
  listProfiles: z.boolean().default(false),
});

export type SandboxFlags = z.output<typeof FLAGS>;

/** Validates raw flags; throws GH_ERR_USAGE with the first problem on one line. */
export function parseSandboxFlags(raw: RawFlags): SandboxFlags {
  const result = FLAGS.safeParse(raw);
  if (!result.success) {
    const first = result.error.issues[0];
    throw new HarnessError('GH_ERR_USAGE', (first?.message ?? 'invalid sandbox flags').replace(/\s+/g, ' '));
  }
  const flags = result.data;
  if (!flags.listProfiles) {
    let profile;
    try {
      profile = getProfile(flags.profile);
    } catch (error) {
      // A parameterized name (slow-op:…, fail-op:…) that is malformed says why; any other name lists the known ones.
      const reason = error instanceof Error && error.message.startsWith('sandbox profile ') ? error.message : undefined;
      const known = [...listProfiles().map((p) => p.name), ...PARAMETERIZED_PROFILES.map((f) => f.usage)].join(', ');
      throw new HarnessError(
        'GH_ERR_USAGE',
        `--sandbox-profile: ${reason ?? `unknown profile "${flags.profile.slice(0, 40)}" (known: ${known})`}`,
      );
    }
    if (profile.faults === undefined && (flags.faultRate !== undefined || flags.faultSlowMs !== undefined)) {
      throw new HarnessError('GH_ERR_USAGE', `--fault-rate and --fault-slow-ms need a fault profile (faults-*), not "${profile.name}"`);
    }
  }
  return flags;
}

function printProfiles(write: (line: string) => void): void {
  for (const profile of listProfiles()) {
    const bug = profile.plantedBug
      ? ` [planted bug: ${profile.plantedBug.specSection}]`
      : profile.genBug
        ? ` [planted GEN bug: ${profile.genBug.specSection}]`
        : '';
    const benign = profile.benign ? ` [benign: ${profile.benign.change}]` : '';
    write(`${profile.name}\t${profile.description}${bug}${benign}\n`);
  }
  for (const family of PARAMETERIZED_PROFILES) write(`${family.usage}\t(a profile named with its parameters; see sandbox/README.md)\n`);
}

/** Resolves once the process has been asked to stop (first SIGINT or SIGTERM); a second signal drops connections at once. */
function waitForStopSignal(onSecond: () => void): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received = false;
    const handler = (signal: NodeJS.Signals): void => {
      if (received) {
        onSecond();
        return;
      }
      received = true;
      resolve(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}

async function runSandbox(flags: SandboxFlags): Promise<void> {
  if (flags.listProfiles) {
    printProfiles((line) => process.stdout.write(line));
    return;
  }
  const host = flags.host ?? DEFAULT_HOST;
  const running: RunningSandbox = await startSandbox({
    host,
    port: flags.port,
    timeScale: flags.timeScale,
    mode: flags.mode,
    user: flags.user,
    password: flags.password,
    seed: flags.seed,
    profile: flags.profile,
    faults: flags.faults,
    ...(flags.funds === undefined ? {} : { funds: flags.funds }),
    ...(flags.faultRate === undefined ? {} : { faultRate: flags.faultRate }),
    ...(flags.faultSlowMs === undefined ? {} : { faultSlowMs: flags.faultSlowMs }),
  });
  process.stdout.write(`sandbox listening on ${running.url}\n`);
  if (!isLoopbackHost(host)) {
    process.stderr.write(
      `gateway-harness: warning: the sandbox listens on ${host}, reachable from other machines, with fixed test credentials\n`,
    );
  }
  process.stderr.write(
    `mode=${flags.mode} profile=${flags.profile} time-scale=${flags.timeScale} seed=${flags.seed} funds=${running.app.options.funds} faults=${flags.faults ? 'on' : 'off'}` +
      `${running.app.options.faultPlan === undefined ? '' : ` fault-rate=${running.app.options.faultPlan.rate}`} (SIGINT/SIGTERM to stop)\n`,
  );

  const signal = await waitForStopSignal(() => running.app.fastify.server.closeAllConnections());
  process.stderr.write(`sandbox: ${signal} received, shutting down\n`);
  await running.close();
  // A timer or socket someone forgot to release must not keep a stopped sandbox alive: this fires only in that case.
  setTimeout(() => process.exit(process.exitCode ?? 0), 3_000).unref();
}

export function register(program: Command): void {
  const cmd = program
    .command('sandbox')
    .description(
      'Run the embedded sandbox (a simulator of the gateway sandbox environment) until SIGINT/SIGTERM.\n' +
        'The first stdout line is "sandbox listening on http://HOST:PORT".',
    )
    .option('--port <n>', 'TCP port, 0 = any free port', '0')
    .option('--host <address>', `interface to bind (default ${DEFAULT_HOST}; a non-loopback address is warned about)`)
    .option('--time-scale <f>', `speed of the simulator, ${TIME_SCALE_HELP} (0.01 turns the 120 s trigger into 1.2 s)`, '1')
    .option('--mode <mode>', 'sandbox (with test triggers) or production (same rules, no triggers)', 'sandbox')
    .option('--user <u>', 'HTTP Basic user the sandbox accepts', 'user')
    .option('--password <p>', 'HTTP Basic password the sandbox accepts', 'pass')
    .option('--seed <s>', 'catalog data seed (same seed, same catalog)', '1')
    .option('--sandbox-profile <name>', 'behaviour profile (see --list-profiles)', 'faithful')
    .option(
      '--funds <amount>',
      `starting available funds in the wallet currency (USD); default ${DEFAULT_FUNDS}, load runs use ${LOAD_SANDBOX_FUNDS}`,
    )
    .option('--faults', 'honour the per-request X-Sandbox-Fault header (latency, late, 5xx, reset, malformed, truncate)')
    .option('--fault-rate <f>', `with a faults-* profile: fraction 0..1 of requests that get a fault (default ${DEFAULT_FAULT_RATE})`)
    .option(
      '--fault-slow-ms <ms>',
      `with a faults-* profile: wait of slow/late faults, scaled by --time-scale (default ${DEFAULT_FAULT_SLOW_MS})`,
    )
    .option('--list-profiles', 'print the behaviour profiles and exit');
  renamedOption(cmd, '--profile <name>', '--sandbox-profile');
  cmd.action(async ({ sandboxProfile, ...raw }: RawFlags) => {
    await runSandbox(parseSandboxFlags({ ...raw, profile: sandboxProfile ?? raw.profile ?? 'faithful' }));
  });
}
