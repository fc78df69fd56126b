// The `gateway-harness` command line: one commander program, one module per subcommand in scripts/commands/.
// Exit codes follow DESIGN.md: 0 passed, 1 a check failed, 2 usage or configuration error, 99 load thresholds crossed.
import { Command, CommanderError } from 'commander';
import { EXIT, isHarnessError } from '../api/errors.ts';
import { COMMANDS } from './commands/index.ts';

export function buildProgram(): Command {
  const program = new Command('gateway-harness')
    .description(
      'Load and conformance test harness for the Mobile Top-up and Prepaid Products Gateway API (v1 and v2).\n' +
        'With no --target, every command runs against the embedded sandbox on 127.0.0.1.',
    )
    .version(PACKAGE_VERSION)
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  for (const register of COMMANDS) register(program);
  return program;
}

const PACKAGE_VERSION = '0.1.0';

/** Runs the CLI and returns the process exit code; never calls process.exit itself, so tests can call it. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with code 0; every parse problem is a usage error (2).
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (isHarnessError(error)) {
      process.stderr.write(`gateway-harness: ${error.code}: ${error.message}\n`);
      return error.exitCode;
    }
    process.stderr.write(`gateway-harness: GH_ERR_INTERNAL: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.checkFailed;
  }
}
