// Turns `gateway-harness k6-operator` flags into the files of a distributed run: the manifests as YAML, the run plan
// merge-results reads (the thresholds the pods compute, their settings without credentials), and the exact commands.
import { Document, isMap, isScalar, isSeq, visit } from 'yaml';
import { HarnessError } from '../../api/errors.ts';
import type { TargetConfig } from '../../api/target-config.ts';
import { K6_DEFAULT_ENV } from '../../load/runner/k6-process.ts';
import type { LoadFlags } from '../../load/runner/load-options.ts';
import { LOAD_ENV } from '../../load/run-settings.ts';
import { loadEnvironment } from '../../load/runner/load-environment.ts';
import { RUN_PLAN_SCHEMA, type PlanRun } from '../merge/threshold-source.ts';
import { k6OptionsFor } from '../../load/run-options.ts';
import { scenarioNameOf } from '../../load/scenarios.ts';
import {
  bundleConfigMap,
  bundleConfigMapName,
  collectorPodManifest,
  collectorPodName,
  CONFIGMAP_LIMIT_BYTES,
  RESULTS_MOUNT,
  resultsClaimManifest,
  testRunManifest,
  type OperatorRun,
  type ResultsClaim,
  type SecretRef,
} from './manifests.ts';
import { runStamp, runSuffix } from '../../api/run-id.ts';

/**
 * The default runner image: k6 v2.2.0, the newest k6 the harness is tested with (k6 v0.48 also runs the bundles, but
 * spends seconds of CPU per pod transforming them). Pin your own with --image.
 */
export const DEFAULT_IMAGE = 'grafana/k6:2.2.0';
export const DEFAULT_SECRET: SecretRef = { name: 'gateway-harness-credentials', userKey: 'user', passwordKey: 'password' };
/** Per-pod handleSummary files stay in the pod (k6 creates no directories; the merged run's reports are the verdict). */
export const POD_REPORT_DIR = '/tmp';

export interface OperatorFlags {
  readonly load: LoadFlags;
  readonly parallelism: number;
  readonly namespace: string;
  readonly image: string;
  readonly name?: string;
  readonly secret: SecretRef;
  readonly results: Omit<ResultsClaim, 'name'> & { readonly name?: string };
}

export interface OperatorPlan {
  readonly run: OperatorRun;
  readonly planRun: PlanRun;
  /** File name (in the output directory) → content. */
  readonly files: Readonly<Record<string, string>>;
  /** The commands that apply, wait, collect and merge this run, in order. */
  readonly steps: readonly string[];
}

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

function usage(message: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', message);
}

/** A DNS-1123 label from free text (scenario names are already close). */
function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export function newOperatorRunId(scenario: string, now = new Date(), random = Math.random): string {
  const stamp = runStamp(now).replace(/[TZ]/g, '');
  return `${slug(scenario)}-${stamp}-${runSuffix(random)}`;
}

/** The TestRun's name must leave room for the operator's own names: `<name>-service-<index>` is a DNS label too. */
export function checkNames(name: string, namespace: string, parallelism: number): void {
  if (!DNS_LABEL.test(namespace) || namespace.length > 63)
    throw usage(`--namespace ${JSON.stringify(namespace)} is not a Kubernetes namespace name (lowercase letters, digits, '-'; at most 63)`);
  const longest = `${name}-service-${parallelism}`;
  if (!DNS_LABEL.test(name) || longest.length > 63) {
    throw usage(
      `--name ${JSON.stringify(name)}: lowercase letters, digits and '-', short enough that k6-operator's "${longest}" stays within 63 characters`,
    );
  }
}

/**
 * The manifests as YAML that every reader reads alike. Kubernetes' own YAML library (sigs.k8s.io/yaml over go-yaml) and
 * other YAML 1.1 readers take plain `on`, `off`, `y`, `1:30` for booleans and numbers, where YAML 1.2 sees strings: the
 * document is written for YAML 1.1 (such strings quoted), and every env value is quoted besides (an env var value must
 * be a string, whatever it looks like).
 */
function manifestYaml(object: unknown): string {
  const doc = new Document(object, { version: '1.1' });
  visit(doc, {
    Pair(_key, pair) {
      if (!isScalar(pair.key) || pair.key.value !== 'env' || !isSeq(pair.value)) return;
      for (const item of pair.value.items) {
        const value = isMap(item) ? item.get('value', true) : undefined;
        if (isScalar(value)) value.type = 'QUOTE_SINGLE';
      }
    },
  });
  // lineWidth 0: no folding, so the bundle and the JSON settings come back byte for byte.
  return doc.toString({ lineWidth: 0 });
}

/** The pods' environment: the bundle's settings (load/run-settings.ts) and k6's, with no credential in it. */
export function podEnvironment(flags: OperatorFlags, config: TargetConfig, runId: string, baseUrl: string): Record<string, string> {
  // The same builder as `load` (load/runner/load-environment.ts); credentials come from the Secret (manifests.ts).
  const env = loadEnvironment(
    flags.load,
    { ...config, user: '', password: '' },
    { baseUrl, targetLabel: baseUrl, runId, reportDir: POD_REPORT_DIR },
  );
  delete env[LOAD_ENV.user];
  delete env[LOAD_ENV.password];
  return { ...K6_DEFAULT_ENV, ...env };
}

/** The run's facts every file states: the flags, the target, the scenario as named, the TestRun's name and run id. */
interface PlannedRun {
  readonly flags: OperatorFlags;
  readonly config: TargetConfig;
  /** The load flags with the scenario as named (a `--script`'s declared name). */
  readonly load: Omit<LoadFlags, 'scenario'> & { readonly scenario: string };
  readonly baseUrl: string;
  readonly name: string;
  readonly runId: string;
}

/** The flags checked before any file is written: a target the pods can reach, names Kubernetes takes, a bundle that fits. */
function checkedRun(flags: OperatorFlags, config: TargetConfig, bundle: string, runId: string): PlannedRun {
  const load = { ...flags.load, scenario: scenarioNameOf(flags.load.scenario) };
  const baseUrl = config.baseUrl;
  if (baseUrl === undefined) {
    throw usage('k6-operator needs --target (or GATEWAY_BASE_URL): the pods cannot reach an embedded sandbox on this machine');
  }
  if (!Number.isInteger(flags.parallelism) || flags.parallelism < 1 || flags.parallelism > 1000)
    throw usage('--parallelism must be a whole number from 1 to 1000');
  const name = flags.name ?? slug(`gh-${load.scenario}-${load.profile}`);
  checkNames(name, flags.namespace, flags.parallelism);
  const bundleBytes = Buffer.byteLength(bundle, 'utf8');
  if (bundleBytes + bundleFileOf(load).length > CONFIGMAP_LIMIT_BYTES) {
    throw new HarnessError(
      'GH_ERR_CONFIG',
      `the ${load.scenario} bundle is ${bundleBytes} bytes: more than a ConfigMap holds (1 MiB); put it on a volume claim instead`,
    );
  }
  return { flags, config, load, baseUrl, name, runId };
}

const bundleFileOf = (load: PlannedRun['load']): string => `${load.scenario}.js`;

function operatorRun(planned: PlannedRun, bundle: string, env: Record<string, string>): OperatorRun {
  const { flags, name } = planned;
  return {
    name,
    namespace: flags.namespace,
    runId: planned.runId,
    scenario: planned.load.scenario,
    parallelism: flags.parallelism,
    image: flags.image,
    bundleFile: bundleFileOf(planned.load),
    bundle,
    env,
    secret: flags.secret,
    results: { ...flags.results, name: flags.results.name ?? `${name}-results` },
  };
}

/** The run plan merge-results reads: the run, and the thresholds the pods compute in their init context from the same environment. */
function runPlanOf(planned: PlannedRun, env: Record<string, string>): { planRun: PlanRun; file: string } {
  const { flags, load, config } = planned;
  const options = k6OptionsFor(flags.load.scenario, env);
  const planRun: PlanRun = {
    scenario: load.scenario,
    profile: load.profile,
    api: load.api,
    target: planned.baseUrl,
    environment: config.environment,
    timeScale: config.timeScale,
    runId: planned.runId,
    parallelism: flags.parallelism,
    testRun: planned.name,
    namespace: flags.namespace,
  };
  const plan = {
    $comment:
      'Written by `gateway-harness k6-operator`: the run and the thresholds its pods evaluate one by one; `gateway-harness merge-results --thresholds <this file>` evaluates them once over the whole run.',
    schema: RUN_PLAN_SCHEMA,
    run: planRun,
    thresholds: options.thresholds,
    summaryTrendStats: options.summaryTrendStats,
  };
  return { planRun, file: `${JSON.stringify(plan, null, 2)}\n` };
}

/** The commands that apply, wait, collect and merge this run, in order. */
function stepsOf(planned: PlannedRun, run: OperatorRun): string[] {
  const { flags, name, runId } = planned;
  const ns = `-n ${flags.namespace}`;
  const collector = collectorPodName(run);
  return [
    `kubectl ${ns} create secret generic ${flags.secret.name} --from-literal=${flags.secret.userKey}="$GATEWAY_USER" --from-literal=${flags.secret.passwordKey}="$GATEWAY_PASSWORD"   # once; skip if it exists`,
    `kubectl ${ns} apply -f configmap.yaml${run.results.create ? ' -f results-pvc.yaml' : ''}`,
    `kubectl ${ns} delete testrun ${name} --ignore-not-found   # a TestRun of the same name from an earlier run`,
    `kubectl ${ns} apply -f testrun.yaml`,
    `kubectl ${ns} wait testrun/${name} --for=jsonpath='{.status.stage}'=finished --timeout=24h`,
    `kubectl ${ns} apply -f collector.yaml && kubectl ${ns} wait pod/${collector} --for=condition=Ready --timeout=5m`,
    `mkdir -p results && kubectl ${ns} exec ${collector} -- sh -c 'cd ${RESULTS_MOUNT} && tar cf - ${runId}-*.ndjson.gz' | tar xf - -C results`,
    `kubectl ${ns} delete pod ${collector}`,
    `npx gateway-harness merge-results results/${runId}-*.ndjson.gz --thresholds thresholds.json --report-dir reports/${runId}`,
  ];
}

/** The directory's README: what the run is, where its parts live, and the steps. */
function readmeOf(planned: PlannedRun, run: OperatorRun, steps: readonly string[]): string {
  const { flags, name, runId, load } = planned;
  return [
    `# ${name}: ${load.scenario} (${load.profile}) on k6-operator, ${flags.parallelism} pods`,
    '',
    `Run id \`${runId}\`, target ${planned.baseUrl} (${planned.config.environment}), namespace \`${flags.namespace}\`, image \`${flags.image}\`.`,
    `ConfigMap \`${bundleConfigMapName(run)}\` holds the bundle; each pod writes \`${RESULTS_MOUNT}/${runId}-<pod>.ndjson.gz\` to the claim \`${run.results.name}\`;`,
    `credentials come from the Secret \`${flags.secret.name}\` (keys \`${flags.secret.userKey}\`, \`${flags.secret.passwordKey}\`), which this directory does not contain.`,
    '',
    'From this directory:',
    '',
    '```sh',
    ...steps,
    '```',
    '',
  ].join('\n');
}

export function buildOperatorPlan(flags: OperatorFlags, config: TargetConfig, bundle: string, runId: string): OperatorPlan {
  const planned = checkedRun(flags, config, bundle, runId);
  const env = podEnvironment(flags, config, runId, planned.baseUrl);
  const run = operatorRun(planned, bundle, env);
  const { planRun, file } = runPlanOf(planned, env);
  const steps = stepsOf(planned, run);
  const files: Record<string, string> = {
    'configmap.yaml': manifestYaml(bundleConfigMap(run)),
    ...(run.results.create ? { 'results-pvc.yaml': manifestYaml(resultsClaimManifest(run)) } : {}),
    'testrun.yaml': manifestYaml(testRunManifest(run)),
    'collector.yaml': manifestYaml(collectorPodManifest(run)),
    'thresholds.json': file,
    'README.md': readmeOf(planned, run, steps),
  };
  return { run, planRun, files, steps };
}
