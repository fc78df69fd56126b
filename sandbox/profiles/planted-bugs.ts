// Planted-bug profiles: each breaks exactly one documented rule so the conformance meta-test can prove a case fires.
// Owned by the conformance suite (it fills this list); the sandbox only imports it into the profile registry.
import type { SandboxProfile } from './registry.ts';

export const PLANTED_BUG_PROFILES: SandboxProfile[] = [];
