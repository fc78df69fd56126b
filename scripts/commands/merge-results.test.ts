// `gateway-harness merge-results` end to end through the CLI: the verdict line first, one line per instance, the exit
// code of the merged verdict (0 / 99), and one-line usage errors when it has nothing to judge the run by.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { instanceLines } from '../../distributed/bench/ndjson-generator.ts';
import { runCli } from '../fixtures/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'gh-merge-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  process.exitCode = undefined;
});

const files = [0, 1].map((instance) => {
  const file = join(dir, `pod-${instance}.ndjson`);
  writeFileSync(file, `${[...instanceLines({ instance, iterations: 200, failureRate: 0 })].join('\n')}\n`);
  return file;
});

function plan(name: string, thresholds: Record<string, string[]>): string {
  const file = join(dir, name);
  writeFileSync(
    file,
    JSON.stringify({
      schema: 'gateway-harness/distributed-run/1',
      run: { scenario: 'mixed', profile: 'load', api: 'both', target: 'https://gw.example.test' },
      thresholds,
    }),
  );
  return file;
}

describe('merge-results', () => {
  it('prints the verdict first, then what it merged; exit 0 when the thresholds hold', async () => {
    const r = await runCli([
      'merge-results',
      ...files,
      '--thresholds',
      plan('held.json', { iterations: ['count==400'], http_req_duration: ['p(95)<60000'] }),
      '--report-dir',
      join(dir, 'held'),
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^PASS: load mixed\/load \(k6\)/);
    expect(lines[1]).toMatch(/^merged 2 instance file\(s\), \d+ points, run of [\d.]+ s; thresholds from run plan /);
    expect(lines.filter((l) => /pod-\d\.ndjson: \d+ points \(instance_id \d\)/.test(l))).toHaveLength(2);
    expect(lines.at(-1)).toMatch(/^reports: .*summary\.json, .*junit\.xml, .*summary\.md, .*report\.html$/);
  });

  it('exits 99 when the whole run crosses a threshold', async () => {
    const r = await runCli([
      'merge-results',
      ...files,
      '--thresholds',
      plan('crossed.json', { iterations: ['count>400'] }),
      '--report-dir',
      join(dir, 'crossed'),
    ]);
    expect(r.code).toBe(99);
    expect(r.stdout).toMatch(/^THRESHOLDS CROSSED: .*iterations count>400/);
  });

  it.each([
    [['merge-results', 'x.ndjson'], /no thresholds to judge the run by: give --thresholds FILE/],
    [['merge-results', 'x.ndjson', '--thresholds', 'a.json', '--scenario', 'mixed'], /--thresholds FILE already holds the thresholds/],
    [['merge-results', 'x.ndjson', '--scenario', 'nope', '--profile', 'load'], /--scenario must be one of/],
    [['merge-results', '--scenario', 'mixed', '--profile', 'load'], /no NDJSON file given/],
  ])('usage error, one line, exit 2: %j', async (args, message) => {
    const r = await runCli(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it('a file that cannot be read is a config error (exit 2)', async () => {
    const r = await runCli(['merge-results', join(dir, 'missing.ndjson'), '--scenario', 'mixed', '--profile', 'load']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^gateway-harness: GH_ERR_CONFIG: cannot read .*missing\.ndjson: ENOENT/);
  });

  it("a gzip cut short (a killed pod's file): the verdict first (incomplete, exit 1), the file named, reports written", async () => {
    const gz = gzipSync(`${[...instanceLines({ instance: 2, iterations: 200, failureRate: 0 })].join('\n')}\n`);
    const cut = join(dir, 'pod-2.ndjson.gz');
    writeFileSync(cut, gz.subarray(0, Math.floor(gz.length * 0.7)));
    const r = await runCli([
      'merge-results',
      ...files,
      cut,
      '--thresholds',
      plan('cut.json', { http_req_duration: ['p(95)<60000'] }),
      '--report-dir',
      join(dir, 'cut'),
    ]);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(
      /^INCOMPLETE: GH_ERR_PARSE: 1 of 3 input\(s\) could not be read to the end, merged up to there: .*pod-2\.ndjson\.gz \(unexpected end of file/,
    );
    expect(r.stderr).toMatch(/warning: .*pod-2\.ndjson\.gz: cut short after \d+ lines/);
    expect(r.stderr).not.toMatch(/GH_ERR_INTERNAL/);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^reports: .*summary\.json/);
  });

  it("the same instance's file given twice: a usage error naming it (exit 2), never counted twice", async () => {
    const r = await runCli([
      'merge-results',
      ...files,
      files[0] as string,
      '--thresholds',
      plan('twice.json', { iterations: ['count==400'] }),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/GH_ERR_USAGE: .*pod-0\.ndjson is given twice/);
  });
});
