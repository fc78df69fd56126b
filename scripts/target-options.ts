// The target options every command shares (--target, --user, --password, --target-env, --time-scale, --config), and the
// bridge from parsed options to a loaded TargetConfig, so all subcommands take their target the same way.
import type { Command } from 'commander';
import { HarnessError } from '../api/errors.ts';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { envOption } from './flag-vocabulary.ts';
import { CONFIG_FILE_NAME, loadConfig, type ConfigFlags, type LoadConfigOptions } from '../config/load-config.ts';
import { timeScaleProblem } from '../config/target-config-schema.ts';
import type { TargetConfig } from '../api/target-config.ts';

export interface TargetOptions {
  target?: string;
  user?: string;
  password?: string;
  /** `--target-env` (or the old `--env sandbox|production`, moved here by the deprecation hook). */
  targetEnv?: string;
  timeScale?: string;
  config?: string;
}

/** What `--time-scale` means, worded once for every command's help (the sandbox's own flag included). */
export const TIME_SCALE_HELP = "factor on the gateway's documented durations: 1 = real timing, 0.01 = 100 times faster; greater than 0";

/**
 * The one judgement of a `--time-scale` flag value, shared by every command (the sandbox's included), so
 * `--time-scale 0` ends every command with the same line: GH_ERR_USAGE, exit 2. The config file and
 * GATEWAY_TIME_SCALE go through the same rule in the config schema.
 */
export function parseTimeScaleFlag(text: string): number {
  const trimmed = text.trim();
  const value = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i.test(trimmed) ? Number(trimmed) : Number.NaN;
  const problem = timeScaleProblem(value);
  if (problem !== undefined)
    throw new HarnessError('GH_ERR_USAGE', `--time-scale ${problem} (1 = real gateway timing, 0.01 = 100 times faster)`);
  return value;
}

/** `--target-env`'s help, worded once (k6-operator and merge-results take it too). */
export const TARGET_ENV_HELP = 'environment kind of the target: sandbox or production (env GATEWAY_ENV; default sandbox)';

export function addTargetOptions(cmd: Command): Command {
  // The old `--env sandbox|production` (k6's -e/--env sets script variables): accepted for one release, with a note.
  if (!cmd.options.some((o) => o.long === '--env')) envOption(cmd);
  return cmd
    .option(
      '--target <url>',
      'base URL of the gateway, e.g. https://host, without a path (env GATEWAY_BASE_URL); default: start the embedded sandbox on 127.0.0.1',
    )
    .option('--user <user>', 'user id for HTTP Basic auth (env GATEWAY_USER; default "user", the embedded sandbox\'s)')
    .option('--password <password>', 'password for HTTP Basic auth (env GATEWAY_PASSWORD, preferred: flags show up in process lists)')
    .option('--target-env <kind>', TARGET_ENV_HELP)
    .option(
      '--time-scale <factor>',
      `time scale of the target, ${TIME_SCALE_HELP}; documented delays, client timeouts and polling scale by it (env GATEWAY_TIME_SCALE; default 1, or 0.01 for the embedded sandbox, which then runs at this scale)`,
    )
    .option('--config <path>', 'JSON config file (default ./gateway-harness.config.json if present); env and flags override it');
}

/** Said when the password came as a flag: the command line is visible in process lists (ps). */
export const PASSWORD_FLAG_WARNING =
  'gateway-harness: warning: --password is visible to other users in process lists (ps, /proc); prefer GATEWAY_PASSWORD or the config file';

/** The config for a command's parsed options: defaults < config file < GATEWAY_* env < flags. */
export function configFromOptions(
  opts: TargetOptions,
  context: {
    cwd?: string;
    env?: Readonly<Record<string, string | undefined>>;
    warn?: (line: string) => void;
    base?: LoadConfigOptions['base'];
  } = {},
): TargetConfig {
  if (opts.password !== undefined) {
    (context.warn ?? ((line: string) => void process.stderr.write(`${line}\n`)))(PASSWORD_FLAG_WARNING);
  }
  const flags: ConfigFlags = {
    ...(opts.target === undefined ? {} : { target: opts.target }),
    ...(opts.user === undefined ? {} : { user: opts.user }),
    ...(opts.password === undefined ? {} : { password: opts.password }),
    ...(opts.targetEnv === undefined ? {} : { env: opts.targetEnv }),
    ...(opts.timeScale === undefined ? {} : { timeScale: parseTimeScaleFlag(opts.timeScale) }),
    ...(opts.config === undefined ? {} : { config: opts.config }),
  };
  return loadConfig({
    cwd: context.cwd ?? process.cwd(),
    env: context.env ?? process.env,
    flags,
    ...(context.base === undefined ? {} : { base: context.base }),
  });
}

/** Whether the command reads a config file (--config, or ./gateway-harness.config.json): without one, a given target is first contact. */
export function configFileGiven(opts: TargetOptions, cwd: string = process.cwd()): boolean {
  return opts.config !== undefined || existsSync(resolve(cwd, CONFIG_FILE_NAME));
}
