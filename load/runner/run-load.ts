// One load run from the Node side: refuse what must not run, pick the engine, build the scenario's bundle, start the
// embedded sandbox when there is no target, run, and read the verdict from the summary.json the run wrote.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type * as Bundling from '../../esbuild.config.mjs';
import { HarnessError, EXIT } from '../../api/errors.ts';
import { describeTarget, type TargetConfig } from '../../api/target-config.ts';
import { startSandbox, type RunningSandbox } from '../../sandbox/server.ts';
import { chargingRefusal } from '../charges-guard.ts';
import { selectEngine, type EngineSelection } from '../engine-select.ts';
import { runNodeEngine } from '../run-node-engine.ts';
import { runEnvironment } from '../run-settings.ts';
import type { LoadSummary } from '../summary/build-summary.ts';
import { JUNIT_XML, SUMMARY_JSON, SUMMARY_MD } from '../summary/write-reports.ts';
import { runK6 } from './k6-process.ts';
import type { LoadFlags } from './load-options.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starting balance of the embedded sandbox for a load run (USD). The sandbox's own default (10 000) is gone after about
 * 2 000 top-ups; a soak needs far more. A run that still drains it sees '009' (insufficient funds) as failures.
 */
export const LOAD_SANDBOX_FUNDS = 1_000_000_000;

export interface LoadRunIo {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly info: (line: string) => void;
  /** k6's output: inherited by default; tests capture it. */
  readonly k6Stdio?: 'inherit' | 'pipe';
  readonly onK6Output?: (chunk: string) => void;
}

export interface LoadRunOutcome {
  readonly exitCode: number;
  readonly reportDir: string;
  readonly engine: EngineSelection;
  readonly summary?: LoadSummary;
}

export function newLoadRunId(now = new Date()): string {
  return `${now.toISOString().replace(/\.\d+Z$/, 'Z').replace(/[-:]/g, '')}-load-${Math.random().toString(36).slice(2, 6)}`;
}

function usage(message: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', message);
}

/** Refusals decided before anything starts or is sent. */
export function checkLoadRun(flags: LoadFlags, config: TargetConfig): void {
  const refusal = chargingRefusal(flags.scenario, flags.api, config.environment);
  if (refusal !== undefined) throw usage(refusal);
  if (flags.funds !== undefined && config.baseUrl !== undefined) {
    throw usage('--funds sets the embedded sandbox\'s starting balance: drop --target / GATEWAY_BASE_URL to use it');
  }
}

type Bundler = typeof Bundling;

/**
 * The scenario's k6 bundle, freshly built into dist/k6 (one entry takes well under a second, and a stale bundle would
 * silently test old code). Without esbuild (an install without dev dependencies) an existing bundle is used.
 */
export async function ensureBundle(scenario: string): Promise<string> {
  const file = join(ROOT, 'dist', 'k6', `${scenario}.js`);
  let bundler: Bundler | undefined;
  try {
    bundler = (await import(pathToFileURL(join(ROOT, 'esbuild.config.mjs')).href)) as Bundler;
  } catch (error) {
    if (existsSync(file)) return file;
    throw new HarnessError('GH_ERR_CONFIG', `cannot build dist/k6/${scenario}.js (${error instanceof Error ? error.message : String(error)}); run \`gateway-harness build\``);
  }
  const [built] = await bundler.buildK6Bundles({ rootDir: ROOT, only: [scenario] });
  if (built === undefined) throw new HarnessError('GH_ERR_INTERNAL', `no k6 entry load/${scenario}.load.ts`);
  return built.file;
}

function readSummary(reportDir: string): LoadSummary | undefined {
  const path = join(reportDir, SUMMARY_JSON);
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as LoadSummary;
  } catch {
    return undefined;
  }
}

/**
 * The command's exit code: an unusable target (setup could not complete) is 2 on every k6 version; otherwise k6's own
 * code when it is not 0 (99 thresholds crossed, 107 script error, ...: passed through); on 0, the summary's verdict (an
 * unverified threshold or a check that never ran is "incomplete", exit 1, though k6 calls it passed); no summary at all
 * is an internal error (1).
 */
export function exitCodeOf(engineExit: number, summary: LoadSummary | undefined): number {
  if (summary?.verdict === 'unusable') return EXIT.usage;
  if (engineExit !== 0) return engineExit;
  if (summary === undefined) return EXIT.checkFailed;
  return summary.exitCode;
}

export async function runLoad(flags: LoadFlags, config: TargetConfig, io: LoadRunIo): Promise<LoadRunOutcome> {
  checkLoadRun(flags, config);
  const engine = selectEngine(flags.engine, io.env, io.cwd);
  const runId = newLoadRunId();
  const reportDir = resolve(io.cwd, flags.reportDir ?? join('reports', 'out', runId));
  mkdirSync(reportDir, { recursive: true });
  // Results are read from these files: leftovers of an earlier run in the same directory must not pass for this one's.
  for (const file of [SUMMARY_JSON, JUNIT_XML, SUMMARY_MD]) rmSync(join(reportDir, file), { force: true });
  const outJson = flags.outJson === undefined ? undefined : resolve(io.cwd, flags.outJson);

  // Both engines run the same bundle: what the engine's results are compared with is exactly what k6 ran.
  const bundle = await ensureBundle(flags.scenario);
  let sandbox: RunningSandbox | undefined;
  try {
    let baseUrl = config.baseUrl;
    let targetLabel = describeTarget(config);
    if (baseUrl === undefined) {
      const funds = flags.funds ?? LOAD_SANDBOX_FUNDS;
      sandbox = await startSandbox({
        host: '127.0.0.1',
        port: 0,
        timeScale: config.timeScale,
        seed: config.sandbox.seed,
        profile: config.sandbox.profile ?? 'faithful',
        user: config.user,
        password: config.password,
        writePaths: { ...config.writePaths },
        behaviour: { initialBalance: funds },
      });
      baseUrl = sandbox.url;
      targetLabel = `embedded sandbox (${sandbox.url})`;
      io.info(`load: embedded sandbox on ${sandbox.url} (time scale ${config.timeScale}, funds ${funds} USD)`);
    }
    const env = runEnvironment({
      baseUrl,
      user: config.user,
      password: config.password,
      environment: config.environment,
      timeScale: config.timeScale,
      profile: flags.profile,
      api: flags.api,
      ...(flags.vus === undefined ? {} : { vus: flags.vus }),
      ...(flags.duration === undefined ? {} : { duration: flags.duration }),
      ...(flags.rate === undefined ? {} : { rate: flags.rate }),
      thresholds: flags.thresholds,
      config: { timeouts: config.timeouts, poll: config.poll, writePaths: config.writePaths, fieldMapping: config.fieldMapping },
      targetLabel,
      runId,
      reportDir,
    });
    let engineExit: number;
    if (engine.engine === 'k6') {
      io.info(`load: ${flags.scenario} (${flags.profile}) on k6 ${engine.k6.path} (from ${engine.k6.source}); reports in ${reportDir}`);
      const result = await runK6({
        k6: engine.k6.path,
        bundle,
        env,
        cwd: io.cwd,
        ...(outJson === undefined ? {} : { outJson }),
        ...(io.k6Stdio === undefined ? {} : { stdio: io.k6Stdio }),
        ...(io.onK6Output === undefined ? {} : { onOutput: io.onK6Output }),
      });
      engineExit = result.exitCode;
      if (result.signal !== undefined) io.info(`load: k6 ended by ${result.signal}`);
    } else {
      io.info(`load: ${flags.scenario} (${flags.profile}) on the Node engine; reports in ${reportDir}`);
      const result = await runNodeEngine({
        script: bundle,
        env,
        cwd: io.cwd,
        ...(outJson === undefined ? {} : { outJson }),
        ...(io.k6Stdio === 'pipe' ? { output: (chunk: string) => io.onK6Output?.(chunk) } : {}),
      });
      engineExit = result.exitCode;
    }
    const summary = readSummary(reportDir);
    if (summary === undefined) {
      io.info(`gateway-harness: GH_ERR_INTERNAL: the run wrote no ${SUMMARY_JSON} in ${reportDir} (engine exit ${engineExit}; see its output above)`);
    }
    return { exitCode: exitCodeOf(engineExit, summary), reportDir, engine, ...(summary === undefined ? {} : { summary }) };
  } finally {
    await sandbox?.close();
  }
}
