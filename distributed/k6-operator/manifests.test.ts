// The k6-operator manifests: the TestRun validates against k6-operator's published CRD schema (fixture, see
// distributed/fixtures/README.md), and the objects refer to each other, to the Secret and to the results correctly.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { HarnessError } from '../../api/errors.ts';
import { loadConfig } from '../../config/load-config.ts';
import { findK6, findLatestK6 } from '../../load/engine-select.ts';
import { parseLoadFlags } from '../../load/runner/load-options.ts';
import { readRunSettings } from '../../load/run-settings.ts';
import { k6OptionsFor } from '../../load/run-options.ts';
import { CONFIGMAP_LIMIT_BYTES, POD_NAME_ENV, RESULTS_MOUNT } from './manifests.ts';
import { buildOperatorPlan, DEFAULT_IMAGE, DEFAULT_SECRET, type OperatorFlags, type OperatorPlan } from './plan.ts';

const FIXTURES = new URL('../fixtures/k6-operator/', import.meta.url);
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

type Node = Record<string, unknown>;

/** `additionalProperties: false` on every object that lists its properties (kubectl's strict field validation). */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects);
  if (node === null || typeof node !== 'object') return;
  const n = node as Node;
  if (
    n.type === 'object' &&
    n.properties !== undefined &&
    n.additionalProperties === undefined &&
    n['x-kubernetes-preserve-unknown-fields'] !== true
  ) {
    n.additionalProperties = false;
  }
  for (const value of Object.values(n)) closeObjects(value);
}

function crdValidator(): ValidateFunction {
  const crd = parse(readFileSync(new URL('k6.io_testruns.yaml', FIXTURES), 'utf8')) as {
    spec: { group: string; names: { kind: string }; versions: Array<{ name: string; schema: { openAPIV3Schema: Node } }> };
  };
  expect(`${crd.spec.group}/${crd.spec.names.kind}`).toBe('k6.io/TestRun');
  const version = crd.spec.versions.find((v) => v.name === 'v1alpha1');
  if (version === undefined) throw new Error('no v1alpha1 in the CRD');
  const schema = structuredClone(version.schema.openAPIV3Schema);
  closeObjects(schema);
  // strictTypes off: int-or-string fields (resource quantities) put a string `pattern` beside an anyOf of integer|string.
  const ajv = new Ajv({ strict: true, strictTypes: false, allErrors: true });
  addFormats(ajv);
  for (const keyword of [
    'x-kubernetes-list-type',
    'x-kubernetes-map-type',
    'x-kubernetes-int-or-string',
    'x-kubernetes-list-map-keys',
    'x-kubernetes-preserve-unknown-fields',
  ]) {
    ajv.addKeyword({ keyword });
  }
  return ajv.compile(schema);
}

const validate = crdValidator();

function errorsOf(doc: unknown): string[] {
  return validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}

const PASSWORD = 'op-secret-91c2e';
const USER = 'agent-77';
const BUNDLE = '// a bundle\nexport const options = {};\nexport default function () {\n\tconsole.log("tab and  trailing space ");  \n}\n';

function config(env: Record<string, string> = {}) {
  return loadConfig({
    cwd: '/nonexistent',
    env: { GATEWAY_BASE_URL: 'https://gw.example.test', GATEWAY_USER: USER, GATEWAY_PASSWORD: PASSWORD, ...env },
  });
}

function flags(over: Partial<OperatorFlags> = {}, load: Record<string, string> = {}): OperatorFlags {
  return {
    load: parseLoadFlags({ scenario: 'catalog-browse', profile: 'load', engine: 'k6', api: 'both', ...load }),
    parallelism: 3,
    namespace: 'load-tests',
    image: DEFAULT_IMAGE,
    secret: DEFAULT_SECRET,
    results: { create: true, size: '5Gi', accessMode: 'ReadWriteMany' },
    ...over,
  };
}

function plan(over: Partial<OperatorFlags> = {}, load: Record<string, string> = {}, bundle = BUNDLE): OperatorPlan {
  return buildOperatorPlan(flags(over, load), config(), bundle, 'catalog-browse-20260101000000-abcd');
}

function doc(p: OperatorPlan, file: string): Node {
  const docs = parseAllDocuments(p.files[file] ?? '');
  expect(docs).toHaveLength(1);
  return docs[0]?.toJS() as Node;
}

const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((v, k) => (v as Node | undefined)?.[k], o);

describe('the CRD schema (fixture)', () => {
  it.each(readdirSync(FIXTURES).filter((f) => f.startsWith('k6_v1alpha1_testrun')))("accepts the operator's own example %s", (file) => {
    expect(errorsOf(parse(readFileSync(new URL(file, FIXTURES), 'utf8')))).toEqual([]);
  });

  it('refuses a misspelt field, a wrong type and a missing script', () => {
    const good = doc(plan(), 'testrun.yaml');
    const spec = good.spec as Node;
    expect(errorsOf({ ...good, spec: { ...spec, runer: spec.runner } }).join()).toMatch(/additional properties/);
    expect(errorsOf({ ...good, spec: { ...spec, parallelism: '3' } }).join()).toMatch(/\/spec\/parallelism must be integer/);
    const { script: _script, ...noScript } = spec;
    expect(errorsOf({ ...good, spec: noScript }).join()).toMatch(/must have required property 'script'/);
  });
});

describe('the TestRun', () => {
  it.each([
    ['defaults', {}, {}],
    [
      'an existing ReadWriteOnce claim, another image and namespace',
      {
        results: { create: false, name: 'my-results', size: '1Gi', accessMode: 'ReadWriteOnce' as const },
        image: 'grafana/k6:0.48.0',
        namespace: 'perf',
      },
      {},
    ],
    ['overrides and a threshold', { parallelism: 7 }, { vus: '40', rate: '25', threshold: ['gateway_failed:rate<0.05'] }],
  ])('validates against the CRD schema (%s)', (_label, over, load) => {
    const p = plan(over as Partial<OperatorFlags>, load as Record<string, string>);
    const testRun = doc(p, 'testrun.yaml');
    expect(errorsOf(testRun)).toEqual([]);
    expect([testRun.apiVersion, testRun.kind]).toEqual(['k6.io/v1alpha1', 'TestRun']);
    expect(at(testRun, 'spec', 'parallelism')).toBe((over as Partial<OperatorFlags>).parallelism ?? 3);
  });

  it("passes --out json=... as two argv elements (k6-operator keeps them away from its initializer's k6 archive) to the claim", () => {
    const p = plan();
    const args = at(doc(p, 'testrun.yaml'), 'spec', 'args') as string[];
    expect(args).toEqual(['--out', `json=${RESULTS_MOUNT}/catalog-browse-20260101000000-abcd-$(${POD_NAME_ENV}).ndjson.gz`]);
    // No `arguments` string: that form goes through `sh -c`, which would mangle the JSON settings.
    expect(at(doc(p, 'testrun.yaml'), 'spec', 'arguments')).toBeUndefined();
  });
});

describe("read by a YAML 1.1 reader (Kubernetes' own YAML library is one)", () => {
  // `on`/`off` (the schema-check switches), `y`, `1:30` are booleans and numbers to YAML 1.1 and strings to YAML 1.2.
  const p = plan();
  const yamlFiles = Object.keys(p.files).filter((f) => f.endsWith('.yaml'));

  it.each(yamlFiles)('%s reads the same in YAML 1.1 as in YAML 1.2', (file) => {
    const text = p.files[file] ?? '';
    expect(parse(text, { version: '1.1' })).toEqual(parse(text, { version: '1.2' }));
  });

  it('the TestRun read as YAML 1.1 validates against the CRD schema, every env value a quoted string', () => {
    const text = p.files['testrun.yaml'] ?? '';
    const testRun = parse(text, { version: '1.1' }) as Node;
    expect(errorsOf(testRun)).toEqual([]);
    const envs = [...(at(testRun, 'spec', 'runner', 'env') as Node[]), ...(at(testRun, 'spec', 'initializer', 'env') as Node[])];
    const values = envs.filter((e) => e.value !== undefined);
    expect(values.map((e) => e.value)).toContain('on');
    expect(values.map((e) => e.value)).toContain('off');
    for (const e of values) expect(typeof e.value, `${String(e.name)}: ${String(e.value)}`).toBe('string');
    const valueLines = text.split('\n').filter((l) => /^\s+value: /.test(l));
    expect(valueLines.length).toBe(values.length);
    for (const line of valueLines) expect(line).toMatch(/^\s+value: (['"]).*\1$/);
  });
});

describe('references between the objects', () => {
  const p = plan();
  const testRun = doc(p, 'testrun.yaml');
  const configMap = doc(p, 'configmap.yaml');
  const claim = doc(p, 'results-pvc.yaml');
  const collector = doc(p, 'collector.yaml');
  const runner = at(testRun, 'spec', 'runner') as Node;
  const env = runner.env as Node[];

  it("the script is the ConfigMap's bundle, byte for byte, in the same namespace", () => {
    expect([configMap.apiVersion, configMap.kind]).toEqual(['v1', 'ConfigMap']);
    expect(at(testRun, 'spec', 'script', 'configMap', 'name')).toBe(at(configMap, 'metadata', 'name'));
    const file = at(testRun, 'spec', 'script', 'configMap', 'file') as string;
    expect(file).toBe('catalog-browse.js');
    expect(at(configMap, 'data', file)).toBe(BUNDLE);
    expect(Object.keys(configMap.data as Node)).toEqual([file]);
    expect(/^[-._a-zA-Z0-9]+$/.test(file)).toBe(true);
    for (const o of [testRun, configMap, claim, collector]) expect(at(o, 'metadata', 'namespace')).toBe('load-tests');
  });

  it('credentials are a Secret reference on the runner only, never a value', () => {
    const user = env.find((e) => e.name === 'GATEWAY_USER');
    const password = env.find((e) => e.name === 'GATEWAY_PASSWORD');
    expect(user).toEqual({ name: 'GATEWAY_USER', valueFrom: { secretKeyRef: { name: 'gateway-harness-credentials', key: 'user' } } });
    expect(password).toEqual({
      name: 'GATEWAY_PASSWORD',
      valueFrom: { secretKeyRef: { name: 'gateway-harness-credentials', key: 'password' } },
    });
    // The initializer passes each env entry to `k6 archive -e`: it gets none of them.
    const initEnv = at(testRun, 'spec', 'initializer', 'env') as Node[];
    expect(initEnv.map((e) => e.name)).not.toContain('GATEWAY_USER');
    expect(initEnv.map((e) => e.name)).not.toContain('GATEWAY_PASSWORD');
    for (const text of Object.values(p.files)) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(USER);
      expect(text).not.toContain(Buffer.from(`${USER}:${PASSWORD}`).toString('base64'));
    }
  });

  it('POD_NAME comes from the downward API before anything refers to it', () => {
    expect(env[0]).toEqual({ name: POD_NAME_ENV, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } });
  });

  it('the results claim is the one mounted by the runners and, read-only, by the collector', () => {
    expect([claim.apiVersion, claim.kind, at(claim, 'spec', 'accessModes')]).toEqual(['v1', 'PersistentVolumeClaim', ['ReadWriteMany']]);
    const claimName = at(claim, 'metadata', 'name');
    const volumes = runner.volumes as Node[];
    expect(volumes).toEqual([{ name: 'results', persistentVolumeClaim: { claimName } }]);
    expect(runner.volumeMounts).toEqual([{ name: 'results', mountPath: RESULTS_MOUNT }]);
    const spec = collector.spec as { containers: Node[]; volumes: Node[] };
    expect(spec.volumes).toEqual([{ name: 'results', persistentVolumeClaim: { claimName, readOnly: true } }]);
    for (const c of spec.containers) for (const m of c.volumeMounts as Node[]) expect(spec.volumes.map((v) => v.name)).toContain(m.name);
  });

  it('the env gives the bundle the settings the plan says, and the plan the thresholds the pods compute', () => {
    const plain = Object.fromEntries(env.filter((e) => typeof e.value === 'string').map((e) => [e.name, e.value as string]));
    const settings = readRunSettings(plain);
    expect([settings.target.baseUrl, settings.profile, settings.api, settings.environment, settings.timeScale, settings.reportDir]).toEqual(
      ['https://gw.example.test', 'load', 'both', 'sandbox', 1, '/tmp'],
    );
    const written = JSON.parse(p.files['thresholds.json'] ?? '{}') as { thresholds: unknown; run: Node };
    expect(written.thresholds).toEqual(
      k6OptionsFor('catalog-browse', { ...plain, GATEWAY_USER: USER, GATEWAY_PASSWORD: PASSWORD }).thresholds,
    );
    expect(written.run).toMatchObject({
      scenario: 'catalog-browse',
      profile: 'load',
      parallelism: 3,
      testRun: 'gh-catalog-browse-load',
      namespace: 'load-tests',
    });
  });

  it('an existing claim is used as is (no claim manifest)', () => {
    const q = plan({ results: { create: false, name: 'shared-results', size: '1Gi', accessMode: 'ReadWriteOnce' } });
    expect(q.files['results-pvc.yaml']).toBeUndefined();
    expect(at(doc(q, 'testrun.yaml'), 'spec', 'runner', 'volumes')).toEqual([
      { name: 'results', persistentVolumeClaim: { claimName: 'shared-results' } },
    ]);
  });
});

describe('refusals', () => {
  const codeOf = (f: () => unknown): string => {
    try {
      f();
    } catch (error) {
      return error instanceof HarnessError ? `${error.code}: ${error.message}` : String(error);
    }
    return 'no error';
  };

  it('no target: the pods cannot reach an embedded sandbox', () => {
    expect(codeOf(() => buildOperatorPlan(flags(), loadConfig({ cwd: '/nonexistent', env: {} }), BUNDLE, 'r'))).toMatch(
      /^GH_ERR_USAGE: k6-operator needs --target/,
    );
  });

  it('a bundle a ConfigMap cannot hold', () => {
    expect(codeOf(() => plan({}, {}, 'x'.repeat(CONFIGMAP_LIMIT_BYTES)))).toMatch(/^GH_ERR_CONFIG: the catalog-browse bundle is \d+ bytes/);
  });

  it("a name k6-operator's job and service names would overflow, or not a DNS label", () => {
    expect(codeOf(() => plan({ name: 'a'.repeat(60) }))).toMatch(/^GH_ERR_USAGE: --name/);
    expect(codeOf(() => plan({ name: 'Not_A_Label' }))).toMatch(/^GH_ERR_USAGE: --name/);
    expect(codeOf(() => plan({ namespace: 'Bad NS' }))).toMatch(/^GH_ERR_USAGE: --namespace/);
  });
});

// Real k6 reads the bundle's options with the pods' environment: its thresholds are the plan's (skipped without k6).
const k6 = (() => {
  try {
    return findLatestK6(process.env, findK6(process.env)) ?? findK6(process.env)?.path;
  } catch {
    return undefined;
  }
})();
if (k6 === undefined)
  console.warn('distributed/k6-operator/manifests.test.ts: no k6 found (K6_BIN or PATH): the `k6 inspect` comparison is SKIPPED');

describe('against real k6', () => {
  it.skipIf(k6 === undefined)(
    "`k6 inspect` of the built bundle with the initializer's env reports the plan's thresholds",
    async () => {
      const { ensureBundle } = await import('../../load/runner/run-load.ts');
      const bundlePath = await ensureBundle('catalog-browse');
      const p = buildOperatorPlan(flags(), config(), readFileSync(bundlePath, 'utf8'), 'catalog-browse-20260101000000-abcd');
      const env = Object.fromEntries(
        (at(doc(p, 'testrun.yaml'), 'spec', 'initializer', 'env') as Node[]).map((e) => [e.name as string, e.value as string]),
      );
      // As k6-operator's initializer does it: each initializer env entry as `-e NAME=value` (k6 inspect, like k6 archive,
      // does not read the system environment), so this also proves the initializer can read the options.
      const args = ['inspect', ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`]), bundlePath];
      const env6 = { PATH: process.env.PATH ?? '', K6_NO_USAGE_REPORT: 'true', K6_DEBUG_SOURCEMAP_FILESIZE_LIMIT: '0' };
      const inspected = JSON.parse(execFileSync(k6 as string, args, { encoding: 'utf8', env: env6 })) as {
        thresholds: Record<string, unknown>;
      };
      const written = JSON.parse(p.files['thresholds.json'] ?? '{}') as { thresholds: Record<string, unknown> };
      // k6 reports each threshold as { threshold, abortOnFail, delayAbortEval }; the plan keeps the script's own form.
      const normal = (t: Record<string, unknown>) =>
        Object.fromEntries(
          Object.entries(t).map(([m, list]) => [
            m,
            (list as Array<string | { threshold: string }>).map((x) => (typeof x === 'string' ? x : x.threshold)),
          ]),
        );
      expect(normal(inspected.thresholds)).toEqual(normal(written.thresholds));
    },
    120_000,
  );
});
