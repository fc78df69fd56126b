// First contact: a given target with no config file gets its config discovered before the run (DESIGN.md "First
// contact"), so day one needs no config at all. The run's verdict line says that it happened and what was learned; its
// report counts first contact's own requests and faults with the run's (`reads`), so its counts are what the target served.
import { addFaultCounts, type FaultCounts } from '../../api/faults.ts';
import { mergeFieldMapping } from '../../api/field-mapping.ts';
import type { TargetConfig } from '../../api/target-config.ts';
import { preflightTarget } from '../../client/target-preflight.ts';
import { mergeSettings, type ConformanceSettings } from '../settings.ts';
import { chargeNote, countsOf } from './render.ts';
import type { Finding } from './findings.ts';
import { DiscoveryStopped } from './reader.ts';
import { discoverTarget, discoverTargetData, type Discovery } from './run.ts';

/** What first contact sent before the run (its preflight, discovery's reads and probes) and the faults among the answers. */
export interface FirstContactReads {
  readonly requests: number;
  readonly faults: FaultCounts;
}

export interface FirstContact {
  readonly config: TargetConfig;
  /** For the verdict line; undefined when nothing was discovered (a config file, the embedded sandbox, an unusable target). */
  readonly note?: string;
  readonly discovery?: Discovery;
  /** Undefined when first contact sent nothing (the embedded sandbox, a config file with loan numbers named). */
  readonly reads?: FirstContactReads;
}

export interface FirstContactOptions {
  /**
   * A config file was read (--config or ./gateway-harness.config.json): it is the target's config, nothing of it is
   * discovered; only the target data no config key holds (loan numbers), unless the run's settings name some.
   */
  readonly hasConfigFile: boolean;
  /** The run's settings name loan numbers: nothing to learn for them. */
  readonly loanNumbersKnown?: boolean;
  /** Production write-path probes need the money allowance (the bodies cannot charge either way). */
  readonly allowCharges?: boolean;
  /** The command's signal watch: once aborted, first contact throws DiscoveryStopped (the command reports INTERRUPTED). */
  readonly stop?: AbortSignal;
}

export async function firstContact(config: TargetConfig, options: FirstContactOptions): Promise<FirstContact> {
  if (config.baseUrl === undefined || (options.hasConfigFile && options.loanNumbersKnown === true)) return { config };
  const target = { ...config, baseUrl: config.baseUrl };
  // An unusable target is the command's own preflight's to say (one line, exit 2); discovery would only wait on it.
  const check = await preflightTarget(target, 'v2');
  const reads = (discovery?: Discovery): FirstContactReads => ({
    requests: check.calls + (discovery?.requests ?? 0),
    faults: addFaultCounts(check.faults, ...(discovery === undefined ? [] : [discovery.faults])),
  });
  if (!check.usable) return { config, reads: reads() };
  // Stopped by a signal: what was sent until then, the preflight's included, goes with the interruption.
  const counted = <T>(discovering: Promise<T>): Promise<T> =>
    discovering.catch((error: unknown) => {
      if (!(error instanceof DiscoveryStopped)) throw error;
      throw new DiscoveryStopped({
        requests: check.calls + error.reads.requests,
        faults: addFaultCounts(check.faults, error.reads.faults),
      });
    });
  if (options.hasConfigFile) {
    const discovery = await counted(discoverTargetData(target, options.stop));
    return { config, discovery, reads: reads(discovery) };
  }
  const stop = options.stop === undefined ? {} : { stop: options.stop };
  const discovery = await counted(
    discoverTarget(target, {
      probeWrites: config.environment !== 'production' || options.allowCharges === true,
      ...stop,
    }),
  );
  const learned = discovery.config;
  const merged: TargetConfig = {
    ...config,
    fieldMapping: mergeFieldMapping(config.fieldMapping, learned.fieldMapping),
    writePaths: { ...learned.writePaths, ...config.writePaths },
    ...(learned.paging === undefined ? {} : { paging: learned.paging }),
  };
  const keys = Object.values(learned.fieldMapping).reduce((n, section) => n + Object.keys(section ?? {}).length, 0);
  const note = `first contact: no config file, discovered ${keys} field name(s) and ${Object.keys(learned.writePaths).length} write path(s) (${countsOf(discovery.findings)}; \`gateway-harness discover --target ${config.baseUrl}\` shows the evidence)`;
  return { config: merged, note, discovery, reads: reads(discovery) };
}

/** The run's settings with the loan numbers first contact found, unless the settings already name some. */
export function withDiscoveredSettings(settings: ConformanceSettings, contact: FirstContact): ConformanceSettings {
  const found = contact.discovery?.settings.loanNumbers ?? [];
  return settings.loanNumbers.length > 0 || found.length === 0 ? settings : mergeSettings(settings, { loanNumbers: [...found] });
}

/** The verdict line's note: first contact's, what the run's first charges taught, what ran smaller to fit the wallet (nothing when none). */
export function verdictNoteOf(
  contactNote: string | undefined,
  learnedOnCharge: readonly Finding[],
  cuts: readonly string[] = [],
): { verdictNote?: string } {
  const charge = chargeNote(learnedOnCharge).replace(/^; /, '');
  const cut = cuts.map((c) => `ran smaller to fit the wallet: ${c}`);
  const parts = [...(contactNote === undefined ? [] : [contactNote]), ...(charge === '' ? [] : [charge]), ...cut];
  return parts.length === 0 ? {} : { verdictNote: parts.join('; ') };
}
