// `gateway-harness discover --target URL [--write-config FILE]`: learns what the spec leaves open from the target
// itself (payload field names, the unshown write paths) without charging anything; thin over target/discover/.
import { writeFileSync } from 'node:fs';
import { printable } from '../../api/printable.ts';
import type { Command } from 'commander';
import { EXIT, HarnessError } from '../../api/errors.ts';
import type { ResolvedTargetConfig } from '../../api/target-config.ts';
import { watchInterrupts } from '../../reports/interrupt-watch.ts';
import { interruptedExitCode } from '../../reports/verdict.ts';
import { DiscoveryStopped } from '../../target/discover/reader.ts';
import { assertTargetUsable } from '../../client/target-preflight.ts';
import { describeTarget } from '../../api/target-config.ts';
import { discoverTarget, type Discovery, type DiscoveryOptions } from '../../target/discover/run.ts';
import { configFileOf, renderDiscovery } from '../../target/discover/render.ts';
import { DEFAULT_PROBE_LIMITS } from '../../target/discover/write-paths.ts';
import { addTargetOptions, configFromOptions, type TargetOptions } from '../target-options.ts';

interface DiscoverOptions extends TargetOptions {
  writeConfig?: string;
  allowCharges?: boolean;
  maxProbes?: string;
}

const usage = (message: string): HarnessError => new HarnessError('GH_ERR_USAGE', message);

function parseMaxProbes(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PROBE_LIMITS.maxProbes;
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1) throw usage('--max-probes must be a whole number of probes from 1 to 99999');
  return Number(text);
}

/**
 * Discovery under a signal watch: SIGINT/SIGTERM abandons the request in flight and ends the command with one line and
 * 128 + signal (no report: discover writes none), instead of the process dying mid-request.
 */
async function discoverWatched(resolved: ResolvedTargetConfig, options: Omit<DiscoveryOptions, 'stop'>): Promise<Discovery | number> {
  const watch = watchInterrupts({ startedAt: Date.now() });
  try {
    return await discoverTarget(resolved, { ...options, stop: watch.signal });
  } catch (error) {
    const signal = watch.received()?.signal;
    if (signal === undefined || !(error instanceof DiscoveryStopped)) throw error;
    process.stderr.write(`gateway-harness: discover: interrupted by ${signal}; nothing written\n`);
    return interruptedExitCode(signal);
  } finally {
    watch.dispose();
  }
}

async function runDiscover(opts: DiscoverOptions): Promise<number> {
  const config = configFromOptions(opts);
  if (config.baseUrl === undefined)
    throw usage('discover needs a target: --target URL (or GATEWAY_BASE_URL); the embedded sandbox needs no discovery');
  const resolved = { ...config, baseUrl: config.baseUrl };
  await assertTargetUsable('discover', resolved, 'v2');
  const probeWrites = config.environment !== 'production' || opts.allowCharges === true;
  const discovery = await discoverWatched(resolved, {
    probeWrites,
    limits: { ...DEFAULT_PROBE_LIMITS, maxProbes: parseMaxProbes(opts.maxProbes) },
  });
  if (typeof discovery === 'number') return discovery;
  // Field names, values and candidates come from the target: shown through the one escape, like every target text.
  process.stdout.write(printable(renderDiscovery(discovery, describeTarget(config), config.baseUrl)));
  if (opts.writeConfig !== undefined) {
    writeFileSync(opts.writeConfig, `${JSON.stringify(configFileOf(discovery, config.baseUrl), null, 2)}\n`);
    process.stdout.write(`wrote ${opts.writeConfig}\n`);
  }
  return EXIT.ok;
}

export function register(program: Command): void {
  const cmd = program
    .command('discover')
    .description(
      'Learn what the spec leaves open from the target itself, charging nothing: the payload field mapping (values matched\n' +
        'against facts the spec states: SKU 193 and its 5.00 USD minimum, 1876, the category ids, filters that take ids) and\n' +
        'the paths of the writes the spec does not show (probed with bodies the gateway must refuse: no skuId, no amount).\n' +
        'Prints a gateway-harness.config.json with the evidence of every line and what stays unknown or ambiguous.\n' +
        'A production target gets no probe without --allow-charges (the bodies still cannot charge).',
    )
    .option('--write-config <file>', 'write the config (baseUrl, fieldMapping, writePaths) to this file')
    .option('--allow-charges', 'on a production target, allow the write-path probes (bodies without skuId or amount, which cannot charge)')
    .option(
      '--max-probes <n>',
      `most write-path probes in all (default ${DEFAULT_PROBE_LIMITS.maxProbes}; they stop after ${DEFAULT_PROBE_LIMITS.maxMs / 1000} s too)`,
    );
  addTargetOptions(cmd).action(async (opts: DiscoverOptions) => {
    process.exitCode = await runDiscover(opts);
  });
}
