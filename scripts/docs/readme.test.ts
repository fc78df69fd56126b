// The README a newcomer reads in five minutes: short, with the two commands, links that resolve, and a verdict line
// whose case and threshold counts are computed here (the request count is checked against a real gate run).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_GEN_BUDGET } from '../../conformance/gen/options.ts';
import { planWithGen } from '../../conformance/gen/plan.ts';
import { GATE_LOAD } from '../../gate/run-gate.ts';
import { buildK6Options } from '../../load/profiles.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const README = readFileSync(`${ROOT}README.md`, 'utf8');

/** The README's example verdict line of `npm start`, as numbers. */
function readmeVerdictFigures(readme: string = README): { cases: number; requests: number; thresholds: number; checks: number } {
  const m =
    /^PASS: conformance: all (\d+) cases passed; load mixed\/smoke \(node\): (\d+) requests, (\d+) thresholds met, (\d+) checks passed( \[target: [^\]]*\])?$/m.exec(
      readme,
    );
  if (m === null) throw new Error('README has no example verdict line');
  return { cases: Number(m[1]), requests: Number(m[2]), thresholds: Number(m[3]), checks: Number(m[4]) };
}

describe('README.md', () => {
  it('is at most 200 lines and keeps the two commands', () => {
    expect(README.split('\n').length).toBeLessThanOrEqual(200);
    expect(README).toContain('npm ci && npm start');
    expect(README).toContain('npm test');
  });

  it('links only to files that exist (docs/ pages included)', () => {
    const links = [...README.matchAll(/\]\(([^)#]+)(#[^)]*)?\)/g)].map((m) => m[1] as string).filter((href) => !/^https?:/.test(href));
    expect(links).toEqual(
      expect.arrayContaining(['docs/ci-gate.md', 'docs/load-runs.md', 'docs/money.md', 'docs/distributed.md', 'docs/reference.md']),
    );
    for (const href of links) expect(existsSync(`${ROOT}${href}`), href).toBe(true);
  });

  it("the verdict line's conformance case count is the gate's plan", () => {
    expect(readmeVerdictFigures().cases).toBe(planWithGen({ api: 'both' }, { seed: 1, budget: DEFAULT_GEN_BUDGET }).length);
  });

  it("the verdict line's threshold count is the gate load's", () => {
    const options = buildK6Options({ ...GATE_LOAD, api: 'both', schemaChecks: true, timeToFinalBudgetMs: 1_000, iterationGraceMs: 1_000 });
    expect(readmeVerdictFigures().thresholds).toBe(Object.values(options.thresholds).reduce((n, list) => n + list.length, 0));
  });

  it('every docs/ page moved out of the README still carries its sections', () => {
    const pages = {
      'ci-gate.md': ['# CI gate', 'Baseline, then compare'],
      'load-runs.md': ['# Load runs', 'Watching a run live'],
      'money.md': ['# Running against production'],
      'distributed.md': ['# Distributed runs'],
      'reference.md': ['## Command reference', '## Operation coverage', '## Node versions', '## The embedded sandbox', '## Contract drift'],
    };
    for (const [page, headings] of Object.entries(pages)) {
      const text = readFileSync(`${ROOT}docs/${page}`, 'utf8');
      for (const heading of headings) expect(text, `${page}: ${heading}`).toContain(heading);
    }
  });
});
