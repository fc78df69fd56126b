// Named behaviour profiles selected when the sandbox starts: faithful, slow, benign changes, faults and planted bugs.
// A profile is data (behaviour overrides, catalog additions, a fault plan) plus optional hooks on requests and envelopes.
import { HarnessError } from '../../api/errors.ts';
import type { BehaviourOverride } from '../behaviour.ts';
import type { FaultPlan } from '../faults.ts';
import { BENIGN_PROFILES } from './benign.ts';
import { FAULT_PROFILES } from './faults.ts';
import { PLANTED_BUG_PROFILES } from './planted-bugs.ts';
import { GEN_BUG_PROFILES } from './gen-bugs.ts';
import { CONTRACT_CHANGE_PROFILES } from './contract-changes.ts';
import { PARAMETERIZED_PROFILES } from './parameterized.ts';
import { PAYLOAD_CORRUPTION_PROFILES } from './payload-corruptions.ts';
import type { PayloadCorruption } from '../corruption.ts';

/** What a request hook sees; it may mutate query, headers and body before authentication and validation. */
export interface ProfileRequest {
  /** Undefined when no catalog operation matches (unknown path). */
  operationId?: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** What an envelope hook sees: every response the sandbox sends, business or not (401, 404, 413, ...). */
export interface ProfileEnvelopeContext {
  /** '' when no catalog operation matches. */
  operationId: string;
  query: Record<string, string>;
  body: unknown;
  headers: Record<string, string | undefined>;
  /** A private copy: mutate it or return a replacement. */
  envelope: Record<string, unknown>;
  httpStatus: number;
}

/** What an envelope hook may change: the envelope, the HTTP status, and response headers to add or replace. */
export interface EnvelopeChange {
  envelope?: Record<string, unknown>;
  httpStatus?: number;
  headers?: Readonly<Record<string, string>>;
}

export interface ProfileHooks {
  onRequest?(req: ProfileRequest): void;
  /** `headers` adds or replaces response headers (benign profiles; contract-change profiles start or stop sending one). */
  onEnvelope?(ctx: ProfileEnvelopeContext): EnvelopeChange | void;
}

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
  catalog?: CatalogAdditions;
  behaviour?: BehaviourOverride;
  hooks?: ProfileHooks;
  /** Set on corrupt-* profiles: a seeded fraction of an operation's successful payloads broken one way each (sandbox/corruption.ts). */
  corruptions?: readonly PayloadCorruption[];
}

const BUILT_IN: readonly SandboxProfile[] = [
  { name: 'faithful', description: 'The documented behaviour, with the assumed defaults of sandbox/README.md (default).' },
  {
    name: 'slow',
    description: 'Faithful, but every response waits an extra 300 ms (scaled by the time scale) to exercise client timeouts.',
    behaviour: { responseLatencyMs: 300 },
  },
];

function allProfiles(): readonly SandboxProfile[] {
  return [...BUILT_IN, ...BENIGN_PROFILES, ...FAULT_PROFILES, ...PLANTED_BUG_PROFILES, ...GEN_BUG_PROFILES, ...CONTRACT_CHANGE_PROFILES, ...PAYLOAD_CORRUPTION_PROFILES];
}

export function listProfiles(): SandboxProfile[] {
  return [...allProfiles()];
}

/** The named profile; an unknown name is a configuration error listing the known names. */
export function getProfile(name: string): SandboxProfile {
  const profiles = allProfiles();
  const found = profiles.find((profile) => profile.name === name);
  if (found !== undefined) return found;
  // Profiles whose name carries parameters (parameterized.ts) are made on demand, each use its own object.
  for (const family of PARAMETERIZED_PROFILES) {
    const made = family.make(name);
    if (typeof made === 'string') throw new HarnessError('GH_ERR_CONFIG', `sandbox profile '${name}': ${made}`);
    if (made !== undefined) return made;
  }
  const usages = PARAMETERIZED_PROFILES.map((f) => f.usage).join(', ');
  throw new HarnessError('GH_ERR_CONFIG', `unknown sandbox profile '${name}' (known: ${profiles.map((p) => p.name).join(', ')}, ${usages})`);
}
