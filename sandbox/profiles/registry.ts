// Named behaviour profiles selected when the sandbox starts: the faithful default, a slow one, and planted bugs.
// A profile is data (behaviour overrides) plus optional hooks that see every request and every envelope.
import { HarnessError } from '../../api/errors.ts';
import type { BehaviourOverride } from '../behaviour.ts';
import { PLANTED_BUG_PROFILES } from './planted-bugs.ts';
import { CONTRACT_CHANGE_PROFILES } from './contract-changes.ts';

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

export interface ProfileHooks {
  onRequest?(req: ProfileRequest): void;
  /** `headers` adds response headers (contract-change profiles: a header the gateway starts or stops sending). */
  onEnvelope?(ctx: ProfileEnvelopeContext): { envelope?: Record<string, unknown>; httpStatus?: number; headers?: Record<string, string> } | void;
}

export interface PlantedBug {
  /** The spec rule the profile breaks, quoted. */
  rule: string;
  specSection: string;
  /** Conformance case ids that must fail against this profile. */
  expectedFailingCases: string[];
}

export interface SandboxProfile {
  name: string;
  description: string;
  plantedBug?: PlantedBug;
  behaviour?: BehaviourOverride;
  hooks?: ProfileHooks;
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
  return [...BUILT_IN, ...PLANTED_BUG_PROFILES, ...CONTRACT_CHANGE_PROFILES];
}

export function listProfiles(): SandboxProfile[] {
  return [...allProfiles()];
}

/** The named profile; an unknown name is a configuration error listing the known names. */
export function getProfile(name: string): SandboxProfile {
  const profiles = allProfiles();
  const found = profiles.find((profile) => profile.name === name);
  if (found === undefined) {
    throw new HarnessError('GH_ERR_CONFIG', `unknown sandbox profile '${name}' (known: ${profiles.map((p) => p.name).join(', ')})`);
  }
  return found;
}
