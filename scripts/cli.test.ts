// CLI hygiene of every command: a parse problem (unknown option or command, missing value) is one GH_ERR_USAGE line
// and exit 2, never commander's own text; `--time-scale 0` is judged by one rule, with one message, everywhere.
import type { Command } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { buildProgram } from './cli.ts';
import { runCli } from './fixtures/run-cli.ts';

afterEach(() => {
  process.exitCode = undefined;
});

/** Every runnable command as its argv path (`['baseline', 'check']`): leaves of the command tree. */
function commandPaths(cmd: Command, prefix: string[] = []): string[][] {
  return cmd.commands
    .filter((c) => c.name() !== 'help')
    .flatMap((c) => (c.commands.length > 0 ? commandPaths(c, [...prefix, c.name()]) : [[...prefix, c.name()]]));
}

const PROGRAM = buildProgram();
const COMMAND_PATHS = commandPaths(PROGRAM);
const COMMAND_NAMES = PROGRAM.commands.map((c) => c.name()).filter((name) => name !== 'help');
/** Options a command requires before it looks at anything else (so the option under test is what it judges). */
const REQUIRED: Readonly<Record<string, readonly string[]>> = { load: ['--scenario', 'catalog-browse'], reconcile: ['ledger.jsonl'] };
const argv = (path: readonly string[], ...rest: string[]): string[] => [...path, ...(REQUIRED[path.join(' ')] ?? []), ...rest];

/** The commands that take a target, and so `--time-scale` (derived from their options, not listed by hand). */
const TIMED_PATHS = COMMAND_PATHS.filter((path) => {
  let cmd: Command | undefined = PROGRAM;
  for (const name of path) cmd = cmd?.commands.find((c) => c.name() === name);
  return cmd?.options.some((o) => o.long === '--time-scale') === true;
});

function expectOneUsageLine(result: { code: number; stdout: string; stderr: string }, message: RegExp): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).toMatch(/^gateway-harness: GH_ERR_USAGE: /);
  expect(result.stderr).toMatch(message);
}

describe('usage errors are one GH_ERR_USAGE line, exit 2', () => {
  it('knows its commands', () => {
    expect(COMMAND_NAMES).toEqual(expect.arrayContaining(['conformance', 'sandbox']));
  });

  it('most commands take a target (and so --time-scale)', () => {
    expect(TIMED_PATHS.length).toBeGreaterThanOrEqual(4);
  });

  for (const path of COMMAND_PATHS) {
    it(`${path.join(' ')} --no-such-option`, async () => {
      expectOneUsageLine(await runCli([...path, '--no-such-option']), /unknown option '--no-such-option'/);
    });
  }
  for (const path of TIMED_PATHS) {
    it(`${path.join(' ')} with an option missing its value`, async () => {
      expectOneUsageLine(await runCli(argv(path, '--time-scale')), /option '--time-scale <\w+>' argument missing/);
    });
    it(`${path.join(' ')} --time-scale 0: the one time-scale rule`, async () => {
      expectOneUsageLine(
        await runCli(argv(path, '--time-scale', '0')),
        /^gateway-harness: GH_ERR_USAGE: --time-scale must be a number greater than 0 \(1 = real gateway timing/,
      );
    });
  }

  it('every command words --time-scale 0 identically', async () => {
    const lines: string[] = [];
    for (const path of TIMED_PATHS) lines.push((await runCli(argv(path, '--time-scale', '0'))).stderr);
    expect(new Set(lines).size).toBe(1);
  });

  it('an unknown command', async () => {
    expectOneUsageLine(await runCli(['no-such-command']), /unknown command 'no-such-command' \(commands: gate, conformance, fuzz, load, /);
  });

  it('no command at all', async () => {
    expectOneUsageLine(await runCli([]), /no command given/);
  });

  it('a top-level unknown option', async () => {
    expectOneUsageLine(await runCli(['--no-such-option']), /unknown option '--no-such-option'/);
  });

  it('help for an unknown command', async () => {
    expectOneUsageLine(await runCli(['help', 'no-such-command']), /help: no such command/);
  });

  it('--help and help <command> still print help on stdout and exit 0', async () => {
    const top = await runCli(['--help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('conformance');
    const sub = await runCli(['help', 'conformance']);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toContain('--allow-skips');
  });
});
