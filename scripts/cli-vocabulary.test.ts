// k6's words where k6 has one, one meaning per flag: a table over every command of the flags it shows, the old
// spellings it still takes (with one deprecation line), and its help examples, each of which must parse.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { buildProgram } from './cli.ts';
import { runCli } from './fixtures/run-cli.ts';
import { HELP_EXAMPLES, commandPath } from './help-examples.ts';

afterEach(() => {
  process.exitCode = undefined;
});

function allCommands(cmd: Command): Command[] {
  return cmd.commands.filter((c) => c.name() !== 'help').flatMap((c) => [c, ...allCommands(c)]);
}

function find(program: Command, path: string): Command {
  let cmd: Command | undefined = program;
  for (const name of path.split(' ')) cmd = cmd?.commands.find((c) => c.name() === name);
  if (cmd === undefined) throw new Error(`no command ${path}`);
  return cmd;
}

/** The long flags a command's help shows (hidden ones left out), with their short forms. */
function shownFlags(cmd: Command): string[] {
  return cmd.options.filter((o) => !o.hidden).map((o) => o.flags.replace(/ [<[].*$/, ''));
}

/** A shell line's words (single quotes only, as the examples use them). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? (m[2] as string));
}

/** Parses argv with every action replaced: the options the command got and what the CLI said on stderr. */
async function parse(argv: readonly string[]): Promise<{ path: string; opts: Record<string, unknown>; warnings: string[] }> {
  const program = buildProgram();
  let got: { path: string; opts: Record<string, unknown> } | undefined;
  for (const cmd of allCommands(program))
    cmd.action((...args: unknown[]) => void (got = { path: commandPath(cmd), opts: (args.at(-1) as Command).opts() }));
  const warnings: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => (warnings.push(String(chunk).trimEnd()), true)) as typeof process.stderr.write;
  try {
    await program.parseAsync(['node', 'gateway-harness', ...argv]);
  } finally {
    process.stderr.write = write;
  }
  if (got === undefined) throw new Error(`no command ran for ${argv.join(' ')}`);
  return { ...got, warnings };
}

/** What each command must show: k6's spellings on load, one --seed, --sandbox-profile vs --profile, --target-env. */
const FLAGS: Readonly<Record<string, { readonly shows: readonly string[]; readonly hides?: readonly string[] }>> = {
  gate: { shows: ['--sandbox-profile', '--seed', '--target-env'], hides: ['--profile', '--gen-seed', '--env'] },
  conformance: { shows: ['--sandbox-profile', '--seed', '--target-env'], hides: ['--profile', '--gen-seed', '--env'] },
  fuzz: { shows: ['--sandbox-profile', '--seed', '--target-env'], hides: ['--profile', '--sandbox-seed', '--env'] },
  load: {
    shows: [
      '-u, --vus',
      '-d, --duration',
      '-i, --iterations',
      '-e, --env-var',
      '-o, --out',
      '--summary-export',
      '--profile',
      '--target-env',
    ],
    hides: ['--env', '--seed'],
  },
  'baseline record': { shows: ['--sandbox-profile', '--seed', '--target-env', '--out-dir'], hides: ['--profile', '--out'] },
  'baseline check': { shows: ['--sandbox-profile', '--seed', '--target-env'], hides: ['--profile'] },
  migrate: { shows: ['--sandbox-profile', '--seed', '--target-env'], hides: ['--profile'] },
  reconcile: { shows: ['--target-env'], hides: ['--env'] },
  sandbox: { shows: ['--sandbox-profile', '--seed'], hides: ['--profile'] },
  build: { shows: ['--out-dir'] },
  openapi: { shows: ['--out-file'], hides: ['--out'] },
  'engine run': { shows: ['-u, --vus', '-d, --duration', '-i, --iterations', '-e, --env', '-o, --out', '--summary-export'] },
  'k6-operator': { shows: ['--profile', '-u, --vus', '-d, --duration', '--target-env', '--out-dir'], hides: ['--env', '--out'] },
  'merge-results': { shows: ['--profile', '--target-env'], hides: ['--env'] },
  compare: { shows: ['--report-dir'] },
  discover: { shows: ['--target-env', '--write-config'], hides: ['--env', '--profile'] },
  calibrate: { shows: ['--scenario', '--target', '--budget', '--max-vus'], hides: ['--profile', '--env'] },
};

describe('every command: its flags, in k6 vocabulary, one meaning each', () => {
  const program = buildProgram();
  const leaves = allCommands(program).filter((c) => c.commands.length === 0);

  it('the table covers every runnable command', () => {
    expect(leaves.map(commandPath).sort()).toEqual(Object.keys(FLAGS).sort());
  });

  for (const [path, { shows, hides = [] }] of Object.entries(FLAGS)) {
    it(`${path} shows ${shows.join(' ')}${hides.length === 0 ? '' : `, not ${hides.join(' ')}`}`, () => {
      const flags = shownFlags(find(program, path));
      expect(flags).toEqual(expect.arrayContaining([...shows]));
      for (const flag of hides) expect(flags).not.toContain(flag);
    });
  }

  it('--profile is a load shape wherever it shows; a sandbox behaviour is --sandbox-profile', () => {
    for (const cmd of leaves) {
      const profile = cmd.options.find((o) => o.long === '--profile' && !o.hidden);
      if (profile !== undefined) expect(['load', 'k6-operator', 'merge-results']).toContain(commandPath(cmd));
      const sandbox = cmd.options.find((o) => o.long === '--sandbox-profile');
      if (sandbox !== undefined) expect(sandbox.description).toMatch(/behaviour profile/);
    }
  });

  it("--out is k6's output destinations wherever it shows (-o, --out on load and engine run); files and directories are --out-file, --out-dir", () => {
    for (const cmd of leaves) {
      const out = cmd.options.find((o) => o.long === '--out' && !o.hidden);
      if (out !== undefined)
        expect([commandPath(cmd), out.flags]).toEqual([expect.stringMatching(/^(load|engine run)$/), '-o, --out <output>']);
      for (const o of cmd.options.filter((x) => !x.hidden && /^--out-/.test(x.long ?? ''))) {
        expect(`${o.long ?? ''} ${o.flags}`).toMatch(/^--out-dir --out-dir <dir>$|^--out-file --out-file <file>$/);
      }
    }
  });

  it('build --help says the bundles are CommonJS', async () => {
    const run = await runCli(['build', '--help']);
    expect(run.stdout).toMatch(/CommonJS/);
    expect(run.stdout).not.toMatch(/\bESM\b/);
  });
});

describe('the old spellings: accepted for one release, one deprecation line each', () => {
  const CASES: readonly [string, readonly string[], string, unknown, RegExp | undefined][] = [
    ['gate', ['gate', '--profile', 'slow'], 'sandboxProfile', 'slow', /^gateway-harness: deprecated: --profile is now --sandbox-profile/],
    ['conformance', ['conformance', '--profile', 'slow'], 'sandboxProfile', 'slow', /--profile is now --sandbox-profile/],
    ['fuzz', ['fuzz', '--profile', 'slow'], 'sandboxProfile', 'slow', /--profile is now --sandbox-profile/],
    ['baseline record', ['baseline', 'record', '--profile', 'slow'], 'sandboxProfile', 'slow', /--profile is now --sandbox-profile/],
    ['migrate', ['migrate', '--profile', 'slow'], 'sandboxProfile', 'slow', /--profile is now --sandbox-profile/],
    ['sandbox', ['sandbox', '--profile', 'slow'], 'sandboxProfile', 'slow', /--profile is now --sandbox-profile/],
    [
      'gate --gen-seed',
      ['gate', '--gen-seed', '5'],
      'genSeed',
      '5',
      /--gen-seed seeds the GEN inputs alone: --seed seeds them and the sandbox catalog/,
    ],
    ['fuzz --sandbox-seed', ['fuzz', '--sandbox-seed', '3'], 'sandboxSeed', '3', /--sandbox-seed seeds the sandbox catalog alone/],
    ['gate --env', ['gate', '--env', 'production'], 'targetEnv', 'production', /--env sandbox\|production is now --target-env/],
    ['reconcile --env', ['reconcile', 'l.jsonl', '--env', 'sandbox'], 'targetEnv', 'sandbox', /is now --target-env/],
    ['k6-operator --env', ['k6-operator', '--env', 'production'], 'targetEnv', 'production', /is now --target-env/],
    ['merge-results --env', ['merge-results', '--env', 'production'], 'targetEnv', 'production', /is now --target-env/],
    // k6's own meaning of --env: a script variable, no note.
    ['load --env KEY=VALUE', ['load', '-e', 'A=1', '--env', 'B=2', '--env-var', 'C=3'], 'envVar', ['A=1', 'C=3', 'B=2'], undefined],
    ['load -u -d -i -o', ['load', '-u', '3', '-d', '20s', '-i', '9', '-o', 'json=m.ndjson'], 'iterations', '9', undefined],
  ];
  for (const [name, argv, attribute, value, note] of CASES) {
    it(name, async () => {
      const run = await parse(argv);
      expect(run.opts[attribute]).toEqual(value);
      if (note === undefined) expect(run.warnings).toEqual([]);
      else {
        expect(run.warnings).toHaveLength(1);
        expect(run.warnings[0]).toMatch(note);
        expect(run.warnings[0]).toMatch(/the old spelling goes in the next release$/);
      }
    });
  }

  it('the new spelling wins over the old one given with it', async () => {
    const run = await parse(['gate', '--sandbox-profile', 'faithful', '--profile', 'slow']);
    expect(run.opts.sandboxProfile).toBe('faithful');
  });

  it('--env KEY=VALUE on a command that runs no script is a usage error naming --target-env', async () => {
    const run = await runCli(['gate', '--env', 'FOO=1']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/GH_ERR_USAGE: --env FOO=\.\.\.: gate runs no k6 script .*--target-env sandbox\|production/);
  });
});

describe('the old --out of a command that writes a directory or a file: refused, one line naming the new flag', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gh-out-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const at = (name: string): string => join(dir, name);
  const K6_OUT = "--out means k6's outputs (load -o json=FILE) on every command";
  const CASES: readonly [string, readonly string[], string, string][] = [
    [
      'baseline record',
      ['baseline', 'record', '--out', at('baseline')],
      'baseline',
      `baseline record --out ${at('baseline')}: ${K6_OUT}; the baseline directory is --out-dir ${at('baseline')}`,
    ],
    [
      'k6-operator',
      ['k6-operator', '--scenario', 'lookup', '--parallelism', '2', '--target', 'http://gw.test', '--out', at('k8s')],
      'k8s',
      `k6-operator --out ${at('k8s')}: ${K6_OUT}; the directory of the files is --out-dir ${at('k8s')}`,
    ],
    [
      'openapi (--out=FILE)',
      ['openapi', `--out=${at('openapi.json')}`],
      'openapi.json',
      `openapi --out ${at('openapi.json')}: ${K6_OUT}; the document file is --out-file ${at('openapi.json')}`,
    ],
  ];
  for (const [name, argv, written, line] of CASES) {
    it(`${name}: exit 2, one line naming the new flag, nothing written`, async () => {
      const run = await runCli(argv);
      expect(run.code).toBe(2);
      expect(run.stderr).toBe(`gateway-harness: GH_ERR_USAGE: ${line}\n`);
      expect(run.stdout).toBe('');
      expect(existsSync(at(written))).toBe(false);
    });
  }
});

describe('an unknown command says so, with the nearest one', () => {
  it("lod --scenario x: unknown command 'lod', did you mean load", async () => {
    const run = await runCli(['lod', '--scenario', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^gateway-harness: GH_ERR_USAGE: unknown command 'lod' \(did you mean load\?\)/);
  });

  it('a word near nothing gets no suggestion', async () => {
    const run = await runCli(['xyzzyqq']);
    expect(run.stderr).toMatch(/unknown command 'xyzzyqq' \(commands:/);
  });
});

describe('every command ends its help with two or three real examples', () => {
  const program = buildProgram();
  for (const cmd of allCommands(program)) {
    const path = commandPath(cmd);
    it(`${path}: examples at the end of --help`, async () => {
      const examples = HELP_EXAMPLES[path] ?? [];
      expect(examples.length).toBeGreaterThanOrEqual(2);
      expect(examples.length).toBeLessThanOrEqual(3);
      const help = await runCli([...path.split(' '), '--help']);
      expect(help.stdout.trimEnd()).toMatch(new RegExp(`Examples:\\n(  \\$ gateway-harness .*\\n?){${examples.length}}$`));
    });
    for (const example of HELP_EXAMPLES[path] ?? []) {
      it(`${path}: \`${example}\` parses, with no deprecated flag`, async () => {
        const run = await parse(words(example));
        expect(example.startsWith(run.path)).toBe(true);
        expect(run.warnings).toEqual([]);
      });
    }
  }
});
