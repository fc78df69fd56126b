// Named behaviour profiles selected when the sandbox starts: faithful, slow, benign changes, faults, contract changes,
// corruptions, and the profiles a room above adds by name (conformance's planted bugs: conformance/proof/planted-bugs.ts).
import { HarnessError } from '../../api/errors.ts';
import { BENIGN_PROFILES } from './benign.ts';
import { FAULT_PROFILES } from './faults.ts';
import { CONTRACT_CHANGE_PROFILES } from './contract-changes.ts';
import { PARAMETERIZED_PROFILES } from './parameterized.ts';
import { PAYLOAD_CORRUPTION_PROFILES } from './payload-corruptions.ts';
import { SHAPE_PROFILES } from './shapes.ts';
import type { SandboxProfile } from './types.ts';

const BUILT_IN: readonly SandboxProfile[] = [
  { name: 'faithful', description: 'The documented behaviour, with the assumed defaults of sandbox/README.md (default).' },
  {
    name: 'slow',
    description: 'Faithful, but every response waits an extra 300 ms (scaled by the time scale) to exercise client timeouts.',
    behaviour: { responseLatencyMs: 300 },
  },
];

/** Profiles added by the rooms that own them (addProfiles), after the sandbox's own. */
const ADDED: SandboxProfile[] = [];

function allProfiles(): readonly SandboxProfile[] {
  return [
    ...BUILT_IN,
    ...BENIGN_PROFILES,
    ...FAULT_PROFILES,
    ...ADDED,
    ...CONTRACT_CHANGE_PROFILES,
    ...PAYLOAD_CORRUPTION_PROFILES,
    ...SHAPE_PROFILES,
  ];
}

/**
 * Makes profiles that a room above the sandbox owns selectable by name, like the sandbox's own: the planted bugs live
 * with the conformance proof that uses them, and the CLI adds them at start (scripts/cli.ts), so `--sandbox-profile bug-*`
 * works for every command. The sandbox cannot import them (conformance/ imports sandbox/, never the other way).
 * Adding the same profile again does nothing; another profile under a name already taken is a programming error.
 */
export function addProfiles(profiles: readonly SandboxProfile[]): void {
  for (const profile of profiles) {
    const taken = allProfiles().find((known) => known.name === profile.name);
    if (taken === profile) continue;
    if (taken !== undefined) throw new Error(`sandbox profile '${profile.name}' is already defined`);
    ADDED.push(profile);
  }
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
  throw new HarnessError(
    'GH_ERR_CONFIG',
    `unknown sandbox profile '${name}' (known: ${profiles.map((p) => p.name).join(', ')}, ${usages})`,
  );
}
