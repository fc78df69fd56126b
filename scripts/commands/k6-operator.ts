// `gateway-harness k6-operator`: writes what a distributed run on Kubernetes needs (k6-operator's TestRun, the bundle
// in a ConfigMap, a results claim, a collector pod, the run plan for merge-results) and prints the commands to run it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { HarnessError } from '../../api/errors.ts';
import {
  buildOperatorPlan,
  DEFAULT_IMAGE,
  DEFAULT_SECRET,
  newOperatorRunId,
  type OperatorFlags,
} from '../../distributed/k6-operator/plan.ts';
import { chargingRefusal } from '../../ledger/guard.ts';
import { scenarioNameOf, scenarioOperations } from '../../load/scenarios.ts';
import { parseLoadFlags } from '../../load/runner/load-options.ts';
import { ensureBundle } from '../../load/runner/run-load.ts';
import { SCENARIO_NAMES } from '../../load/scenarios.ts';
import { configFromOptions, TARGET_ENV_HELP, TIME_SCALE_HELP } from '../target-options.ts';
import { envOption, outMovedTo } from '../flag-vocabulary.ts';
import { addLoadFlags } from '../load-flags.ts';

interface OperatorOptions {
  scenario?: string;
  profile: string;
  parallelism?: string;
  api: string;
  vus?: string;
  duration?: string;
  rate?: string;
  threshold?: string[];
  target?: string;
  targetEnv?: string;
  timeScale?: string;
  config?: string;
  outDir?: string;
  namespace: string;
  image: string;
  name?: string;
  secret: string;
  resultsClaim?: string;
  resultsSize: string;
  storageClass?: string;
  accessMode: string;
}

function usage(message: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', message);
}

const QUANTITY = /^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|k|M|G|T|P)?$/;

export function register(program: Command): void {
  const cmd = program
    .command('k6-operator')
    .description(
      'Write the Kubernetes manifests of a distributed load run on k6-operator (https://github.com/grafana/k6-operator):\n' +
        'a TestRun splitting the scenario over --parallelism pods, a ConfigMap with the bundle, a claim each pod writes its\n' +
        'k6 NDJSON to, a collector pod, and thresholds.json for `merge-results`. Credentials are a Secret reference only\n' +
        '(GATEWAY_USER/GATEWAY_PASSWORD from keys user/password of --secret). Prints the commands to apply, wait, collect, merge.',
    )
    .option('--parallelism <n>', 'number of k6 pods the test is split over (k6 execution segments)');
  addLoadFlags(cmd, {
    scenario: true,
    profile: true,
    api: true,
    vus: { help: 'VUs (smoke) or the VU pool (arrival-rate profiles), for the whole run' },
    duration: { help: 'k6 duration, e.g. 5m (see `load --help`)' },
    rate: { help: 'iterations per second at the top of an arrival-rate profile, for the whole run' },
    threshold: { help: "replace a metric's thresholds (repeatable; see `load --help`)" },
  });
  cmd
    .option('--target <url>', 'base URL of the gateway the pods reach (env GATEWAY_BASE_URL); required')
    .option('--target-env <kind>', TARGET_ENV_HELP)
    .option('--time-scale <factor>', `time scale of the target, ${TIME_SCALE_HELP} (env GATEWAY_TIME_SCALE; default 1)`)
    .option('--config <path>', 'JSON config file (timeouts, polling, write paths, field mapping; credentials in it are ignored)')
    .option('--out-dir <dir>', 'where the files go (default k6-operator/<name>/)')
    .option('--namespace <ns>', 'namespace of every object', 'default')
    .option('--image <image>', 'k6 image of the pods', DEFAULT_IMAGE)
    .option('--name <name>', 'TestRun name (default gh-<scenario>-<profile>)')
    .option('--secret <name>', 'Secret with keys user and password (never written by this command)', DEFAULT_SECRET.name)
    .option('--results-claim <name>', 'use this existing PersistentVolumeClaim for the results (default: write one, <name>-results)')
    .option('--results-size <quantity>', 'size of the results claim written', '5Gi')
    .option('--storage-class <name>', 'storage class of the results claim written (default: the cluster default)')
    .option('--access-mode <mode>', 'ReadWriteMany (pods on any node) or ReadWriteOnce (one node, e.g. kind)', 'ReadWriteMany')
    .action(writeOperatorRun);
  envOption(cmd);
  outMovedTo(cmd, '--out-dir', 'the directory of the files');
}

/** Judges every flag, builds the bundle into the plan, writes its files and prints the steps that run it. */
async function writeOperatorRun(opts: OperatorOptions): Promise<void> {
  const config = configFromOptions(opts);
  if (opts.scenario === undefined) throw usage(`--scenario is required (one of ${SCENARIO_NAMES.join(', ')})`);
  if (opts.parallelism === undefined) throw usage('--parallelism is required (the number of k6 pods)');
  const parallelism = /^\d{1,4}$/.test(opts.parallelism) ? Number(opts.parallelism) : Number.NaN;
  const load = parseLoadFlags({
    scenario: opts.scenario,
    profile: opts.profile,
    engine: 'k6',
    api: opts.api,
    ...(opts.vus === undefined ? {} : { vus: opts.vus }),
    ...(opts.duration === undefined ? {} : { duration: opts.duration }),
    ...(opts.rate === undefined ? {} : { rate: opts.rate }),
    ...(opts.threshold === undefined ? {} : { threshold: opts.threshold }),
  });
  // Pods keep no ledger a harness reconciles, so a distributed run never charges: no allowance applies here.
  const refusal = chargingRefusal(
    `k6-operator load ${scenarioNameOf(load.scenario)}`,
    scenarioOperations(load.scenario, load.api).filter((op) => op.charges),
    { environment: config.environment, allowCharges: false },
  );
  if (refusal !== undefined)
    throw usage(
      `${refusal.replace(/; add --allow-charges.*$/, '')}; distributed runs never charge (no harness keeps their ledger): use a read scenario or a sandbox`,
    );
  const flags = operatorFlagsOf(opts, load, parallelism);
  const runId = newOperatorRunId(scenarioNameOf(load.scenario));
  // Every flag is judged before the bundle is built (the slow part): a plan without it first.
  buildOperatorPlan(flags, config, '', runId);
  const plan = buildOperatorPlan(flags, config, readFileSync(await ensureBundle(scenarioNameOf(load.scenario)), 'utf8'), runId);
  const outDir = resolve(opts.outDir ?? join('k6-operator', plan.run.name));
  try {
    mkdirSync(outDir, { recursive: true });
    for (const [file, content] of Object.entries(plan.files)) writeFileSync(join(outDir, file), content);
  } catch (error) {
    throw new HarnessError('GH_ERR_CONFIG', `cannot write to ${outDir}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const out = (line: string): boolean => process.stdout.write(`${line}\n`);
  const shown = relative(process.cwd(), outDir) || '.';
  out(
    `k6-operator: ${plan.run.name} (${scenarioNameOf(load.scenario)}/${load.profile}, ${parallelism} pods, run ${runId}) written to ${shown}/: ${Object.keys(plan.files).join(', ')}`,
  );
  out(`then, in ${shown}/:`);
  for (const step of plan.steps) out(`  ${step}`);
  process.exitCode = 0;
}

/** The plan's flags; the results claim's access mode and size are judged here. */
function operatorFlagsOf(opts: OperatorOptions, load: OperatorFlags['load'], parallelism: number): OperatorFlags {
  if (opts.accessMode !== 'ReadWriteMany' && opts.accessMode !== 'ReadWriteOnce')
    throw usage('--access-mode must be ReadWriteMany or ReadWriteOnce');
  if (!QUANTITY.test(opts.resultsSize)) throw usage('--results-size must be a Kubernetes quantity such as 5Gi');
  return {
    load,
    parallelism,
    namespace: opts.namespace,
    image: opts.image,
    ...(opts.name === undefined ? {} : { name: opts.name }),
    secret: { ...DEFAULT_SECRET, name: opts.secret },
    results: {
      create: opts.resultsClaim === undefined,
      size: opts.resultsSize,
      accessMode: opts.accessMode,
      ...(opts.resultsClaim === undefined ? {} : { name: opts.resultsClaim }),
      ...(opts.storageClass === undefined ? {} : { storageClass: opts.storageClass }),
    },
  };
}
