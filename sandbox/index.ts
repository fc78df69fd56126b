// Public surface of the embedded sandbox: build it in-process or start it on a socket, its behaviour and profiles.
// Other rooms (conformance, CLI, bench) import from here rather than from the sandbox's internal modules.
export { buildApp, DEFAULT_BODY_LIMIT_BYTES, STATS_PATH } from './app.ts';
export type { SandboxApp, SandboxOptions, ResolvedSandboxOptions } from './app.ts';
export { startSandbox, DEFAULT_HOST, isLoopbackHost } from './server.ts';
export type { RunningSandbox, StartSandboxOptions } from './server.ts';
export { DEFAULT_BEHAVIOUR, DEFAULT_FUNDS, LOAD_SANDBOX_FUNDS, SPEC_TRIGGERS, mergeBehaviour, checkBehaviour } from './behaviour.ts';
export type { SandboxBehaviour, BehaviourOverride, TriggerRule, TriggerMatch, TriggerEffect, AsyncPurpose } from './behaviour.ts';
export { DEFAULT_RESPONSE_CODES, errorCodeList } from './error-codes.ts';
export type { ResponseCodeKey, ResponseCodeEntry, ResponseCodeTable, ErrorCodeRecord } from './error-codes.ts';
export { addProfiles, getProfile, listProfiles } from './profiles/registry.ts';
export type { SandboxProfile, PlantedBug, BenignChange, CatalogAdditions, ShapeChange } from './profiles/types.ts';
export type { ProfileHooks, ProfileRequest, ProfileEnvelopeContext, EnvelopeChange } from './profiles/hooks.ts';
export { BENIGN_PROFILES, VERSIONING_RULE_3 } from './profiles/benign.ts';
export { SHAPE_PROFILES, OTHER_WRITE_PATHS, mappingOfShape } from './profiles/shapes.ts';
export type { PayloadShape } from './shaping.ts';
export { FAULT_PROFILES, DEFAULT_FAULT_RATE, DEFAULT_FAULT_SLOW_MS, STATUS_OPERATIONS } from './profiles/faults.ts';
export { FAULT_HEADER, PLANNED_FAULT_KINDS } from './faults.ts';
export type { FaultPlan, PlannedFaultKind } from './faults.ts';
export { SandboxStats, UNMATCHED } from './stats.ts';
export type { StatsSnapshot, CountedFault } from './stats.ts';
export { SandboxStore, TRANSACTION_KINDS } from './store.ts';
export type { StoredTransaction, TransactionKind } from './store.ts';
export type { Envelope } from './envelope.ts';
export { generateSandboxData, SAMPLE_LOAN_NUMBERS } from './data/index.ts';
export type { SandboxData, SandboxSamples } from './data/index.ts';
