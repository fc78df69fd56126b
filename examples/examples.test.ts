// The CI examples parse as YAML and do what the README promises: run the gate against $GATEWAY_BASE_URL with
// credentials from CI secrets, keep the report directory, publish junit.xml and (GitHub) the step summary.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { RECOMMENDED_NODE_LINE } from '../scripts/test-node.ts';

const GATE = 'npx gateway-harness gate --target $GATEWAY_BASE_URL --report-dir reports/out/ci';
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
    expect(summary?.if).toBe('always()');
    expect(summary?.run).toContain('cat reports/out/ci/summary.md >> "$GITHUB_STEP_SUMMARY"');
    const upload = job.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect([upload?.if, upload?.with?.path]).toEqual(['always()', 'reports/out/ci']);
    const junit = job.steps.find((s) => s.with?.report_paths !== undefined);
    expect([junit?.if, junit?.with?.report_paths]).toEqual(['always()', 'reports/out/ci/junit.xml']);
  });
});

describe('examples/gitlab-ci.yml', () => {
  const pipeline = read('gitlab-ci.yml') as { 'gateway-gate': { image: string; script: string[]; artifacts: { when: string; paths: string[]; reports: { junit: string } } } };
  const job = pipeline['gateway-gate'];

  it('runs on the recommended Node', () => {
    expect(job.image).toBe(`node:${RECOMMENDED_NODE_LINE}-bookworm`);
  });

  it('runs the gate and keeps the report dir and junit.xml even when the gate fails', () => {
    expect(job.script).toContain(GATE);
    expect(job.artifacts.when).toBe('always');
    expect(job.artifacts.paths).toEqual(['reports/out/ci/']);
    expect(job.artifacts.reports.junit).toBe('reports/out/ci/junit.xml');
  });
});

const LOAD = 'npx gateway-harness load --scenario mixed --profile load --duration 5m --target $GATEWAY_BASE_URL --report-dir reports/out/load "$@"';

describe('baseline-then-compare (README "CI gate")', () => {
  it('GitHub: fetches the last green run\'s load report dir, compares with it, keeps this run\'s as the next baseline', () => {
    const workflow = read('github-actions.yml') as { permissions: Record<string, string>; jobs: { gate: { steps: Step[] } } };
    const steps = workflow.jobs.gate.steps;
    const baseline = steps.find((s) => s.run?.includes('gh run download') === true);
    expect(baseline?.run).toMatch(/gh run list .*--status success .*\n.*gh run download "\$id" --name gateway-harness-load --dir baseline/s);
    expect(workflow.permissions.actions).toBe('read');
    const load = steps.find((s) => s.run?.includes(LOAD) === true);
    expect(load?.run).toContain('set -- --compare-with baseline');
    expect(steps.indexOf(baseline as Step)).toBeLessThan(steps.indexOf(load as Step));
    const keep = steps.find((s) => s.with?.name === 'gateway-harness-load');
    expect([keep?.if, keep?.with?.path]).toEqual(['always()', 'reports/out/load']);
  });

  it('GitLab: the gateway-load job takes its own artifact from the latest green pipeline as the baseline', () => {
    const pipeline = read('gitlab-ci.yml') as { 'gateway-load': { before_script: string[]; script: string[]; artifacts: { when: string; paths: string[]; reports: { junit: string } } } };
    const job = pipeline['gateway-load'];
    expect(job.before_script.join('\n')).toContain('/jobs/artifacts/$CI_DEFAULT_BRANCH/download?job=gateway-load');
    expect(job.script).toContain(LOAD);
    expect(job.script.join('\n')).toContain('--compare-with baseline');
    expect([job.artifacts.when, job.artifacts.paths, job.artifacts.reports.junit]).toEqual(['always', ['reports/out/load/'], 'reports/out/load/junit.xml']);
  });
});

describe('no credential in an example', () => {
  it.each(['github-actions.yml', 'gitlab-ci.yml'])('%s names the variables, never a value', (name) => {
    const text = readFileSync(new URL(name, import.meta.url), 'utf8');
    expect(text).not.toMatch(/GATEWAY_PASSWORD\s*[:=]\s*['"]?[A-Za-z0-9]/);
    expect(text).not.toMatch(/Basic\s+[A-Za-z0-9+/=]{8,}/);
  });
});
