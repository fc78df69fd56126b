// The CI examples parse as YAML and do what the README promises: run the gate against $GATEWAY_BASE_URL with
// credentials from CI secrets, keep the report directory, publish junit.xml and (GitHub) the step summary; record the
// load baseline on pushes to the default branch and compare on pull requests; run the load on a pinned, checked k6.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RECOMMENDED_NODE_LINE } from '../scripts/test-node.ts';

const GATE = 'npx gateway-harness gate --engine k6 --target $GATEWAY_BASE_URL --report-dir reports/out/ci';
const UNLESS_CANCELLED = '${{ !cancelled() }}';
const read = (name: string): unknown => parse(readFileSync(new URL(name, import.meta.url), 'utf8'), { strict: true, uniqueKeys: true });

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly if?: string;
  readonly with?: Record<string, unknown>;
}

describe('examples/github-actions.yml', () => {
  const workflow = read('github-actions.yml') as { jobs: { gate: { env: Record<string, string>; steps: Step[] } } };
  const job = workflow.jobs.gate;

  it('runs on the recommended Node', () => {
    const setup = job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(String(setup?.with?.['node-version'])).toBe(RECOMMENDED_NODE_LINE);
  });

  it('runs the gate with credentials from secrets', () => {
    expect(job.steps.some((s) => s.run === GATE)).toBe(true);
    expect(job.env).toMatchObject({ GATEWAY_USER: '${{ secrets.GATEWAY_USER }}', GATEWAY_PASSWORD: '${{ secrets.GATEWAY_PASSWORD }}' });
  });

  it('always writes summary.md to the step summary, uploads the report dir and publishes junit.xml', () => {
    const summary = job.steps.find((s) => s.run?.includes('$GITHUB_STEP_SUMMARY'));
    expect(summary?.if).toBe(UNLESS_CANCELLED);
    expect(summary?.run).toContain('cat reports/out/ci/summary.md >> "$GITHUB_STEP_SUMMARY"');
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect([upload?.if, upload?.with?.path]).toEqual([UNLESS_CANCELLED, 'reports/out/ci']);
    const junit = job.steps.find((s) => s.with?.report_paths !== undefined);
    expect([junit?.if, junit?.with?.report_paths]).toEqual([UNLESS_CANCELLED, 'reports/out/ci/junit.xml']);
  });

  it('guards its reporting steps with !cancelled(), never always() (a cancelled run must stop)', () => {
    const text = readFileSync(new URL('github-actions.yml', import.meta.url), 'utf8');
    expect(text).not.toMatch(/always\(\)/);
    const guarded = job.steps.filter((s) => s.if !== undefined);
    expect(guarded.length).toBeGreaterThanOrEqual(8);
    for (const step of guarded) expect(step.if, step.name).toMatch(/^\$\{\{ !cancelled\(\)( && .*)? \}\}$/);
  });

  it('installs a pinned k6 release, checks its sha256 before use, and the gate and the load run on it', () => {
    const install = job.steps.find((s) => s.run?.includes('grafana/k6/releases/download') === true) as Step & {
      env: Record<string, string>;
    };
    expect(install.env.K6_VERSION).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(install.env.K6_SHA256).toMatch(/^[0-9a-f]{64}$/);
    const lines = (install.run ?? '').split('\n');
    const check = lines.findIndex((l) => /sha256sum -c -$/.test(l) && l.includes('${K6_SHA256}'));
    const unpack = lines.findIndex((l) => l.startsWith('tar '));
    expect(check).toBeGreaterThan(-1);
    expect(check).toBeLessThan(unpack);
    expect(install.run).toContain('K6_BIN=');
    const gate = job.steps.findIndex((s) => s.run === GATE);
    expect(job.steps.indexOf(install)).toBeLessThan(gate);
    for (const step of job.steps.filter((s) => s.run?.includes('npx gateway-harness') === true))
      expect(step.run).toMatch(/gateway-harness (gate|load) --engine k6 /);
  });

  it('records the load baseline on pushes to the default branch and compares on pull requests', () => {
    const on = (read('github-actions.yml') as { on: { push: { branches: string[] }; pull_request: unknown } }).on;
    expect(on.push.branches).toEqual(['main']);
    expect('pull_request' in on).toBe(true);
    const fetch = job.steps.find((s) => s.run?.includes('gh run download') === true);
    expect(fetch?.if).toBe("${{ !cancelled() && github.event_name == 'pull_request' }}");
    expect(fetch?.run).toMatch(
      /gh run list .*--branch "\$\{\{ github\.event\.repository\.default_branch \}\}" --event push --status success/,
    );
    const record = job.steps.find((s) => s.with?.name === 'gateway-harness-load');
    expect(record?.if).toBe("${{ !cancelled() && github.event_name == 'push' }}");
  });
});

describe('examples/gitlab-ci.yml', () => {
  const pipeline = read('gitlab-ci.yml') as Record<
    string,
    { image?: string; script: string[]; before_script?: string[]; artifacts: { when: string; paths: string[]; reports: { junit: string } } }
  > & {
    default: { image: string; before_script: string[] };
    variables: Record<string, string>;
  };
  const job = pipeline['gateway-gate'] as { script: string[]; artifacts: { when: string; paths: string[]; reports: { junit: string } } };

  it('runs every job on one Node, the recommended one', () => {
    expect(pipeline.default.image).toBe(`node:${RECOMMENDED_NODE_LINE}-bookworm`);
    const jobs = Object.entries(pipeline).filter(([name]) => name.startsWith('gateway-'));
    expect(jobs.length).toBe(2);
    for (const [name, j] of jobs) expect(j.image, name).toBeUndefined();
  });

  it('installs a pinned k6 release with its sha256 checked, for every job, and runs the load on it', () => {
    expect(pipeline.variables.K6_VERSION).toMatch(/^v\d+\.\d+\.\d+$/);
    expect(pipeline.variables.K6_SHA256).toMatch(/^[0-9a-f]{64}$/);
    const before = pipeline.default.before_script.join('\n');
    expect(before).toMatch(/echo "\$\{K6_SHA256\} {2}\/tmp\/k6\.tar\.gz" \| sha256sum -c -\s+&& tar -xzf/);
    expect(before).toContain('export K6_BIN=');
    for (const [name, j] of Object.entries(pipeline).filter(([n]) => n.startsWith('gateway-')))
      expect(j.before_script, name).toBeUndefined();
    expect(job.script).toContain(GATE);
  });

  it('runs the gate and keeps the report dir and junit.xml even when the gate fails', () => {
    expect(job.script).toContain(GATE);
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.paths).toEqual(['reports/out/ci/']);
    expect(job.artifacts.reports.junit).toBe('reports/out/ci/junit.xml');
  });
});

const LOAD =
  'npx gateway-harness load --engine k6 --scenario mixed --profile load --duration 5m --target $GATEWAY_BASE_URL --report-dir reports/out/load "$@"';

describe('baseline-then-compare (README "CI gate")', () => {
  it("GitHub: fetches the last green run's load report dir, compares with it, keeps this run's as the next baseline", () => {
    const workflow = read('github-actions.yml') as { permissions: Record<string, string>; jobs: { gate: { steps: Step[] } } };
    const steps = workflow.jobs.gate.steps;
    const baseline = steps.find((s) => s.run?.includes('gh run download') === true);
    expect(baseline?.run).toMatch(
      /gh run list .*--status success .*\n.*gh run download "\$id" --name gateway-harness-load --dir baseline/s,
    );
    expect(workflow.permissions.actions).toBe('read');
    const load = steps.find((s) => s.run?.includes(LOAD) === true);
    expect(load?.run).toContain('set -- --compare-with baseline');
    expect(steps.indexOf(baseline as Step)).toBeLessThan(steps.indexOf(load as Step));
    const keep = steps.find((s) => s.with?.name === 'gateway-harness-load');
    expect(keep?.with?.path).toBe('reports/out/load');
  });

  it('GitLab: the gateway-load job takes its own artifact from the latest green pipeline as the baseline', () => {
    const pipeline = read('gitlab-ci.yml') as {
      'gateway-load': { script: string[]; artifacts: { when: string; paths: string[]; reports: { junit: string } } };
    };
    const job = pipeline['gateway-load'];
    expect(job.script.join('\n')).toContain('/jobs/artifacts/$CI_DEFAULT_BRANCH/download?job=gateway-load');
    expect(job.script).toContain(LOAD);
    expect(job.script.join('\n')).toContain('--compare-with baseline');
    expect([job.artifacts.when, job.artifacts.paths, job.artifacts.reports.junit]).toEqual([
      'always',
      ['reports/out/load/'],
      'reports/out/load/junit.xml',
    ]);
  });
});

describe('no credential in an example', () => {
  it.each(['github-actions.yml', 'gitlab-ci.yml'])('%s names the variables, never a value', (name) => {
    const text = readFileSync(new URL(name, import.meta.url), 'utf8');
    expect(text).not.toMatch(/GATEWAY_PASSWORD\s*[:=]\s*['"]?[A-Za-z0-9]/);
    expect(text).not.toMatch(/Basic\s+[A-Za-z0-9+/=]{8,}/);
  });
});
