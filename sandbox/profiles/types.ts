// What a sandbox profile is: data (behaviour overrides, catalog additions, a fault plan, corruptions) plus optional
// hooks, and the declarations of a planted bug, a GEN bug or a benign change. Shapes only, so profiles and the registry share them.
import type { BehaviourOverride } from '../behaviour.ts';
import type { PayloadCorruption } from '../corruption.ts';
import type { FaultPlan } from '../faults.ts';
import type { ProfileHooks } from './hooks.ts';
import type { FieldMappingOverrides } from '../../api/field-mapping.ts';
import type { PayloadShape } from '../shaping.ts';

export interface PlantedBug {
  /** The spec rule the profile breaks, quoted. */
  rule: string;
  specSection: string;
  /** Conformance case ids that must fail against this profile. */
  expectedFailingCases: string[];
}

/** A GEN bug's declaration: the rule it breaks and the GEN case ids that find it (at least one of them fails per seed). */
export interface GenBug {
  readonly rule: string;
  readonly specSection: string;
  readonly expectedGenCases: readonly string[];
  /** Where in the input space the bug lives (what the hand-written case's one value misses). */
  readonly corner: string;
}

/** A benign profile's declaration: the spec rule that makes its change non-breaking, and the change. */
export interface BenignChange {
  /** Spec Versioning rule 3, quoted verbatim (the part that covers the change). */
  rule: string;
  /** The kind of non-breaking change this profile makes. */
  change: string;
}

/** Records the catalog gains over the base data (spec Versioning 3: "new countries, operators, products, services"). */
export interface CatalogAdditions {
  /** ISO codes of sandbox/data/countries.ts EXTRA_COUNTRY_PLANS, each with operators, products, SKUs and gift cards. */
  extraCountries?: readonly string[];
}

/**
 * A shape profile's declaration: a gateway that keeps every rule of the spec and differs only where the spec is silent,
 * and the truth a correct discovery (target/discover/) must find against it.
 */
export interface ShapeChange {
  /** What differs, in words. */
  readonly change: string;
  /** How payload records are spelled (sandbox/shaping.ts); none when only paths, paging or funds differ. */
  readonly payload?: PayloadShape;
  readonly truth: {
    /** The field mapping (only the keys that differ from api/field-mapping.ts's defaults). */
    readonly fieldMapping: FieldMappingOverrides;
    /** The write paths (only those that differ from the catalog's assumed paths). */
    readonly writePaths: Readonly<Record<string, string>>;
    /** What the gift card list's next / next_cursor mean (behaviour.giftcardCursorMeaning). */
    readonly giftcardCursorMeaning: 'next-start' | 'last-of-page' | 'page-count';
  };
}

/** Operations whose answers a relay holds (sandbox/relay-hold.ts), and the longest hold (sandbox ms, × time scale). */
export interface RelayHoldPlan {
  readonly operations: readonly string[];
  readonly boundMs: number;
}

export interface SandboxProfile {
  name: string;
  description: string;
  plantedBug?: PlantedBug;
  /** Set on bug-gen-* profiles: a bug only GEN (conformance/gen/) finds (conformance/gen/gen-proof.test.ts). */
  genBug?: GenBug;
  /** Set on benign-* profiles: the whole conformance plan must pass against them (conformance/benign-profiles.test.ts). */
  benign?: BenignChange;
  /** Set on faults-* profiles: a seeded fraction of requests get a fault (sandbox/faults.ts). */
  faults?: FaultPlan;
  /** Answers held in a relay while other requests are in flight (sandbox/relay-hold.ts): spec-neutral latency. */
  relayHold?: RelayHoldPlan;
  catalog?: CatalogAdditions;
  behaviour?: BehaviourOverride;
  hooks?: ProfileHooks;
  /** Set on shape-* profiles: a spec-keeping gateway shaped otherwise where the spec is silent (profiles/shapes.ts). */
  shape?: ShapeChange;
  /** Operation id -> path of the writes whose path the spec does not show (the `writePaths` option overrides these). */
  writePaths?: Readonly<Record<string, string>>;
  /** Set on corrupt-* profiles: a seeded fraction of an operation's successful payloads broken one way each (sandbox/corruption.ts). */
  corruptions?: readonly PayloadCorruption[];
}
