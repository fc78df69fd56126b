// The target options every command shares (--target, --user, --password, --env, --time-scale, --config), and the
// bridge from parsed options to a loaded TargetConfig, so all subcommands take their target the same way.
import type { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../config/load-config.ts';
import type { TargetConfig } from '../api/target-config.ts';

export interface TargetOptions {
  target?: string;
  user?: string;
  password?: string;
  env?: string;
  timeScale?: string;
  config?: string;
}

export function addTargetOptions(cmd: Command): Command {
  return cmd
    .option('--target <url>', 'base URL of the gateway, e.g. https://host (env GATEWAY_BASE_URL); default: start the embedded sandbox on 127.0.0.1')
    .option('--user <user>', 'user id for HTTP Basic auth (env GATEWAY_USER; default "user", the embedded sandbox\'s)')
    .option('--password <password>', 'password for HTTP Basic auth (env GATEWAY_PASSWORD, preferred: flags show up in process lists)')
    .option('--env <kind>', 'environment kind of the target: sandbox or production (env GATEWAY_ENV; default sandbox)')
    .option(
      '--time-scale <factor>',
      'time scale of the target: documented delays, client timeouts and polling scale by it (env GATEWAY_TIME_SCALE; default 1, or 0.01 for the embedded sandbox)',
    )
    .option('--config <path>', 'JSON config file (default ./gateway-harness.config.json if present); env and flags override it');
}

/** The config for a command's parsed options: defaults < config file < GATEWAY_* env < flags. */
export function configFromOptions(
  opts: TargetOptions,
  context: { cwd?: string; env?: Readonly<Record<string, string | undefined>> } = {},
): TargetConfig {
  const flags: ConfigFlags = {
    ...(opts.target === undefined ? {} : { target: opts.target }),
    ...(opts.user === undefined ? {} : { user: opts.user }),
    ...(opts.password === undefined ? {} : { password: opts.password }),
    ...(opts.env === undefined ? {} : { env: opts.env }),
    ...(opts.timeScale === undefined ? {} : { timeScale: opts.timeScale }),
    ...(opts.config === undefined ? {} : { config: opts.config }),
  };
  return loadConfig({ cwd: context.cwd ?? process.cwd(), env: context.env ?? process.env, flags });
}
