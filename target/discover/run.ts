// One discovery run against a target: catalog reads, the mapping learned from them, the gift card cursor, the write
// paths probed with refusable bodies; then the config (only what differs from the defaults) and every finding behind it.
import type { FaultCounts } from '../../api/faults.ts';
import { DEFAULT_FIELD_MAPPING, type FieldMappingOverrides } from '../../api/field-mapping.ts';
import { findOperation } from '../../api/operations.ts';
import type { ResolvedTargetConfig } from '../../api/target-config.ts';
import type { Finding } from './findings.ts';
import { learnMapping } from './mapping.ts';
import { learnLoanNumbers } from './loans.ts';
import { CURSOR_MEANING_KEY, learnPaging } from './paging.ts';
import { GIFTCARD_CURSOR_MEANINGS, type GiftcardCursorMeaning } from '../../api/giftcard-paging.ts';
import { createDiscoveryReader } from './reader.ts';
import { readSamples } from './samples.ts';
import { learnWritePaths, type ProbeLimits } from './write-paths.ts';

export interface DiscoveryOptions {
  /** Whether write paths may be probed (refusable bodies only): a sandbox, or production with the money allowance. */
  readonly probeWrites: boolean;
  readonly limits?: ProbeLimits;
  /** The run's signal watch: once aborted, discovery throws DiscoveryStopped (reader.ts) without waiting out a read. */
  readonly stop?: AbortSignal;
}

/** What discovery writes into gateway-harness.config.json (config/target-config-schema.ts). */
export interface DiscoveredConfig {
  readonly fieldMapping: FieldMappingOverrides;
  readonly writePaths: Readonly<Record<string, string>>;
  /** What the gift card list's next / next_cursor mean on the target, when learned (paging.ts). */
  readonly paging?: { readonly giftcardCursor: GiftcardCursorMeaning };
}

export interface Discovery {
  readonly findings: readonly Finding[];
  readonly config: DiscoveredConfig;
  /** Target data for the conformance settings file (target/settings.ts): numbers with an outstanding loan. */
  readonly settings: { readonly loanNumbers: readonly string[] };
  /** Requests sent (reads and probes). */
  readonly requests: number;
  /** Their answers that were no gateway answer, by kind: a run's report counts them with its own (first-contact.ts). */
  readonly faults: FaultCounts;
  readonly elapsedMs: number;
}

export async function discoverTarget(config: ResolvedTargetConfig, options: DiscoveryOptions): Promise<Discovery> {
  const startedAt = Date.now();
  const reader = createDiscoveryReader(config, options.stop);
  try {
    const samples = await readSamples(reader);
    const mapping = await learnMapping(reader, samples);
    const skuIdPath = mapping.find((f) => f.key === 'fieldMapping.giftcardSku.skuId')?.value;
    const paging = learnPaging(samples, typeof skuIdPath === 'string' ? skuIdPath : DEFAULT_FIELD_MAPPING.giftcardSku.skuId);
    const valueOf = (key: string, fallback: string): string => {
      const found = mapping.find((f) => f.key === `fieldMapping.${key}`);
      return typeof found?.value === 'string' && found.status !== 'ambiguous' ? found.value : fallback;
    };
    const loans = await learnLoanNumbers(reader, samples, valueOf);
    const paths = await learnWritePaths(reader, {
      allowed: options.probeWrites,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
    });
    const findings = [...mapping, ...paging, loans, ...paths];
    const loanNumbers = loans.status === 'learned' && typeof loans.value === 'string' ? loans.value.split(',') : [];
    const counted = { requests: reader.sent, faults: reader.faults(), elapsedMs: Date.now() - startedAt };
    return { findings, config: configOf(findings), settings: { loanNumbers }, ...counted };
  } finally {
    await reader.close();
  }
}

/**
 * Only the target data no config key holds (numbers with an outstanding loan), read through the configured field
 * mapping: a run whose config file was given (so nothing else is discovered) still finds what LOAN-TWO-STEP needs.
 */
export async function discoverTargetData(config: ResolvedTargetConfig, stop?: AbortSignal): Promise<Discovery> {
  const startedAt = Date.now();
  const reader = createDiscoveryReader(config, stop);
  try {
    const samples = await readSamples(reader);
    // The records' own spelling of each name (PascalCase, snake_case), unless the config file names it otherwise.
    const mapping = await learnMapping(reader, samples);
    const configured = config.fieldMapping as unknown as Record<string, Record<string, string> | undefined>;
    const defaults = DEFAULT_FIELD_MAPPING as unknown as Record<string, Record<string, string> | undefined>;
    const valueOf = (key: string, fallback: string): string => {
      const [section = '', field = ''] = key.split('.');
      const given = configured[section]?.[field];
      if (given !== undefined && given !== defaults[section]?.[field]) return given;
      const found = mapping.find((f) => f.key === `fieldMapping.${key}`);
      return typeof found?.value === 'string' && found.status !== 'ambiguous' ? found.value : fallback;
    };
    const loans = await learnLoanNumbers(reader, samples, valueOf);
    const loanNumbers = loans.status === 'learned' && typeof loans.value === 'string' ? loans.value.split(',') : [];
    const empty = { fieldMapping: {}, writePaths: {} };
    const counted = { requests: reader.sent, faults: reader.faults(), elapsedMs: Date.now() - startedAt };
    return { findings: [loans], config: empty, settings: { loanNumbers }, ...counted };
  } finally {
    await reader.close();
  }
}

/** The config lines: learned values that differ from the defaults (readField matches names case-insensitively). */
export function configOf(findings: readonly Finding[]): DiscoveredConfig {
  const fieldMapping: Record<string, Record<string, string>> = {};
  const writePaths: Record<string, string> = {};
  let giftcardCursor: GiftcardCursorMeaning | undefined;
  for (const finding of findings) {
    if (finding.status !== 'learned' || typeof finding.value !== 'string') continue;
    const [kind, ...rest] = finding.key.split('.');
    if (kind === 'fieldMapping') {
      const [section, field] = rest as [keyof typeof DEFAULT_FIELD_MAPPING, string];
      const fallback = (DEFAULT_FIELD_MAPPING[section] as unknown as Record<string, string> | undefined)?.[field];
      if (fallback?.toLowerCase() !== finding.value.toLowerCase()) (fieldMapping[section] ??= {})[field] = finding.value;
    } else if (kind === 'writePaths') {
      const id = rest.join('.');
      if (findOperation(id)?.path !== finding.value) writePaths[id] = finding.value;
    } else if (finding.key === CURSOR_MEANING_KEY && (GIFTCARD_CURSOR_MEANINGS as readonly string[]).includes(finding.value)) {
      giftcardCursor = finding.value as GiftcardCursorMeaning;
    }
  }
  return {
    fieldMapping: fieldMapping as FieldMappingOverrides,
    writePaths,
    ...(giftcardCursor === undefined ? {} : { paging: { giftcardCursor } }),
  };
}
