// `npm run test:node`: its arguments, where it caches the binaries, and that the pinned releases are the ones the
// package's `engines`, the README and the CI script state.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeCacheDir, NODE_VERSIONS, parseArgs, RECOMMENDED_NODE_LINE } from './test-node.ts';

const root = (file: string): string => readFileSync(new URL(`../${file}`, import.meta.url), 'utf8');

/** `^X.Y.Z` ranges joined by `||`, as `engines` writes them: does one admit the version? */
function admits(engines: string, version: string): boolean {
  const [major, minor, patch] = version.split('.').map(Number) as [number, number, number];
  return engines.split('||').some((range) => {
    const m = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(range);
    if (m === null) throw new Error(`engines range ${range} is not ^X.Y.Z`);
    const [lo, loMinor, loPatch] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return major === lo && (minor > loMinor || (minor === loMinor && patch >= loPatch));
  });
}

describe('test:node arguments', () => {
  it.each([
    [['24'], ['npm', 'test']],
    [
      ['22', '--quick'],
      ['npm', 'run', 'test:quick'],
    ],
    [
      ['20', '--', 'npm', 'run', 'bench:merge'],
      ['npm', 'run', 'bench:merge'],
    ],
  ])('%j runs %j', (argv, command) => {
    expect(parseArgs(argv).command).toEqual(command);
  });

  it.each([[[]], [['19']], [['24', '--fast']], [['24', '--']], [['24', '--quick', '--', 'node', '-v']]])('%j is a usage error', (argv) => {
    expect(() => parseArgs(argv)).toThrow(/usage: npm run test:node -- <20\|22\|24>/);
  });

  it('caches outside the repository, where GATEWAY_HARNESS_NODE_CACHE or XDG_CACHE_HOME says', () => {
    expect(nodeCacheDir({ GATEWAY_HARNESS_NODE_CACHE: '/var/cache/n' })).toBe('/var/cache/n');
    expect(nodeCacheDir({ XDG_CACHE_HOME: '/xdg' })).toBe('/xdg/gateway-harness/node');
  });
});

describe('the supported Node versions, said the same everywhere', () => {
  it('20, 22 and 24, recommending 24', () => {
    expect(Object.keys(NODE_VERSIONS).sort()).toEqual(['20', '22', '24']);
    expect(RECOMMENDED_NODE_LINE).toBe('24');
  });

  it('package.json engines admits every pinned release, and not the lines between', () => {
    const engines = (JSON.parse(root('package.json')) as { engines: { node: string } }).engines.node;
    for (const version of Object.values(NODE_VERSIONS)) expect(admits(engines, version), `${engines} admits ${version}`).toBe(true);
    expect(admits(engines, '21.7.3')).toBe(false);
    expect(admits(engines, '20.18.0')).toBe(false);
  });

  it('the docs name the pinned releases, the README the recommended line; .ci/run tests on every line', () => {
    const readme = root('README.md');
    for (const version of Object.values(NODE_VERSIONS)) expect(root('docs/reference.md')).toContain(version);
    expect(readme).toMatch(new RegExp(`Node\\.js \\*\\*${RECOMMENDED_NODE_LINE}\\*\\* \\(active LTS, recommended\\)`));
    const ci = root('.ci/run');
    for (const line of Object.keys(NODE_VERSIONS)) expect(ci).toMatch(new RegExp(`npm run test:node -- ${line}\\b`));
  });
});
