// The `gateway-harness` command line: one commander program, one module per subcommand in scripts/commands/.
// Exit codes follow DESIGN.md: 0 passed, 1 a check failed, 2 usage or configuration error, 99 load thresholds crossed.
import { Command, CommanderError } from 'commander';
import { EXIT, HarnessError, isHarnessError } from '../api/errors.ts';
import { printable } from '../api/printable.ts';
import { PLANTED_BUG_PROFILES } from '../conformance/proof/planted-bugs.ts';
import { GEN_BUG_PROFILES } from '../conformance/proof/gen-bugs.ts';
import { UNDER_LOAD_BUG_PROFILES } from '../conformance/proof/under-load-bugs.ts';
import { TOOL_VERSION } from '../reports/assemble.ts';
import { addProfiles } from '../sandbox/profiles/registry.ts';
import { COMMANDS } from './commands/index.ts';
import { applyDeprecations } from './flag-vocabulary.ts';
import { addHelpExamples } from './help-examples.ts';

// The planted bugs live with the conformance proof; every command takes them by name (`--sandbox-profile bug-*`, a config's
// sandbox.profile), so the CLI adds them to the sandbox's registry before any command starts a sandbox.
addProfiles(PLANTED_BUG_PROFILES);
addProfiles(GEN_BUG_PROFILES);
addProfiles(UNDER_LOAD_BUG_PROFILES);

/**
 * Every parse problem commander finds (unknown option or command, missing value, excess argument) becomes one
 * `GH_ERR_USAGE` line like every other usage error: commander's own error text and help dump are silenced here and
 * its message is rewritten in `usageLine`. Subcommands inherit this output configuration and exitOverride.
 */
function silenceCommanderErrors(program: Command): Command {
  // writeErr only ever carries commander's error text or a help dump meant as an error (`help <unknown>`).
  return program.configureOutput({ outputError: () => undefined, writeErr: () => undefined }).exitOverride();
}

export function buildProgram(): Command {
  const program = silenceCommanderErrors(
    new Command('gateway-harness')
      .description(
        'Load and conformance test harness for the Mobile Top-up and Prepaid Products Gateway API (v1 and v2).\n' +
          'With no --target, every command runs against the embedded sandbox on 127.0.0.1.',
      )
      .version(TOOL_VERSION)
      .usage('<command> [options]')
      .helpCommand(true)
      // The descriptions are written in lines of up to 120 characters: a narrower wrap would break each of them in two.
      .configureHelp({ helpWidth: Math.max(process.stdout.columns ?? 0, 120) }),
  );
  for (const register of COMMANDS) register(program);
  // The old spellings (--profile for a sandbox behaviour, --env sandbox, ...) become the new ones, each said once.
  program.hook('preAction', (_program, command) => applyDeprecations(command));
  addHelpExamples(program);
  // Without a command, or with one that does not exist, commander would print the whole help to stderr: one line instead.
  // Unknown options are let through to this action, so `lod --scenario x` is said to be an unknown command, not option.
  program
    .argument('[command]')
    .allowExcessArguments(true)
    .allowUnknownOption(true)
    .action((command: string | undefined) => {
      throw new HarnessError(
        'GH_ERR_USAGE',
        notACommand(
          command,
          program.commands.map((c) => c.name()),
        ),
      );
    });
  return program;
}

/** The line for a missing or unknown command (with the nearest known one, when one is near). */
export function notACommand(command: string | undefined, known: readonly string[]): string {
  const list = `commands: ${known.join(', ')}; run gateway-harness --help`;
  if (command === undefined) return `no command given (${list})`;
  if (command.startsWith('-')) return `unknown option '${command.slice(0, 40)}' before the command (${list})`;
  const near = nearestName(command, known);
  return `unknown command '${command.slice(0, 40)}'${near === undefined ? '' : ` (did you mean ${near}?)`} (${list})`;
}

/** The known name closest to `word` by edit distance, when it is close enough to be a typo. */
export function nearestName(word: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(word.toLowerCase(), name);
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  return best !== undefined && best.distance <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const row = [i];
    for (let j = 1; j <= b.length; j += 1) {
      row[j] = Math.min(
        (previous[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = row;
  }
  return previous[b.length] as number;
}

/** Commander's message ("error: unknown option '--x'\n(Did you mean --y?)") as one line of ours. */
function usageLine(error: CommanderError, program: Command): string {
  if (error.code === 'commander.help') {
    return `help: no such command (commands: ${program.commands.map((c) => c.name()).join(', ')}; run gateway-harness --help)`;
  }
  const text = error.message
    .replace(/^error: /, '')
    .replace(/\s+/g, ' ')
    .trim();
  return `${text} (run with --help for usage)`;
}

/** Runs the CLI and returns the process exit code; never calls process.exit itself, so tests can call it. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with code 0; every parse problem is a usage error (2), said on one line.
      if (error.exitCode === 0) return EXIT.ok;
      process.stderr.write(`gateway-harness: GH_ERR_USAGE: ${usageLine(error, program)}\n`);
      return EXIT.usage;
    }
    if (isHarnessError(error)) {
      process.stderr.write(`gateway-harness: ${error.code}: ${printable(error.message)}\n`);
      return error.exitCode;
    }
    process.stderr.write(`gateway-harness: GH_ERR_INTERNAL: ${printable(error instanceof Error ? error.message : String(error))}\n`);
    return EXIT.checkFailed;
  }
}
