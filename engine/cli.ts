// `gateway-harness engine run <script>` (and `tsx engine/cli.ts run <script>`): runs a k6 script or .load.ts entry on
// the Node engine with k6-like flags, for manual use; `gateway-harness load --engine node` is the main entry.
import { Command, InvalidArgumentError } from 'commander';
import { fileURLToPath } from 'node:url';
import type { EngineRunOptions } from './run.ts';

function collectEnv(value: string, previous: Record<string, string> | undefined): Record<string, string> {
  const eq = value.indexOf('=');
  if (eq <= 0) throw new InvalidArgumentError(`expected KEY=VALUE, got ${JSON.stringify(value)}`);
  return { ...previous, [value.slice(0, eq)]: value.slice(eq + 1) };
}

function collectList(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError(`expected a whole number ≥ 1, got ${JSON.stringify(value)}`);
  return n;
}

/** Adds `engine run` to a commander program. */
export function register(program: Command): void {
  const engine = program.command('engine').description('the Node engine: run k6 scripts without a k6 binary');
  engine
    .command('run')
    .description("run a k6 script (.js) or a load entry (.load.ts) with k6's semantics on Node")
    .argument('<script>', 'path to the script')
    .option('-e, --env <KEY=VALUE>', 'add an __ENV variable (repeatable)', collectEnv)
    .option(
      '-o, --out <output>',
      "json=FILE (k6's NDJSON points, .gz allowed) or experimental-prometheus-rw (K6_PROMETHEUS_RW_* settings, as k6); repeatable",
      collectList,
    )
    .option('--tag <NAME=VALUE>', 'a tag on every sample of the test (like k6 --tag; repeatable)', collectEnv)
    .option('--summary-export <FILE>', "write k6's summary-export JSON")
    .option('-u, --vus <N>', 'VUs (like k6 --vus)', positiveInt)
    .option('-d, --duration <DURATION>', 'duration, replaces the scenarios (like k6 --duration)')
    .option('-i, --iterations <N>', 'iterations, replaces the scenarios (like k6 --iterations)', positiveInt)
    .option('--execution-segment <segment>', "this instance's share of a split test, e.g. 1/3:2/3 (like k6)")
    .option('--execution-segment-sequence <points>', "all instances' segments, e.g. 0,1/3,2/3,1 (like k6)")
    .option('--workers <N|auto>', 'worker threads; auto = one per 6 VUs, at most one per core', 'auto')
    .option('--progress <MODE>', 'auto | tty | plain | none', 'auto')
    .action(async (script: string, flags: Record<string, unknown>) => {
      const outs = (flags.out as string[] | undefined) ?? [];
      let out: string | undefined;
      let remoteWrite: EngineRunOptions['remoteWrite'];
      for (const o of outs) {
        if (o.startsWith('json=')) out = o;
        else if (o === 'experimental-prometheus-rw' || o.startsWith('experimental-prometheus-rw=')) {
          const { remoteWriteConfigFromEnv } = await import('./remote-write/config.ts');
          try {
            remoteWrite = remoteWriteConfigFromEnv(process.env);
          } catch (error) {
            throw new InvalidArgumentError((error as Error).message);
          }
        } else throw new InvalidArgumentError(`--out ${o}: the node engine writes json=FILE and experimental-prometheus-rw`);
      }
      const workers = flags.workers === 'auto' ? 'auto' : positiveInt(String(flags.workers));
      const overrides: EngineRunOptions['overrides'] = {};
      if (flags.vus !== undefined) overrides.vus = flags.vus as number;
      if (flags.duration !== undefined) overrides.duration = flags.duration as string;
      if (flags.iterations !== undefined) overrides.iterations = flags.iterations as number;
      if (flags.executionSegment !== undefined) overrides.executionSegment = flags.executionSegment as string;
      if (flags.executionSegmentSequence !== undefined) overrides.executionSegmentSequence = flags.executionSegmentSequence as string;
      if (flags.tag !== undefined) overrides.tags = flags.tag as Record<string, string>;
      // Loaded on use: the engine (esbuild, undici, histograms) stays off the start-up path of the other commands.
      const { runEngine } = await import('./run.ts');
      const result = await runEngine({
        script,
        env: (flags.env as Record<string, string> | undefined) ?? {},
        ...(out === undefined ? {} : { outJson: out.slice(5) }),
        ...(remoteWrite === undefined ? {} : { remoteWrite }),
        ...(flags.summaryExport === undefined ? {} : { summaryExport: flags.summaryExport as string }),
        workers,
        progress: flags.progress as EngineRunOptions['progress'],
        overrides,
      });
      process.exitCode = result.exitCode;
    });
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const program = new Command('engine-cli');
  register(program);
  await program.parseAsync(['node', 'engine-cli', 'engine', ...process.argv.slice(2)]);
}
