// `npm run bench:sandbox`: requests/s of the embedded sandbox (GET v2 catalog/skus, POST v2 top-up) at 50 connections,
// against a bare node:http server returning the same catalog bytes, measured in the same run on loopback.
import { fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import type { AutocannonOptions, AutocannonResult } from 'autocannon';
import type { TargetMessage } from './bench-target.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = resolve(HERE, '..', '..');
const TARGET_SCRIPT = resolve(HERE, 'bench-target.ts');

/** The target ratio of the issue: the sandbox's catalog GET at half the bare server's requests/s or better. */
export const GET_RATIO_TARGET = 0.5;
const SKUS_PATH = '/api/v2/catalog/skus';
const TOPUP_PATH = '/api/v2/transaction/topup';
/** skuId 193 is the Jamaica RTR anchor of the sandbox data; the number avoids every trigger suffix (666666 ... 500, 888). */
const TOPUP_SKU = 193;
const TOPUP_MOBILE = '18765550123';
// The sandbox's default credentials; the header is built here and never printed.
const AUTH = `Basic ${Buffer.from('user:pass').toString('base64')}`;

interface BenchConfig {
  durationSec: number;
  warmupSec: number;
  connections: number;
  out: string;
  failBelowTarget: boolean;
}

function positiveInt(name: string, raw: string | undefined, fallback: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw new Error(`${name} must be a whole number 0..${max}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function readConfig(argv: string[]): BenchConfig {
  const { values } = parseArgs({
    args: argv,
    options: {
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'out-file': { type: 'string' },
      // The old spelling, refused: --out means k6's outputs on every gateway-harness command.
      out: { type: 'string' },
      'fail-below-target': { type: 'boolean' },
      help: { type: 'boolean' },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      'usage: npm run bench:sandbox -- [--duration S] [--warmup S] [--connections N] [--out-file FILE] [--fail-below-target]\n' +
        '  env: BENCH_DURATION (default 5), BENCH_WARMUP (default 1), BENCH_CONNECTIONS (default 50)\n',
    );
    process.exit(0);
  }
  if (values.out !== undefined)
    throw new Error(`--out ${values.out}: the figures file is --out-file ${values.out} (--out means k6's outputs)`);
  const durationSec = positiveInt('--duration', values.duration ?? process.env.BENCH_DURATION, 5, 600);
  if (durationSec < 1) throw new Error('--duration must be at least 1 second');
  const connections = positiveInt('--connections', values.connections ?? process.env.BENCH_CONNECTIONS, 50, 1000);
  if (connections < 1) throw new Error('--connections must be at least 1');
  return {
    durationSec,
    warmupSec: positiveInt('--warmup', values.warmup ?? process.env.BENCH_WARMUP, 1, 60),
    connections,
    out: resolve(ROOT, values['out-file'] ?? 'reports/out/bench-sandbox.json'),
    failBelowTarget: values['fail-below-target'] === true,
  };
}

/** Forks one bench target and resolves with its URL; the child dies with this process (IPC disconnect). */
function startTarget(kind: 'sandbox' | 'bare', children: ChildProcess[], body?: { bytes: Buffer; contentType: string }): Promise<string> {
  const child = fork(TARGET_SCRIPT, [kind], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  children.push(child);
  return new Promise((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench target ${kind} did not start within 60 s`)), 60_000);
    child.on('message', (message: TargetMessage) => {
      if (message.type === 'ready') {
        clearTimeout(timer);
        resolveUrl(message.url);
      } else if (message.type === 'failed') {
        clearTimeout(timer);
        reject(new Error(`bench target ${kind} failed: ${message.message}`));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`bench target ${kind} exited with code ${String(code)} before it was ready`));
    });
    if (body) child.send({ type: 'body', base64: body.bytes.toString('base64'), contentType: body.contentType } satisfies TargetMessage);
  });
}

interface Envelope {
  responseCode?: unknown;
  responseMessage?: unknown;
  payLoad?: unknown;
}

async function fetchCatalog(url: string): Promise<{ bytes: Buffer; contentType: string; amount: number }> {
  const res = await fetch(`${url}${SKUS_PATH}`, { headers: { authorization: AUTH } });
  const bytes = Buffer.from(await res.arrayBuffer());
  const envelope = JSON.parse(bytes.toString('utf8')) as Envelope;
  if (res.status !== 200 || envelope.responseCode !== '000' || !Array.isArray(envelope.payLoad)) {
    throw new Error(`catalog GET answered HTTP ${res.status} responseCode ${String(envelope.responseCode)}: cannot benchmark`);
  }
  const sku = (envelope.payLoad as Array<Record<string, unknown>>).find((s) => s.skuId === TOPUP_SKU);
  const min = sku?.min as Record<string, unknown> | undefined;
  const amount = typeof min?.faceValueInWalletCurrency === 'number' ? min.faceValueInWalletCurrency : undefined;
  if (amount === undefined)
    throw new Error(`skuId ${TOPUP_SKU} has no min.faceValueInWalletCurrency in the catalog: cannot build a valid top-up`);
  return { bytes, contentType: res.headers.get('content-type') ?? 'application/json; charset=utf-8', amount };
}

/** Unique per run and per request, at most 50 characters (the spec's correlationId limit). */
function correlationIds(): () => string {
  const run = `bench-${Date.now().toString(36)}-${process.pid.toString(36)}`;
  let n = 0;
  return () => `${run}-${(n++).toString(36)}`;
}

function topupBody(amount: number, correlationId: string): string {
  return JSON.stringify({ skuId: TOPUP_SKU, amount, mobile: TOPUP_MOBILE, correlationId });
}

async function probeTopup(url: string, amount: number, next: () => string): Promise<void> {
  const res = await fetch(`${url}${TOPUP_PATH}`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: topupBody(amount, next()),
  });
  const envelope = (await res.json()) as Envelope;
  if (res.status !== 200 || envelope.responseCode !== '000') {
    throw new Error(
      `probe top-up answered HTTP ${res.status} ${String(envelope.responseCode)} ${String(envelope.responseMessage)}: cannot benchmark`,
    );
  }
}

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  options: (url: string) => AutocannonOptions;
  /** Responses that were HTTP 200 but not the expected result (a short body, or a responseCode other than 000). */
  bad: (result: AutocannonResult) => number;
  /** Called between the warm-up and the measured run, so counters only see the measured requests. */
  beforeMeasured?: () => void;
  /** autocannon's per-response event (status and size only: cheap enough not to slow the load generator). */
  onResponse?: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void;
}

export interface ScenarioFigures {
  scenario: string;
  method: string;
  path: string;
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  bad: number;
}

async function measure(scenario: Scenario, url: string, config: BenchConfig): Promise<ScenarioFigures> {
  const base = scenario.options(url);
  if (config.warmupSec > 0) await autocannon({ ...base, duration: config.warmupSec, connections: config.connections });
  scenario.beforeMeasured?.();
  const instance = autocannon({ ...base, duration: config.durationSec, connections: config.connections, title: scenario.name });
  if (scenario.onResponse) instance.on('response', scenario.onResponse);
  const result = await instance;
  return {
    scenario: scenario.name,
    method: scenario.method,
    path: scenario.path,
    reqPerSec: Math.round(result.requests.average),
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    bad: scenario.bad(result),
  };
}

function table(rows: ScenarioFigures[]): string {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'errors', 'non-2xx', 'bad'];
  const lines = rows.map((r) => [
    r.scenario,
    String(r.reqPerSec),
    String(r.latencyP50Ms),
    String(r.latencyP99Ms),
    String(r.requests),
    String(r.errors),
    String(r.non2xx),
    String(r.bad),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const fmt = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...lines.map(fmt)].join('\n');
}

const ratio = (a: number, b: number): number => (b > 0 ? Math.round((a / b) * 100) / 100 : 0);

async function main(): Promise<number> {
  const config = readConfig(process.argv.slice(2));
  const children: ChildProcess[] = [];
  // A warm-up and a measured run per scenario, three scenarios, plus start-up: past this the bench stops itself.
  const budgetMs = (3 * (config.durationSec + config.warmupSec) + 120) * 1000;
  const watchdog = setTimeout(() => {
    process.stderr.write(`bench: still running after ${budgetMs / 1000} s, stopping\n`);
    for (const child of children) child.kill('SIGKILL');
    process.exit(1);
  }, budgetMs);
  watchdog.unref();

  try {
    const sandboxUrl = await startTarget('sandbox', children);
    const catalog = await fetchCatalog(sandboxUrl);
    const nextCorrelationId = correlationIds();
    await probeTopup(sandboxUrl, catalog.amount, nextCorrelationId);
    const bareUrl = await startTarget('bare', children, { bytes: catalog.bytes, contentType: catalog.contentType });
    const getOptions = (url: string): AutocannonOptions => ({ url: `${url}${SKUS_PATH}`, headers: { authorization: AUTH } });
    let nonSuccess = 0;
    // Comparing each 400 KB body (autocannon's expectBody) would make the load generator the bottleneck of both GET
    // runs; the response size is a cheap check that every answer was the full catalog.
    let shortBodies = 0;
    const countShort = (_client: unknown, _status: number, resBytes: number): void => {
      if (resBytes < catalog.bytes.length) shortBodies += 1;
    };
    const resetShort = (): void => {
      shortBodies = 0;
    };
    const scenarios: Array<Scenario & { target: string }> = [
      {
        name: 'bare node:http GET (same bytes)',
        method: 'GET',
        path: SKUS_PATH,
        target: bareUrl,
        options: getOptions,
        onResponse: countShort,
        beforeMeasured: resetShort,
        bad: () => shortBodies,
      },
      {
        name: 'sandbox GET v2 catalog/skus',
        method: 'GET',
        path: SKUS_PATH,
        target: sandboxUrl,
        options: getOptions,
        onResponse: countShort,
        beforeMeasured: resetShort,
        bad: () => shortBodies,
      },
      {
        name: 'sandbox POST v2 transaction/topup',
        method: 'POST',
        path: TOPUP_PATH,
        target: sandboxUrl,
        options: (url) => ({
          url,
          requests: [
            {
              method: 'POST',
              path: TOPUP_PATH,
              headers: { authorization: AUTH, 'content-type': 'application/json' },
              // A fresh correlationId per request: the sandbox treats a repeated one as a duplicate, not a new top-up.
              setupRequest: (request) => ({ ...request, body: topupBody(catalog.amount, nextCorrelationId()) }),
              onResponse: (status, body) => {
                if (status === 200 && !body.includes('"responseCode":"000"')) nonSuccess += 1;
              },
            },
          ],
        }),
        bad: () => nonSuccess,
        beforeMeasured: () => {
          nonSuccess = 0;
        },
      },
    ];

    const rows: ScenarioFigures[] = [];
    for (const scenario of scenarios) {
      process.stderr.write(
        `bench: ${scenario.name} (${config.warmupSec} s warm-up, ${config.durationSec} s measured, ${config.connections} connections)\n`,
      );
      rows.push(await measure(scenario, scenario.target, config));
    }

    const [bare, get, post] = rows as [ScenarioFigures, ScenarioFigures, ScenarioFigures];
    const getRatio = ratio(get.reqPerSec, bare.reqPerSec);
    const postRatio = ratio(post.reqPerSec, bare.reqPerSec);
    const targetMet = getRatio >= GET_RATIO_TARGET;
    const clean = rows.every((r) => r.errors === 0 && r.non2xx === 0 && r.bad === 0);

    process.stdout.write(`${table(rows)}\n\n`);
    process.stdout.write(
      `ratio sandbox/bare GET  ${getRatio.toFixed(2)}  (target >= ${GET_RATIO_TARGET}: ${targetMet ? 'met' : 'NOT met'})\n`,
    );
    process.stdout.write(`ratio sandbox/bare POST ${postRatio.toFixed(2)}  (top-up vs the bare catalog GET; no target)\n`);
    if (!clean) process.stdout.write('warning: some responses were errors, non-2xx or not the expected result (see the table)\n');

    const report = {
      generatedAt: new Date().toISOString(),
      node: process.version,
      cpus: availableParallelism(),
      connections: config.connections,
      durationSec: config.durationSec,
      warmupSec: config.warmupSec,
      catalogBytes: catalog.bytes.length,
      scenarios: rows,
      ratios: { getSandboxOverBare: getRatio, postSandboxOverBareGet: postRatio },
      target: { getSandboxOverBare: GET_RATIO_TARGET, met: targetMet },
      clean,
    };
    await mkdir(dirname(config.out), { recursive: true });
    await writeFile(config.out, `${JSON.stringify(report, null, 2)}\n`);
    process.stdout.write(`figures written to ${config.out}\n`);
    if (!clean) return 1;
    return config.failBelowTarget && !targetMet ? 1 : 0;
  } finally {
    clearTimeout(watchdog);
    for (const child of children) {
      child.removeAllListeners('exit');
      child.kill('SIGTERM');
    }
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
