// `gateway-harness fuzz`: the generated conformance properties (GEN) alone, with a larger budget than the gate's; the
// same target, money and report handling as `conformance` (it is that command with GEN only), so never against production.
import type { Command } from 'commander';
import { FUZZ_GEN_BUDGET, describeBudget } from '../../conformance/gen/options.ts';
import { SETTINGS_ENV_VAR } from '../../target/embedded.ts';
import { addMoneyOptions } from '../money-options.ts';
import { addTargetOptions } from '../target-options.ts';
import { addSandboxOptions, runConformance, type ConformanceOptions } from './conformance.ts';

export function register(program: Command): void {
  const cmd = program
    .command('fuzz')
    .description(
      'Run the generated conformance properties (the GEN group) alone: inputs generated from the request schemas and the\n' +
        "target's catalog, valid ones across the space (must not be refused) and ones that break exactly one rule by any\n" +
        'distance (must be refused, nothing charged), filters for every catalog value, cursor walks for every pageSize, and\n' +
        'stateful money sequences against a model of the wallet. A failure is shrunk to a minimal input (or the shortest\n' +
        'sequence) and reported with its spec rule, expected vs received, the seed, a --replay and a curl line\n' +
        '($GATEWAY_USER / $GATEWAY_PASSWORD placeholders, never values).\n\n' +
        'Budget: --gen-budget is per property: a number of generated inputs (e.g. 500) or a wall-time bound (e.g. 90s, 2m);\n' +
        `default ${describeBudget(FUZZ_GEN_BUDGET)} (conformance and the gate: 30 runs, at most 20 s per property).\n` +
        'The time bound includes shrinking, so it bounds the wall time against a slow real sandbox too.\n' +
        'Seed: --seed N repeats a run exactly (same generated inputs, same sandbox catalog); without it the GEN seed is fresh\n' +
        '(printed in the report) and the catalog seed 1.\n' +
        "Replay: a failure prints `--grep '^<case id> ' --replay <seed>:<path>`; that reruns exactly its shrunk counterexample.\n" +
        'Never against production (like conformance); on a sandbox it charges test money only: every GEN case counts its\n' +
        'requests and charging requests in its notes.\n' +
        'Exit 0 pass; 1 a property failed (or incomplete); 2 usage/config error or unusable target.',
    )
    .option('--api <version>', 'v1, v2 or both', 'both')
    .option('--grep <pattern>', 'only GEN cases whose "<id> <title>" matches this regular expression (case-insensitive)')
    .option(
      '--gen-budget <runs|duration>',
      `per property: runs (e.g. 500) or a duration (e.g. 90s, 2m); default ${describeBudget(FUZZ_GEN_BUDGET)}`,
    )
    .option('--replay <seed:path>', 'rerun exactly one shrunk counterexample, as a failure prints it (with --grep of its case id)')
    .option('--report-dir <dir>', 'where summary.json, junit.xml, summary.md and report.html go (default reports/out/<run-id>/)')
    .option('--settings <path>', `JSON file of conformance settings (env ${SETTINGS_ENV_VAR})`)
    .option('--list', 'print the selected GEN cases and exit')
    .option('--allow-skips', 'accept skipped cases (not verified)');
  addSandboxOptions(cmd, 'e.g. a planted GEN bug (bug-gen-*)');
  addTargetOptions(cmd);
  addMoneyOptions(cmd, { ledger: false });
  cmd.action(async (opts: ConformanceOptions) => {
    process.exitCode = await runConformance(opts, 'fuzz');
  });
}
