// One conformance session: what the command hands to the vitest suite (through one env variable), and how either
// side turns it into a running target. Run directly under vitest with no handoff, the suite starts its own sandbox.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { HarnessError } from '../api/errors.ts';
import type { ResolvedTargetConfig, TargetConfig } from '../api/target-config.ts';
import { loadConfig } from '../config/load-config.ts';
import { startSandbox, type RunningSandbox } from '../sandbox/server.ts';
import type { ApiSelection } from './plan.ts';
import { DEFAULT_SETTINGS, mergeSettings, parseSettings, type ConformanceSettings } from './settings.ts';

/** Env variable carrying the session from the command to the suite (JSON). It holds the password: never log it. */
export const SESSION_ENV_VAR = 'GATEWAY_HARNESS_CONFORMANCE_SESSION';
/** Path of a JSON settings file (conformance/settings.ts), for direct vitest runs and the command's default. */
export const SETTINGS_ENV_VAR = 'GATEWAY_CONFORMANCE_SETTINGS';

export interface Session {
  readonly runId: string;
  readonly config: TargetConfig;
  readonly settings: ConformanceSettings;
  readonly api: ApiSelection;
  readonly grep?: string;
  readonly reportDir: string;
  /** What reports call the target (no credentials). */
  readonly targetLabel: string;
  /** Embedded sandbox options when the suite itself must start one (no baseUrl). */
  readonly sandbox?: { readonly profile: string; readonly seed: number };
}

export function newRunId(now = new Date()): string {
  const stamp = now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '');
  return `${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

export function defaultReportDir(cwd: string, runId: string): string {
  return resolve(cwd, 'reports', 'out', runId);
}

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

export function encodeSession(session: Session): string {
  return JSON.stringify(session);
}

/** The session the command handed over, or one built from GATEWAY_* env and the config file (direct vitest runs). */
export function sessionFromEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): Session {
  const raw = env[SESSION_ENV_VAR];
  if (raw !== undefined && raw !== '') {
    const parsed = JSON.parse(raw) as Session;
    return { ...parsed, settings: parseSettings(parsed.settings, SESSION_ENV_VAR) };
  }
  const config = loadConfig({ cwd, env });
  const settingsPath = env[SETTINGS_ENV_VAR];
  const settings = settingsPath === undefined || settingsPath === '' ? DEFAULT_SETTINGS : readSettingsFile(settingsPath);
  const runId = newRunId();
  return {
    runId,
    config,
    settings,
    api: 'both',
    reportDir: defaultReportDir(cwd, runId),
    targetLabel: config.baseUrl ?? 'embedded sandbox',
    ...(config.baseUrl === undefined ? { sandbox: { profile: config.sandbox.profile ?? 'faithful', seed: config.sandbox.seed } } : {}),
  };
}

/** Starts the embedded sandbox for a config without baseUrl, on 127.0.0.1 port 0, at the config's time scale. */
export async function startEmbeddedSandbox(config: TargetConfig, options: { profile: string; seed: number }): Promise<RunningSandbox> {
  return startSandbox({
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

export function withUrl(config: TargetConfig, url: string): ResolvedTargetConfig {
  return { ...config, baseUrl: url };
}
