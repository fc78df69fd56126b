// `gateway-harness calibrate`: how much load this machine's Node engine carries honestly against a target (reported
// p95 within +3 ms + 5 % of a measuring proxy's), searched within a time budget and cached; `load` warns above it.
import type { Command } from 'commander';
import { HarnessError, EXIT } from '../../api/errors.ts';
import { parseDuration } from '../../engine/durations.ts';
import { capacityCachePath } from '../../load/runner/capacity/cache.ts';
import { calibrate } from '../../load/runner/capacity/calibrate.ts';
import { SCENARIO_NAMES, scenarioCharges, type ScenarioName } from '../../load/scenarios.ts';

interface CalibrateOptions {
  scenario: string;
  target?: string;
  budget: string;
  stepDuration: string;
  startVus: string;
  maxVus: string;
}

function usage(text: string): HarnessError {
  return new HarnessError('GH_ERR_USAGE', text);
}

function durationMs(value: string, flag: string): number {
  try {
    return parseDuration(value, flag);
  } catch {
    throw usage(`${flag} must be a duration such as 60s or 2m, got ${JSON.stringify(value)}`);
  }
}

function stepSeconds(value: string): string {
  const ms = durationMs(value, '--step-duration');
  if (ms < 1_000) throw usage(`--step-duration must be at least 1s, got ${JSON.stringify(value)}`);
  return `${Math.round(ms / 1000)}s`;
}

function targetOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))
    throw usage(`--target must be an http(s) URL, got ${JSON.stringify(value)}`);
  return value;
}

function wholeVus(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100_000)
    throw usage(`${flag} must be a whole number from 1 to 100000, got ${JSON.stringify(value)}`);
  return n;
}

function scenarioOf(opts: CalibrateOptions): ScenarioName {
  const name = opts.scenario as ScenarioName;
  if (!SCENARIO_NAMES.includes(name)) throw usage(`--scenario must be one of ${SCENARIO_NAMES.join(', ')}`);
  // The steps reach the target through a proxy on 127.0.0.1, where load's money guard cannot tell production.
  if (opts.target !== undefined && scenarioCharges(name, 'both'))
    throw usage(`--target: ${name} charges money; calibrate a given target with a scenario that charges nothing (catalog-browse, lookup)`);
  return name;
}

export function register(program: Command): void {
  program
    .command('calibrate')
    .description(
      "Measure the highest VU count at which the Node engine's reported http_req_duration p95 stays within +3 ms + 5 % of\n" +
        'what a measuring proxy in front of the target served (short smoke loads, doubling then bisecting, within --budget).\n' +
        'Kept per machine (CPU model, cores), scenario and target in the user cache dir (capacity.json); `load` on the Node\n' +
        'engine warns at start when its plan asks for more. With no --target it calibrates against the embedded sandbox.\n' +
        'Exit 0 measured and cached, 1 not even the first step met the goal, 2 usage error.',
    )
    .option('--scenario <name>', `one of ${SCENARIO_NAMES.join(', ')}`, 'catalog-browse')
    .option('--target <url>', "the target's base URL (scenarios that charge nothing only); default: the embedded sandbox")
    .option('--budget <d>', 'wall time for the whole search (a step starts only while the slowest so far still fits)', '60s')
    .option('--step-duration <d>', 'how long each step loads the target', '5s')
    .option('--start-vus <n>', 'the first step', '10')
    .option('--max-vus <n>', 'the ceiling', '1000')
    .action(async (opts: CalibrateOptions) => {
      const scenario = scenarioOf(opts);
      const settings = {
        scenario,
        target: targetOf(opts.target),
        startVus: wholeVus(opts.startVus, '--start-vus'),
        maxVus: wholeVus(opts.maxVus, '--max-vus'),
        budgetMs: durationMs(opts.budget, '--budget'),
        stepDuration: stepSeconds(opts.stepDuration),
        cachePath: capacityCachePath(),
      };
      const line = (text: string): boolean => process.stderr.write(`${text}\n`);
      const { search, capacity } = await calibrate(settings, line);
      const bracket =
        search.firstBad === undefined
          ? `(stopped: ${search.stoppedBy})`
          : `(${search.firstBad} VUs was outside; stopped: ${search.stoppedBy})`;
      if (capacity === undefined) {
        process.stdout.write(
          `calibrate: not even ${search.firstBad ?? settings.startVus} VUs kept the reported p95 within +3 ms + 5 % of the served ${bracket}; nothing cached (try --start-vus 1)\n`,
        );
        process.exitCode = EXIT.checkFailed;
        return;
      }
      process.stdout.write(
        `capacity: ${capacity.vus} VUs, ${capacity.requestRate.toFixed(1)} requests/s, ${capacity.iterationRate.toFixed(1)} iterations/s for ${scenario} against ${settings.target ?? 'the embedded sandbox'} on this machine ${bracket}; cached in ${settings.cachePath}\n`,
      );
      process.exitCode = EXIT.ok;
    });
}
