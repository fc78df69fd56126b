// The pieces of one conformance run the commands put together: run id, settings file, and the embedded sandbox
// (started at the config's time scale) with the settings fitted to it.
import { readFileSync } from 'node:fs';
import { HarnessError } from '../api/errors.ts';
import type { TargetConfig } from '../api/target-config.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import { LOAD_SANDBOX_FUNDS } from '../sandbox/behaviour.ts';
import { getProfile } from '../sandbox/profiles/registry.ts';
import { DEFAULT_SETTINGS, mergeSettings, parseSettings, type ConformanceSettings } from './settings.ts';

/** Path of a JSON settings file (conformance/settings.ts): the command's default when --settings is not given. */
export const SETTINGS_ENV_VAR = 'GATEWAY_CONFORMANCE_SETTINGS';

export function readSettingsFile(path: string): ConformanceSettings {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new HarnessError('GH_ERR_CONFIG', `conformance settings: cannot read ${path}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HarnessError('GH_ERR_CONFIG', `conformance settings: ${path} is not valid JSON`);
  }
  return parseSettings(json, path);
}

/** The run's settings: the --settings file, else the one GATEWAY_CONFORMANCE_SETTINGS names, else the defaults. */
export function givenSettings(flag: string | undefined): ConformanceSettings {
  const path = flag ?? process.env[SETTINGS_ENV_VAR];
  return path === undefined || path === '' ? DEFAULT_SETTINGS : readSettingsFile(path);
}

/**
 * Starts the embedded sandbox for a config without baseUrl, on 127.0.0.1 port 0, at the config's time scale. Its wallet
 * is the load runs' (unless the profile sets its own): GEN's valid writes of every operation charge ~16 000 USD per run
 * at the default budget, and a refusal for want of funds would hide what a case checks.
 */
export async function startEmbeddedSandbox(config: TargetConfig, options: { profile: string; seed: number }): Promise<RunningSandbox> {
  const ownFunds = getProfile(options.profile).behaviour?.initialBalance !== undefined;
  return startSandbox({
    ...(ownFunds ? {} : { funds: LOAD_SANDBOX_FUNDS }),
    host: '127.0.0.1',
    port: 0,
    timeScale: config.timeScale,
    seed: options.seed,
    profile: options.profile,
    user: config.user,
    password: config.password,
    writePaths: { ...config.writePaths },
  });
}

/** Settings fitted to the embedded sandbox: its sample loan numbers, unless loan numbers are configured. */
export function settingsForSandbox(settings: ConformanceSettings, sandbox: RunningSandbox): ConformanceSettings {
  if (settings.loanNumbers.length > 0) return settings;
  return mergeSettings(settings, { loanNumbers: [...sandbox.app.data.samples.loanNumbers] });
}
