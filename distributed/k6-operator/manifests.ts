// The Kubernetes objects of a distributed run on k6-operator (pure data, no I/O): the TestRun (k6.io/v1alpha1), the
// ConfigMap with the bundle, the claim the pods write their NDJSON to, and a pod to copy the results out.
// Credentials are only ever a Secret reference: the object that holds them is the user's, made with kubectl.

/** Where every runner pod mounts the results claim; each writes `<run-id>-<pod name>.ndjson.gz` there. */
export const RESULTS_MOUNT = '/results';
/** The runner's pod name (downward API), so each pod's `--out json=` file is its own. */
export const POD_NAME_ENV = 'POD_NAME';
/** The grafana/k6 image runs as this user and group (its Dockerfile: `adduser -u 12345 -g 12345 k6`). */
export const K6_IMAGE_GID = 12345;
/** Kubernetes' limit on a ConfigMap's data (etcd's object size): the bundle must fit in it. */
export const CONFIGMAP_LIMIT_BYTES = 1_048_576;

export interface SecretRef {
  readonly name: string;
  /** Keys in the Secret for GATEWAY_USER and GATEWAY_PASSWORD. */
  readonly userKey: string;
  readonly passwordKey: string;
}

export interface ResultsClaim {
  readonly name: string;
  /** False when the user brings an existing claim (no PVC manifest is written). */
  readonly create: boolean;
  readonly size: string;
  readonly accessMode: 'ReadWriteMany' | 'ReadWriteOnce';
  readonly storageClass?: string;
}

export interface OperatorRun {
  /** The TestRun's name (DNS-1123 label; its jobs are `<name>-<index>`). */
  readonly name: string;
  readonly namespace: string;
  /** The run's id: the results' file prefix and a label, so one claim can hold many runs without mixing them. */
  readonly runId: string;
  readonly scenario: string;
  readonly parallelism: number;
  readonly image: string;
  /** The bundle's key in the ConfigMap (mounted at /test/<file> by the operator). */
  readonly bundleFile: string;
  readonly bundle: string;
  /** Settings for the bundle (load/run-settings.ts) and k6: never a credential. */
  readonly env: Readonly<Record<string, string>>;
  readonly secret: SecretRef;
  readonly results: ResultsClaim;
}

type Json = Record<string, unknown>;

export function bundleConfigMapName(run: Pick<OperatorRun, 'name'>): string {
  return `${run.name}-bundle`;
}

export function collectorPodName(run: Pick<OperatorRun, 'name'>): string {
  return `${run.name}-collector`;
}

/** The NDJSON file each runner pod writes (kubelet expands $(POD_NAME) from the pod's own env). */
export function resultsFile(run: Pick<OperatorRun, 'runId'>): string {
  return `${RESULTS_MOUNT}/${run.runId}-$(${POD_NAME_ENV}).ndjson.gz`;
}

function labels(run: OperatorRun): Record<string, string> {
  return {
    'app.kubernetes.io/name': 'gateway-harness',
    'app.kubernetes.io/component': 'load',
    'gateway-harness/scenario': run.scenario,
    'gateway-harness/run-id': run.runId,
  };
}

function metadata(run: OperatorRun, name: string): Json {
  return { name, namespace: run.namespace, labels: labels(run) };
}

/**
 * k6's arguments for every runner pod, passed as `spec.args` (exact argv, no shell: the JSON settings in the env stay
 * intact). `--out json=...gz` writes the pod's raw samples, gzip-compressed, to the shared claim. The operator adds
 * the execution segment, `--tag instance_id=<n>` and `--paused` itself; `--out` is not passed to its initializer.
 */
export function runnerArgs(run: Pick<OperatorRun, 'runId'>): string[] {
  return ['--out', `json=${resultsFile(run)}`];
}

function plainEnv(env: Readonly<Record<string, string>>): Json[] {
  return Object.entries(env).map(([name, value]) => ({ name, value }));
}

function credentialEnv(secret: SecretRef): Json[] {
  return [
    { name: 'GATEWAY_USER', valueFrom: { secretKeyRef: { name: secret.name, key: secret.userKey } } },
    { name: 'GATEWAY_PASSWORD', valueFrom: { secretKeyRef: { name: secret.name, key: secret.passwordKey } } },
  ];
}

function resultsVolume(run: OperatorRun, readOnly: boolean): Json {
  return { name: 'results', persistentVolumeClaim: { claimName: run.results.name, ...(readOnly ? { readOnly: true } : {}) } };
}

export function testRunManifest(run: OperatorRun): Json {
  return {
    apiVersion: 'k6.io/v1alpha1',
    kind: 'TestRun',
    metadata: metadata(run, run.name),
    spec: {
      parallelism: run.parallelism,
      script: { configMap: { name: bundleConfigMapName(run), file: run.bundleFile } },
      args: runnerArgs(run),
      runner: {
        image: run.image,
        metadata: { labels: labels(run) },
        // POD_NAME first: later values and the args may refer to it as $(POD_NAME).
        env: [
          { name: POD_NAME_ENV, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          ...plainEnv(run.env),
          ...credentialEnv(run.secret),
        ],
        // The claim's root may belong to root: the group lets the image's k6 user write its file (where fsGroup applies).
        securityContext: { fsGroup: K6_IMAGE_GID },
        volumes: [resultsVolume(run, false)],
        volumeMounts: [{ name: 'results', mountPath: RESULTS_MOUNT }],
      },
      // Set explicitly so it gets no credentials: the operator's initializer passes every `env` entry to `k6 archive`
      // as `-e NAME=$(NAME)` (a process argument, and stored in the archive). Reading options needs none of them.
      initializer: {
        image: run.image,
        metadata: { labels: labels(run) },
        env: plainEnv(run.env),
      },
    },
  };
}

export function bundleConfigMap(run: OperatorRun): Json {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: metadata(run, bundleConfigMapName(run)), data: { [run.bundleFile]: run.bundle } };
}

export function resultsClaimManifest(run: OperatorRun): Json {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: metadata(run, run.results.name),
    spec: {
      accessModes: [run.results.accessMode],
      resources: { requests: { storage: run.results.size } },
      ...(run.results.storageClass === undefined ? {} : { storageClassName: run.results.storageClass }),
    },
  };
}

/** A pod that mounts the claim read-only and idles, so `kubectl cp` can copy the results out (the image has tar). */
export function collectorPodManifest(run: OperatorRun): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: metadata(run, collectorPodName(run)),
    spec: {
      restartPolicy: 'Never',
      securityContext: { fsGroup: K6_IMAGE_GID },
      containers: [
        {
          name: 'collector',
          image: run.image,
          command: ['sleep', '3600'],
          volumeMounts: [{ name: 'results', mountPath: RESULTS_MOUNT, readOnly: true }],
        },
      ],
      volumes: [resultsVolume(run, true)],
    },
  };
}
