// `gateway-harness load` and `build` in-process: bad flags exit 2 with one line, charging scenarios are refused against
// production before anything is sent, the Node engine route is the one honest refusal, --list and --help work.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCENARIO_NAMES } from '../../load/scenarios.ts';
import { PROFILE_NAMES } from '../../load/profiles.ts';
import { runCli } from '../fixtures/run-cli.ts';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
const BIN = resolve(ROOT, 'bin', 'gateway-harness.mjs');

/** A target that counts what reaches it: "nothing sent" is measured, not assumed. */
let server: Server;
let target: string;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests += 1;
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"responseCode":"000","responseMessage":null,"payLoad":[]}');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  target = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
});

describe('gateway-harness load flags', () => {
  const bad: Array<[string[], RegExp, Record<string, string>?]> = [
    [[], /--scenario is required \(one of catalog-browse, topup-flow/],
    [['--scenario', 'browse'], /--scenario must be one of catalog-browse, topup-flow, giftcard-flow, lookup, mixed, v1-v2/],
    [['--scenario', 'lookup', '--profile', 'heavy'], /--profile must be one of smoke, load, stress, spike, soak, breakpoint/],
    [['--scenario', 'lookup', '--engine', 'jmeter'], /--engine must be one of auto, k6, node/],
    [['--scenario', 'lookup', '--api', 'v3'], /--api must be v1, v2 or both/],
    [['--scenario', 'lookup', '--vus', '0'], /--vus must be at least 1/],
    [['--scenario', 'lookup', '--vus', '1.5'], /--vus must be a whole number of at least 1/],
    [['--scenario', 'lookup', '--vus', '-1'], /--vus must be at least 1/],
    [
      ['--scenario', 'lookup', '--engine', 'node', '--vus', '100000', '--duration', '2s'],
      /--vus 100000: the Node engine needs about 48\.8 GB for that many VUs \(0\.5 MB each, measured\)/,
    ],
    [['--scenario', 'lookup', '--duration', '10'], /--duration must be a k6 duration of at least 1s/],
    [['--scenario', 'lookup', '--profile', 'load', '--rate', '0'], /--rate must be greater than 0/],
    [
      ['--scenario', 'lookup', '--rate', '5'],
      /--rate applies to the arrival-rate profiles \(load, stress, spike, soak, breakpoint\), not to smoke/,
    ],
    [['--scenario', 'lookup', '--threshold', 'http_req_duration'], /--threshold: threshold "http_req_duration" must be metric:expression/],
    [['--scenario', 'lookup', '--threshold', 'gateway_failed:rate<lots'], /--threshold: threshold expression "rate<lots"/],
    [['--scenario', 'lookup', '--out', 'csv=x.csv'], /--out must be json=FILE .* or prometheus=URL/],
    [
      ['--scenario', 'lookup', '--dashboard', '--out', 'json=m.ndjson.gz'],
      /--dashboard reads the metric stream while it is written: give --out json=FILE without \.gz/,
    ],
    [
      ['--scenario', 'lookup', '--out', 'prometheus=http://127.0.0.1:9/w'],
      /--out prometheus: K6_PROMETHEUS_RW_TREND_STATS: unknown stat "p95"/,
      { K6_PROMETHEUS_RW_TREND_STATS: 'p95' },
    ],
    [
      ['--scenario', 'lookup', '--engine', 'k6', '--threshold', 'http_req_durration:p(95)<100'],
      /--threshold: unknown metric "http_req_durration" \(did you mean http_req_duration\?\)/,
    ],
    [
      ['--scenario', 'lookup', '--engine', 'node', '--threshold', 'http_req_durration:p(95)<100'],
      /--threshold: unknown metric "http_req_durration" \(did you mean http_req_duration\?\)/,
    ],
    [
      ['--scenario', 'lookup', '--threshold', 'http_reqs:p(95)<100'],
      /--threshold: "p\(95\)<100" does not apply to http_reqs, a counter: use count, rate/,
    ],
    [['--scenario', 'v1-v2', '--api', 'v2'], /--scenario v1-v2 compares v1 and v2: it needs --api both/],
    [['--scenario', 'lookup', '--funds', '-5'], /--funds must be a decimal number greater than 0 and at most 1000000000000/],
    [['--scenario', 'lookup', '--funds', '100', '--target', 'http://127.0.0.1:9'], /--funds sets the embedded sandbox's starting balance/],
  ];
  it.each(bad)('%j exits 2 with one line', async (args, message, env = {}) => {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    let run;
    try {
      run = await runCli(['load', ...args]);
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    const { code, stderr } = run;
    expect(code).toBe(2);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^gateway-harness: GH_ERR_USAGE: /);
    expect(stderr).toMatch(message);
  });

  it('--help lists every flag', async () => {
    const { code, stdout } = await runCli(['load', '--help']);
    expect(code).toBe(0);
    for (const flag of [
      '--scenario',
      '--profile',
      '--engine',
      '--target',
      '--report-dir',
      '--out',
      '--vus',
      '--duration',
      '--rate',
      '--threshold',
      '--api',
      '--funds',
      '--target-env',
      '-u, --vus',
      '-d, --duration',
      '-i, --iterations',
      '-e, --env-var',
      '-o, --out',
      '--summary-export',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it('--list prints every scenario and profile', async () => {
    const { code, stdout } = await runCli(['load', '--list']);
    expect(code).toBe(0);
    for (const name of [...SCENARIO_NAMES, ...PROFILE_NAMES]) expect(stdout).toMatch(new RegExp(`^  ${name}\\t`, 'm'));
  });
});

describe("k6's flags on a run", () => {
  it("-u 1 -i 3 runs exactly 3 iterations; --summary-export writes k6's summary-export JSON; -e is taken", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-load-k6-flags-'));
    try {
      const exported = join(dir, 'export', 'summary-export.json');
      const run = await runCli([
        'load',
        '--scenario',
        'lookup',
        '--engine',
        'node',
        '-u',
        '1',
        '-i',
        '3',
        '-e',
        'MY_FLAG=on',
        '--summary-export',
        exported,
        '--report-dir',
        join(dir, 'r'),
      ]);
      expect(run.code, run.stderr.slice(-2000)).toBe(0);
      const data = JSON.parse(readFileSync(exported, 'utf8')) as { metrics: Record<string, Record<string, unknown>>; root_group: unknown };
      expect(data.metrics.iterations).toMatchObject({ count: 3 });
      expect(data.metrics.vus_max).toMatchObject({ value: 1 });
      expect(data.root_group).toBeDefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('gateway-harness load refusals', () => {
  /** A scenario on k6 against the counting target, declared production: what the money refusal is asked about. */
  const onProduction = (scenario: string): string[] => [
    'load',
    '--scenario',
    scenario,
    '--target',
    target,
    '--target-env',
    'production',
    '--engine',
    'k6',
  ];

  it.each(['topup-flow', 'giftcard-flow', 'mixed'])(
    'refuses charging scenario %s against production: exit 2, one line, nothing sent',
    async (scenario) => {
      const before = requests;
      const { code, stderr } = await runCli(onProduction(scenario));
      expect(code).toBe(2);
      expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(
        new RegExp(`^gateway-harness: GH_ERR_CHARGES: load ${scenario} sends charging operations \\(.*\\) and the target is production`),
      );
      expect(requests).toBe(before);
    },
  );

  it('lets a read-only scenario go on against production (past the refusal, to the engine choice), still sending nothing here', async () => {
    const before = requests;
    const saved = process.env.K6_BIN;
    // An explicit K6_BIN that is no executable stops the run at the engine choice: the step after the money refusal.
    process.env.K6_BIN = join(tmpdir(), 'no-such-k6-binary');
    try {
      const { code, stderr } = await runCli(onProduction('catalog-browse'));
      expect(code).toBe(2);
      expect(stderr).toMatch(/^gateway-harness: GH_ERR_CONFIG: K6_BIN=.*no-such-k6-binary is not an executable file\n$/);
    } finally {
      if (saved === undefined) delete process.env.K6_BIN;
      else process.env.K6_BIN = saved;
    }
    expect(requests).toBe(before);
  });
});

describe('gateway-harness load: report directory and --out (#23 small findings)', () => {
  it('--report-dir /proc/foo fails once with one line naming the directory (a child process: the old code spun forever)', async () => {
    const child = spawn(process.execPath, [BIN, 'load', '--scenario', 'lookup', '--report-dir', '/proc/foo'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    const code = await new Promise<number | null>((done) => child.on('exit', (c) => done(c)));
    clearTimeout(timer);
    expect(code).toBe(2);
    expect(stderr).toBe('gateway-harness: GH_ERR_USAGE: --report-dir: cannot create /proc/foo (ENOENT)\n');
  });

  it.each(['summary.json', 'junit.xml', 'k6-summary.json', 'ledger.jsonl'])(
    '--out json=<report dir>/%s is refused before anything is sent: exit 2, one line',
    async (file) => {
      const dir = mkdtempSync(join(tmpdir(), 'gh-out-'));
      const before = requests;
      try {
        const { code, stderr } = await runCli([
          'load',
          '--scenario',
          'catalog-browse',
          '--engine',
          'node',
          '--target',
          target,
          '--report-dir',
          dir,
          '--out',
          `json=${join(dir, file)}`,
        ]);
        expect(code).toBe(2);
        expect(stderr).toMatch(
          new RegExp(
            `^gateway-harness: GH_ERR_USAGE: --out json=.*: ${file.replace('.', '\\.')} in the report directory is a file the run writes itself`,
          ),
        );
        expect(requests).toBe(before);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('gateway-harness build', () => {
  it('bundles every entry into the output directory', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gh-build-'));
    try {
      const { code, stdout } = await runCli(['build', '--out-dir', dir]);
      expect(code).toBe(0);
      expect(readdirSync(dir).sort()).toEqual(SCENARIO_NAMES.map((name) => `${name}.js`).sort());
      expect(stdout).toMatch(/build: 6 k6 bundles/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
