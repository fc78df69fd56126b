// Public surface of the embedded sandbox: build it in-process or start it on a socket, its behaviour and profiles.
// Other rooms (conformance, CLI, bench) import from here rather than from the sandbox's internal modules.
export { buildApp, DEFAULT_BODY_LIMIT_BYTES } from './app.ts';
export type { SandboxApp, SandboxOptions, ResolvedSandboxOptions } from './app.ts';
export { startSandbox, DEFAULT_HOST, isLoopbackHost } from './server.ts';
export type { RunningSandbox, StartSandboxOptions } from './server.ts';
export { DEFAULT_BEHAVIOUR, SPEC_TRIGGERS, mergeBehaviour, checkBehaviour } from './behaviour.ts';
export type { SandboxBehaviour, BehaviourOverride, TriggerRule, TriggerMatch, TriggerEffect, AsyncPurpose } from './behaviour.ts';
export { DEFAULT_RESPONSE_CODES, errorCodeList } from './error-codes.ts';
export type { ResponseCodeKey, ResponseCodeEntry, ResponseCodeTable, ErrorCodeRecord } from './error-codes.ts';
export { getProfile, listProfiles } from './profiles/registry.ts';
export type { SandboxProfile, ProfileHooks, ProfileRequest, ProfileEnvelopeContext, PlantedBug } from './profiles/registry.ts';
export { SandboxStore } from './store.ts';
export type { StoredTransaction, TransactionKind } from './store.ts';
export type { Envelope } from './envelope.ts';
export { generateSandboxData, SAMPLE_LOAN_NUMBERS } from './data/index.ts';
export type { SandboxData, SandboxSamples } from './data/index.ts';
