// First contact: a given target with no config file gets its config discovered before the run (DESIGN.md "First
// contact"), so day one needs no config at all. The run's verdict line says that it happened and what was learned.
import { mergeFieldMapping } from '../../api/field-mapping.ts';
import type { TargetConfig } from '../../api/target-config.ts';
import { preflightTarget } from '../../client/target-preflight.ts';
import { mergeSettings, type ConformanceSettings } from '../settings.ts';
import { chargeNote, countsOf } from './render.ts';
import type { Finding } from './findings.ts';
import { discoverTarget, discoverTargetData, type Discovery } from './run.ts';

export interface FirstContact {
  readonly config: TargetConfig;
  /** For the verdict line; undefined when nothing was discovered (a config file, the embedded sandbox, an unusable target). */
  readonly note?: string;
  readonly discovery?: Discovery;
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
  if (!(await preflightTarget(target, 'v2')).usable) return { config };
  if (options.hasConfigFile) return { config, discovery: await discoverTargetData(target, options.stop) };
  const stop = options.stop === undefined ? {} : { stop: options.stop };
  const discovery = await discoverTarget(target, {
    probeWrites: config.environment !== 'production' || options.allowCharges === true,
    ...stop,
  });
  const learned = discovery.config;
  const merged: TargetConfig = {
    ...config,
    fieldMapping: mergeFieldMapping(config.fieldMapping, learned.fieldMapping),
    writePaths: { ...learned.writePaths, ...config.writePaths },
    ...(learned.paging === undefined ? {} : { paging: learned.paging }),
  };
  const keys = Object.values(learned.fieldMapping).reduce((n, section) => n + Object.keys(section ?? {}).length, 0);
  const note = `first contact: no config file, discovered ${keys} field name(s) and ${Object.keys(learned.writePaths).length} write path(s) (${countsOf(discovery.findings)}; \`gateway-harness discover --target ${config.baseUrl}\` shows the evidence)`;
  return { config: merged, note, discovery };
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
